"""The wiring picture is generated from the layout and the committed copy is current."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hardware.diagram import main, render_svg
from hardware.layout import standard_layout

DOCS = Path(__file__).resolve().parents[2] / "docs"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("size", [8, 10])
def test_committed_diagrams_match_the_layouts(size):
    committed = (DOCS / f"wiring-{size}x{size}.svg").read_text(encoding="utf-8")
    assert committed == render_svg(standard_layout(size)), "run: python -m hardware.diagram"
    assert (DOCS / f"wiring-{size}x{size}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_diagram_labels_every_square_pin_and_led():
    layout = standard_layout(8).rotated(1)
    root = ET.fromstring(render_svg(layout))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert all(str(sq) in texts for sq in range(1, 33))
    assert all(f"L{n}" in texts for n in range(32))
    assert "row 0 · GPIO4" in texts and "col 3 · GPIO16" in texts
    switch_of_1 = layout.sensor_squares.index(1)
    assert f"r{switch_of_1 // 4}c{switch_of_1 % 4}" in texts


def test_command_writes_a_file(tmp_path):
    out = tmp_path / "w.svg"
    assert main(["standard-10x10", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render_svg(standard_layout(10))
