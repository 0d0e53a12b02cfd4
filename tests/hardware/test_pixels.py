"""NeoPixel output: how the strip is opened and what each frame sends."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from hardware.base import BoardUnavailable
from hardware.fakes import FakeBoardPins, FakeNeopixelModule
from hardware.layout import serpentine, standard_layout
from hardware.pixels import PixelStrip, open_neopixels


def open_fake(layout):
    module = FakeNeopixelModule()
    pixels = open_neopixels(layout, neopixel=module, board=FakeBoardPins())
    return module.made[0], pixels


def test_strip_is_opened_on_the_layout_pin_grb_without_auto_write():
    made, _ = open_fake(standard_layout(10))
    assert (made.pin, made.n, made.pixel_order, made.auto_write) == ("D10", 50, "GRB", False)
    assert made.brightness == 0.5


def test_one_frame_is_exactly_one_transfer():
    made, pixels = open_fake(standard_layout(8))
    strip = PixelStrip(standard_layout(8), pixels)
    strip.draw({n: (255, 255, 255) for n in range(1, 33)}, 0.25)
    strip.draw({}, 0.25)
    assert len(made.writes) == 2
    assert made.writes[0] == bytes([63]) * 96 and made.writes[1] == bytes(96)


def test_brightness_never_exceeds_the_layout_cap():
    layout = replace(standard_layout(8), max_brightness=0.2)
    made, pixels = open_fake(layout)
    PixelStrip(layout, pixels).draw({1: (255, 255, 255)}, 1.0)
    assert made.brightness == 0.2 and made.writes[-1][:3] == bytes([51, 51, 51])


def test_colour_order_comes_from_the_layout():
    layout = replace(standard_layout(8), colour_order="RGB")
    made, pixels = open_fake(layout)
    PixelStrip(layout, pixels).draw({1: (200, 100, 0)}, 0.5)
    assert made.writes[-1][:3] == bytes([100, 50, 0])


def test_spare_leds_stay_dark():
    layout = replace(standard_layout(8), led_squares=(0,) + serpentine(8, 4))
    made, pixels = open_fake(layout)
    PixelStrip(layout, pixels).draw({n: (0, 255, 0) for n in range(1, 33)}, 0.5)
    assert made.writes[-1][:3] == bytes(3) and made.writes[-1][3:6] == bytes([127, 0, 0])


def test_without_blinka_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "board", None)
    with pytest.raises(BoardUnavailable, match=r"pip install 'draughtsboard\[pi\]'"):
        open_neopixels(standard_layout(8))


def test_a_pin_this_computer_lacks_is_reported():
    class NoPins:
        pass

    with pytest.raises(BoardUnavailable, match="no GPIO10"):
        open_neopixels(standard_layout(8), neopixel=FakeNeopixelModule(), board=NoPins())
