"""Which frame the LEDs show in each state of a turn, and the notices that go
with it: the board is right again (or the colours must be checked), a piece that
may not move is lifted while a capture is mandatory.

The frames themselves are built in host/recognition/guidance.py from the same readings that
accept moves, so what is lit and what is accepted cannot disagree; this module
only picks the frame for the recogniser's state and keeps the log of frames.

Mixed into `Recogniser` (host/recognition/recogniser.py), which holds the state it reads.
"""

from __future__ import annotations

from host.hints import Hint, HintBuilder, filter_level
from host.recognition.events import Event
from host.recognition.guidance import (
    correction_hint,
    end_hint,
    final_hint,
    idle_hint,
    progress_hint,
)

#: frames kept for a caller that never drains them (the live session reads `hint`)
FRAMES_KEPT = 64


class Lights:
    """Chooses and shows the frame for the recogniser's state."""

    def _light(self, now: float, events: list[Event]) -> None:
        """Show the frame for the reading just made (and say the board is right when a
        correction is done)."""
        reading, source = self.reading, self._source
        board, turn = self._board(), self.turn
        kind = reading.kind
        if kind != "unknown":
            self._alerted = False
        if self.outcome is not None and kind not in ("takeback", "new-game"):
            self._show(self._idle_hint())
        elif kind == "expected":
            self._restoring = False
            if self.correcting:
                self.correcting = False
                self._board_right(now, events)
            self._show(self._idle_hint())
        elif self._restoring:  # after a takeback: put right, whatever the board looks like
            self.correcting = True
            self._show(self._correction_hint())
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

    def _guide_now(self, now: float, events: list[Event]) -> None:
        """Re-evaluate after the game changed under a still board; guide at once if wrong."""
        self._evaluate(now, events)
        if self.reading.kind != "expected" and self.outcome is None:
            self.correcting = True
            self._show(self._correction_hint())

    def _show(self, hint: Hint) -> None:
        capture_turn = bool(self.turn.must_capture)
        level = "full" if self.allowed else self.hint_level  # an allowed move is an order
        self.hint = filter_level(hint, level, capture_turn)
        if len(self._frames) >= FRAMES_KEPT:  # a caller that never drains loses none
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
            allowed=self.allowed or (),
        )

    def _correction_hint(self) -> Hint:
        return correction_hint(
            dict(self.game.position.pieces()),
            self.sensed,
            self.lingering,
            self.tracker,
            self.coords,
        )
