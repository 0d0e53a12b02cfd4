"""How one physical board is wired: switch matrix -> squares, LED chain -> squares, pins.

Squares are numbered 1..N in reading order from White's seat (far row first,
left to right, dark squares only). The switch matrix has `rows` x `columns`
lines; sensor index = row * columns + column, and `sensor_squares[i]` is the
square that switch sits under. `led_squares[i]` is the square lit by the i-th
LED along the data chain (0 marks a spare LED that stays dark). Builders
whose wiring differs copy a TOML file from `hardware/layouts/` and edit it;
nothing in the code assumes the standard wiring.

Mirrored variants (Portuguese, Spanish, Italian) are played on the same
physical board turned a quarter turn. `Layout.rotated` returns the wiring as
seen from White's new seat, so the host keeps one numbering rule.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

#: GPIO numbers the Pi can send a WS2812 signal from (PWM0, PWM0 alt, PCM, SPI MOSI).
NEOPIXEL_PINS = frozenset({10, 12, 18, 21})
#: BCM numbers usable as plain GPIO on the 40-pin header.
HEADER_GPIO = frozenset(range(2, 28))
#: Microseconds the scanner waits after driving a row before reading the columns.
#: A column's pull-up (about 50 kOhm) recharges the wire and reed capacitance (about
#: 100 pF on a long ribbon) in about 5 us; read sooner and it still shows the row
#: scanned before, as a steady ghost piece. CircuitPython's KeyMatrix waits 1 us.
DEFAULT_SETTLE_US = 10.0


class LayoutError(ValueError):
    """A layout file or value is inconsistent; the message names the field."""


@dataclass(frozen=True)
class Layout:
    """One board's wiring. Immutable; build variants with `rotated` or `dataclasses.replace`."""

    name: str
    squares: int
    rows: int
    columns: int
    sensor_squares: tuple[int, ...]
    led_squares: tuple[int, ...]
    row_pins: tuple[int, ...] = ()
    column_pins: tuple[int, ...] = ()
    led_pin: int = 10
    colour_order: str = "GRB"
    max_brightness: float = 0.5
    #: microseconds between driving a row and reading the columns (see DEFAULT_SETTLE_US)
    settle_us: float = DEFAULT_SETTLE_US
    #: quarter turns (clockwise, seen from above) from the standard orientation
    quarter_turns: int = 0
    _led_index: Mapping[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _validate(self)
        index = {square: led for led, square in enumerate(self.led_squares) if square}
        object.__setattr__(self, "_led_index", index)

    # -- geometry -------------------------------------------------------------

    @property
    def size(self) -> int:
        """Squares along one edge of the board: 8 or 10."""
        return math.isqrt(2 * self.squares)

    @property
    def led_count(self) -> int:
        """LEDs on the data chain, spares included."""
        return len(self.led_squares)

    @property
    def a1_dark(self) -> bool:
        """True when the corner at White's left hand is a dark square (the standard set-up)."""
        return self.quarter_turns % 2 == 0

    def square_of_sensor(self, index: int) -> int:
        """The square under switch `index` (row * columns + column)."""
        if not 0 <= index < len(self.sensor_squares):
            raise IndexError(f"sensor index {index} is outside 0..{len(self.sensor_squares) - 1}")
        return self.sensor_squares[index]

    def led_of_square(self, square: int) -> int:
        """The position along the LED chain of the LED under `square`."""
        try:
            return self._led_index[square]
        except KeyError:
            raise IndexError(f"square {square} is outside 1..{self.squares}") from None

    def cell_of_square(self, square: int) -> tuple[int, int]:
        """(row from the far edge, file from the left) of `square`, seen from White's seat."""
        if not 1 <= square <= self.squares:
            raise IndexError(f"square {square} is outside 1..{self.squares}")
        return cell_of_square(square, self.size, self.a1_dark)

    def rotated(self, quarter_turns: int) -> Layout:
        """This wiring after the physical board is turned `quarter_turns` clockwise.

        The sensors and LEDs stay where they are under the wood; only which
        square each one is, counted from White's seat, changes. An odd number
        of turns makes White's left-hand corner light, as the mirrored
        variants require.
        """
        turns = quarter_turns % 4
        if turns == 0:
            return self
        size = self.size
        renumber: dict[int, int] = {}
        for square in range(1, self.squares + 1):
            row, file = cell_of_square(square, size, self.a1_dark)
            for _ in range(turns):
                row, file = file, size - 1 - row
            renumber[square] = square_of_cell(row, file, size)
        return replace(
            self,
            sensor_squares=tuple(renumber[s] for s in self.sensor_squares),
            led_squares=tuple(renumber[s] if s else 0 for s in self.led_squares),
            quarter_turns=(self.quarter_turns + turns) % 4,
        )


def cell_of_square(square: int, size: int, a1_dark: bool = True) -> tuple[int, int]:
    """Reading-order square number -> (row from the far edge, file from the left)."""
    per_row = size // 2
    row, k = divmod(square - 1, per_row)
    # With a1 dark the far-left corner is light on an even board: dark files are odd in row 0.
    offset = (row + (1 if a1_dark else 0)) % 2
    return row, 2 * k + offset


def square_of_cell(row: int, file: int, size: int) -> int:
    """(row, file) of a dark square -> its reading-order number."""
    return row * (size // 2) + file // 2 + 1


# -- the standard wiring ---------------------------------------------------------

DEFAULT_ROW_PINS = (4, 17, 27, 22, 5, 6, 13, 19, 26, 20)
DEFAULT_COLUMN_PINS = (23, 24, 25, 16, 12)


def serpentine(rows: int, columns: int) -> tuple[int, ...]:
    """LED order of a chain laid back and forth: far row left to right, next right to left."""
    order: list[int] = []
    for row in range(rows):
        squares = [row * columns + c + 1 for c in range(columns)]
        order.extend(squares if row % 2 == 0 else reversed(squares))
    return tuple(order)


def standard_layout(size: int = 8) -> Layout:
    """The documented default wiring for a `size` x `size` board (identical to the TOML files)."""
    rows, columns = size, size // 2
    return Layout(
        name=f"standard-{size}x{size}",
        squares=rows * columns,
        rows=rows,
        columns=columns,
        sensor_squares=tuple(range(1, rows * columns + 1)),
        led_squares=serpentine(rows, columns),
        row_pins=DEFAULT_ROW_PINS[:rows],
        column_pins=DEFAULT_COLUMN_PINS[:columns],
    )


# -- validation ---------------------------------------------------------------------


def _validate(layout: Layout) -> None:
    n = layout.squares
    size = math.isqrt(2 * n)
    if n <= 0 or size * size != 2 * n or size % 2:
        raise LayoutError(f"squares = {n}: a board has 32 (8x8) or 50 (10x10) dark squares")
    if layout.rows * layout.columns != n:
        raise LayoutError(
            f"rows x columns = {layout.rows} x {layout.columns} does not cover {n} squares"
        )
    _check_permutation("sensors.squares", layout.sensor_squares, n, allow_spare=False)
    _check_permutation("leds.squares", layout.led_squares, n, allow_spare=True)
    if layout.row_pins or layout.column_pins:
        if len(layout.row_pins) != layout.rows:
            raise LayoutError(f"pins.rows lists {len(layout.row_pins)} pins for {layout.rows} rows")
        if len(layout.column_pins) != layout.columns:
            raise LayoutError(
                f"pins.columns lists {len(layout.column_pins)} pins for {layout.columns} columns"
            )
    named = [("pins.rows", p) for p in layout.row_pins]
    named += [("pins.columns", p) for p in layout.column_pins]
    named.append(("leds.pin", layout.led_pin))
    seen: dict[int, str] = {}
    for where, pin in named:
        if pin not in HEADER_GPIO:
            raise LayoutError(f"{where}: GPIO{pin} is not on the header (BCM 2..27)")
        if pin in seen:
            raise LayoutError(f"{where}: GPIO{pin} is already used by {seen[pin]}")
        seen[pin] = where
    if layout.led_pin not in NEOPIXEL_PINS:
        raise LayoutError(
            f"leds.pin: GPIO{layout.led_pin} cannot drive NeoPixels; use 10 (SPI), 12, 18 or 21"
        )
    if sorted(layout.colour_order) != ["B", "G", "R"]:
        raise LayoutError(f"leds.order = {layout.colour_order!r}: use a permutation of RGB")
    if not 0 < layout.max_brightness <= 1:
        raise LayoutError(f"leds.max_brightness = {layout.max_brightness}: use 0 < value <= 1")
    if not 0 <= layout.settle_us <= 1000:
        raise LayoutError(f"pins.settle_us = {layout.settle_us}: use 0..1000 microseconds")


def _check_permutation(where: str, values: tuple[int, ...], n: int, *, allow_spare: bool) -> None:
    used = [v for v in values if not (allow_spare and v == 0)]
    bad = [v for v in used if not 1 <= v <= n]
    if bad:
        raise LayoutError(f"{where}: {bad[0]} is not a square 1..{n}")
    missing = sorted(set(range(1, n + 1)) - set(used))
    if missing:
        raise LayoutError(f"{where}: squares {_short(missing)} are missing")
    if len(used) != n:
        twice = sorted({v for v in used if used.count(v) > 1})
        raise LayoutError(f"{where}: squares {_short(twice)} appear more than once")


def _short(values: list[int]) -> str:
    text = ", ".join(map(str, values[:8]))
    return text + (", ..." if len(values) > 8 else "")


# -- loading --------------------------------------------------------------------------


def layout_names() -> list[str]:
    """Names of the layouts shipped in `hardware/layouts/`."""
    folder = resources.files("hardware.layouts")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_layout(path_or_name: str | Path) -> Layout:
    """Read a layout TOML file, given as a path or as a shipped name like `standard-8x8`."""
    text, origin = _read(path_or_name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LayoutError(f"{origin}: not valid TOML ({error})") from None
    try:
        return layout_from_dict(data, default_name=Path(origin).stem)
    except LayoutError as error:
        raise LayoutError(f"{origin}: {error}") from None


def _read(path_or_name: str | Path) -> tuple[str, str]:
    path = Path(path_or_name)
    if path.suffix == ".toml" or path.exists():
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as error:
            raise LayoutError(f"cannot read layout file {path}: {error.strerror}") from None
    shipped = resources.files("hardware.layouts") / f"{path_or_name}.toml"
    if not shipped.is_file():
        choices = ", ".join(layout_names())
        raise LayoutError(f"no layout named {str(path_or_name)!r}; shipped layouts: {choices}")
    return shipped.read_text(encoding="utf-8"), f"{path_or_name}.toml"


def layout_from_dict(data: Mapping[str, Any], default_name: str = "custom") -> Layout:
    """Build a `Layout` from parsed TOML: tables `[board]`, `[sensors]`, `[leds]`, `[pins]`."""
    board = _table(data, "board")
    sensors = _table(data, "sensors")
    leds = _table(data, "leds")
    pins = _table(data, "pins")
    squares = _int(board, "board.squares")
    sensor_rows = _rows(sensors, "sensors.squares")
    rows = len(sensor_rows)
    columns = len(sensor_rows[0]) if sensor_rows else 0
    if any(len(r) != columns for r in sensor_rows):
        raise LayoutError("sensors.squares: every row must list the same number of columns")
    led_squares = _ints(leds, "leds.squares")
    count = leds.get("count", len(led_squares))
    if count != len(led_squares):
        raise LayoutError(f"leds.count = {count} but leds.squares lists {len(led_squares)} LEDs")
    brightness = leds.get("max_brightness", 0.5)
    if not isinstance(brightness, int | float) or isinstance(brightness, bool):
        raise LayoutError("leds.max_brightness must be a number between 0 and 1")
    settle_us = pins.get("settle_us", DEFAULT_SETTLE_US)
    if not isinstance(settle_us, int | float) or isinstance(settle_us, bool):
        raise LayoutError("pins.settle_us must be a number of microseconds")
    order = leds.get("order", "GRB")
    if not isinstance(order, str):
        raise LayoutError('leds.order must be a string such as "GRB"')
    return Layout(
        name=str(board.get("name", default_name)),
        squares=squares,
        rows=rows,
        columns=columns,
        sensor_squares=tuple(s for row in sensor_rows for s in row),
        led_squares=led_squares,
        row_pins=_ints(pins, "pins.rows"),
        column_pins=_ints(pins, "pins.columns"),
        settle_us=float(settle_us),
        led_pin=_int(leds, "leds.pin"),
        colour_order=order.upper(),
        max_brightness=float(brightness),
    )


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    table = data.get(name)
    if not isinstance(table, Mapping):
        raise LayoutError(f"[{name}] table is missing")
    return table


def _int(table: Mapping[str, Any], dotted: str) -> int:
    value = table.get(dotted.split(".")[-1])
    if not isinstance(value, int) or isinstance(value, bool):
        raise LayoutError(f"{dotted} must be a whole number")
    return value


def _ints(table: Mapping[str, Any], dotted: str) -> tuple[int, ...]:
    value = table.get(dotted.split(".")[-1])
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise LayoutError(f"{dotted} must be a list of whole numbers")
    return tuple(value)


def _rows(table: Mapping[str, Any], dotted: str) -> list[tuple[int, ...]]:
    value = table.get(dotted.split(".")[-1])
    if not isinstance(value, list) or not value or not all(isinstance(r, list) for r in value):
        raise LayoutError(f"{dotted} must be a list of rows, one list of squares per row pin")
    if not all(_is_int(v) for row in value for v in row):
        raise LayoutError(f"{dotted} must hold whole numbers only")
    return [tuple(row) for row in value]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def to_toml(layout: Layout, comment: Iterable[str] = ()) -> str:
    """Write `layout` as TOML that `load_layout` reads back (generates the shipped files)."""
    lines = [f"# {c}" if c else "#" for c in comment]
    lines += ["", "[board]", f'name = "{layout.name}"', f"squares = {layout.squares}", ""]
    lines += [
        "[pins]",
        "# BCM GPIO numbers; rows are driven low one at a time, columns have pull-ups.",
        f"rows = [{', '.join(map(str, layout.row_pins))}]",
        f"columns = [{', '.join(map(str, layout.column_pins))}]",
        "# Microseconds to wait after driving a row before reading the columns: long",
        "# wires need longer (a steady ghost piece one rank away means too short).",
        f"settle_us = {layout.settle_us:g}",
        "",
        "[sensors]",
        "# One line per row pin, one number per column pin: the square above that switch.",
        "squares = [",
    ]
    width = len(str(layout.squares))
    for r in range(layout.rows):
        row = layout.sensor_squares[r * layout.columns : (r + 1) * layout.columns]
        lines.append("    [" + ", ".join(f"{s:>{width}}" for s in row) + "],")
    lines += [
        "]",
        "",
        "[leds]",
        "# Data pin: 10 (SPI, needs no root), 12, 18 or 21.",
        f"pin = {layout.led_pin}",
        f"count = {layout.led_count}",
        f'order = "{layout.colour_order}"',
        "# Software cap on brightness: keeps the supply and the LEDs cool.",
        f"max_brightness = {layout.max_brightness}",
        "# The square lit by LED 0, 1, 2, ... along the chain (0 = spare LED, kept dark).",
        "squares = [",
    ]
    per_line = layout.columns
    for start in range(0, layout.led_count, per_line):
        chunk = layout.led_squares[start : start + per_line]
        lines.append("    " + ", ".join(f"{s:>{width}}" for s in chunk) + ",")
    lines += ["]", ""]
    return "\n".join(lines)
