"""`Board`: what the host uses. One backend, one debouncer, one clock.

The host never talks to a backend directly: it polls debounced snapshots,
shows whole frames, and sets the brightness, whatever the board is (mock,
GPIO on a Pi, a microcontroller on USB). `open_board` chooses the backend
from a short string so the command line and config can name it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from types import TracebackType

from hardware.base import Backend, BoardUnavailable, Colour, EventListener, Frame, Snapshot
from hardware.debounce import DEFAULT_AGREEING_SCANS, DEFAULT_SCAN_PERIOD, Debouncer
from hardware.layout import Layout, load_layout

Clock = Callable[[], float]
Sleep = Callable[[float], None]

BACKEND_CHOICES = ("sim", "mock", "gpio", "serial:URL")


class Board:
    """A backend behind a debouncer. Use as a context manager so the LEDs go dark on exit."""

    def __init__(
        self,
        backend: Backend,
        layout: Layout,
        *,
        scan_period: float = DEFAULT_SCAN_PERIOD,
        agreeing_scans: int = DEFAULT_AGREEING_SCANS,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        if backend.squares != layout.squares:
            raise ValueError(
                f"backend has {backend.squares} squares but layout {layout.name!r} "
                f"has {layout.squares}"
            )
        self.backend = backend
        self.layout = layout
        self.debouncer = Debouncer(agreeing_scans=agreeing_scans, scan_period=scan_period)
        self.last_raw: frozenset[int] = frozenset()
        #: the times of the last reads, newest last: the read `agreeing_scans` before the
        #: one that accepts a change is the last that did not show it (`poll`)
        self._reads: deque[float] = deque(maxlen=agreeing_scans + 1)
        self._clock = clock
        self._sleep = sleep
        self._frame: dict[int, Colour] = {}
        self._closed = False
        self.brightness = min(backend.brightness, layout.max_brightness)

    @property
    def squares(self) -> int:
        return self.layout.squares

    @property
    def scan_period(self) -> float:
        return self.debouncer.scan_period

    # -- sensing ------------------------------------------------------------------

    def poll(self, now: float | None = None) -> Snapshot:
        """Scan once and return the debounced board (`now` defaults to the clock), with
        the time of the last read that did not show the changes it accepts (`since`).

        A change is accepted on the `agreeing_scans`-th read in a row that shows it, so
        the read before those did not: the change happened after that read. (On the
        serial board, `scan` is a read of the latest OCCUPANCY the board sent: the same
        holds for the host's reads of it.)"""
        self._check_open()
        raw = self.backend.scan()
        self.last_raw = raw
        stable = self.debouncer.update(raw)
        time_read = self._clock() if now is None else now
        self._reads.append(time_read)
        reads = self._reads
        since = reads[0] if len(reads) == reads.maxlen else None
        return Snapshot(time_read, stable, since)

    def settle(self, timeout: float = 0.5) -> Snapshot:
        """Scan until the board is known, and return that first debounced snapshot.

        The debouncer starts from an empty board and accepts a piece only after
        `agreeing_scans` scans, so the very first `poll()` always reads empty.
        Code that compares the board with what it expects (resuming a game
        after a power cut) must start from this instead, or every piece looks
        lifted. It returns once `agreeing_scans` scans in a row read the same
        board and the debounced board equals it; while a square still changes
        (a contact bouncing, a hand still on the board) it scans on, for at
        most `timeout` seconds.
        """
        deadline = self._clock() + timeout
        snapshot = self.poll()
        same = 1
        while same < self.debouncer.agreeing_scans or snapshot.occupied != self.last_raw:
            if self._clock() >= deadline:
                break
            previous = self.last_raw
            self._sleep(self.scan_period)
            snapshot = self.poll()
            same = same + 1 if self.last_raw == previous else 1
        return snapshot

    def snapshots(self) -> Iterator[Snapshot]:
        """Scan every `scan_period` in real time and yield one snapshot per scan, forever.

        Ticks are kept on a fixed grid, so a slow consumer makes the generator
        skip missed ticks rather than drift or burst.
        """
        period = self.scan_period
        deadline = self._clock()
        while True:
            yield self.poll()
            deadline += period
            now = self._clock()
            if now >= deadline:
                deadline = now  # fell behind: restart the grid instead of catching up in a burst
            else:
                self._sleep(deadline - now)

    # -- lighting -------------------------------------------------------------------

    def show(self, frame: Frame) -> None:
        """Show a whole frame (square -> (r, g, b)); squares left out are dark."""
        self._check_open()
        squares = self.squares
        checked = {sq: _colour(sq, colour, squares) for sq, colour in frame.items()}
        self._frame = checked
        self.backend.draw(checked)

    @property
    def brightness(self) -> float:
        """The brightness in use, 0..1; never above the layout's `max_brightness`."""
        return self.backend.brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0 <= value <= 1:
            raise ValueError(f"brightness must be between 0 and 1, not {value}")
        self.backend.brightness = min(float(value), self.layout.max_brightness)
        if self._frame:
            self.backend.draw(self._frame)  # frames are idempotent: redraw at the new level

    # -- device events and lifetime ------------------------------------------------

    def on_event(self, listener: EventListener | None) -> None:
        """Receive device events (for example "disconnected", "reconnected")."""
        self.backend.on_event(listener)

    def close(self) -> None:
        """Turn the LEDs off and release the device. Safe to call twice."""
        if not self._closed:
            self._closed = True
            self.backend.close()

    def __enter__(self) -> Board:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the board is closed")


def _colour(square: int, colour: Colour, squares: int) -> Colour:
    if not isinstance(square, int) or not 1 <= square <= squares:
        raise ValueError(f"frame names square {square!r}, outside 1..{squares}")
    if len(colour) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in colour):
        raise ValueError(f"square {square}: colour {colour!r} is not (r, g, b) with 0..255")
    return (colour[0], colour[1], colour[2])


def open_board(
    spec: str,
    layout: Layout | None = None,
    *,
    scan_period: float = DEFAULT_SCAN_PERIOD,
    agreeing_scans: int = DEFAULT_AGREEING_SCANS,
) -> Board:
    """Open the board named by `spec`: `sim`/`mock`, `gpio`, or `serial:URL`."""
    layout = layout if layout is not None else load_layout("standard-8x8")
    backend = _backend(spec, layout)
    return Board(backend, layout, scan_period=scan_period, agreeing_scans=agreeing_scans)


def _backend(spec: str, layout: Layout) -> Backend:
    if spec in ("sim", "mock"):
        from hardware.mock import MockBoard

        return MockBoard(layout.squares)
    if spec == "gpio":
        from hardware.gpio import GpioBackend

        return GpioBackend(layout)
    if spec.startswith("serial:"):
        url = spec.removeprefix("serial:")
        if not url:
            raise BoardUnavailable("serial needs a port or URL, for example serial:/dev/ttyACM1")
        try:
            from hardware.serial_link import SerialBackend
        except ModuleNotFoundError as error:
            if error.name != "hardware.serial_link":
                raise
            raise BoardUnavailable("this installation has no serial backend") from None
        return SerialBackend(url, layout)
    raise BoardUnavailable(f"unknown board {spec!r}; choose one of: {', '.join(BACKEND_CHOICES)}")
