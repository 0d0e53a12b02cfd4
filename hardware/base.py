"""The interface every board backend offers the host.

A backend senses *level*, not edges: each scan returns the whole set of
occupied squares, so a lost message never leaves the host out of step. It
draws *whole* LED frames (one colour per square, absent squares dark), so a
repeated frame is harmless. `hardware.debounce` sits above every sensing
backend; the host only ever sees debounced `Snapshot`s.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Colour = tuple[int, int, int]
"""An (r, g, b) triple, each 0..255, before brightness is applied."""

Frame = Mapping[int, Colour]
"""Square -> colour. Squares not in the mapping are dark."""

DARK: Colour = (0, 0, 0)


@dataclass(frozen=True)
class Snapshot:
    """The whole sensed board at one moment: `time` in seconds (monotonic clock).

    `since`: when the switches were last read without any change this snapshot shows
    for the first time (None: not known, e.g. the first scans). Every such change
    happened after `since`; normally that is a scan or two before `time`, but a host
    that was busy (a stall) reads late, and then it says how long the change may have
    been waiting."""

    time: float
    occupied: frozenset[int]
    since: float | None = None


@dataclass(frozen=True)
class BoardEvent:
    """Something about the device itself the host should announce
    (for example "disconnected", "reconnected"), never about the game."""

    kind: str
    detail: str = ""


EventListener = Callable[[BoardEvent], None]


class BoardUnavailable(Exception):
    """The backend cannot be used here; the message says what to install or plug in.

    As such, a set-up mistake that waiting does not mend (a library missing, not a
    Raspberry Pi, an unknown board); `BoardNotReady` is the kind that may mend itself.
    """


class BoardNotReady(BoardUnavailable):
    """The board is missing or not ready yet, and may be ready later without anyone
    changing this computer: unplugged, its device not created yet (a USB board plugged
    in after power-on, SPI being enabled), a permission udev has not applied yet, a pin
    another program still holds, a board still booting or answering with firmware
    being fixed on it. The host may wait and open it again."""


class Backend(ABC):
    """A sensing-and-lighting device. Subclasses implement `scan` and `draw`."""

    #: number of playable squares: 32 (8x8) or 50 (10x10)
    squares: int = 32

    def __init__(self) -> None:
        self.brightness: float = 0.3
        self._listener: EventListener | None = None

    def on_event(self, listener: EventListener | None) -> None:
        """Register the host's callback for device events (connect, disconnect...)."""
        self._listener = listener

    def emit(self, kind: str, detail: str = "") -> None:
        if self._listener is not None:
            self._listener(BoardEvent(kind, detail))

    @abstractmethod
    def scan(self) -> frozenset[int]:
        """Read the raw (undebounced) occupancy once."""

    @abstractmethod
    def draw(self, frame: Frame) -> None:
        """Show a whole frame at `self.brightness`."""

    def close(self) -> None:
        """Turn every LED off and release the device. Safe to call twice."""
        self.draw({})
