"""NeoPixel output: how the strip is opened and what each frame sends.

Every test runs twice: against `hardware.fakes.FakeNeoPixel`, and against the
real adafruit-circuitpython-neopixel 6.4.2 over adafruit-circuitpython-pixelbuf
2.1.0 with only `neopixel_write` (the SPI transfer) replaced. The same bytes
must come out of both, so the fake can never drift from the real library.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
from real_libraries import real_neopixel

from hardware import pi_errors
from hardware.base import BoardUnavailable
from hardware.fakes import FakeBoardPins, FakeNeoPixel, FakeNeopixelModule
from hardware.layout import serpentine, standard_layout
from hardware.pixels import PixelStrip, open_neopixels


class Strip:
    """One way to make a NeoPixel object, and the bytes it has sent so far."""

    def __init__(self, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.kind = kind
        if kind == "fake":
            self.module = FakeNeopixelModule()
            self.board = FakeBoardPins()
            self._writes: list[bytes] | None = None
        else:
            self.module, self._writes = real_neopixel(monkeypatch)
            self.board = sys.modules["board"]
        self.made = None

    def open(self, layout):
        pixels = open_neopixels(layout, neopixel=self.module, board=self.board)
        self.made = pixels
        return pixels

    @property
    def writes(self) -> list[bytes]:
        if self._writes is not None:
            return self._writes
        return self.made.writes


@pytest.fixture(params=["fake", "real"])
def strip(request, monkeypatch) -> Strip:
    return Strip(request.param, monkeypatch)


def test_strip_is_opened_on_the_layout_pin_grb_without_auto_write(strip):
    made = strip.open(standard_layout(10))
    assert (len(made), made.auto_write, made.brightness) == (50, False, 0.5)
    pin = made.pin if strip.kind == "fake" else made.pin._pin
    assert pin in ("D10", strip.board.D10)
    assert strip.writes == []  # nothing is sent until a frame is shown


def test_opening_sends_one_dark_frame_and_each_frame_is_one_transfer(strip):
    layout = standard_layout(8)
    pixels = PixelStrip(layout, strip.open(layout))
    pixels.draw({n: (255, 255, 255) for n in range(1, 33)}, 0.25)
    pixels.draw({}, 0.25)
    assert strip.writes == [bytes(96), bytes([63]) * 96, bytes(96)]


def test_brightness_never_exceeds_the_layout_cap(strip):
    layout = replace(standard_layout(8), max_brightness=0.2)
    pixels = strip.open(layout)
    PixelStrip(layout, pixels).draw({1: (255, 255, 255)}, 1.0)
    assert pixels.brightness == pytest.approx(0.2)
    assert strip.writes[-1][:3] == bytes([51, 51, 51])


def test_colour_order_comes_from_the_layout(strip):
    layout = replace(standard_layout(8), colour_order="RGB")
    PixelStrip(layout, strip.open(layout)).draw({1: (200, 100, 0)}, 0.5)
    assert strip.writes[-1][:3] == bytes([100, 50, 0])
    grb = standard_layout(8)
    PixelStrip(grb, strip.open(grb)).draw({1: (200, 100, 0)}, 0.5)
    assert strip.writes[-1][:3] == bytes([50, 100, 0])


def test_spare_leds_stay_dark(strip):
    layout = replace(standard_layout(8), led_squares=(0,) + serpentine(8, 4))
    PixelStrip(layout, strip.open(layout)).draw({n: (0, 255, 0) for n in range(1, 33)}, 0.5)
    assert strip.writes[-1][:3] == bytes(3) and strip.writes[-1][3:6] == bytes([127, 0, 0])


def test_close_sends_exactly_one_dark_frame(strip):
    layout = standard_layout(8)
    pixels = PixelStrip(layout, strip.open(layout))
    pixels.draw({3: (9, 9, 9)}, 0.5)
    before = len(strip.writes)
    pixels.close()
    assert strip.writes[before:] == [bytes(96)]


def test_packed_int_colours_and_out_of_range_values_behave_like_pixelbuf(strip):
    pixels = strip.open(standard_layout(8))
    pixels.brightness = 1.0
    pixels[0] = 0x102030  # packed 0xRRGGBB is accepted
    pixels.fill(0x010203)
    pixels[1] = (4, 5, 6)
    pixels.show()
    assert strip.writes[-1][:6] == bytes([2, 1, 3, 5, 4, 6])
    for bad in ((256, 0, 0), (-1, 0, 0)):
        with pytest.raises(ValueError, match="byte must be in range"):
            pixels[2] = bad
    with pytest.raises(ValueError, match="Expected tuple of length"):
        pixels[2] = (1, 2)


def test_a_short_list_on_a_slice_fails_as_in_pixelbuf(strip):
    pixels = strip.open(standard_layout(8))
    pixels[0:3] = [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4)]  # extra values ignored
    assert list(pixels[2]) == [3, 3, 3]
    with pytest.raises(IndexError):
        pixels[0:3] = [(1, 1, 1)]


def test_brightness_is_clamped_like_pixelbuf(strip):
    pixels = strip.open(standard_layout(8))
    pixels.brightness = 1.7
    assert pixels.brightness == 1.0
    pixels.brightness = -0.2
    assert pixels.brightness == 0.0


# --- opening the strip on a Pi that is not ready -------------------------------------------


class FailingPixels(FakeNeoPixel):
    """A strip whose driver raises what Blinka's bcm283x/neopixel.py raises from show()."""

    def __init__(self, error: Exception) -> None:
        super().__init__("D10", 32, auto_write=False)
        self.error = error

    def show(self) -> None:
        raise self.error


