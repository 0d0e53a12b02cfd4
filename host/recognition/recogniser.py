"""The recogniser: sensed occupancy in, committed moves and LED roles out.

It follows a game through the boards hands produce and commits a move only on
proof that it was carried out (DESIGN.md section 2, docs/play.md):

- its final board stayed still (timing.py: 0.25 s, or 0.65 s when the same
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

This module holds the recogniser's state, its public calls and the set-up of
each turn. Its work is split by concern into mixins, each in its own module of
this package (host/recognition/):

- reading.py: which reading of a board holds (the move underway, a touch, a
  reply, the last move going on), i.e. matching boards to moves over time;
- timers.py: what is due when the board stays still (commit a settled move,
  guide an unexplained board, two plies);
- lights.py: which frame the LEDs show in each state, and the notices that go
  with it (board right, check the colours, capture alert);
- moves.py: changing the game (commit, correct, take back) and the events
  that report it.

Below them: the boards a turn can show in turn_boards.py, what the hands did
this turn and what it proves in turn_evidence.py (whether a move was finished
in finished.py, still boards in still_board.py, a piece's way in
hand_paths.py), a move that goes on in
reread.py, which piece stands where in piece_identity.py, the frames in
guidance.py, the thresholds in timing.py.
"""

from __future__ import annotations

from engine import Game, Move, Outcome
from engine.position import Piece
from host.hints import Hint
from host.recognition.events import Event
from host.recognition.finish_time import ChangeLog
from host.recognition.hand_paths import neighbours
from host.recognition.lights import Lights
from host.recognition.moves import Finishing, GameChanges
from host.recognition.piece_identity import PieceTracker, code_of, piece_of
from host.recognition.reading import BoardReading
from host.recognition.reread import Reopened
from host.recognition.timers import Timers
from host.recognition.timing import BRUSH, CALM, EPS, GRACE, HOLD, SETTLE, TOGETHER
from host.recognition.turn_boards import UNKNOWN, Progress, Reading, TurnBoards, explain
from host.recognition.turn_evidence import TurnEvidence

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


