"""Reed switches in a diode matrix on the Pi's GPIO, plus NeoPixels: the `gpio` backend.

The scanner is written against the RPi.GPIO *API* and takes the module as a
parameter. By default it imports `RPi.GPIO`, which is the real library on a
Pi 3/4/Zero 2 and rpi-lgpio's drop-in on a Pi 5; tests pass an electrical
fake (`hardware.fakes.FakeGPIO`). Nothing here is imported at package import,
so `import hardware.gpio` works on any laptop.

Scanning: one row (rank) at a time is driven low while the others float as
inputs; each column has a pull-up and reads low when the switch joining it
to the driven row is closed. One diode per switch (anode to the column) stops
current sneaking back through other closed switches, which would otherwise
show ghost pieces in the start position. After driving a row the scanner
waits the layout's `settle_us` before reading: a column that the previous
row pulled low needs a few microseconds to recharge through its pull-up,
and read too early it shows that row's piece again, one rank away.

RPi.GPIO and rpi-lgpio fail at `setmode()`/`setup()`, not at import, when
the Pi is misconfigured; `hardware.pi_errors` turns that into one sentence.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from hardware.base import Backend, BoardUnavailable, Frame
from hardware.layout import Layout
from hardware.pi_errors import gpio_failure
from hardware.pixels import PixelDriver, PixelStrip

Wait = Callable[[float], None]

INSTALL_HINT = (
    "install the Pi extra with pip install 'draughtsboard[pi]' "
    "(or 'draughtsboard[pi5]' on a Raspberry Pi 5)"
)


def import_rpi_gpio() -> ModuleType:
    """Import RPi.GPIO (or rpi-lgpio's module of the same name), or explain what is missing."""
    try:
        import RPi.GPIO as gpio
    except ImportError as error:
        if error.name not in ("RPi", "RPi.GPIO"):  # rpi-lgpio installed without lgpio
            raise BoardUnavailable(
                f"RPi.GPIO needs {error.name}, which is missing: {INSTALL_HINT}."
            ) from None
        raise BoardUnavailable(f"The gpio board needs RPi.GPIO: {INSTALL_HINT}.") from None
    except (RuntimeError, NotImplementedError) as error:  # x86: "only on a Raspberry Pi"
        raise BoardUnavailable(
            f"RPi.GPIO cannot run here ({error}): the gpio board needs a Raspberry Pi; "
            "on a Pi 5 replace RPi.GPIO with rpi-lgpio via pip install 'draughtsboard[pi5]'."
        ) from None
    return gpio


def busy_wait(seconds: float) -> None:
    """Wait a few microseconds; `time.sleep` on Linux rounds such waits up to 50-100 us."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class MatrixScanner:
    """Reads the switch matrix described by a layout through an RPi.GPIO-like module."""

    def __init__(self, layout: Layout, gpio: Any = None, *, wait: Wait = busy_wait) -> None:
        if not layout.row_pins or not layout.column_pins:
            raise BoardUnavailable(f"layout {layout.name!r} names no GPIO pins for the switches.")
        self.layout = layout
        self.gpio = gpio if gpio is not None else import_rpi_gpio()
        self._rows = layout.row_pins
        self._columns = layout.column_pins
        self._squares = layout.sensor_squares
        self._settle = layout.settle_us / 1e6
        self._wait = wait
        self._closed = False
        self._configure()

    def _configure(self) -> None:
        """Rows idle as inputs, columns pulled up; a library failure becomes one sentence."""
        g = self.gpio
        pin: int | None = None
        try:
            g.setwarnings(False)
            g.setmode(g.BCM)  # rpi-lgpio opens /dev/gpiochip here
            for pin in self._rows:
                g.setup(pin, g.IN)  # idle rows float: a closed switch on them carries no current
            for pin in self._columns:
                g.setup(pin, g.IN, pull_up_down=g.PUD_UP)
        except Exception as error:  # noqa: BLE001 - lgpio.error is a bare Exception subclass
            self.close()
            raise gpio_failure(error, pin) from None

    def scan(self) -> frozenset[int]:
        """Drive each row low in turn and collect the squares whose column reads low."""
        g = self.gpio
        low, inp, out = g.LOW, g.IN, g.OUT
        columns = self._columns
        width = len(columns)
        settle, wait = self._settle, self._wait
        occupied: list[int] = []
        for r, row_pin in enumerate(self._rows):
            g.setup(row_pin, out, initial=low)
            try:
                if settle:
                    wait(settle)  # let the columns the last row pulled low recharge
                base = r * width
                for c, column_pin in enumerate(columns):
                    if g.input(column_pin) == low:
                        occupied.append(self._squares[base + c])
            finally:
                g.setup(row_pin, inp)
        return frozenset(occupied)

    def close(self) -> None:
        """Return every pin this scanner used to an input. Safe to call twice."""
        if not self._closed:
            self._closed = True
            # releasing pins that never opened must not hide why they did not
            with contextlib.suppress(Exception):
                self.gpio.cleanup(list(self._rows) + list(self._columns))


class GpioBackend(Backend):
    """Switch matrix on GPIO and a NeoPixel chain, both described by one layout."""

    def __init__(
        self,
        layout: Layout,
        gpio: Any = None,
        pixels: PixelDriver | None = None,
        *,
        wait: Wait = busy_wait,
    ) -> None:
        super().__init__()
        self.squares = layout.squares
        self.brightness = min(self.brightness, layout.max_brightness)
        self.scanner = MatrixScanner(layout, gpio, wait=wait)
        try:
            self.strip = PixelStrip(layout, pixels)
        except BaseException:
            self.scanner.close()
            raise
        self._closed = False

    def scan(self) -> frozenset[int]:
        return self.scanner.scan()

    def draw(self, frame: Frame) -> None:
        self.strip.draw(frame, self.brightness)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.strip.close()
        finally:
            self.scanner.close()
