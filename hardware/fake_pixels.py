"""A look-alike of `neopixel.NeoPixel` (and of Blinka's `board` pins) that keeps the bytes sent.

It copies adafruit-circuitpython-neopixel over adafruit-circuitpython-pixelbuf,
the pure-Python buffer Blinka uses on a Pi; tests/hardware/test_pixels.py runs
the same cases against the real libraries.
"""

from __future__ import annotations

from collections.abc import Sequence


class FakeNeoPixel:
    """A `neopixel.NeoPixel` look-alike that keeps the bytes each `show()` sends.

    Copies adafruit-circuitpython-neopixel 6.4.2 over adafruit-circuitpython-pixelbuf
    2.1.0 (adafruit_pixelbuf.py), the pure-Python buffer Blinka uses on a Pi:
    colours are (r, g, b) tuples or packed 0xRRGGBB ints; a channel outside
    0..255 raises bytearray's ValueError; brightness is clamped to 0..1 and
    applied with int() truncation when stored; a list assigned to a slice is
    taken element by element; `deinit()` sends one dark frame.
    """

    def __init__(
        self,
        pin: object,
        n: int,
        *,
        bpp: int = 3,
        brightness: float = 1.0,
        auto_write: bool = True,
        pixel_order: str | None = None,
    ) -> None:
        order = pixel_order or ("GRB" if bpp == 3 else "GRBW")
        if order.strip("RGB") != "" or sorted(order) != ["B", "G", "R"]:
            raise ValueError("Invalid Byteorder string")
        self.pin = pin
        self.n = n
        self.auto_write = False
        self.pixel_order = order
        self.writes: list[bytes] = []
        self.deinited = False
        self._offsets = (order.index("R"), order.index("G"), order.index("B"))
        self._pre = bytearray(3 * n)
        self._post = bytearray(3 * n)
        self._brightness = 1.0
        self.brightness = brightness
        self.auto_write = auto_write

    def __len__(self) -> int:
        return self.n

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        value = min(max(value, 0.0), 1.0)
        if -0.001 < value - self._brightness < 0.001:
            return  # pixelbuf ignores changes this small
        self._brightness = value
        for i, level in enumerate(self._pre):
            self._post[i] = int(level * value)
        if self.auto_write:
            self.show()

    def _parse(self, value: object) -> tuple[int, int, int]:
        if isinstance(value, int):
            return value >> 16, (value >> 8) & 0xFF, value & 0xFF
        if not isinstance(value, Sequence):  # (pixelbuf takes len() of it: a TypeError)
            raise TypeError(f"object of type {type(value).__name__!r} has no len()")
        colour: tuple[int, ...] = tuple(value)
        if not 3 <= len(colour) <= 4:
            raise ValueError(f"Expected tuple of length 3, got {len(colour)}")
        return colour[0], colour[1], colour[2]

    def _set(self, index: int, colour: tuple[int, int, int]) -> None:
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise IndexError
        base = 3 * index
        for channel, offset in zip(colour, self._offsets, strict=True):
            self._pre[base + offset] = channel  # bytearray: ValueError above 255
            self._post[base + offset] = int(channel * self._brightness)

    def __setitem__(self, index: int | slice, value: object) -> None:
        if isinstance(index, slice):
            indices = range(*index.indices(self.n))
            single = isinstance(value, int) or (
                isinstance(value, tuple)
                and len(value) in (3, 4)
                and all(isinstance(v, int | float) for v in value)
            )
            if single:
                colour = self._parse(value)
                for i in indices:
                    self._set(i, colour)
            else:
                for k, i in enumerate(indices):
                    self._set(i, self._parse(value[k]))  # type: ignore[index]
        else:
            self._set(index, self._parse(value))
        if self.auto_write:
            self.show()

    def __getitem__(self, index: int) -> list[int]:
        base = 3 * (index + self.n if index < 0 else index)
        return [self._pre[base + offset] for offset in self._offsets]

    def fill(self, colour: object) -> None:
        rgb = self._parse(colour)
        for i in range(self.n):
            self._set(i, rgb)
        if self.auto_write:
            self.show()

    def show(self) -> None:
        self.writes.append(bytes(self._post))

    def deinit(self) -> None:
        self.fill(0)
        self.show()
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