class Recogniser(BoardReading, Timers, Lights, GameChanges):
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
        #: after a takeback: no board is read as a move until the board stands as the game
        #: does again (on the way back a board may look like a move played: it is not)
        self._restoring = False
        self._alerted = False
        self._last_move: Move | None = None
        #: the only moves accepted this turn (None: every legal move); see `allow_only`
        self.allowed: tuple[Move, ...] | None = None
        self._reopened: Reopened | None = None
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
        #: the board as the switches show it (at first: as the game sets it up)
        self.sensed: frozenset[int] = self.game.position.occupied()
        #: the switch history the moves' finishing times are read from (finish_time.py),
        #: and when the time of the move underway began (the last move's finish, a take
        #: back, the start), and of the last move while it may still be read again
        self.change_log = ChangeLog()
        self._began = start
        self._reopened_began = start
        self._finishing: Finishing | None = None
        self._new_turn()
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
            self.tracker.update(lifted, placed, self._shoved_late(now, lifted, occupied))
            self.lingering &= occupied  # a forgotten piece taken off is gone for good
            if self._block is not None and occupied != self._block:
                self._block = None
            if self.check and (lifted | placed) - self.check:
                self.check = frozenset()  # play goes on: the reminder has done its job
            self.evidence.record(now, lifted, placed)
            self.change_log.record(now, lifted, placed)
            self._reply_lands(now, placed, events)
            proved = self._proved_by_reply(now, lifted, placed)
            if proved is not None:
                # A fast reply: the next player started before the board settled.
                move, left, doubtful = proved
                missing = self.expected - self.sensed
                landed = self.evidence.placed_at.get(move.destination, now - BRUSH)
                self._pending_doubtful = doubtful
                if doubtful:
                    # Their start may be a piece knocked as the move landed: only their
                    # piece landing proves the move; else the board is guided as usual.
                    self._pending = (move, left, missing, now + GRACE)
                elif now - landed + EPS >= BRUSH:
                    self._commit(now, move, events, left=left, acted=missing, by_reply=True)
                else:
                    # Its piece touched the square only just now, and a brush on the way
                    # looks the same for a moment: it counts once the piece has stayed.
                    self._pending = (move, left, missing, landed + BRUSH)
            self._evaluate(now, events)
            if not any(e.kind in ("move", "move-corrected") for e in events):
                self._finished_later(now, events)
        self._timers(now, events)
        return events

    def _shoved_late(
        self, now: float, lifted: frozenset[int], occupied: frozenset[int]
    ) -> dict[int, int]:
        """Squares lifted now next to one filled a moment before (TOGETHER) and still
        filled: that piece may have been shoved there, its own switch seen late."""
        late = {}
        for square in lifted:
            for near in neighbours(self.variant, square):
                down = self._placed_at.get(near) if near in occupied else None
                if down is not None and 0 < now - down <= TOGETHER:
                    late[square] = near
        return late

    def pieces(self) -> dict[int, str]:
        """For every occupied square as sensed, the piece standing there ("W", "B", "WK",
        "BK") as recognition explains the switch history: the likeliest reading of the
        piece tracker (a hand puts down what it lifted last; a captured piece goes to
        the box), the game's own piece where the readings disagree and allow it; where
        no reading knows (a piece from the box), the game's piece on that square, else
        a man of the side to move. A man just crowned is a man until the king is
        stacked on it (the crowning confirmed): the board cannot see the king before."""
        position = self.game.position
        shown: dict[int, str] = {}
        for square in sorted(self.sensed):
            own = position.piece_at(square) or self._lingering_pieces.get(square)
            piece = self.tracker.likeliest(square, [own] if own else [])
            piece = piece or own or Piece(position.turn, False)
            if square == self.crown and piece.king:
                piece = Piece(piece.color, False)
            shown[square] = code_of(piece)
        return shown

    def placing(self, square: int, code: str) -> None:
        """A hand says the next piece it puts down on `square` is `code` ("W", "B", "WK",
        "BK"): the simulator's tray, whose spare pieces have a known colour. Raises
        ValueError for another code."""
        self.tracker.tell(square, piece_of(code))

    def forget_told(self, square: int) -> None:
        """`square` was emptied where this recogniser was not looking (a spare piece
        hidden from it): what a hand said it would put there is no longer news."""
        self.tracker.forget_told(square)

    def told(self, square: int) -> str | None:
        """The piece a hand said it puts down next on `square`, if it has not yet."""
        piece = self.tracker.told(square)
        return None if piece is None else code_of(piece)
    def awaiting_proof(self) -> bool:
        """Would a move be committed if the board stayed as it is (a final board settling,
        a reply's proof waiting for the piece to have stayed, a still board to be read as
        two plies)? The clock waits for that proof before a flag falls."""
        if self._block == self.sensed or self.outcome is not None:
            return False
        return (
            self._pending is not None
            or self._two_ply_due is not None
            or self.reading.kind == "final"
        )

    def drain_frames(self) -> list[Hint]:
        """The frames shown since the last call, in order (a frame may last no time at all,
        e.g. the start-of-turn frame when the reply had already begun)."""
        frames, self._frames = self._frames, []
        return frames

    def tick(self, now: float) -> list[Event]:
        """Let time pass with the board unchanged (settle timers)."""
        return self.observe(now, self.sensed)

    def take_back(self, now: float) -> list[Event]:
        """The `takeback` command: undo the last move; the board is then guided back."""
        events: list[Event] = []
        if not self.game.moves:
            events.append(Event("nothing-to-take-back", now))
            return events
        self._undo(now, events)
        self._block = self.sensed
        self._restoring = True
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
        self._began = self._reopened_began = now
        self._finishing = None
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

    def allow_only(self, now: float, moves: list[Move] | None) -> list[Event]:
        """Accept only `moves` this turn (the hook for host/computer/player.py).

        The computer's move is carried out by a person: while the computer thinks
        nothing is accepted (`[]`), then only its move (`[move]`); another legal move
        reads as a wrong board and is guided back, and the idle frame lights the
        allowed move (always, whatever the hint level: it is an instruction, not
        help). `None` lifts the restriction; a new turn (a move, a takeback, a new
        game) lifts it too, so a restriction can never outlive its position. The
        last move stays open meanwhile: a piece that goes on is still read again. A
        board being put right (a takeback, a wrong board) is still guided."""
        self.allowed = None if moves is None else tuple(moves)
        reopened = self._reopened
        guiding = self.correcting  # a board being put right (after a takeback) stays so
        self._new_turn(keep_allowed=True, keep_pieces=True)
        self._reopened = reopened
        events: list[Event] = []
        if guiding:
            self.correcting = True
            self._guide_now(now, events)
        else:
            self._evaluate(now, events)
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
        self._began = self._reopened_began = now
        self._finishing = None
        self.tracker.reset(self._known_pieces(), self.sensed, in_air=False)
        self._guide_now(now, events)
        return events

    # -- turn set-up -------------------------------------------------------------

    def _new_turn(
        self, turn: TurnBoards | None = None, *, keep_allowed: bool = False,
        keep_pieces: bool = False,
    ) -> None:
        """Start reading a turn of the game's position (`turn`: its boards, if already
        made); the restriction of `allow_only` is lifted unless `keep_allowed`; which
        piece stands where is read afresh from the position unless `keep_pieces` (the
        same position, the same board: nothing moved)."""
        if not keep_allowed:
            self.allowed = None
        previous = None
        if self.game.moves:
            positions = getattr(self.game, "positions", None)
            if positions and len(positions) >= 2:
                previous = positions[-2].occupied()
            else:
                last = self.game.pop()
                previous = self.game.position.occupied()
                self.game.push(last)
        if turn is None or turn.position != self.game.position or self.allowed is not None:
            turn = TurnBoards(self.game.position, previous, self._accepted())
        else:
            turn.previous = previous
        self.turn = turn
        self.evidence = TurnEvidence(
            turn,
            turn.expected - self.sensed,
            self._lifted_at,
            self._placed_at,
            self._colour_lifts,
            self.sensed - turn.expected - self.lingering,
        )
        #: when an unexplained board is checked against two plies (a move and its reply)
        self._two_ply_due: float | None = None
        #: a move proved by a reply that waits for its piece to have stayed (move, captured
        #: pieces left, the next player's pieces in the air, when it counts)
        self._pending: tuple[Move, frozenset[int], frozenset[int], float] | None = None
        #: the pending move's proof is a start that may be a knock (see `observe`)
        self._pending_doubtful = False
        self._last_move = self.game.moves[-1] if self.game.moves else None
        self._alerted = False
        self.correcting = False
        if not keep_pieces:
            self._restoring = False
        self._reopened = None
        if self.outcome is None:
            self.outcome = self.game.outcome()
        if hasattr(self, "tracker"):
            if not keep_pieces:
                self.tracker.reset(self._known_pieces(), self.sensed, likely=self._extra_pieces())
            self.tracker.turn(self.game.position.turn, turn.capturable)

    def _accepted(self) -> list[Move] | None:
        """The legal moves among `allowed` (None: all of them)."""
        if self.allowed is None:
            return None
        allowed = set(self.allowed)
        return [m for m in self.game.position.legal_moves() if m in allowed]

    def _extra_pieces(self) -> dict[int, Piece]:
        """The pieces standing where the game has none (a spare put down, a piece on a
        wrong square), as the tracker knows them: drawn as they were across turns."""
        known = self.game.position.occupied() | self.lingering
        extras = {}
        for square in self.sensed - known:
            piece = self.tracker.likeliest(square)
            if piece is not None:
                extras[square] = piece
        return extras

    def _known_pieces(self) -> dict[int, Piece]:
        """The game's pieces and the forgotten captured ones still on the board."""
        pieces = dict(self.game.position.pieces())
        for square in self.lingering:
            pieces[square] = self._lingering_pieces[square]
        return pieces
