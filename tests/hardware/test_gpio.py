"""The GPIO backend against an electrical fake of RPi.GPIO and a fake NeoPixel strip."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import pi_errors
from hardware.base import BoardUnavailable
from hardware.board import Board, open_board
from hardware.fakes import (
    RPI_GPIO_NO_DEV_MEM,
    RPI_GPIO_NO_PERI_BASE,
    FakeGPIO,
    FakeNeoPixel,
    LgpioError,
)
from hardware.gpio import GpioBackend, MatrixScanner
from hardware.layout import standard_layout

START = frozenset(range(1, 13)) | frozenset(range(21, 33))


def backend(layout=None, **fake_kwargs) -> tuple[GpioBackend, FakeGPIO, FakeNeoPixel]:
    layout = layout or standard_layout(8)
    gpio = FakeGPIO(layout, **fake_kwargs)
    pixels = FakeNeoPixel("D10", layout.led_count, auto_write=False)
    return GpioBackend(layout, gpio=gpio, pixels=pixels, wait=gpio.wait), gpio, pixels


def scanner(layout, gpio) -> MatrixScanner:
    """The real scanner, its settle wait passing time on the fake's clock."""
    return MatrixScanner(layout, gpio, wait=gpio.wait)


def test_the_fake_matrix_shows_ghosts_without_diodes():
    # Guards the fake itself. In the start position every non-empty rank is
    # full, so no ghost can form; after the first move (22-18) the closed
    # switches form rectangles and the lifted square 22 reads occupied, as on
    # a real board without diodes.
    layout = standard_layout(8)
    after_first_move = START - {22} | {18}
    bare = FakeGPIO(layout, diodes=False)
    bare.set_squares(after_first_move)
    assert 22 in scanner(layout, bare).scan() - after_first_move
    with_diodes = FakeGPIO(layout)
    with_diodes.set_squares(after_first_move)
    assert scanner(layout, with_diodes).scan() == after_first_move


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(1, 50)))
def test_any_position_reads_exactly_with_diodes(occupied):
    layout = standard_layout(10)
    gpio = FakeGPIO(layout)
    gpio.set_squares(occupied)
    assert scanner(layout, gpio).scan() == frozenset(occupied)


@pytest.mark.parametrize("size", [8, 10])
def test_start_position_reads_exactly_with_diodes(size):
    layout = standard_layout(size)
    gpio = FakeGPIO(layout)
    men = layout.squares // 2 - layout.columns  # 12 or 20 men a side
    start = frozenset(range(1, men + 1)) | frozenset(
        range(layout.squares - men + 1, layout.squares + 1)
    )
    gpio.set_squares(start)
    matrix = scanner(layout, gpio)
    assert matrix.scan() == start
    assert gpio.most_rows_driven == 1
    gpio.set_squares(range(1, layout.squares + 1))
    assert matrix.scan() == frozenset(range(1, layout.squares + 1))
    gpio.set_squares([])
    assert matrix.scan() == frozenset()


def test_every_single_switch_maps_to_its_own_square_through_the_layout():
    layout = replace(standard_layout(8), sensor_squares=tuple(range(32, 0, -1)))
    gpio = FakeGPIO(layout)
    matrix = scanner(layout, gpio)
    for square in range(1, 33):
        gpio.set_squares([square])
        assert matrix.scan() == frozenset({square})
    assert gpio.switch_of_square(32) == (0, 0)


def test_rows_idle_as_inputs_between_scans_and_columns_need_their_pull_ups():
    layout = standard_layout(8)
    gpio = FakeGPIO(layout)
    scanner(layout, gpio).scan()
    assert all(gpio._direction[p] == gpio.IN for p in layout.row_pins)
    assert all(gpio._pull[p] == gpio.PUD_UP for p in layout.column_pins)
    assert gpio.mode == gpio.BCM


def test_without_the_settle_wait_a_piece_shows_again_one_rank_away():
    # Square 1 is row 0, column 0; square 5 is row 1, column 0, left empty.
    layout = standard_layout(8)
    gpio = FakeGPIO(layout, column_settle=5e-6)
    gpio.set_squares({1})
    hasty = MatrixScanner(replace(layout, settle_us=0), gpio, wait=gpio.wait)
    assert {1, 5} <= hasty.scan()  # column 0 still low from row 0 when row 1 is read
    short = MatrixScanner(replace(layout, settle_us=2), gpio, wait=gpio.wait)
    assert {1, 5} <= short.scan()  # 2 us is not enough for this wiring
    assert scanner(layout, gpio).scan() == {1}  # the layout's default (10 us) is
    assert layout.settle_us == 10


def test_longer_wires_are_fixed_by_the_layout_settle_time():
    layout = replace(standard_layout(8), settle_us=40)
    gpio = FakeGPIO(layout, column_settle=30e-6)  # metres of ribbon cable
    gpio.set_squares(START)
    assert scanner(layout, gpio).scan() == START


