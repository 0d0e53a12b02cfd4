"""What is due when the board stays as it is: the timers of recognition.

Time is passed in, never read, so the live session and the replay (a simulated
clock that jumps from deadline to deadline) run the same code. A final board
commits after SETTLE (HOLD when it is also on the way to another move, GRACE
when the next player's start fits it as well); a move
proved by a reply waits until its piece has stayed BRUSH; an unexplained board
is checked against a run of plies after SETTLE and guided after GRACE; the position
before the last move or the initial one must stay CALM (host/recognition/timing.py).

Mixed into `Recogniser` (host/recognition/recogniser.py), which holds the state it reads.
"""

from __future__ import annotations

from engine import Move
from host.recognition.events import Event
from host.recognition.timing import CALM, EPS, GRACE, HOLD, SETTLE


class Timers:
    """Deadlines and what happens when one falls due."""

    def next_deadline(self) -> float | None:
        """When a timer will fire if the board stays as it is, or None if it is at rest."""
        if self._block == self.sensed or self._restoring:
            return None
        if self._pending is not None:
            # While its piece is off its square again nothing is due: it may be a brush.
            move, _, _, due = self._pending
            return due if move.destination in self.sensed else None
        if self._two_ply_due is not None:
            return self._two_ply_due
        kind = self.reading.kind
        if kind == "final":
            if self.reading.doubted:
                return self.since + GRACE
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

    def _held_since_before(self, move: Move, touched: frozenset[int]) -> list[Move] | None:
        """The plies that explain the board when `move`'s final board needs a piece of
        the next player's held since before its piece left its square (see
        `TurnEvidence.plies_explaining`)."""
        lifted = self.evidence.lifted_at
        started = lifted.get(move.origin)
        if started is None or not any(lifted.get(sq, started) < started for sq in touched):
            return None
        # (their pieces lifted after it started are their next move starting: back)
        starting = frozenset(
            sq
            for sq in touched - {move.origin} - move.captures
            if lifted.get(sq, started) >= started
        )
        board = self._board()
        return self.evidence.plies_explaining(board) or (
            self.evidence.plies_explaining(board | starting) if starting else None
        )

    def _commit_run(self, now: float, run: list[Move], events: list[Event]) -> None:
        """Commit all the plies of `run` but the last, whose final board then stands
        in its own turn and settles as usual."""
        for played, taken_at in zip(run[:-1], self.evidence.taken_unseen(run), strict=False):
            self._commit(now, played, events, by_reply=True, taken_at=taken_at)
        self._evaluate(now, events)

    def _timers(self, now: float, events: list[Event]) -> None:
        deadline = self.next_deadline()
        if deadline is None or now + EPS < deadline:
            return
        if self._pending is not None:
            move, left, acted, _ = self._pending
            self._pending = None
            if self._pending_doubtful:
                # Nothing confirmed the start (no piece of theirs landed): the board is
                # read as it stands, and guided if it means nothing.
                self._evaluate(now, events)
                self._timers(now, events)
                return
            self._commit(now, move, events, left=left, acted=acted, by_reply=True)
            self._evaluate(now, events)
            return
        if self._two_ply_due is not None:
            self._two_ply_due = None
            run = self.evidence.plies_explaining(self._board())
            if run is not None and (len(run) > 2 or self.evidence.unseen_first(run)):
                # Every square explained by the plies the hands played without waiting.
                self._commit_run(now, run, events)
                return
            pair = self.evidence.two_plies(self._board())
            if pair is not None:
                # A still board only a move and its reply explain: both were played.
                move, left, reply = pair
                (taken_at,) = self.evidence.taken_unseen([move, reply])
                self._commit(now, move, events, left=left, by_reply=True, taken_at=taken_at)
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
                run = self._held_since_before(self.reading.move, touched)
                if run is not None:
                    self._commit_run(now, run, events)
                    return
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
