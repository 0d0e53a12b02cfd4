"""Switch debouncing, shared by every sensing backend.

Reed contacts bounce for about a millisecond when a magnet arrives or leaves,
and a hand brushes neighbouring squares. A square's new level counts only
once it has been read on `agreeing_scans` consecutive scans; the scan period
sets how long that takes. The game's own, slower settle (slides, captures)
belongs to the host, not here. A change that does not last that long is
counted as a rejected bounce, which the self-test uses to find chattering
switches.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

DEFAULT_SCAN_PERIOD = 0.010
DEFAULT_AGREEING_SCANS = 2


@dataclass
class Debouncer:
    """Turns raw per-scan occupancy into debounced occupancy, square by square."""

    agreeing_scans: int = DEFAULT_AGREEING_SCANS
    scan_period: float = DEFAULT_SCAN_PERIOD
    #: the debounced occupancy; the board is assumed empty until scans say otherwise
    stable: frozenset[int] = frozenset()
    #: per square, how many times a change was seen and then withdrawn before it counted
    rejected: Counter[int] = field(default_factory=Counter)
    _pending: dict[int, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.agreeing_scans < 1:
            raise ValueError(f"agreeing_scans must be at least 1, not {self.agreeing_scans}")
        if not self.scan_period > 0:
            raise ValueError(f"scan_period must be positive, not {self.scan_period}")

    @property
    def settle_time(self) -> float:
        """Seconds from the first scan that sees a change to the scan that accepts it."""
        return (self.agreeing_scans - 1) * self.scan_period

    def update(self, raw: frozenset[int]) -> frozenset[int]:
        """Feed one scan; return the debounced occupancy after it."""
        differing = raw ^ self.stable
        for square in list(self._pending):
            if square not in differing:
                del self._pending[square]
                self.rejected[square] += 1
        flipped: set[int] = set()
        for square in differing:
            seen = self._pending.get(square, 0) + 1
            if seen >= self.agreeing_scans:
                flipped.add(square)
                self._pending.pop(square, None)
            else:
                self._pending[square] = seen
        if flipped:
            self.stable = self.stable ^ frozenset(flipped)
        return self.stable

    def reset(self) -> None:
        """Forget everything: the next scans start again from an empty board."""
        self.stable = frozenset()
        self._pending.clear()
        self.rejected.clear()
