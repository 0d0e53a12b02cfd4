"""The wiring table: numbering contract, shipped files, rotation, validation."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hardware.layout import (
    LayoutError,
    cell_of_square,
    layout_names,
    load_layout,
    serpentine,
    standard_layout,
)

LAYOUTS = Path(__file__).resolve().parents[2] / "hardware" / "layouts"


def algebraic(layout, square: int) -> str:
    row, file = layout.cell_of_square(square)
    return "abcdefghij"[file] + str(layout.size - row)


def test_shipped_files_equal_the_documented_defaults():
    assert layout_names() == ["standard-10x10", "standard-8x8"]
    assert load_layout("standard-8x8") == standard_layout(8)
    assert load_layout("standard-10x10") == standard_layout(10)
    assert load_layout(LAYOUTS / "standard-8x8.toml") == standard_layout(8)


def test_numbering_matches_brazilian_on_8x8_and_international_on_10x10():
    eight = standard_layout(8)
    assert algebraic(eight, 1) == "b8"
    assert algebraic(eight, 4) == "h8"
    assert algebraic(eight, 5) == "a7"
    assert algebraic(eight, 29) == "a1"
    assert algebraic(eight, 32) == "g1"
    ten = standard_layout(10)
    assert algebraic(ten, 1) == "b10"
    assert algebraic(ten, 46) == "a1"
    assert algebraic(ten, 50) == "i1"


def test_standard_pins_and_matrix_shape():
    eight, ten = standard_layout(8), standard_layout(10)
    assert (eight.rows, eight.columns, ten.rows, ten.columns) == (8, 4, 10, 5)
    assert eight.row_pins == (4, 17, 27, 22, 5, 6, 13, 19)
    assert eight.column_pins == (23, 24, 25, 16)
    assert ten.row_pins[-2:] == (26, 20) and ten.column_pins[-1] == 12
    assert eight.led_pin == ten.led_pin == 10
    assert eight.colour_order == "GRB"


def test_sensor_index_is_row_times_columns_plus_column():
    layout = standard_layout(8)
    assert layout.square_of_sensor(0) == 1
    assert layout.square_of_sensor(1 * 4 + 2) == 7
    with pytest.raises(IndexError):
        layout.square_of_sensor(32)


def test_default_led_chain_is_serpentine():
    layout = standard_layout(8)
    assert layout.led_squares[:8] == (1, 2, 3, 4, 8, 7, 6, 5)
    assert [layout.led_of_square(s) for s in (1, 4, 5, 8, 29)] == [0, 3, 7, 4, 31]
    assert serpentine(2, 3) == (1, 2, 3, 6, 5, 4)
    with pytest.raises(IndexError):
        layout.led_of_square(33)


@pytest.mark.parametrize("size", [8, 10])
def test_a_quarter_turn_makes_whites_left_corner_light(size):
    layout = standard_layout(size)
    turned = layout.rotated(1)
    assert turned.a1_dark is False
    # Reading order from the new seat starts at the far-left corner, now dark.
    assert cell_of_square(1, size, a1_dark=False) == (0, 0)
    # The far-left corner's switch sat, before the turn, at White's near-left (a1)...
    far_left_sensor = turned.sensor_squares.index(1)
    assert layout.cell_of_square(layout.sensor_squares[far_left_sensor]) == (size - 1, 0)
    # ...and both views still cover every square exactly once.
    assert sorted(turned.sensor_squares) == list(range(1, layout.squares + 1))
    assert sorted(turned.led_squares) == list(range(1, layout.squares + 1))


def test_rotation_moves_each_switch_to_the_square_it_now_lies_under():
    layout = standard_layout(8)
    turned = layout.rotated(1)
    for sensor in range(32):
        before = layout.cell_of_square(layout.square_of_sensor(sensor))
        after = turned.cell_of_square(turned.square_of_sensor(sensor))
        # Clockwise quarter turn seen from above: (row, file) -> (file, 7 - row).
        assert after == (before[1], 7 - before[0])
    # LEDs move with their switches: each switch still lights the LED above it.
    for square in range(1, 33):
        sensor = turned.sensor_squares.index(square)
        assert layout.led_squares[turned.led_of_square(square)] == layout.sensor_squares[sensor]


def test_rotations_compose_and_a_full_turn_is_identity():
    layout = standard_layout(10)
    assert layout.rotated(4) is layout
    assert layout.rotated(1).rotated(3) == layout
    assert layout.rotated(2).rotated(2) == layout
    assert layout.rotated(-1) == layout.rotated(3)
    half = layout.rotated(2)
    assert half.a1_dark and half.square_of_sensor(0) == 50  # far-left switch now at White's right


def test_layouts_are_frozen():
    layout = standard_layout(8)
    with pytest.raises(AttributeError):
        layout.squares = 50  # type: ignore[misc]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"sensor_squares": (2, 2) + tuple(range(3, 33))},
            "sensors.squares: squares 1 are missing",
        ),
        ({"led_squares": tuple(range(1, 32)) + (40,)}, "leds.squares: 40 is not a square"),
        ({"row_pins": (4, 17, 27, 22, 5, 6, 13, 23)}, "pins.columns: GPIO23 is already used"),
        ({"led_pin": 19}, "leds.pin: GPIO19 is already used by pins.rows"),
        ({"led_pin": 9}, "leds.pin: GPIO9 cannot drive NeoPixels"),
        ({"column_pins": (23, 24, 25)}, "pins.columns lists 3 pins for 4 columns"),
        ({"colour_order": "GRR"}, "leds.order"),
        ({"max_brightness": 1.5}, "leds.max_brightness"),
        ({"rows": 4, "columns": 4}, "rows x columns = 4 x 4"),
    ],
)
def test_invalid_layouts_name_the_field(change, message):
    with pytest.raises(LayoutError, match=message.replace("(", r"\(")):
        replace(standard_layout(8), **change)


def test_spare_leds_are_allowed_and_stay_unmapped():
    layout = replace(standard_layout(8), led_squares=(0,) + serpentine(8, 4) + (0,))
    assert layout.led_count == 34
    assert layout.led_of_square(1) == 1


def test_edited_copy_loads_and_errors_name_file_and_field(tmp_path):
    text = (LAYOUTS / "standard-8x8.toml").read_text()
    swapped = text.replace("[ 1,  2,  3,  4]", "[ 2,  1,  3,  4]")
    good = tmp_path / "my-board.toml"
    good.write_text(swapped)
    mine = load_layout(good)
    assert mine.square_of_sensor(0) == 2 and mine.square_of_sensor(1) == 1
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("[ 1,  2,  3,  4]", "[ 1,  1,  3,  4]"))
    with pytest.raises(LayoutError, match=r"bad.toml: sensors.squares: squares 2 are missing"):
        load_layout(bad)
    bad.write_text(text.replace("count = 32", "count = 30"))
    with pytest.raises(LayoutError, match="leds.count = 30"):
        load_layout(bad)
    bad.write_text(text.replace("[pins]", "[pinz]"))
    with pytest.raises(LayoutError, match=r"\[pins\] table is missing"):
        load_layout(bad)
    bad.write_text("squares = [")
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(bad)


def test_unknown_name_lists_the_shipped_layouts(tmp_path):
    with pytest.raises(LayoutError, match="shipped layouts: standard-10x10, standard-8x8"):
        load_layout("standard-12x12")
    with pytest.raises(LayoutError, match="cannot read layout file"):
        load_layout(tmp_path / "absent.toml")
