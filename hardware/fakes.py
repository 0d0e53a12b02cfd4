"""Look-alikes of the Pi's hardware libraries, for tests, the bench and dry runs.

`FakeGPIO` behaves like the `RPi.GPIO` module wired to a reed-switch matrix:
it knows which pins are rows and columns, which switches are closed, whether
each switch has its diode, and lets a contact bounce. Reading a column walks
the circuit the way current would, so a scanner that drives two rows, forgets
a pull-up or leaves out the diodes gets the same wrong answers as on a real
board. `FakeNeoPixel` behaves like `neopixel.NeoPixel` and keeps the bytes
each `show()` would put on the data line (colour order and brightness applied
as adafruit_pixelbuf does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hardware.layout import Layout

Switch = tuple[int, int]  # (row, column)


class FakeGPIO:
    """An RPi.GPIO-compatible module simulating a switch matrix electrically."""

    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22

    def __init__(self, layout: Layout, *, diodes: bool = True) -> None:
        self.layout = layout
        self.diodes = diodes
        self.mode: int | None = None
        self.closed: set[Switch] = set()
        self.setup_calls = 0
        self.most_rows_driven = 0
        self.cleaned: list[int] = []
        self._row_of_pin = {pin: r for r, pin in enumerate(layout.row_pins)}
        self._column_of_pin = {pin: c for c, pin in enumerate(layout.column_pins)}
        self._direction: dict[int, int] = {}
        self._pull: dict[int, int] = {}
        self._level: dict[int, int] = {}
        self._bounce: dict[Switch, tuple[int, int]] = {}  # switch -> (scans left, total)
        self._flipped: set[Switch] = set()

    # -- the hands' side -----------------------------------------------------------

    def switch_of_square(self, square: int) -> Switch:
        index = self.layout.sensor_squares.index(square)
        return divmod(index, self.layout.columns)

    def set_squares(self, squares: Iterable[int]) -> None:
        """Close exactly the switches under `squares` (no bounce)."""
        self.closed = {self.switch_of_square(s) for s in squares}

    def close_switch(self, square: int, bounce: int = 0) -> None:
        """A magnet arrives over `square`; the contact chatters for `bounce` row scans."""
        switch = self.switch_of_square(square)
        self.closed.add(switch)
        if bounce:
            self._bounce[switch] = (bounce, bounce)

    def open_switch(self, square: int, bounce: int = 0) -> None:
        """A magnet leaves `square`; the contact chatters for `bounce` row scans."""
        switch = self.switch_of_square(square)
        self.closed.discard(switch)
        if bounce:
            self._bounce[switch] = (bounce, bounce)

    # -- the RPi.GPIO API ------------------------------------------------------------

    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        if mode not in (self.BCM, self.BOARD):
            raise ValueError("An invalid mode was passed to setmode()")
        self.mode = mode

    def getmode(self) -> int | None:
        return self.mode

    def setup(
        self,
        channel: int | Sequence[int],
        direction: int,
        pull_up_down: int = PUD_OFF,
        initial: int = -1,
    ) -> None:
        if self.mode is None:
            raise RuntimeError(
                "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                "GPIO.setmode(GPIO.BCM)"
            )
        channels = [channel] if isinstance(channel, int) else list(channel)
        for pin in channels:
            self.setup_calls += 1
            self._direction[pin] = direction
            self._pull[pin] = pull_up_down
            if direction == self.OUT:
                self._set_output(pin, self.LOW if initial == -1 else initial)
            else:
                self._level.pop(pin, None)

    def output(self, channel: int, value: int) -> None:
        if self._direction.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self._set_output(channel, int(bool(value)))

    def input(self, channel: int) -> int:
        if channel not in self._direction:
            raise RuntimeError("You must setup() the GPIO channel first")
        if self._direction[channel] == self.OUT:
            return self._level[channel]
        column = self._column_of_pin.get(channel)
        if column is not None and self._sinks_to_low_row(column):
            return self.LOW
        if self._pull[channel] == self.PUD_UP:
            return self.HIGH
        raise RuntimeError(f"GPIO{channel} is floating: an input with no pull-up reads noise")

    def cleanup(self, channel: int | Sequence[int] | None = None) -> None:
        pins = (
            list(self._direction)
            if channel is None
            else ([channel] if isinstance(channel, int) else list(channel))
        )
        for pin in pins:
            self._direction.pop(pin, None)
            self._level.pop(pin, None)
            self.cleaned.append(pin)

    # -- the circuit ---------------------------------------------------------------

    def _set_output(self, pin: int, level: int) -> None:
        self._level[pin] = level
        row = self._row_of_pin.get(pin)
        if row is not None and level == self.LOW:
            self._advance_bounce(row)
        driven = sum(
            1
            for p, r in self._row_of_pin.items()
            if self._direction.get(p) == self.OUT and self._level.get(p) == self.LOW
        )
        self.most_rows_driven = max(self.most_rows_driven, driven)

    def _advance_bounce(self, row: int) -> None:
        """A row scan samples its bouncing contacts: new level, old, new... then at rest."""
        self._flipped -= {s for s in self._flipped if s[0] == row}
        for switch, (left, total) in list(self._bounce.items()):
            if switch[0] != row:
                continue
            if (total - left) % 2 == 1:
                self._flipped.add(switch)
            if left <= 1:
                del self._bounce[switch]
            else:
                self._bounce[switch] = (left - 1, total)

    def _contacts(self) -> set[Switch]:
        return self.closed ^ self._flipped

    def _low_rows(self) -> set[int]:
        return {
            r
            for p, r in self._row_of_pin.items()
            if self._direction.get(p) == self.OUT and self._level.get(p) == self.LOW
        }

    def _sinks_to_low_row(self, column: int) -> bool:
        """Does current flow from this pulled-up column into a row driven low?"""
        contacts = self._contacts()
        low = self._low_rows()
        if self.diodes:  # current flows column -> row only, through the switch's own diode
            return any((r, column) in contacts for r in low)
        seen_rows: set[int] = set()
        seen_columns = {column}
        frontier = [("c", column)]
        while frontier:
            kind, index = frontier.pop()
            for r, c in contacts:
                if kind == "c" and c == index and r not in seen_rows:
                    if r in low:
                        return True
                    seen_rows.add(r)
                    frontier.append(("r", r))
                elif kind == "r" and r == index and c not in seen_columns:
                    seen_columns.add(c)
                    frontier.append(("c", c))
        return False


class FakeNeoPixel:
    """A `neopixel.NeoPixel` look-alike that keeps the bytes each `show()` sends."""

    def __init__(
        self,
        pin: object,
        n: int,
        *,
        brightness: float = 1.0,
        auto_write: bool = True,
        pixel_order: str = "GRB",
    ) -> None:
        self.pin = pin
        self.n = n
        self.brightness = brightness
        self.auto_write = auto_write
        self.pixel_order = pixel_order
        self.writes: list[bytes] = []
        self.deinited = False
        self._pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * n

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int | slice, value: object) -> None:
        if isinstance(index, slice):
            values = [tuple(v) for v in value]  # type: ignore[attr-defined]
            if len(values) != len(range(*index.indices(self.n))):
                raise ValueError("slice and input sequence size do not match")
            self._pixels[index] = values  # type: ignore[assignment]
        else:
            self._pixels[index] = tuple(value)  # type: ignore[arg-type]
        if self.auto_write:
            self.show()

    def __getitem__(self, index: int) -> tuple[int, int, int]:
        return self._pixels[index]

    def fill(self, colour: tuple[int, int, int]) -> None:
        self[0 : self.n] = [colour] * self.n

    def show(self) -> None:
        data = bytearray()
        for pixel in self._pixels:
            rgb = dict(zip("RGB", pixel, strict=True))
            data.extend(int(rgb[channel] * self.brightness) for channel in self.pixel_order)
        self.writes.append(bytes(data))

    def deinit(self) -> None:
        self.deinited = True


class FakeNeopixelModule:
    """Stands in for the `neopixel` module: `NeoPixel` builds `FakeNeoPixel`s, kept in `made`."""

    GRB = "GRB"
    RGB = "RGB"

    def __init__(self) -> None:
        self.made: list[FakeNeoPixel] = []

    def NeoPixel(self, pin: object, n: int, **kwargs: object) -> FakeNeoPixel:
        pixels = FakeNeoPixel(pin, n, **kwargs)  # type: ignore[arg-type]
        self.made.append(pixels)
        return pixels


class FakeBoardPins:
    """Stands in for Blinka's `board` module: `D0`..`D27` are pin names."""

    def __getattr__(self, name: str) -> str:
        if name.startswith("D") and name[1:].isdigit() and int(name[1:]) <= 27:
            return name
        raise AttributeError(name)
