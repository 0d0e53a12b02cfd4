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
show ghost pieces in the start position.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from hardware.base import Backend, BoardUnavailable, Frame
from hardware.layout import Layout
from hardware.pixels import PixelDriver, PixelStrip

INSTALL_HINT = (
    "install the Pi extra with pip install 'draughtsboard[pi]' "
    "(or 'draughtsboard[pi5]' on a Raspberry Pi 5)"
)


def import_rpi_gpio() -> ModuleType:
    """Import RPi.GPIO (or rpi-lgpio's module of the same name), or explain what is missing."""
    try:
        import RPi.GPIO as gpio  # type: ignore[import-not-found]
    except ImportError:
        raise BoardUnavailable(f"The gpio board needs RPi.GPIO: {INSTALL_HINT}.") from None
    except RuntimeError as error:  # x86: "only on a Raspberry Pi"; Pi 5: "SOC peripheral base"
        raise BoardUnavailable(
            f"RPi.GPIO cannot run here ({error}): the gpio board needs a Raspberry Pi; "
            "on a Pi 5 replace RPi.GPIO with rpi-lgpio via pip install 'draughtsboard[pi5]'."
        ) from None
    return gpio


class MatrixScanner:
    """Reads the switch matrix described by a layout through an RPi.GPIO-like module."""

    def __init__(self, layout: Layout, gpio: Any = None) -> None:
        if not layout.row_pins or not layout.column_pins:
            raise BoardUnavailable(f"layout {layout.name!r} names no GPIO pins for the switches.")
        self.layout = layout
        self.gpio = gpio if gpio is not None else import_rpi_gpio()
        self._rows = layout.row_pins
        self._columns = layout.column_pins
        self._squares = layout.sensor_squares
        g = self.gpio
        g.setwarnings(False)
        g.setmode(g.BCM)
        for pin in self._rows:
            g.setup(pin, g.IN)  # idle rows float: a closed switch on them carries no current
        for pin in self._columns:
            g.setup(pin, g.IN, pull_up_down=g.PUD_UP)
        self._closed = False

    def scan(self) -> frozenset[int]:
        """Drive each row low in turn and collect the squares whose column reads low."""
        g = self.gpio
        low, inp, out = g.LOW, g.IN, g.OUT
        columns = self._columns
        width = len(columns)
        occupied: list[int] = []
        for r, row_pin in enumerate(self._rows):
            g.setup(row_pin, out, initial=low)
            try:
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
            self.gpio.cleanup(list(self._rows) + list(self._columns))


class GpioBackend(Backend):
    """Switch matrix on GPIO and a NeoPixel chain, both described by one layout."""

    def __init__(self, layout: Layout, gpio: Any = None, pixels: PixelDriver | None = None) -> None:
        super().__init__()
        self.squares = layout.squares
        self.brightness = min(self.brightness, layout.max_brightness)
        self.scanner = MatrixScanner(layout, gpio)
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
