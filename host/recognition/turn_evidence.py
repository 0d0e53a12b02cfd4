"""What the hands did this turn, and what it proves about the move being played.

A final board that stays is proof enough (host/recognition/recogniser.py times it). The
proofs here are for hands that do not wait: the next player starting while the
move's board is still fresh, or already landing a piece on top of it. Each asks
for evidence a sensor board really has: which squares were emptied and filled
this turn and when, which moves' pieces were seen standing on their
destination, which moves were underway in the hand. An opponent's lift before
the mover's piece came down is a touch, never a start; a piece put down at the
very moment of a lift is a knock or a slide, never a reply.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Move
from host.recognition.finished import MoveFinished, _replies_of
from host.recognition.hand_paths import diagonal_steps, neighbours
from host.recognition.still_board import StillBoard
from host.recognition.timing import BRUSH, SLIDE, STEP, TOGETHER
from host.recognition.turn_boards import Reading, TurnBoards


def _acted(reply: Reading) -> set[int]:
    """The squares a reading of the next player's turn has their hands change: the
    pieces lifted to move, and the captured pieces taken off."""
    if reply.kind == "final" and reply.move is not None:
        return {reply.move.origin, *reply.move.captures}
    return {sq for p in reply.found for sq in ({p.move.origin} if p.lifted else set()) | p.removed}


class TurnEvidence(StillBoard, MoveFinished):
    """The evidence gathered during one turn (`turn`), for the proofs by reply.

    `lifted_at` and `placed_at` (square -> last time) outlive the turn: a reply's
    lift just before the commit is still "a moment ago" in the next turn."""

    def __init__(
        self,
        turn: TurnBoards,
        emptied: Iterable[int],
        lifted_at: dict[int, float],
        placed_at: dict[int, float],
        colour_lifts: dict[str, tuple[float, int]],
        filled: Iterable[int] = (),
    ) -> None:
        self.turn = turn
        self.lifted_at = lifted_at
        self.placed_at = placed_at
        #: colour -> when and where a piece of that colour (maybe) was last lifted
        self.colour_lifts = colour_lifts
        #: squares emptied / filled at some moment this turn (those already so when the
        #: turn starts included: a blitz reply may have landed before its move counted)
        self.emptied: set[int] = set(emptied)
        #: the squares already empty when the turn began, and when each was last left
        #: then (a move's piece lifted in the turn before: blitz)
        self.empty_at_start = frozenset(self.emptied)
        self.lifted_before = dict(lifted_at)
        self.placed_before = dict(placed_at)
        #: every change this turn, in order: (time, square, put down?) (`placed_at` and
        #: `lifted_at` keep only the last of each square)
        self.changes: list[tuple[float, int, bool]] = []
        self.filled: set[int] = set(filled)
        self.filled_at_start = frozenset(self.filled)
        #: moves whose piece was seen on its destination since the board last showed
        #: the position (a reply landing on top of one of them proves it), and when first
        #: (the square may be filled again later: the reply's piece sliding over it)
        self.reached: dict[Move, float] = {}
        #: the moves underway when the piece was last seen in the hand, and when a
        #: board that means nothing followed (a reply seen a scan before the landing)
        self.in_hand: tuple[list[Move], float | None] | None = None
        #: the next player's pieces whose lift this turn read as a captured piece taken
        #: off (the board still meant the move underway), and when
        self.taken_off: dict[int, float] = {}
        self._after: dict[Move, TurnBoards] = {}
        self._after_replies: dict[tuple[Move, Move], TurnBoards] = {}
        self._landed_before_the_turn()

    def _landed_before_the_turn(self) -> None:
        """Moves of this turn whose piece already left its square and came down on its
        destination before the turn began: blitz, the player landing while the last
        move still waited to count. Their piece was seen there as much as if it had
        landed now (the next player's start may prove them)."""
        for move in self.turn.moves:
            if move.origin not in self.emptied or move.destination not in self.filled:
                continue
            left, down = self.lifted_at.get(move.origin), self.placed_at.get(move.destination)
            if left is not None and down is not None and left <= down:
                self.reached.setdefault(move, down)

    # -- recording ---------------------------------------------------------------------

    def record(self, now: float, lifted: frozenset[int], placed: frozenset[int]) -> None:
        self.emptied |= lifted
        self.filled |= placed
        for square in lifted:
            self.lifted_at[square] = now
            self.changes.append((now, square, False))
        self.changes.extend((now, square, True) for square in placed)
        for square in placed:
            self.placed_at[square] = now

    def changed_at(self, now: float, *, down: bool) -> set[int]:
        """The squares filled (`down`) or emptied at `now`, the latest change."""
        squares: set[int] = set()
        for t, square, placed in reversed(self.changes):
            if t != now:
                break
            if placed == down:
                squares.add(square)
        return squares

    def note(self, reading: Reading, now: float, touched: frozenset[int] = frozenset()) -> None:
        """The board as read in this turn (not as a move going on or a reply), with
        the next player's pieces `touched` (lifted) if so read."""
        if reading.kind == "expected" and not touched:
            # Back as it was: whatever landed went back. (With a piece of the next
            # player's off, a square refilled may be their capturer touching down.)
            self.reached.clear()
        for move in reading.landed():
            # (a king capture back on its own square only if the king ever left it)
            if move.origin != move.destination or move.origin in self.emptied:
                self.reached.setdefault(move, now)
        if reading.kind in ("progress", "final"):
            removed = {sq for p in reading.found for sq in p.removed}
            if reading.move is not None:
                removed |= reading.move.captures
            for square in self.changed_at(now, down=False) & (removed - touched):
                self.taken_off[square] = now
        moves = reading.in_hand()
        if moves:
            self.in_hand = (moves, None)
        elif reading.kind != "unknown":
            self.in_hand = None
        elif self.in_hand is not None and self.in_hand[1] is None:
            self.in_hand = (self.in_hand[0], now)  # the hand left its moves just now

    # -- the turn after a move -------------------------------------------------------------

    def after(self, move: Move) -> TurnBoards:
        """The boards of the turn after `move` (cached for this turn)."""
        turn = self._after.get(move)
        if turn is None:
            turn = TurnBoards(self.turn.position.play(move), self.turn.expected)
            self._after[move] = turn
        return turn

    def read_after(self, move: Move, board: frozenset[int]) -> tuple[Reading, frozenset[int]]:
        """`board` in the turn after `move`: as it is, or else with the move's captured
        pieces still standing read as forgotten (left on the board). Returns the
        reading and the captured pieces it reads as left."""
        after = self.after(move)
        standing = move.captures & board
        # A captured piece that stood there before the mover started is surely still there
        # (one lifted and put back before, the last move going on, included); a captured
        # square filled again since may hold the next player's landing piece.
        started = self.lifted_at.get(move.origin, float("-inf")) - TOGETHER
        left = frozenset(sq for sq in standing if self.placed_at.get(sq, started - 1) < started)
        # (the move's own piece gone from its square is no touch: lifted again, or taken)
        keep = frozenset({move.destination})
        reading, _ = after.read_touched(board - left, keep)
        for more in (standing - self.emptied, standing):
            if reading.kind != "unknown" or more == left:
                continue
            left = more
            reading, _ = after.read_touched(board - left, keep)
        if reading.kind == "unknown" and move.destination not in board:
            # ... unless the next player's piece has already landed: only a finished move
            # lets it land, so the mover lifting their piece again is their next move
            # starting early (blitz), a touch in the reply's turn.
            again, _ = after.read_touched(board - left)
            if again.landed():
                return again, left
        return reading, left

    # -- proofs ------------------------------------------------------------------------------

    def proved_by_reply(
        self,
        before: Reading,
        board: frozenset[int],
        now: float,
        lifted: frozenset[int],
        placed: frozenset[int],
    ) -> tuple[Move, frozenset[int], bool] | None:
        """The move this change proves finished: its piece stands on its destination
        (landed before, or together with the next player's first change) and the next
        player has started. `before` is the previous reading in this turn. Returns the
        move, its captured pieces read as left, and whether the start is in doubt (see
        `_next_player_started`). None unless exactly one move fits."""
        changes = lifted | placed
        candidates = [(m, changes) for m in before.landed()]
        # Landing now: the next player's first change may have been seen a scan or two
        # earlier (a switch still chattering): landing and reply are one moment.
        together = changes | {
            sq for sq, t in self.lifted_at.items() if now - t <= TOGETHER and sq not in placed
        }
        in_hand = before.in_hand()
        if before.kind == "unknown" and self.in_hand is not None:
            moves, left_at = self.in_hand
            if left_at is not None and now - left_at <= TOGETHER:
                in_hand = moves  # the board meant nothing for that moment
        candidates += [(m, together) for m in in_hand if m.destination in placed]
        if not candidates or self.turn.read(board).kind != "unknown":
            return None
        proved = {}
        for move, work in candidates:
            if not self.carried(move, self.placed_at.get(move.destination, now)):
                continue  # slid there a moment after leaving its square: a knock
            started = self._next_player_started(move, board, work)
            if started is not None:
                proved[move] = started
        if len(proved) != 1:
            return None
        move, (left, doubtful) = next(iter(proved.items()))
        if self._also_explained(move, board) or self._another_route_took(move, board, lifted):
            return None  # the evidence fits two moves: neither is proved
        return move, left, doubtful

    def _also_explained(self, move: Move, board: frozenset[int]) -> bool:
        """Does another move whose piece was seen on its destination explain `board`
        too, with the next player's move (or a reply and the start of the one after)
        underway on top of it? E.g. a king rested on 6, then 6 emptied as the opponent
        lifted a man and a piece came down on 10: "the king went on to 10" and "the
        king stopped on 6 and was captured landing on 10" fit the same switches.
        Another capture from the same square to the same square (another route, other
        pieces taken) was seen landing as much as `move` was, even where the board was
        read as `move` alone (the next player touching a piece only `move` takes)."""
        for other in dict.fromkeys([*self.reached, *self.turn.other_routes(move)]):
            if other == move:
                continue
            reading, _ = self.read_after(other, board)
            if reading.kind == "unknown":
                reading = self._reply_then_start(other, board)
            if reading.kind in ("final", "progress"):
                return True
        return False

    def _next_player_started(
        self, move: Move, board: frozenset[int], changes: set[int] | frozenset[int]
    ) -> tuple[frozenset[int], bool] | None:
        """Do `changes` show the next player starting after `move`? Returns the
        captured pieces read as left on the board, and whether the start is in doubt
        (only lifts that may be a shove onto a neighbouring square: a piece they capture
        taken off in the scan the move landed looks the same as a knocked one), else
        None."""
        if move.destination not in board:
            return None  # not standing on its destination: maybe lifted again
        if set(changes) & (board - self.turn.expected) - {move.destination}:
            return None  # a piece put down at once is a knock or a slide, not a start
        # Their first change: one of the pieces of the position after the move lifted
        # (one of theirs, or one of the mover's they capture). A piece that may have
        # been shoved onto a neighbouring square (the move's own included) may be a knock.
        after = self.after(move)
        work = (set(changes) & after.expected) - {move.destination} - move.captures
        sure = {sq for sq in work if not self.shoved(sq, board)}
        if not work:
            return None  # nothing of the next player's in this change
        reading, left = self.read_after(move, board)
        if reading.kind in ("progress", "final"):
            acted = _acted(reading)
            if sure & acted:
                return left, False
            if work & acted:
                return left, True
            return None  # what changed is no part of the reply read (a knock, a touch)
        if not sure:
            return None
        # One of their pieces lifted that has no move (a capture is theirs to make).
        left = move.captures & board
        rest = board - left
        gone = after.expected - rest
        if len(gone) == 1 and not rest - after.expected:
            piece = after.position.piece_at(next(iter(gone)))
            if piece is not None and piece.color == after.position.turn:
                return left, False
        return None

    def reply_underway(self, board: frozenset[int]) -> tuple[Move, Reading, frozenset[int]] | None:
        """A move whose piece was seen on its destination, with the next player's move
        underway on top of it (reading, captured pieces left); the only such move."""
        found = []
        for move in self.reached:
            reading, left = self.read_after(move, board)
            if reading.kind == "unknown":
                reading, left = self._reply_then_start(move, board), frozenset()
            if (
                reading.kind in ("final", "progress")
                and self._answers(move, reading)
                and not self._shoved_down(reading)
            ):
                found.append((move, reading, left))
        if not found:
            # A move whose piece was never seen landing: the next player took it off in
            # the very scan it came down, and their capturer has landed since (the only
            # such move, or none).
            found = self._taken_unseen(board)
            return found[0] if len(found) == 1 else None
        if len(found) > 1:
            found = self._off_the_replys_way(found)
        if len(found) > 1:
            found = self._stopped_last(found)
        if len(found) != 1 or self._came_down_after_reply(found[0][0], found[0][1]):
            return None
        return found[0]

    def _taken_unseen(self, board: frozenset[int]) -> list[tuple[Move, Reading, frozenset[int]]]:
        """Moves whose landing no switch saw, with the next player's capture of that
        piece landed on top (see `reply_underway`)."""
        found = []
        for move in self.unseen(board):
            reading, left = self.read_after(move, board)
            if (
                reading.kind in ("final", "progress")
                and move.destination in _acted(reading)
                and self._answers(move, reading)
                and not self._shoved_down(reading)
                and self.reply_landed(reading, float("inf"))
            ):
                found.append((move, reading, left))
        return found

    def taken_by(self, move: Move, reply: Reading) -> float | None:
        """If the reply takes `move`'s piece and no switch saw that piece land before the
        reply's piece left its square (`_unseen_before`: a square filled after that is
        the taker passing over it), when the reply's piece left: the move was finished
        then. Else None."""
        takers = [r for r in _replies_of(reply) if move.destination in r.captures]
        times = [self._left_at(r.origin) for r in takers if self._unseen_before(move, r)]
        return min(times, default=None)

    def unseen(self, board: frozenset[int]) -> list[Move]:
        """Moves of this turn whose piece left its square and was never seen on its
        destination (not filled this turn, empty now). A piece the next player takes
        off in the very scan it lands never shows: only their capture tells where it
        went (`landed_unseen`)."""
        return [
            m
            for m in self.turn.moves
            if m.origin in self.emptied and self.landed_unseen(m) and m.destination not in board
        ]

    def landed_unseen(self, move: Move) -> bool:
        """Was `move`'s destination never filled this turn (its landing, if it was
        made, unseen)?"""
        return move.destination not in self.filled and move.destination != move.origin

    def _reply_then_start(self, move: Move, board: frozenset[int]) -> Reading:
        """Blitz both ways: the next player's reply to `move` is finished (its piece seen
        to leave its square and to land on its destination) and the player after has
        already started (a piece their capture takes off, or one lifted). Read as that
        reply's final board when exactly one reply explains `board` so."""
        after = self.after(move)
        found = [
            reply
            for reply in after.moves
            if reply.destination in board & self.filled
            and reply.origin in self.emptied - board
            and self._after_reply(move, reply).read(board).kind == "progress"
        ]
        return Reading("final", move=found[0]) if len(found) == 1 else Reading("unknown")

    def _after_reply(self, move: Move, reply: Move) -> TurnBoards:
        """The boards of the turn after `move` and `reply` (cached for this turn)."""
        turn = self._after_replies.get((move, reply))
        if turn is None:
            after = self.after(move)
            turn = TurnBoards(after.position.play(reply), after.expected)
            self._after_replies[(move, reply)] = turn
        return turn

    def shoved(self, square: int, board: frozenset[int]) -> bool:
        """May the piece that left `square` have been shoved onto a diagonal neighbour,
        one filled within SLIDE after it left (or a moment before its switch was seen
        to open: it chattered) and standing now? A hand carrying a piece needs longer:
        that piece is a knock, wherever it stands (the moving piece's landing square
        included, filled in the same scan)."""
        left = self.lifted_at.get(square)
        if left is None or square in board or self.brushed(square):
            return False
        for near in neighbours(self.turn.position.variant, square):
            down = self.placed_at.get(near) if near in board else None
            if down is not None and -TOGETHER <= down - left <= SLIDE:
                return True
        return False

    def carried(self, move: Move, now: float) -> bool:
        """Could a hand have carried `move`'s piece from its square to land now? One
        that lands within a moment of leaving its square was pushed (a knock)."""
        return self.carried_from(move.origin, now)

    def carried_from(self, square: int, now: float) -> bool:
        """Could a hand have carried the piece last lifted from `square` before `now`
        to land now? Not if it came down within SLIDE of leaving a square it stood on,
        or a moment before that square was seen empty (its switch chattered); a piece
        that only brushed that square was in a hand already, sliding on."""
        lifted = self._last_change(square, now + TOGETHER, down=False)
        return lifted is None or now - lifted >= SLIDE or self.brushed(square, lifted)

    def brushed(self, square: int, lifted: float | None = None) -> bool:
        """Did the piece lifted from `square` (at `lifted`, default its last lift) only
        pass over it (down there for less than BRUSH)?"""
        lifted = self.lifted_at.get(square) if lifted is None else lifted
        placed = None if lifted is None else self._last_change(square, lifted, down=True)
        return lifted is not None and placed is not None and lifted - placed < BRUSH

    def _last_change(self, square: int, when: float, *, down: bool) -> float | None:
        """When `square` was last filled (`down`) or emptied at or before `when`: this
        turn's changes, else the last one before the turn."""
        found = None
        for t, sq, placed in self.changes:
            if t > when:
                break
            if sq == square and placed == down:
                found = t
        if found is not None:
            return found
        last = (self.placed_at if down else self.lifted_at).get(square)
        if last is not None and last <= when:
            return last
        if not down:
            before = self.lifted_before.get(square)
            return before if before is not None and before <= when else None
        return None

    def _shoved_down(self, reply: Reading) -> bool:
        """Does `reply` have the next player's piece down on a square it reached within
        SLIDE of leaving its own (shoved, not carried: no reply)?"""
        placed = self.placed_at
        if reply.kind == "final" and reply.move is not None:
            down = placed.get(reply.move.destination)
            return down is not None and not self.carried(reply.move, down)
        return any(
            p.lifted
            and p.at is not None
            and (down := placed.get(p.path[p.at])) is not None
            and not self.carried(p.move, down)
            for p in reply.found
        )

    def reply_landed(self, reply: Reading, now: float) -> bool:
        """Has the reply's piece been carried down onto a square (its final board, or a
        touch-down on its way)? Judged when that square filled, not now: a piece put
        down in the very scan its square was left (a knock sliding on) stays no reply
        however long it then stands."""
        placed = self.placed_at
        if reply.kind == "final" and reply.move is not None:
            return self.carried(reply.move, placed.get(reply.move.destination, now))
        return any(
            p.lifted and p.at is not None and self.carried(p.move, placed.get(p.path[p.at], now))
            for p in reply.found
        )

    def mover_landed(self, reading: Reading, now: float) -> bool:
        """Does `reading` have the mover's piece landed on a square of its move, and
        could it have got there (see `could_reach`)?"""
        landed = reading.landed()
        return bool(landed) and self.could_reach(
            self.turn.position.turn, [m.destination for m in landed], now
        )

    def could_reach(self, colour: str, squares: Iterable[int], now: float) -> bool:
        """Could the piece of `colour` lifted last have come down on one of `squares`
        now? A piece put down a moment after that lift is another piece (no hand
        carries one across that fast), unless it slid along a diagonal (a king
        touching down a square further)."""
        lift = self.colour_lifts.get(colour)
        if lift is None:
            return True
        when, square = lift
        coords = self.turn.position.variant.square_coords
        return now - when >= TOGETHER or any(
            now - when >= STEP * diagonal_steps(coords(square), coords(sq)) for sq in squares
        )