#: Blinka 10.0.0 adafruit_blinka/microcontroller/bcm283x/neopixel.py, around ws2811_init().
WS2811_INIT = "ws2811_init failed with code"
BLINKA_NEEDS_SUDO = "NeoPixel support requires running with sudo, please try again!"


@pytest.mark.parametrize(
    ("error", "spidev", "fix"),
    [
        # rpi_ws281x spi_init(): no /dev/spidev0.0 (SPI off) -> ws2811_init returns -13.
        (RuntimeError(f"{WS2811_INIT} -13 (Unable to initialize SPI)"), None, "raspi-config"),
        # ... /dev/spidev0.0 is there but this user may not open it.
        (RuntimeError(f"{WS2811_INIT} -13 (Unable to initialize SPI)"), "ro", "-aG spi"),
        # Blinka turns ws2811_init -5 into this on PWM/PCM pins without root.
        (RuntimeError(BLINKA_NEEDS_SUDO), "rw", "GPIO10"),
        # rpi_ws281x on a Pi it does not know (a Pi 5).
        (RuntimeError(f"{WS2811_INIT} -3 (Hardware revision is not supported)"), "rw", "[pi5]"),
        # Adafruit-Blinka-Raspberry-Pi5-Neopixel 1.0.0rc2 main.cpp, no /dev/pio0.
        (RuntimeError("pio_init() failed"), "rw", "apt full-upgrade"),
    ],
)
def test_led_driver_failures_surface_when_the_board_opens(monkeypatch, error, spidev, fix):
    monkeypatch.setattr(pi_errors, "_exists", lambda path: spidev is not None)
    monkeypatch.setattr(pi_errors, "_writable", lambda path: spidev == "rw")
    pixels = FailingPixels(error)
    with pytest.raises(BoardUnavailable) as caught:
        PixelStrip(standard_layout(8), pixels)
    message = str(caught.value)
    assert fix in message and "\n" not in message and message.endswith(".")


def test_without_blinka_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "board", None)
    with pytest.raises(BoardUnavailable, match=r"pip install 'draughtsboard\[pi\]'"):
        open_neopixels(standard_layout(8))


def test_blinka_never_stops_the_game_to_offer_an_install(monkeypatch):
    # Blinka 10 board.py asks "Install them into the current Python environment? [Y/n]"
    # on a terminal unless BLINKA_SKIP_DEPENDENCY_CHECK=1; its missing-library error is
    # multi-line. We set the variable, and flatten the message to one line.
    monkeypatch.delenv("BLINKA_SKIP_DEPENDENCY_CHECK", raising=False)

    class MissingGpiod:
        def find_spec(self, name, path=None, target=None):
            if name == "board":
                import os

                assert os.environ.get("BLINKA_SKIP_DEPENDENCY_CHECK") == "1"
                raise RuntimeError(
                    "The platform library 'lgpio' was not found. To install, try typing: "
                    "python -m pip install adafruit-lgpio\nOn Raspberry Pi OS, you can also "
                    "try: sudo apt-get install -y python3-lgpio"
                )
            return None

    monkeypatch.delitem(sys.modules, "board", raising=False)
    monkeypatch.setattr(sys, "meta_path", [MissingGpiod(), *sys.meta_path])
    with pytest.raises(BoardUnavailable) as caught:
        open_neopixels(standard_layout(8))
    message = str(caught.value)
    assert "\n" not in message and "'lgpio' was not found" in message and "[pi]" in message


def test_a_pin_this_computer_lacks_is_reported():
    class NoPins:
        pass

    with pytest.raises(BoardUnavailable, match="no GPIO10"):
        open_neopixels(standard_layout(8), neopixel=FakeNeopixelModule(), board=NoPins())
