"""The clock: both sides' time, charged from the moments moves were finished.

A pure model with time passed in (never read), so the live board and the replay's
simulated clock run the same code. The session tells it when a move was finished
(the recogniser's `finished`, not when the move was proved), when a move went on
(re-read), when one was taken back, and when an arbiter stops and restarts it;
it answers what each clock shows at any moment and when the running flag falls.

Invariants:
- at most one side's time runs (`running`), from `since`; every other value is fixed;
- time inside a pause is never charged, wherever the pause falls among the moves;
- a move is charged from the start of its side's period to its finish, whatever
  time the board took to prove it; the increment is added after every move;
- `laps` holds every move still in the game, so a re-read or a take back restores
  exactly what the clocks showed.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.clock.control import TimeControl


def other(side: str) -> str:
    return "B" if side == "W" else "W"


@dataclass(frozen=True)
class Lap:
    """One move on the clock: who made it, when their time for it began and when the
    move was finished, what it cost them, and both clocks after it (increment included).
    `pauses` are the stops of the clock between `began` and the lap's end, kept so a
    re-read of the move charges it again exactly."""

    side: str
    began: float
    finished: float
    took: float
    white: float
    black: float
    pauses: tuple[tuple[float, float | None], ...] = ()

    def left(self, side: str) -> float:
        return self.white if side == "W" else self.black


class Clock:
    """Two clocks under one time control (seconds, as floats)."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        #: each side's time at the start of the running period (the other's is final)
        self.left = {"W": control.white.main, "B": control.black.main}
        self.running: str | None = None
        self.since: float | None = None
        #: stops since `since`: (start, end), end None while the clock is stopped
        self._pauses: list[tuple[float, float | None]] = []
        self.laps: list[Lap] = []

    # -- reading -------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return bool(self._pauses) and self._pauses[-1][1] is None

    def remaining(self, side: str, now: float) -> float:
        """What `side`'s clock shows at `now` (negative once its flag has fallen)."""
        if side == self.running and self.since is not None:
            return self.left[side] - self._used(self.since, now)
        return self.left[side]

    def flag_time(self) -> float | None:
        """When the running side's time runs out if nothing happens (None: nothing runs,
        or the clock is stopped)."""
        if self.running is None or self.since is None or self.paused:
            return None
        stopped = sum((end or 0.0) - start for start, end in self._pauses)
        return self.since + self.left[self.running] + stopped

    # -- changing -------------------------------------------------------------------

    def start(self, side: str, now: float) -> None:
        """`side`'s time starts running at `now` (the game's start, or a resumed game's
        side to move once the board is right). Nothing changes if a clock already runs."""
        if self.running is None:
            self.running, self.since = side, now
            self._pauses = [(now, None)] if self.paused else []

    def moved(self, side: str, finished: float) -> Lap:
        """`side` finished a move at `finished`: charged up to then, the increment added,
        and the opponent's time runs from that moment."""
        if self.running != side or self.since is None:
            self.running, self.since, self._pauses = side, finished, self._pauses[-1:]
        began = self.since
        finished = max(finished, began)
        took = self._used(began, finished)
        self.left[side] = self.left[side] - took + self.control.side(side).increment
        pauses = tuple(self._pauses)
        # The opponent's period starts at the finish; a stop that spans it goes on.
        self._pauses = [
            (max(start, finished), end)
            for start, end in self._pauses
            if end is None or end > finished
        ]
        self.running, self.since = other(side), finished
        lap = Lap(side, began, finished, took, self.left["W"], self.left["B"], pauses)
        self.laps.append(lap)
        return lap

    def corrected(self, finished: float) -> Lap | None:
        """The last move went on (re-read): charge it again up to its new finish."""
        if not self.laps:
            return None
        now_pauses = self._pauses
        lap = self._undo_lap()
        self.running, self.since = lap.side, lap.began
        self._pauses = _merged(lap, now_pauses)
        return self.moved(lap.side, finished)

    def take_back(self, now: float) -> None:
        """The last move was taken back: both clocks show what they showed when it was
        finished, before its increment, and its side's time runs again from `now`."""
        if not self.laps:
            return
        stopped = self.paused
        lap = self._undo_lap()
        self.left[lap.side] -= lap.took
        self.running, self.since = lap.side, now
        self._pauses = [(now, None)] if stopped else []

    def stop(self, now: float) -> None:
        """The game is over: the running time is charged up to `now` and nothing runs."""
        if self.running is not None and self.since is not None:
            self.left[self.running] = self.remaining(self.running, now)
        self.running, self.since, self._pauses = None, None, []

    def pause(self, now: float) -> None:
        """An arbiter's stop: no time is charged until `resume`."""
        if not self.paused:
            self._pauses.append((now, None))

    def resume(self, now: float) -> None:
        if self.paused:
            start, _ = self._pauses[-1]
            if self.running is None:
                self._pauses.pop()
            else:
                self._pauses[-1] = (start, max(start, now))

    def restore(self, laps: list[Lap]) -> None:
        """A resumed game: the clocks as the journal kept them after each move; nothing
        runs until `start`."""
        self.laps = list(laps)
        if laps:
            self.left = {"W": laps[-1].white, "B": laps[-1].black}
        self.running, self.since, self._pauses = None, None, []

    # -- inside --------------------------------------------------------------------------

    def _used(self, start: float, end: float) -> float:
        """Time from `start` to `end` that the clock was not stopped."""
        if end <= start:
            return 0.0
        stopped = 0.0
        for begin, finish in self._pauses:
            lo, hi = max(begin, start), min(end if finish is None else finish, end)
            stopped += max(0.0, hi - lo)
        return end - start - stopped

    def _undo_lap(self) -> Lap:
        """Remove the last lap: both clocks as they were when its side's time began (the
        other side's did not run meanwhile)."""
        lap = self.laps.pop()
        mover, waiting = lap.side, other(lap.side)
        self.left[mover] = lap.left(mover) - self.control.side(mover).increment + lap.took
        self.left[waiting] = lap.left(waiting)
        return lap


def _merged(
    lap: Lap, since: list[tuple[float, float | None]]
) -> list[tuple[float, float | None]]:
    """The stops of `lap`'s period and of the period after it (`since`, where a stop
    that spanned the finish starts at the finish), as one list from `lap.began`."""
    merged: list[tuple[float, float | None]] = []
    for start, end in lap.pauses:
        if end is None:  # still stopped at the finish: it ended (or not) in `since`
            end = next((e for s, e in since if s == lap.finished), None)
        merged.append((start, end))
    return merged + [(s, e) for s, e in since if s > lap.finished]
