"""The recogniser: sensed occupancy in, committed moves and LED roles out.

It follows a game through the boards hands produce and commits a move only on
proof that it was carried out (DESIGN.md section 2, docs/play.md):

- its final board stayed still (host/timing.py: 0.25 s, or 0.55 s when the same
  board is also on the way to another move);
- or its piece stands on its destination and the next player has just started
  (lifted one of their own pieces, or taken off a piece they capture): a fast
  reply. Captured pieces the mover forgot stay lit `remove` and are followed
  through the next turns until they come off;
- or the next player's piece has already landed on a board that only that move
  and a reply explain.

An opponent's lifted piece is a touch until it goes somewhere: the mover's move
is read as if it were back. A knock or a touch is never proof. Where the
evidence fits two moves, nothing is committed and the lights guide.

With touch-move off (home play) a committed move stays open while the same piece
goes on to another legal result before the opponent acts: it is re-read
("move-corrected"). Time is passed in (`observe(now, occupied)`), never read, so
the live session and the deterministic replay run the very same code. No I/O:
the caller journals, announces and draws the returned events.

Where the rest lives: matching boards to moves in host/turn_boards.py, what
the hands did this turn and what it proves in host/turn_evidence.py, a move
that goes on in host/reread.py, which piece stands where in
host/piece_identity.py, what the lights say in host/guidance.py, the
thresholds in host/timing.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Game, Move, Outcome
from engine.position import Piece
from host.guidance import (
    correction_hint,
    end_hint,
    final_hint,
    idle_hint,
    progress_hint,
)
from host.hints import Hint, HintBuilder, filter_level
from host.piece_identity import PieceTracker
from host.reread import Reopened
from host.timing import BRUSH, CALM, EPS, GRACE, HOLD, SETTLE
from host.turn_boards import UNKNOWN, Progress, Reading, TurnBoards, explain
from host.turn_evidence import TurnEvidence

__all__ = [
    "CALM",
    "GRACE",
    "HOLD",
    "SETTLE",
    "Event",
    "Progress",
    "Recogniser",
    "explain",
]


@dataclass(frozen=True)
class Event:
    """Something that happened, for the session to journal, announce or print."""

    kind: str
    time: float
    data: dict[str, Any] = field(default_factory=dict)


class Recogniser:
    """Follows one game from occupancy snapshots (squares in the variant's numbering)."""

    def __init__(
        self,
        game: Game,
        *,
        hint_level: str = "full",
        start: float = 0.0,
        touch_move: bool = False,
    ) -> None:
        self.game = game
        self.variant = game.variant
        self.hint_level = hint_level
        #: True: a released piece has moved (FMJD, club play); False: a move that goes on
        #: before the opponent acts is re-read
        self.touch_move = touch_move
        self.coords = {
            sq: self.variant.square_coords(sq) for sq in range(1, self.variant.num_squares + 1)
        }
        self.initial = self.variant.initial_position().occupied()
        self.outcome: Outcome | None = None
        self.crown: int | None = None
        self._crown_lifted = False
        self.correcting = False
        #: captured pieces still on the board (forgotten), followed until they come off
        self.lingering: frozenset[int] = frozenset()
        self._lingering_pieces: dict[int, Piece] = {}
        #: squares lit "check the colours" after a correction the switches cannot confirm
        self.check: frozenset[int] = frozenset()
        self._block: frozenset[int] | None = None
        self._alerted = False
        self._last_move: Move | None = None
        self._reopened: Reopened | None = None
        self.sensed: frozenset[int] = frozenset()
        self.since = start
        self.reading: Reading = UNKNOWN
        self._source = "turn"  # "turn", "reread" (the last move going on) or "reply"
        #: when the source is "reply": the move whose piece was seen on its destination,
        #: its captured pieces read as left on the board, and the reply underway on top
        self._reply: tuple[Move, frozenset[int], Reading] | None = None
        self.hint = Hint()
        #: every frame shown since the caller last drained it (see `drain_frames`)
        self._frames: list[Hint] = []
        self._lifted_at: dict[int, float] = {}
        self._placed_at: dict[int, float] = {}
        self._colour_lifts: dict[str, tuple[float, int]] = {}
        self._new_turn()
        self.sensed = self.turn.expected
        self.evidence.emptied.clear()
        self.tracker = PieceTracker(self.game.position.pieces())
        self.tracker.turn(self.game.position.turn, self.turn.capturable)
        self._evaluate(start, [])

    # -- public ----------------------------------------------------------------

    @property
    def expected(self) -> frozenset[int]:
        """The squares the game says are occupied (forgotten captured pieces aside)."""
        return self.turn.expected

    def observe(self, now: float, occupied: frozenset[int]) -> list[Event]:
        """Feed one snapshot; returns what happened (maybe nothing)."""
        events: list[Event] = []
        occupied = frozenset(occupied)
        if occupied != self.sensed:
            lifted, placed = self.sensed - occupied, occupied - self.sensed
            self.sensed = occupied
            self.since = now
            for square in lifted:
                for colour in {p.color if p else None for p in self.tracker.pieces_at(square)}:
                    for c in (colour,) if colour else ("W", "B"):
                        self._colour_lifts[c] = (now, square)
            self.tracker.update(lifted, placed)
            self.lingering &= occupied  # a forgotten piece taken off is gone for good
            if self._block is not None and occupied != self._block:
                self._block = None
            if self.check and (lifted | placed) - self.check:
                self.check = frozenset()  # play goes on: the reminder has done its job
            self.evidence.record(now, lifted, placed)
            self._reply_lands(now, placed, events)
            proved = self._proved_by_reply(now, lifted, placed)
            if proved is not None:
                # A fast reply: the next player started before the board settled.
                move, left = proved
                missing = self.expected - self.sensed
                landed = self.evidence.placed_at.get(move.destination, now - BRUSH)
                if now - landed + EPS >= BRUSH:
                    self._commit(now, move, events, left=left, acted=missing, by_reply=True)
                else:
                    # Its piece touched the square only just now, and a brush on the way
                    # looks the same for a moment: it counts once the piece has stayed.
                    self._pending = (move, left, missing, landed + BRUSH)
            self._evaluate(now, events)
        self._timers(now, events)
        return events

    def drain_frames(self) -> list[Hint]:
        """The frames shown since the last call, in order (a frame may last no time at all,
        e.g. the start-of-turn frame when the reply had already begun)."""
        frames, self._frames = self._frames, []
        return frames

    def tick(self, now: float) -> list[Event]:
        """Let time pass with the board unchanged (settle timers)."""
        return self.observe(now, self.sensed)

    def next_deadline(self) -> float | None:
        """When a timer will fire if the board stays as it is, or None if it is at rest."""
        if self._block == self.sensed:
            return None
        if self._pending is not None:
            # While its piece is off its square again nothing is due: it may be a brush.
            move, _, _, due = self._pending
            return due if move.destination in self.sensed else None
        if self._two_ply_due is not None:
            return self._two_ply_due
        kind = self.reading.kind
        if kind == "final":
            return self.since + (HOLD if self.reading.on_the_way else SETTLE)
        if kind in ("takeback", "new-game"):
            return self.since + CALM
        if (
            kind == "unknown"
            and self._source == "turn"
            and not self.correcting
            and self.outcome is None
        ):
            return self.since + GRACE
        return None

    def take_back(self, now: float) -> list[Event]:
        """The `takeback` command: undo the last move; the board is then guided back."""
        events: list[Event] = []
        if not self.game.moves:
            events.append(Event("nothing-to-take-back", now))
            return events
        self._undo(now, events)
        self._block = self.sensed
        self._guide_now(now, events)
        return events

    def new_game(self, now: float, game: Game) -> list[Event]:
        """The `new` command (or the initial set-up found on the board)."""
        self.game = game
        self.outcome = None
        self.crown = None
        self.lingering = frozenset()
        self._lingering_pieces = {}
        self.check = frozenset()
        self._last_move = None
        self._new_turn()
        events = [Event("new-game", now, {"fen": game.fen(), "side": game.position.turn})]
        self._block = self.sensed if self.sensed != self.expected else None
        self._guide_now(now, events)
        return events

    def finish(self, now: float, winner: str | None, reason: str) -> list[Event]:
        """End the game by resignation or agreement."""
        self.outcome = Outcome(winner, reason)
        self._reopened = None
        events = [Event("outcome", now, {"winner": winner, "reason": reason})]
        self._evaluate(now, [])
        return events

    def set_hint_level(self, now: float, level: str) -> list[Event]:
        """Show more or less help from now on; the current frame is redrawn at once."""
        self.hint_level = level
        events: list[Event] = []
        if self.correcting and self.reading.kind not in ("expected", "progress"):
            self._show(self._correction_hint())
        else:
            self._evaluate(now, events)
        return events

    def resume(self, now: float) -> list[Event]:
        """After a restart: guide the board to the journal's position straight away."""
        events: list[Event] = []
        self.tracker.reset(self._known_pieces(), self.sensed, in_air=False)
        self._guide_now(now, events)
        return events

    # -- turn set-up -------------------------------------------------------------

    def _new_turn(self, turn: TurnBoards | None = None) -> None:
        previous = None
        if self.game.moves:
            positions = getattr(self.game, "positions", None)
            if positions and len(positions) >= 2:
                previous = positions[-2].occupied()
            else:
                last = self.game.pop()
                previous = self.game.position.occupied()
                self.game.push(last)
        if turn is None or turn.position != self.game.position:
            turn = TurnBoards(self.game.position, previous)
        else:
            turn.previous = previous
        self.turn = turn
        self.evidence = TurnEvidence(
            turn,
            turn.expected - self.sensed,
            self._lifted_at,
            self._placed_at,
            self._colour_lifts,
        )
        #: when an unexplained board is checked against two plies (a move and its reply)
        self._two_ply_due: float | None = None
        #: a move proved by a reply that waits for its piece to have stayed (move, captured
        #: pieces left, the next player's pieces in the air, when it counts)
        self._pending: tuple[Move, frozenset[int], frozenset[int], float] | None = None
        self._last_move = self.game.moves[-1] if self.game.moves else None
        self._alerted = False
        self.correcting = False
        self._reopened = None
        if self.outcome is None:
            self.outcome = self.game.outcome()
        if hasattr(self, "tracker"):
            self.tracker.reset(self._known_pieces(), self.sensed)
            self.tracker.turn(self.game.position.turn, turn.capturable)

    def _known_pieces(self) -> dict[int, Piece]:
        """The game's pieces and the forgotten captured ones still on the board."""
        pieces = dict(self.game.position.pieces())
        for square in self.lingering:
            pieces[square] = self._lingering_pieces[square]
        return pieces

    # -- reading a board ---------------------------------------------------------

    def _board(self) -> frozenset[int]:
        """The sensed board without the forgotten captured pieces (known extras)."""
        return self.sensed - self.lingering

    def _read_turn(self, board: frozenset[int]) -> tuple[Reading, frozenset[int]]:
        """The board in the current turn, reading the next player's lifted pieces as
        touches (back on their squares) when that is the only way to explain it.
        Returns the reading and the touched squares."""
        turn = self.turn
        if board == turn.expected:
            return Reading("expected"), frozenset()
        if turn.previous is not None and board == turn.previous:
            return Reading("takeback"), frozenset()
        if board == self.initial and (self.game.moves or turn.expected != self.initial):
            return Reading("new-game"), frozenset()
        if self.outcome is not None:
            return UNKNOWN, frozenset()
        return turn.read_touched(board)

    def _proved_by_reply(
        self, now: float, lifted: frozenset[int], placed: frozenset[int]
    ) -> tuple[Move, frozenset[int]] | None:
        if self.outcome is not None or self._block == self.sensed or self._source != "turn":
            return None
        return self.evidence.proved_by_reply(self.reading, self._board(), now, lifted, placed)

    def _reply_lands(self, now: float, placed: frozenset[int], events: list[Event]) -> None:
        """A reply was underway on top of a move seen on its destination, and one of the
        reply's pieces in the hand lands now: the move was finished. Commit it, so that
        this change is read in the reply's turn (where the one after may already start)."""
        if self._source != "reply" or self._reply is None:
            return
        move, left, reply = self._reply
        if self._movers_landing(self._read_turn(self._board())[0], now):
            return  # the mover's piece came down on a square of its own move: theirs
        landing = [m for m in reply.in_hand() if m.destination in placed or set(m.path) & placed]
        if any(self.evidence.carried(m, now) for m in landing):
            self._commit(now, move, events, left=left, by_reply=True)
            self.reading, self._source = reply, "turn"

    @staticmethod
    def _landings(reading: Reading) -> list[int]:
        """The squares where `reading` has a piece come down."""
        if reading.kind == "final" and reading.move is not None:
            return [reading.move.destination]
        return [p.path[p.at] for p in reading.found if p.lifted and p.at is not None]

    def _movers_landing(self, reading: Reading, now: float) -> bool:
        """Does `reading` land the mover's piece, plausibly (it could have got there in
        time, and the piece put down there is plausibly of the mover's colour)?"""
        if not self.evidence.mover_landed(reading, now):
            return False
        side = self.game.position.turn
        return all(
            self.tracker.plausible_colour(m.destination) in (None, side) for m in reading.landed()
        )

    # -- reacting to a new board ------------------------------------------------

    def _evaluate(self, now: float, events: list[Event]) -> None:
        board = self._board()
        turn = self.turn
        physical = turn.expected | self.lingering
        # The crowned man lifted to stack a king: not a move, just confirmation on return.
        if self.crown is not None and self.outcome is None:
            if self.sensed == physical - {self.crown}:
                self._crown_lifted = True
                self.reading, self._source = Reading("crowning"), "turn"
                self._show(self._idle_hint())
                return
            if self.sensed == physical and self._crown_lifted:
                events.append(Event("crown-confirmed", now, {"square": self.crown}))
                self.crown = None
                self._crown_lifted = False
        self._reply = None
        if self._pending is not None:
            move = self._pending[0]
            mine, _ = self._read_turn(board)
            if self._movers_landing(mine, now) and move not in mine.landed():
                self._pending = None  # its piece came down elsewhere: it was on its way
            elif self.turn.read(board).kind != "unknown":
                self._pending = None  # a plain board of this turn: settling takes over
            else:
                # Proved, waiting for its piece to have stayed (or for the reply to land).
                reply, left = self.evidence.read_after(move, board)
                self.reading, self._source = UNKNOWN, "reply"
                self._reply = (move, left, reply)
                if reply.kind in ("progress", "final"):
                    self._show(progress_hint(reply.found, self.lingering | left))
                return
        reading, touched = self._read_turn(board)
        source = "turn"
        if reading.kind in ("final", "progress") and self.tracker.contradicts(
            reading, turn.position
        ):
            reading, touched = UNKNOWN, frozenset()
        if reading.kind == "expected" and touched and self.correcting:
            reading = UNKNOWN  # putting the board right: their piece must come back too
        open_move = self._reopened
        reopened = open_move.read(self.sensed) if open_move else None
        if reopened is not None and open_move and (
            self.tracker.contradicts(reopened, open_move.turn.position)
            or (
                bool(self._landings(reopened))
                and not self.evidence.could_reach(open_move.mover, self._landings(reopened), now)
            )
        ):
            reopened = None
        if reopened is not None and open_move and (
            reading.kind == "unknown"
            or reopened.kind == "final"
            or self.tracker.hand_holds(open_move.mover)
        ):
            reading, source = reopened, "reread"
        elif open_move is not None and not open_move.still_open(board, turn.expected):
            self._reopened = None  # the opponent acted: the move stands
        # The next player's move is looked for when the board means nothing in this turn,
        # or only with their pieces read as touched and no piece of the mover landed.
        maybe_touch = reading.kind == "unknown" or (
            touched and not self._movers_landing(reading, now)
        )
        if source == "turn" and maybe_touch and self.outcome is None and self.evidence.reached:
            # Is the next player's move already underway on top of a move whose piece
            # was seen on its destination?
            underway = self.evidence.reply_underway(board)
            if underway is not None:
                move, reply, left = underway
                if self.evidence.reply_landed(reply, now):
                    # The next player's piece has landed: the move was surely finished.
                    self._commit(now, move, events, left=left, by_reply=True)
                    self._evaluate(now, events)
                    return
                side = self.game.position.turn
                next_player = "B" if side == "W" else "W"
                if reading.kind == "unknown" or self.tracker.hand_holds(next_player):
                    reading, source = UNKNOWN, "reply"
                    self._reply = (move, left, reply)
        self.reading, self._source = reading, source
        if source == "turn":
            self.evidence.note(reading, now)
        unexplained = reading.kind == "unknown" or (touched and not reading.landed())
        self._two_ply_due = (
            self.since + SETTLE
            if unexplained and source != "reread" and self.evidence.filled and not self.outcome
            else None
        )
        kind = reading.kind
        if kind != "unknown":
            self._alerted = False
        if self.outcome is not None and kind not in ("takeback", "new-game"):
            self._show(self._idle_hint())
        elif kind == "expected":
            if self.correcting:
                self.correcting = False
                self._board_right(now, events)
            self._show(self._idle_hint())
        elif kind in ("takeback", "new-game"):
            self._show(self._idle_hint())
        elif kind == "final":
            self._show(final_hint(reading, self.lingering))
        elif kind == "progress":
            self._show(progress_hint(reading.found, self.lingering))
        elif source == "reply" and self._reply is not None:
            self._show(progress_hint(self._reply[2].found, self.lingering | self._reply[1]))
        elif self.correcting:
            self._show(self._correction_hint())
        else:
            # Unrecognised but maybe still moving: keep the last frame, except when a
            # single piece is in the air that may not move (or is the opponent's): then
            # no destinations at all, and the capture alert if a capture is mandatory.
            missing = turn.expected - board
            if len(missing) == 1 and board < turn.expected:
                self._show(self._idle_hint())
            self._check_capture_alert(now, events)

    def _board_right(self, now: float, events: list[Event]) -> None:
        """The board matches the game again after a correction: say so, unless the
        switches cannot tell whose piece stands where (then ask to check the colours)."""
        target = dict(self.game.position.pieces())
        doubtful = self.tracker.doubtful(target)
        if doubtful:
            self.check = doubtful
            events.append(Event("check-colours", now, {"squares": sorted(doubtful)}))
        else:
            events.append(Event("board-ok", now))

    def _check_capture_alert(self, now: float, events: list[Event]) -> None:
        """Lifting a piece that may not move while a capture is mandatory: flash the
        pieces that must capture and say so, at once (no grace: the hand is in the air)."""
        turn = self.turn
        board = self._board()
        missing = turn.expected - board
        if (
            turn.must_capture
            and len(missing) == 1
            and not (board - turn.expected)
            and not missing <= turn.must_capture
        ):
            (sq,) = missing
            piece = self.game.position.piece_at(sq)
            if piece is not None and piece.color == self.game.position.turn:
                if not self._alerted:
                    self._alerted = True
                    events.append(
                        Event("capture-mandatory", now, {"squares": sorted(turn.must_capture)})
                    )
                self._show(
                    HintBuilder()
                    .add("remove", self.lingering)
                    .add("capture-alert", turn.must_capture, blink=True)
                    .build()
                )

    def _timers(self, now: float, events: list[Event]) -> None:
        deadline = self.next_deadline()
        if deadline is None or now + EPS < deadline:
            return
        if self._pending is not None:
            move, left, acted, _ = self._pending
            self._pending = None
            self._commit(now, move, events, left=left, acted=acted, by_reply=True)
            self._evaluate(now, events)
            return
        if self._two_ply_due is not None:
            self._two_ply_due = None
            pair = self.evidence.two_plies(self._board())
            if pair is not None:
                # A still board only a move and its reply explain: both were played.
                move, left = pair
                self._commit(now, move, events, left=left, by_reply=True)
                self._evaluate(now, events)
                self._two_ply_due = None
            elif self.next_deadline() is not None and now + EPS >= self.next_deadline():
                self._timers(now, events)
            return
        kind = self.reading.kind
        if kind == "final":
            assert self.reading.move is not None
            if self._source == "reread":
                self._correct(now, self.reading.move, events)
            else:
                touched = self.expected - self._board()  # the opponent's, if any
                self._commit(now, self.reading.move, events, acted=touched)
            self._evaluate(now, events)
        elif kind == "takeback":
            self._undo(now, events)
            self._evaluate(now, events)
        elif kind == "new-game":
            events.extend(self.new_game(now, type(self.game)(self.variant)))
            self._evaluate(now, events)
        elif kind == "unknown":
            self.correcting = True
            board = self._board()
            missing = sorted(self.turn.expected - board)
            extra = sorted(board - self.turn.expected)
            events.append(Event("illegal-board", now, {"missing": missing, "extra": extra}))
            self._show(self._correction_hint())

    # -- changing the game --------------------------------------------------------

    def _commit(
        self,
        now: float,
        move: Move,
        events: list[Event],
        *,
        left: frozenset[int] = frozenset(),
        acted: frozenset[int] = frozenset(),
        by_reply: bool = False,
    ) -> None:
        """Play `move`. `left`: its captured pieces still on the board (forgotten);
        `acted`: the next player's pieces already in the air."""
        before = self.game.position
        turn_before, lingering_before = self.turn, self.lingering
        text = before.move_text(move)
        side = before.turn
        after = self.evidence.after(move)
        self.game.push(move)
        left = left & self.sensed  # (one may have come off meanwhile)
        for square in left:
            self._lingering_pieces[square] = before.piece_at(square)  # type: ignore[assignment]
        self.lingering = self.lingering | left
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self._new_turn(after)
        if (not self.touch_move or by_reply) and self.outcome is None:
            theirs = frozenset(
                sq
                for sq in acted - move.captures
                if (p := before.piece_at(sq)) is not None and p.color != side
            )
            self._reopened = Reopened(turn_before, move, lingering_before, theirs)
        events.append(Event("move", now, self._move_data(text, side, move)))
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())  # the start of the new turn, however short
        self._announce_outcome(now, events)

    def _correct(self, now: float, move: Move, events: list[Event]) -> None:
        """The last move went on to `move` (same piece): replace it."""
        reopened = self._reopened
        assert reopened is not None
        was = reopened.turn.position.move_text(reopened.move)
        self.game.pop()
        before = self.game.position
        text = before.move_text(move)
        side = before.turn
        self.game.push(move)
        left = move.captures & self.sensed
        for square in left:
            self._lingering_pieces[square] = before.piece_at(square)  # type: ignore[assignment]
        self.lingering = reopened.lingering | left
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self.outcome = None
        self._new_turn()
        self._reopened = Reopened(reopened.turn, move, reopened.lingering, reopened.acted)
        data = self._move_data(text, side, move)
        data["was"] = was
        data["fen_before"] = before.fen()
        events.append(Event("move-corrected", now, data))
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())
        self._announce_outcome(now, events)

    def _move_data(self, text: str, side: str, move: Move) -> dict[str, Any]:
        return {
            "move": text,
            "fen": self.game.fen(),
            "side": side,
            "from": move.origin,
            "to": move.destination,
            "captures": sorted(move.captures),
            "ply": len(self.game.moves),
        }

    def _announce_outcome(self, now: float, events: list[Event]) -> None:
        if self.outcome is not None:
            events.append(
                Event(
                    "outcome", now, {"winner": self.outcome.winner, "reason": self.outcome.reason}
                )
            )

    def _undo(self, now: float, events: list[Event]) -> None:
        before = self.game.moves[-1]
        self.game.pop()
        text = self.game.position.move_text(before)
        self.outcome = None
        self.crown = None
        self.lingering -= before.captures  # back in the game
        self._new_turn()
        events.append(Event("takeback", now, {"move": text, "fen": self.game.fen()}))

    def _guide_now(self, now: float, events: list[Event]) -> None:
        """Re-evaluate after the game changed under a still board; guide at once if wrong."""
        self._evaluate(now, events)
        if self.reading.kind != "expected" and self.outcome is None:
            self.correcting = True
            self._show(self._correction_hint())

    # -- hints -------------------------------------------------------------------

    def _show(self, hint: Hint) -> None:
        capture_turn = bool(self.turn.must_capture)
        self.hint = filter_level(hint, self.hint_level, capture_turn)
        if len(self._frames) >= 64:  # a caller that never drains (the live session) loses none
            del self._frames[0]  # of `self.hint`; the log only serves replay
        self._frames.append(self.hint)

    def _idle_hint(self) -> Hint:
        if self.outcome is not None:
            return end_hint(self.game.position, self.outcome, self.coords)
        return idle_hint(
            self.turn,
            crown=self.crown,
            last_move=self._last_move,
            lingering=self.lingering,
            check=self.check,
        )

    def _correction_hint(self) -> Hint:
        return correction_hint(
            dict(self.game.position.pieces()),
            self.sensed,
            self.lingering,
            self.tracker,
            self.coords,
        )
