"""The start-up benchmark runs the real command to ready, on the simulator and on the
GPIO backend over fakes, and reports numbers (no speed is asserted here)."""

from __future__ import annotations

import re

from bench import startup_bench


def test_startup_section_measures_both_boards() -> None:
    section = startup_bench.run(runs=1)
    for case in ("`run --board sim`", "`run --board gpio` (fakes)"):
        (row,) = [line for line in section.splitlines() if line.startswith(f"| {case} |")]
        cells = [c.strip() for c in row.strip("|").split("|")]
        ready_ms, resident, peak = float(cells[1]), float(cells[2]), float(cells[3])
        assert ready_ms > 0 and 5 < resident <= peak
    assert re.search(r"peak [\d.]+ MB, (under|OVER) the 60 MB target", section)
