"""An in-memory board that tests and the simulator drive the way hands drive a real one.

`MockBoard` is the default backend everywhere. Its truth is the set of
squares holding a piece; each `scan` reports that truth, except where a
scripted transient (a slide brushing squares), injected contact bounce, or a
sensor fault says otherwise, so code above it meets the same noise a real
board makes. Every frame drawn is recorded in `frames`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from enum import Enum

from hardware.base import Backend, Frame


class Fault(Enum):
    """Ways a reed switch fails in the field."""

    STUCK_OPEN = "stuck open"  # weak magnet, broken wire: never reads a piece
    STUCK_CLOSED = "stuck closed"  # welded contact: always reads a piece
    CHATTERING = "chattering"  # loose contact: flips on every scan


class MockBoard(Backend):
    """A board with no hardware. `bounce_scans` makes every change chatter that many scans."""

    def __init__(self, squares: int = 32, *, bounce_scans: int = 0) -> None:
        super().__init__()
        if squares not in (32, 50):
            raise ValueError(f"squares must be 32 (8x8) or 50 (10x10), not {squares}")
        if bounce_scans < 0:
            raise ValueError("bounce_scans cannot be negative")
        self.squares = squares
        self.bounce_scans = bounce_scans
        self.frames: list[dict[int, tuple[int, int, int]]] = []
        self.brightnesses: list[float] = []
        #: how many frames to remember (None: every one, for tests); the simulator that
        #: runs for days as `run --board sim` keeps only the latest
        self.history: int | None = None
        self.scans = 0
        self.closed = False
        self._occupied: set[int] = set()
        self._bouncing: dict[int, int] = {}
        self._script: deque[frozenset[int]] = deque()
        self._faults: dict[int, Fault] = {}

    # -- what hands do ----------------------------------------------------------

    @property
    def occupied(self) -> frozenset[int]:
        """The squares that really hold a piece (what the sensors should read)."""
        return frozenset(self._occupied)

    def set_occupied(self, squares: Iterable[int]) -> None:
        """Put the board in this state at once (setting up, or a test's starting point)."""
        new = {self._check(s) for s in squares}
        for square in new ^ self._occupied:
            self._changed(square)
        self._occupied = new

    def lift(self, square: int) -> None:
        """Pick the piece up from `square`."""
        if self._check(square) not in self._occupied:
            raise ValueError(f"no piece on square {square} to lift")
        self._occupied.discard(square)
        self._changed(square)

    def place(self, square: int) -> None:
        """Put a piece down on `square`."""
        if self._check(square) in self._occupied:
            raise ValueError(f"square {square} already holds a piece")
        self._occupied.add(square)
        self._changed(square)

    def slide(self, path: Sequence[int], scans_per_square: int = 1) -> None:
        """Slide the piece on `path[0]` along the board to `path[-1]`.

        The squares in between read occupied for `scans_per_square` scans each,
        one after the other, as the magnet passes over them.
        """
        if len(path) < 2:
            raise ValueError("a slide needs at least a start and an end square")
        start, *between, end = (self._check(s) for s in path)
        if start not in self._occupied:
            raise ValueError(f"no piece on square {start} to slide")
        if end in self._occupied - {start}:
            raise ValueError(f"square {end} already holds a piece")
        base = self.occupied - {start}
        for square in between:
            self._script.extend([base | {square}] * scans_per_square)
        self._occupied.discard(start)
        self._occupied.add(end)
        self._changed(start)
        self._changed(end)

    def knock(self, square: int, onto: int | None = None) -> None:
        """A hand knocks the piece off `square`: onto square `onto`, or off the board."""
        if self._check(square) not in self._occupied:
            raise ValueError(f"no piece on square {square} to knock")
        self.lift(square)
        if onto is not None:
            self.place(onto)

    # -- faults ---------------------------------------------------------------------

    def inject_fault(self, square: int, fault: Fault) -> None:
        """Make the switch under `square` fail in the given way until `clear_faults`."""
        self._faults[self._check(square)] = fault

    def clear_faults(self) -> None:
        self._faults.clear()

    # -- the Backend interface -----------------------------------------------------

    def scan(self) -> frozenset[int]:
        self.scans += 1
        reading = set(self._script.popleft() if self._script else self._occupied)
        for square, left in list(self._bouncing.items()):
            # Contacts alternate: new level, old level, new level ... until they rest.
            if (self.bounce_scans - left) % 2 == 1:
                reading ^= {square}
            if left <= 1:
                del self._bouncing[square]
            else:
                self._bouncing[square] = left - 1
        for square, fault in self._faults.items():
            if fault is Fault.STUCK_OPEN:
                reading.discard(square)
            elif fault is Fault.STUCK_CLOSED:
                reading.add(square)
            elif self.scans % 2:
                reading ^= {square}
        return frozenset(reading)

    def draw(self, frame: Frame) -> None:
        self.frames.append(dict(frame))
        self.brightnesses.append(self.brightness)
        if self.history is not None and len(self.frames) > self.history:
            del self.frames[: -self.history]
            del self.brightnesses[: -self.history]

    def close(self) -> None:
        if not self.closed:
            super().close()
            self.closed = True

    # -- helpers -------------------------------------------------------------------

    def _check(self, square: int) -> int:
        if not 1 <= square <= self.squares:
            raise ValueError(f"square {square} is outside 1..{self.squares}")
        return square

    def _changed(self, square: int) -> None:
        if self.bounce_scans:
            self._bouncing[square] = self.bounce_scans
