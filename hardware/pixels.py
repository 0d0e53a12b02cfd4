"""NeoPixel (WS2812B) output: one whole frame per `show`, at a capped brightness.

Uses adafruit-circuitpython-neopixel on Blinka, imported only when a real
strip is opened; tests and the bench inject a pixel object with the same
interface (`hardware.fakes.FakeNeoPixel`). The strip is opened with
`auto_write=False` so a frame costs exactly one transfer on the wire, and the
layout's colour order (GRB for WS2812B) and brightness cap are applied here,
the lowest layer, so no caller can overdraw the power supply.

The drivers under Blinka (rpi_ws281x on a Pi 3/4/Zero 2, the RP1 PIO helper
on a Pi 5) open their device at the first `show()`, not when the strip is
created; so opening a strip sends one dark frame at once, and a Pi with SPI
off or without permission on /dev/spidev0.0 is reported while the board is
being opened, in one sentence (`hardware.pi_errors`), not mid-game.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Protocol

from hardware.base import DARK, BoardUnavailable, Colour, Frame
from hardware.layout import Layout
from hardware.pi_errors import led_failure

INSTALL_HINT = "pip install 'draughtsboard[pi]' (or 'draughtsboard[pi5]' on a Raspberry Pi 5)"


class PixelDriver(Protocol):
    """The part of `neopixel.NeoPixel` this module uses."""

    brightness: float

    def __setitem__(self, index: slice, value: list[Colour]) -> None: ...

    def show(self) -> None: ...


def open_neopixels(layout: Layout, neopixel: Any = None, board: Any = None) -> PixelDriver:
    """Create the real NeoPixel object for `layout` (modules injectable for tests)."""
    if neopixel is None or board is None:
        # Blinka 10 offers to pip-install missing Pi libraries when started on a
        # terminal; a game must not stop at a prompt, so it reports them instead.
        os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
        try:
            import board as board_module
            import neopixel as neopixel_module
        except (ImportError, NotImplementedError, RuntimeError) as error:
            said = " ".join(str(error).split()) or type(error).__name__
            raise BoardUnavailable(
                f"NeoPixels need Blinka, adafruit-circuitpython-neopixel and the Pi's LED "
                f"driver ({said}): {INSTALL_HINT}."
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
        try:
            self.draw({}, 0.0)  # the driver opens its device now: fail here, not mid-game
        except (RuntimeError, OSError, ValueError) as error:
            self._release()
            raise led_failure(error, layout.led_pin) from None

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
        """Dark, and the driver released (neopixel's deinit() sends the dark frame itself)."""
        if getattr(self.pixels, "deinit", None) is None:
            self.draw({}, self._brightness or 0.0)
        self._release()

    def _release(self) -> None:
        deinit = getattr(self.pixels, "deinit", None)
        if deinit is not None:
            with contextlib.suppress(RuntimeError, OSError, ValueError):
                deinit()  # a driver that never started cannot blank either
