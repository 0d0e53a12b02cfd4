"""Draw a layout's wiring as SVG: `python -m hardware.diagram [LAYOUT] [-o FILE]`.

The picture in docs/ is generated from the same table the code uses, so the
documentation cannot drift from the wiring: row wires (one per rank, blue),
column wires (orange, zig-zagging through the dark squares they join), the
LED chain (green, in data order), and for each dark square its number, its
switch's row/column and its LED's position on the chain. A side panel shows
one switch cell (diode orientation) and how the LEDs are powered.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from xml.sax.saxutils import escape

from hardware.layout import Layout, load_layout

CELL = 64
LEFT = 150
TOP = 95
ROW_COLOUR = "#1f5fbf"
COLUMN_COLOUR = "#d9771e"
LED_COLOUR = "#1a9e3a"


def render_svg(layout: Layout) -> str:
    """The wiring of `layout` as a standalone SVG document."""
    size = layout.size
    board = size * CELL
    panel_x = LEFT + board + 60
    width = panel_x + 400
    seat_y = TOP + board + 18 + 12 * layout.columns + 34
    height = seat_y + 20
    parts: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" '
        f'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{LED_COLOUR}"/>'
        "</marker></defs>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
        _text(LEFT, 30, f"draughtsboard wiring: {layout.name}", 20, weight="bold"),
        _text(
            LEFT,
            52,
            f"{layout.squares} reed switches in a {layout.rows} x {layout.columns} diode matrix, "
            f"{layout.led_count} WS2812B LEDs; seen from above, White's seat at the bottom",
            12,
        ),
    ]
    centres = {sq: _centre(layout, sq) for sq in range(1, layout.squares + 1)}
    for row in range(size):
        for file in range(size):
            dark = (row + file) % 2 == (1 if layout.a1_dark else 0)
            x, y = LEFT + file * CELL, TOP + row * CELL
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                f'fill="{"#8a5a3b" if dark else "#f1dfc4"}"/>'
            )
    parts += _row_wires(layout, centres)
    parts += _column_wires(layout, centres)
    parts += _led_chain(layout, centres)
    for square, (cx, cy) in centres.items():
        sensor = layout.sensor_squares.index(square)
        row, column = divmod(sensor, layout.columns)
        parts.append(
            _text(cx, cy + 6, str(square), 20, fill="white", anchor="middle", weight="bold")
        )
        parts.append(_text(cx - 29, cy + 27, f"r{row}c{column}", 9, fill="#ffe9c9"))
        parts.append(
            _text(
                cx + 29,
                cy - 19,
                f"L{layout.led_of_square(square)}",
                9,
                fill="#c8ffd2",
                anchor="end",
            )
        )
    parts.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{board}" height="{board}" fill="none" stroke="#333"/>'
    )
    parts.append(_text(LEFT + board / 2, seat_y, "White's seat", 14, anchor="middle"))
    parts += _panel(layout, panel_x)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _centre(layout: Layout, square: int) -> tuple[float, float]:
    row, file = layout.cell_of_square(square)
    return LEFT + file * CELL + CELL / 2, TOP + row * CELL + CELL / 2


def _row_wires(layout: Layout, centres: dict[int, tuple[float, float]]) -> list[str]:
    parts = []
    for row in range(layout.rows):
        squares = layout.sensor_squares[row * layout.columns : (row + 1) * layout.columns]
        points = sorted((centres[s][0] - 14, centres[s][1] + 14) for s in squares)
        y = sum(p[1] for p in points) / len(points)
        xs = [LEFT - 12, *(p[0] for p in points)]
        path = " ".join(f"{x:.0f},{y2:.0f}" for x, y2 in [(xs[0], points[0][1]), *points])
        parts.append(_polyline(path, ROW_COLOUR, 2.5))
        label = f"row {row} · GPIO{layout.row_pins[row]}" if layout.row_pins else f"row {row}"
        parts.append(_text(LEFT - 16, y + 4, label, 11, fill=ROW_COLOUR, anchor="end"))
    return parts


def _column_wires(layout: Layout, centres: dict[int, tuple[float, float]]) -> list[str]:
    parts = []
    bottom = TOP + layout.size * CELL
    for column in range(layout.columns):
        squares = [layout.sensor_squares[r * layout.columns + column] for r in range(layout.rows)]
        points = sorted(
            ((centres[s][0] + 14, centres[s][1] + 14) for s in squares), key=lambda p: p[1]
        )
        points.append((points[-1][0], bottom + 18 + 12 * column))
        parts.append(_polyline(" ".join(f"{x:.0f},{y:.0f}" for x, y in points), COLUMN_COLOUR, 2))
        label = (
            f"col {column} · GPIO{layout.column_pins[column]}"
            if layout.column_pins
            else f"col {column}"
        )
        x, y = points[-1]
        parts.append(_text(x, y + 11, label, 10, fill=COLUMN_COLOUR, anchor="middle"))
    return parts


def _led_chain(layout: Layout, centres: dict[int, tuple[float, float]]) -> list[str]:
    points = [(centres[s][0], centres[s][1] - 12) for s in layout.led_squares if s]
    first_x, first_y = points[0]
    start = (first_x, TOP - 8)
    path = " ".join(f"{x:.0f},{y:.0f}" for x, y in [start, *points])
    return [
        f'<polyline points="{path}" fill="none" stroke="{LED_COLOUR}" stroke-width="1.5" '
        'stroke-dasharray="5,3" marker-mid="url(#arrow)" opacity="0.9"/>',
        _text(
            first_x + 6,
            TOP - 12,
            f"LED data in (GPIO{layout.led_pin} via 74AHCT125)",
            10,
            fill=LED_COLOUR,
        ),
    ]


def _panel(layout: Layout, x: float) -> list[str]:
    y = TOP
    parts = [_text(x, y + 10, "One square's switch", 14, weight="bold")]
    # column wire -> diode (anode at the column) -> reed switch -> row wire
    cy = y + 50
    parts += [
        _line(x, cy, x + 60, cy, COLUMN_COLOUR, 3),
        _text(x, cy - 10, "column (pull-up)", 10, fill=COLUMN_COLOUR),
        f'<polygon points="{x + 60},{cy - 10} {x + 60},{cy + 10} {x + 80},{cy}" fill="#333"/>',
        _line(x + 80, cy - 10, x + 80, cy + 10, "#333", 3),
        _text(x + 70, cy + 26, "1N4148", 10, anchor="middle"),
        _line(x + 80, cy, x + 120, cy, "#333", 2),
        _line(x + 120, cy, x + 160, cy - 12, "#333", 2),
        f'<rect x="{x + 112}" y="{cy - 20}" width="58" height="30" rx="12" '
        'fill="none" stroke="#777"/>',
        _text(x + 141, cy + 26, "reed switch", 10, anchor="middle"),
        _line(x + 165, cy, x + 230, cy, ROW_COLOUR, 3),
        _text(x + 180, cy - 10, "row (driven low)", 10, fill=ROW_COLOUR),
    ]
    lines = [
        ("Scan", 14, "bold"),
        ("Drive one row low, the others are inputs;", 11, ""),
        ("read the columns with pull-ups: low = piece.", 11, ""),
        ("Diode anode to the column, band to the switch:", 11, ""),
        ("without them, rectangles of pieces show ghosts.", 11, ""),
        ("", 8, ""),
        ("LED power", 14, "bold"),
        (
            f"{layout.led_count} LEDs x 60 mA = {layout.led_count * 0.06:.1f} A at full white;",
            11,
            "",
        ),
        (
            f"brightness cap {layout.max_brightness:g} -> about "
            f"{layout.led_count * 0.06 * layout.max_brightness:.1f} A.",
            11,
            "",
        ),
        ("5 V supply to the strip directly, not through the Pi;", 11, ""),
        ("common ground; 1000 uF across the strip's 5 V;", 11, ""),
        ("data: GPIO -> 74AHCT125 (5 V) -> 330 ohm -> DIN.", 11, ""),
        ("", 8, ""),
        ("Pins (BCM)", 14, "bold"),
        ("rows: " + ", ".join(map(str, layout.row_pins)), 11, ""),
        ("columns: " + ", ".join(map(str, layout.column_pins)), 11, ""),
        (f"LED data: GPIO{layout.led_pin}, order {layout.colour_order}", 11, ""),
        ("", 8, ""),
        ("Labels on each square", 14, "bold"),
        ("big: square number; rXcY: switch row and column;", 11, ""),
        ("Ln: the LED's position on the data chain.", 11, ""),
    ]
    y = cy + 70
    for text, size, weight in lines:
        if text:
            parts.append(_text(x, y, text, size, weight=weight))
        y += size + 8
    return parts


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float) -> str:
    return (
        f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
        f'stroke="{colour}" stroke-width="{width}"/>'
    )


def _polyline(points: str, colour: str, width: float) -> str:
    return (
        f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="{width}" '
        'stroke-linejoin="round" opacity="0.85"/>'
    )


def _text(
    x: float,
    y: float,
    text: str,
    size: int,
    *,
    fill: str = "#222",
    anchor: str = "start",
    weight: str = "",
) -> str:
    bold = ' font-weight="bold"' if weight else ""
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}"{bold}>{escape(text)}</text>'
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.diagram", description=__doc__)
    parser.add_argument("layout", nargs="?", default="standard-8x8", help="layout name or file")
    parser.add_argument("-o", "--output", type=Path, help="SVG file to write (default: stdout)")
    args = parser.parse_args(argv)
    svg = render_svg(load_layout(args.layout))
    if args.output:
        args.output.write_text(svg, encoding="utf-8")
    else:
        print(svg, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
