"""The hardware bench section is well-formed and measures both backends."""

from __future__ import annotations

import re

from bench.hardware_bench import run


def test_bench_returns_a_markdown_section_with_both_backends():
    text = run(iterations=20)
    assert text.startswith("## Hardware layer latency\n")
    assert "`make bench`" in text
    rows = [line for line in text.splitlines() if re.match(r"\| (mock|gpio over fakes) \|", line)]
    assert len(rows) == 6
    for row in rows:
        p50, p99 = (float(cell) for cell in row.strip("|").split("|")[2:4])
        assert 0 < p50 <= p99
    assert "Debounce wait, by configuration and not included above: 10 ms" in text
