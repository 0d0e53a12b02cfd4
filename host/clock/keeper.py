"""A game's clock kept from the recogniser's events: who pays for what, and the flag.

The session (live) and the replay (simulated time) both hand every recogniser event
to `GameClock.follow` before anyone else sees it, and call `tick` whenever time
passes. `follow` charges each move from the moment it was finished (its `finished`,
the mover's last action: never the moment the board could prove it), charges a move
that went on to its new finish, restores the clocks on a take back, and adds the
clocks to the move's event data (`clock`: both sides' time left after the move, in
ms; `took`: what the move cost). `tick` says what falls due: a low-time warning, or
the flag, which ends the game at the very moment it fell.

The flag and a move's proof race: a move may have been finished just before the
flag fell and be proved a moment after (a final board settles in 0.25 s). So when
the flag falls while the recogniser awaits a move's proof, the decision waits for
that proof's deadline; a move proved meanwhile that was finished before the flag
stops it, one finished after it does not count (the flag fell first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Protocol

from engine import Game, Outcome
from host.clock.control import TimeControl
from host.clock.model import Clock, Lap
from host.recognition.events import Event

#: float slack when comparing times (as the recogniser's timers do)
EPS = 1e-6


class Recognition(Protocol):
    """What the clock needs of the recogniser (host/recognition/recogniser.py)."""

    @property
    def game(self) -> Game: ...
    @property
    def outcome(self) -> Outcome | None: ...

    def awaiting_proof(self) -> bool: ...
    def next_deadline(self) -> float | None: ...
    def take_back(self, now: float) -> list[Event]: ...
    def finish(self, now: float, winner: str | None, reason: str) -> list[Event]: ...


def ms(seconds: float) -> int:
    """Seconds as whole milliseconds (what records and messages carry)."""
    return int(round(seconds * 1000))


def lap_clocks(lap: Lap) -> dict[str, int]:
    return {"white": ms(lap.white), "black": ms(lap.black)}


class GameClock:
    """The clock of the game being played, fed the recogniser's events (no clock at
    all when `control` is None: every call is then a no-op)."""

    def __init__(self, control: TimeControl | None, warnings: Sequence[float] = ()) -> None:
        self.control = control
        #: seconds left at which the running side is warned, largest first
        self.warnings = sorted({float(w) for w in warnings if w > 0}, reverse=True)
        self.clock: Clock | None = Clock(control) if control is not None else None
        #: a flag fell while a move's proof was due: decide once this time has come
        self._hold: float | None = None
        #: warnings given to each side since its time was last above them
        self._warned: dict[str, set[float]] = {"W": set(), "B": set()}
        #: the time the flag fell, once it has (the game ended there)
        self.fell: float | None = None

    # -- reading ---------------------------------------------------------------------

    @property
    def timed(self) -> bool:
        return self.clock is not None

    @property
    def started(self) -> bool:
        return self.clock is not None and (self.clock.running is not None or bool(self.clock.laps))

    def state(self, now: float) -> dict[str, object] | None:
        """Both clocks at `now`, for the page, the status file and the broadcast (None
        without a clock)."""
        clock = self.clock
        if clock is None or self.control is None:
            return None
        return {
            "control": self.control.text(),
            "white": ms(max(0.0, clock.remaining("W", now))),
            "black": ms(max(0.0, clock.remaining("B", now))),
            "running": clock.running,
            "paused": clock.paused,
            "flagged": self._flagged_side(),
            "took": [ms(lap.took) for lap in clock.laps],
        }

    def next_deadline(self) -> float | None:
        """When `tick` has something to do if nothing else happens (the flag, a pending
        decision about it, the next warning)."""
        clock = self.clock
        if clock is None or clock.running is None or self.fell is not None:
            return None
        if self._hold is not None:
            return self._hold
        flag = clock.flag_time()
        if flag is None:
            return None
        side = clock.running
        due = [
            flag - w for w in self.warnings
            if w not in self._warned[side] and w < clock.left[side] - EPS
        ]
        return min([flag, *[t for t in due if t < flag]])

    # -- the game's events ---------------------------------------------------------------

    def start(self, side: str, now: float) -> None:
        """`side`'s time starts at `now` unless a clock already runs."""
        if self.clock is not None and self.fell is None:
            self.clock.start(side, now)

    def pause(self, now: float) -> None:
        if self.clock is not None:
            self.clock.pause(now)

    def resume(self, now: float) -> None:
        if self.clock is not None:
            self.clock.resume(now)

    def restore(self, laps: Iterable[Lap]) -> None:
        """A resumed game: the clocks after its last move, as the journal kept them."""
        if self.clock is not None:
            self.clock.restore(list(laps))

    def follow(self, events: list[Event], rec: Recognition, now: float) -> list[Event]:
        """Charge the clocks for `events` (the recogniser's, in order) and return them,
        each move's data with its clocks. A move finished after the flag fell is no
        move: it is taken back and the flag's outcome takes its place."""
        clock = self.clock
        if clock is None:
            return events
        out: list[Event] = []
        for index, event in enumerate(events):
            kind, data = event.kind, event.data
            if kind in ("move", "move-corrected"):
                side = str(data["side"])
                finished = float(data.get("finished", event.time))
                flag = clock.flag_time() if clock.running == side else None
                if flag is not None and finished > flag + EPS and self.fell is None:
                    return out + self._fell_before(rec, now, flag, events[index:])
                lap = (
                    clock.corrected(finished) if kind == "move-corrected"
                    else clock.moved(side, finished)
                )
                if lap is not None:
                    data["clock"] = lap_clocks(lap)
                    data["took"] = ms(lap.took)
                self._rearm()
            elif kind == "move-finished":  # the last move was finished later than said
                lap = self._finished_later(clock, str(data["side"]), int(data["ply"]),
                                           float(data["finished"]))
                if lap is not None:
                    data["clock"] = lap_clocks(lap)
                    data["took"] = ms(lap.took)
            elif kind == "takeback":  # (after a flag fall too: the game goes on)
                clock.take_back(event.time)
                self._hold, self.fell = None, None
                self._rearm()
            elif kind == "new-game":
                self.new_game()
            elif kind == "outcome" and self.fell is None:
                clock.stop(event.time)
            out.append(event)
        return out

    def new_game(self) -> None:
        """A new game: full time again, nothing running until it starts."""
        if self.control is not None:
            self.clock = Clock(self.control)
        self._hold, self.fell = None, None
        self._warned = {"W": set(), "B": set()}

    # -- time passing ------------------------------------------------------------------------

    def tick(self, now: float, rec: Recognition) -> list[Event]:
        """What falls due at `now`: the flag (the game's outcome, at the time it fell) or a
        low-time warning (`clock-warning`: the side and the seconds it warns of)."""
        clock = self.clock
        if clock is None or clock.running is None or self.fell is not None:
            return []
        if rec.outcome is not None:
            clock.stop(now)
            return []
        side = clock.running
        flag = clock.flag_time()
        if flag is not None and now + EPS >= flag:
            if self._hold is None and rec.awaiting_proof():
                self._hold = rec.next_deadline()
            if self._hold is not None and now + EPS < self._hold:
                return []
            self._hold = None
            return self._flag(rec, now, flag)
        self._hold = None
        events = []
        left = clock.remaining(side, now)
        for warning in self.warnings:
            # Only a clock that passes the mark is warned (one below it at the start of
            # its period has heard it, or never had that much time).
            if warning >= clock.left[side] - EPS:
                continue
            if left <= warning + EPS and warning not in self._warned[side]:
                self._warned[side].update(w for w in self.warnings if w >= warning)
                events.append(Event("clock-warning", now, {"side": side, "seconds": warning}))
                break
        return events

    # -- inside --------------------------------------------------------------------------------

    def _flag(self, rec: Recognition, now: float, flag: float) -> list[Event]:
        """The running side's flag fell at `flag`: the game ends there."""
        clock = self.clock
        assert clock is not None and clock.running is not None
        side = clock.running
        outcome = rec.game.on_time(side)
        clock.stop(flag)
        clock.left[side] = 0.0
        self.fell = flag
        events = rec.finish(now, outcome.winner, outcome.reason)
        return [
            replace(e, time=flag, data={**e.data, "side": side}) if e.kind == "outcome" else e
            for e in events
        ]

    def _fell_before(
        self, rec: Recognition, now: float, flag: float, rest: list[Event]
    ) -> list[Event]:
        """A move proved now was finished after the flag fell: it does not count. The
        recogniser takes it (and anything after it) back, and the flag ends the game."""
        for event in rest:
            if event.kind in ("move", "move-corrected"):
                rec.take_back(now)
        return self._flag(rec, now, flag)

    @staticmethod
    def _finished_later(clock: Clock, side: str, ply: int, finished: float) -> Lap | None:
        """Charge the last move (ply `ply`, by `side`) again to its later finish, never
        past its mover's flag (a re-read cannot run a clock below zero)."""
        if len(clock.laps) != ply or clock.laps[-1].side != side:
            return None
        lap = clock.corrected(finished)
        if lap is None:
            return None
        over = clock.control.side(side).increment - lap.left(side)
        if over > 0:
            lap = clock.corrected(finished - over)
        return lap

    def _flagged_side(self) -> str | None:
        if self.fell is None or self.clock is None:
            return None
        return next((s for s in ("W", "B") if self.clock.left[s] <= 0), None)

    def _rearm(self) -> None:
        """Warnings are given again once a side's time is back above them."""
        clock = self.clock
        if clock is None:
            return
        for side in ("W", "B"):
            left = clock.left[side]
            self._warned[side] = {w for w in self._warned[side] if w >= left}
