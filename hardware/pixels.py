"""NeoPixel (WS2812B) output: one whole frame per `show`, at a capped brightness.

Uses adafruit-circuitpython-neopixel on Blinka, imported only when a real
strip is opened; tests and the bench inject a pixel object with the same
interface (`hardware.fakes.FakeNeoPixel`). The strip is opened with
`auto_write=False` so a frame costs exactly one transfer on the wire, and the
layout's colour order (GRB for WS2812B) and brightness cap are applied here,
the lowest layer, so no caller can overdraw the power supply.
"""

from __future__ import annotations

from typing import Any, Protocol

from hardware.base import DARK, BoardUnavailable, Colour, Frame
from hardware.layout import Layout


class PixelDriver(Protocol):
    """The part of `neopixel.NeoPixel` this module uses."""

    brightness: float

    def __setitem__(self, index: slice, value: list[Colour]) -> None: ...

    def show(self) -> None: ...


def open_neopixels(layout: Layout, neopixel: Any = None, board: Any = None) -> PixelDriver:
    """Create the real NeoPixel object for `layout` (modules injectable for tests)."""
    if neopixel is None or board is None:
        try:
            import board as board_module  # type: ignore[import-not-found]
            import neopixel as neopixel_module  # type: ignore[import-not-found]
        except (ImportError, NotImplementedError, RuntimeError) as error:
            raise BoardUnavailable(
                f"NeoPixels need Blinka and adafruit-circuitpython-neopixel ({error}): "
                "pip install 'draughtsboard[pi]' (or 'draughtsboard[pi5]' on a Raspberry Pi 5)."
            ) from None
        neopixel = neopixel if neopixel is not None else neopixel_module
        board = board if board is not None else board_module
    pin = getattr(board, f"D{layout.led_pin}", None)
    if pin is None:
        raise BoardUnavailable(f"this computer has no GPIO{layout.led_pin} for the LED data line.")
    return neopixel.NeoPixel(
        pin,
        layout.led_count,
        brightness=layout.max_brightness,
        auto_write=False,
        pixel_order=layout.colour_order,
    )


class PixelStrip:
    """Maps square frames onto the LED chain of one layout."""

    def __init__(self, layout: Layout, pixels: PixelDriver | None = None) -> None:
        self.layout = layout
        self.pixels = pixels if pixels is not None else open_neopixels(layout)
        self._squares = layout.led_squares
        self._brightness: float | None = None

    def draw(self, frame: Frame, brightness: float) -> None:
        """Send one frame: every LED gets its square's colour (spares and absent squares dark)."""
        level = max(0.0, min(brightness, self.layout.max_brightness))
        if level != self._brightness:
            self.pixels.brightness = level
            self._brightness = level
        get = frame.get
        self.pixels[0 : len(self._squares)] = [
            get(square, DARK) if square else DARK for square in self._squares
        ]
        self.pixels.show()

    def close(self) -> None:
        """Dark, then release the driver if it can be released."""
        self.draw({}, self._brightness or 0.0)
        deinit = getattr(self.pixels, "deinit", None)
        if deinit is not None:
            deinit()
