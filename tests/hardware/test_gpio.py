"""The GPIO backend against an electrical fake of RPi.GPIO and a fake NeoPixel strip."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.base import BoardUnavailable
from hardware.board import Board, open_board
from hardware.fakes import FakeGPIO, FakeNeoPixel
from hardware.gpio import GpioBackend, MatrixScanner
from hardware.layout import standard_layout

START = frozenset(range(1, 13)) | frozenset(range(21, 33))


def backend(layout=None, **fake_kwargs) -> tuple[GpioBackend, FakeGPIO, FakeNeoPixel]:
    layout = layout or standard_layout(8)
    gpio = FakeGPIO(layout, **fake_kwargs)
    pixels = FakeNeoPixel("D10", layout.led_count, auto_write=False)
    return GpioBackend(layout, gpio=gpio, pixels=pixels), gpio, pixels


def test_the_fake_matrix_shows_ghosts_without_diodes():
    # Guards the fake itself. In the start position every non-empty rank is
    # full, so no ghost can form; after the first move (22-18) the closed
    # switches form rectangles and the lifted square 22 reads occupied, as on
    # a real board without diodes.
    layout = standard_layout(8)
    after_first_move = START - {22} | {18}
    bare = FakeGPIO(layout, diodes=False)
    bare.set_squares(after_first_move)
    assert 22 in MatrixScanner(layout, bare).scan() - after_first_move
    with_diodes = FakeGPIO(layout)
    with_diodes.set_squares(after_first_move)
    assert MatrixScanner(layout, with_diodes).scan() == after_first_move


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(1, 50)))
def test_any_position_reads_exactly_with_diodes(occupied):
    layout = standard_layout(10)
    gpio = FakeGPIO(layout)
    gpio.set_squares(occupied)
    assert MatrixScanner(layout, gpio).scan() == frozenset(occupied)


@pytest.mark.parametrize("size", [8, 10])
def test_start_position_reads_exactly_with_diodes(size):
    layout = standard_layout(size)
    gpio = FakeGPIO(layout)
    men = layout.squares // 2 - layout.columns  # 12 or 20 men a side
    start = frozenset(range(1, men + 1)) | frozenset(
        range(layout.squares - men + 1, layout.squares + 1)
    )
    gpio.set_squares(start)
    scanner = MatrixScanner(layout, gpio)
    assert scanner.scan() == start
    assert gpio.most_rows_driven == 1
    gpio.set_squares(range(1, layout.squares + 1))
    assert scanner.scan() == frozenset(range(1, layout.squares + 1))
    gpio.set_squares([])
    assert scanner.scan() == frozenset()


def test_every_single_switch_maps_to_its_own_square_through_the_layout():
    layout = replace(standard_layout(8), sensor_squares=tuple(range(32, 0, -1)))
    gpio = FakeGPIO(layout)
    scanner = MatrixScanner(layout, gpio)
    for square in range(1, 33):
        gpio.set_squares([square])
        assert scanner.scan() == frozenset({square})
    assert gpio.switch_of_square(32) == (0, 0)


def test_rows_idle_as_inputs_between_scans_and_columns_need_their_pull_ups():
    layout = standard_layout(8)
    gpio = FakeGPIO(layout)
    scanner = MatrixScanner(layout, gpio)
    scanner.scan()
    assert all(gpio._direction[p] == gpio.IN for p in layout.row_pins)
    assert all(gpio._pull[p] == gpio.PUD_UP for p in layout.column_pins)
    assert gpio.mode == gpio.BCM


def test_contact_bounce_is_seen_raw_and_filtered_by_the_board():
    gpio_backend, gpio, _ = backend()
    board = Board(gpio_backend, standard_layout(8), agreeing_scans=2)
    gpio.set_squares(START)
    for _ in range(2):
        board.poll()
    gpio.close_switch(17, bounce=3)
    raw, debounced = [], []
    for _ in range(5):
        snap = board.poll(now=0.0)
        raw.append(17 in board.last_raw)
        debounced.append(17 in snap.occupied)
    assert raw == [True, False, True, True, True]
    assert debounced == [False, False, False, True, True]
    gpio.open_switch(17, bounce=2)
    raw = []
    for _ in range(4):
        board.poll(now=0.0)
        raw.append(17 in board.last_raw)
    assert raw == [False, True, False, False]
    assert 17 not in board.poll(now=0.0).occupied


def test_frames_reach_the_pixels_in_chain_order_with_grb_and_brightness():
    gpio_backend, _, pixels = backend()
    with Board(gpio_backend, standard_layout(8)) as board:
        board.brightness = 0.5
        board.show({1: (255, 0, 0), 5: (0, 0, 200), 8: (10, 20, 30)})
        sent = pixels.writes[-1]
        assert len(sent) == 32 * 3
        assert sent[0:3] == bytes([0, 127, 0])  # square 1 = LED 0, red -> GRB
        assert sent[7 * 3 : 8 * 3] == bytes([0, 0, 100])  # square 5 = LED 7 (serpentine)
        assert sent[4 * 3 : 5 * 3] == bytes([10, 5, 15])  # square 8 = LED 4
        assert sum(sent) == 127 + 100 + 30
    assert pixels.writes[-1] == bytes(96) and pixels.deinited


def test_close_releases_every_pin_once():
    gpio_backend, gpio, pixels = backend()
    gpio_backend.close()
    gpio_backend.close()
    layout = standard_layout(8)
    assert sorted(gpio.cleaned) == sorted(layout.row_pins + layout.column_pins)
    assert len(pixels.writes) == 1


def test_missing_neopixel_library_releases_the_pins(monkeypatch):
    monkeypatch.setitem(sys.modules, "board", None)
    layout = standard_layout(8)
    gpio = FakeGPIO(layout)
    with pytest.raises(BoardUnavailable, match=r"pip install 'draughtsboard\[pi\]'"):
        GpioBackend(layout, gpio=gpio)
    assert sorted(gpio.cleaned) == sorted(layout.row_pins + layout.column_pins)


def test_no_rpi_gpio_gives_one_sentence_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(BoardUnavailable) as caught:
        open_board("gpio")
    message = str(caught.value)
    assert message == (
        "The gpio board needs RPi.GPIO: install the Pi extra with pip install "
        "'draughtsboard[pi]' (or 'draughtsboard[pi5]' on a Raspberry Pi 5)."
    )


def test_rpi_gpio_refusing_this_machine_is_explained(monkeypatch, tmp_path):
    package = tmp_path / "RPi"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "GPIO.py").write_text(
        'raise RuntimeError("This module can only be run on a Raspberry Pi!")\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "RPi", raising=False)
    monkeypatch.delitem(sys.modules, "RPi.GPIO", raising=False)
    with pytest.raises(BoardUnavailable, match=r"can only be run on a Raspberry Pi!\).*\[pi5\]"):
        open_board("gpio")


def test_importing_the_hardware_package_loads_no_hardware_library():
    code = (
        "import sys, hardware, hardware.gpio, hardware.pixels, hardware.board, hardware.mock\n"
        "names = ('RPi', 'RPi.GPIO', 'neopixel', 'board', 'serial')\n"
        "loaded = [m for m in names if m in sys.modules]\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