def test_a_row_output_without_initial_is_not_low():
    # RPi.GPIO's setup(pin, OUT) writes no level without `initial`: the pin drives
    # what its latch last held. A scanner relying on an implicit LOW sees nothing.
    layout = standard_layout(8)
    gpio = FakeGPIO(layout)
    gpio.set_squares(START)
    gpio.setmode(gpio.BCM)
    for pin in layout.column_pins:
        gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
    gpio.setup(layout.row_pins[0], gpio.OUT)
    assert gpio.input(layout.column_pins[0]) == gpio.HIGH
    gpio.setup(layout.row_pins[0], gpio.OUT, initial=gpio.LOW)
    gpio.setup(layout.row_pins[0], gpio.IN)
    gpio.wait(1e-3)
    gpio.setup(layout.row_pins[0], gpio.OUT)  # the latch now holds LOW
    assert gpio.input(layout.column_pins[0]) == gpio.LOW


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
    # one dark frame when opened (the driver starts there), one from deinit() on close
    assert pixels.writes == [bytes(96), bytes(96)] and pixels.deinited


def test_missing_neopixel_library_releases_the_pins(monkeypatch):
    monkeypatch.setitem(sys.modules, "board", None)
    layout = standard_layout(8)
    gpio = FakeGPIO(layout)
    with pytest.raises(BoardUnavailable, match=r"pip install 'draughtsboard\[pi\]'"):
        GpioBackend(layout, gpio=gpio, wait=gpio.wait)
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


# --- a misconfigured Pi: what the real libraries raise at setup, and the sentence we say ---


def one_sentence(message: str) -> bool:
    return "\n" not in message and message.endswith(".") and "Traceback" not in message


def open_failing(monkeypatch, call, error, *, gpiomem=True, gpiochip=True):
    monkeypatch.setattr(pi_errors, "_exists", lambda path: gpiomem and path == "/dev/gpiomem")
    monkeypatch.setattr(pi_errors, "_has_gpiochip", lambda: gpiochip)
    layout = standard_layout(8)
    gpio = FakeGPIO(layout, fail=(call, error))
    pixels = FakeNeoPixel("D10", layout.led_count, auto_write=False)
    with pytest.raises(BoardUnavailable) as caught:
        GpioBackend(layout, gpio=gpio, pixels=pixels, wait=gpio.wait)
    message = str(caught.value)
    assert one_sentence(message), message
    return message, gpio, pixels


@pytest.mark.parametrize(
    ("call", "error", "options", "fix"),
    [
        # RPi.GPIO 0.7.1 on a Pi 5: no /dev/gpiomem, no known SoC (c_gpio.c setup()).
        ("setup", RuntimeError(RPI_GPIO_NO_PERI_BASE), {}, "pip install 'draughtsboard[pi5]'"),
        # RPi.GPIO 0.7.1 when /dev/gpiomem exists but this user may not open it.
        ("setup", RuntimeError(RPI_GPIO_NO_DEV_MEM), {}, "usermod -aG gpio"),
        # ... and when there is no /dev/gpiomem at all (a Pi 5 again).
        ("setup", RuntimeError(RPI_GPIO_NO_DEV_MEM), {"gpiomem": False}, "[pi5]"),
        # rpi-lgpio 0.6 setmode() -> lgpio.gpiochip_open() on a user outside the gpio group.
        ("setmode", LgpioError("can not open gpiochip"), {}, "usermod -aG gpio"),
        # ... on a computer with no GPIO controller at all.
        ("setmode", LgpioError("can not open gpiochip"), {"gpiochip": False}, "--board sim"),
        # lgpio gpio_claim_input() on a pin a kernel driver or another process holds.
        ("setup", LgpioError("GPIO busy"), {}, "another program or kernel driver"),
    ],
)
def test_setup_failures_become_one_sentence_naming_the_fix(monkeypatch, call, error, options, fix):
    message, gpio, pixels = open_failing(monkeypatch, call, error, **options)
    assert fix in message
    assert pixels.writes == []  # the LEDs were never touched


def test_a_busy_pin_is_named_and_the_pins_already_set_up_are_released(monkeypatch):
    layout = standard_layout(8)

    class BusyOnColumn(FakeGPIO):
        def setup(self, channel, direction, pull_up_down=FakeGPIO.PUD_OFF, initial=-1):
            if channel == layout.column_pins[2]:
                raise LgpioError("GPIO busy")
            super().setup(channel, direction, pull_up_down, initial)

    gpio = BusyOnColumn(layout)
    with pytest.raises(BoardUnavailable, match=r"holds the pin on GPIO25 \(GPIO busy\)"):
        GpioBackend(layout, gpio=gpio, wait=gpio.wait)
    assert set(layout.row_pins) <= set(gpio.cleaned)


def test_the_fake_lgpio_error_prints_like_the_real_one():
    # lgpio 0.2.2.0 lgpio_extra.py: class error(Exception) with __str__ = repr(self.value).
    error = LgpioError("can not open gpiochip")
    assert str(error) == "'can not open gpiochip'"
    assert type(error).__module__ == "lgpio" and type(error).__name__ == "error"


def test_on_a_real_clock_the_default_settle_wait_reads_without_ghosts():
    # bench/fake_pi.py runs the real command over the fakes with the real busy wait
    import time

    layout = standard_layout(8)
    gpio = FakeGPIO(layout, column_settle=5e-6, clock=time.perf_counter)
    gpio.set_squares(START)
    assert MatrixScanner(layout, gpio).scan() == START
