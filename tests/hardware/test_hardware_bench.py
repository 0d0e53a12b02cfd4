"""The hardware bench section is well-formed and measures both backends."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_returns_a_markdown_section_with_both_backends():
    # `bench` is a top-level folder run by `make bench`, not an installed package.
    code = "from bench.hardware_bench import run; print(run(iterations=20), end='')"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    text = result.stdout
    assert text.startswith("## Hardware layer latency\n")
    assert "`make bench`" in text
    rows = [line for line in text.splitlines() if re.match(r"\| (mock|gpio over fakes) \|", line)]
    assert len(rows) == 6
    for row in rows:
        p50, p99 = (float(cell) for cell in row.strip("|").split("|")[2:4])
        assert 0 < p50 <= p99
    assert "Debounce wait, by configuration and not included above: 10 ms" in text
