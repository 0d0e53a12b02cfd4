"""The benchmark harness produces a complete document, and fails loudly.

Why: `make bench` takes minutes and runs rarely, so a harness broken by an
API change would otherwise be found late. These tests run the engine section
in `--quick` mode (a few seconds) and check the document's structure and
that its numbers are numbers. They assert no speed: targets are judged by the
benchmark itself, and a loaded CI machine must not fail the unit tests.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import bench.__main__ as harness
from bench import engine_bench

ROOT = Path(__file__).resolve().parent.parent
ISSUE_FEN = "W:WK23:B28,17,10,20,29,39,40,38,31,8,9"


@pytest.fixture(scope="module")
def quick_document(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    out = tmp_path_factory.mktemp("bench") / "BENCHMARKS.md"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--only", "engine", "--write", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, f"python -m bench failed:\n{done.stderr}"
    return out.read_text(encoding="utf-8"), done.stderr


def _row(document: str, first_cells: str) -> list[str]:
    """The cells of the table row starting with `first_cells` (e.g. '| brazilian | 6 |')."""
    for line in document.splitlines():
        if line.startswith(first_cells):
            return [cell.strip() for cell in line.strip("|").split("|")]
    raise AssertionError(f"no table row starting with {first_cells!r}")


def _number(cell: str) -> float:
    match = re.fullmatch(r"\*{0,2}([\d,]+(?:\.\d+)?)x?\*{0,2}", cell)
    assert match, f"{cell!r} is not a number"
    return float(match.group(1).replace(",", ""))


def test_header_describes_machine_and_command(quick_document: tuple[str, str]) -> None:
    document, _ = quick_document
    assert document.startswith("# Benchmarks\n")
    assert re.search(r"^- Command: `.*-m bench --quick --only engine --write .*`$", document,
                     re.MULTILINE)
    assert re.search(r"^- CPU: .+, \d+ cores$", document, re.MULTILINE)
    assert re.search(r"^- Python: \w+ 3\.\d+\.\d+", document, re.MULTILINE)
    assert re.search(r"^- Date: \d{4}-\d\d-\d\d \d\d:\d\d UTC$", document, re.MULTILINE)
    assert "Quick smoke run" in document


def test_only_the_engine_section_ran(quick_document: tuple[str, str]) -> None:
    document, stderr = quick_document
    assert "## Rules engine" in document
    assert "## Hardware layer latency" not in document
    assert "[bench] engine" in stderr  # progress goes to stderr


def test_perft_table_has_every_variant_with_checked_counts(
    quick_document: tuple[str, str],
) -> None:
    document, _ = quick_document
    assert "### Perft from the initial position" in document
    for name, depth in engine_bench.QUICK.depths.items():
        cells = _row(document, f"| {name} | {depth} |")
        assert _number(cells[2]) == engine_bench.KNOWN_PERFT[name][depth]
        assert _number(cells[4]) >= 0  # seconds
        assert _number(cells[5]) > 0  # nodes/s
    assert "draughtsboard perft --variant brazilian --depth 5" in document


def test_quick_run_judges_no_target(quick_document: tuple[str, str]) -> None:
    document, _ = quick_document
    assert "not judged (quick)" in document
    assert "PASS" not in document and "FAIL" not in document


def test_worst_positions_are_measured(quick_document: tuple[str, str]) -> None:
    document, _ = quick_document
    assert "### Legal moves on worst-case positions" in document
    for variant, fen, _note in engine_bench.WORST_POSITIONS:
        cells = _row(document, f"| {variant} | `{fen}` |")
        median, p99, best = _number(cells[7]), _number(cells[8]), _number(cells[9])
        assert 0 < best <= median <= p99
        assert _number(cells[10]) > 0  # raw generator median
    issue = _row(document, f"| international | `{ISSUE_FEN}` |")
    assert issue[3:6] == ["1", "1", "10"]  # one move, one path, ten captured


def test_peer_and_memory_sections(quick_document: tuple[str, str]) -> None:
    document, _ = quick_document
    assert "### Against pydraughts" in document
    peer = engine_bench.load_peer()[0]
    if peer is None:
        assert "Not measured: pydraughts is not importable" in document
    else:
        assert "measured in this run" in document
        _number(_row(document, "| **ratio (ours / theirs)** |")[4])
    assert "### Memory" in document
    cells = _row(document, "| `import engine` |")
    assert _number(cells[1]) > 0 and _number(cells[2]) > 0


def test_wrong_node_count_fails_loudly() -> None:
    with pytest.raises(engine_bench.BenchError, match="published value is 7,473"):
        engine_bench._check_nodes("brazilian", 5, 7474, "test")


def test_peer_fen_uses_algebraic_squares_for_brazilian() -> None:
    position = engine_bench.Position.from_fen(
        "W:W21,K22:B17", engine_bench.get_variant("brazilian"))
    fen = engine_bench.peer_fen(position)
    assert re.fullmatch(r"W:W[a-h][1-8],K[a-h][1-8]:B[a-h][1-8]", fen), fen


def test_failing_section_is_reported_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(name: str, module: object, quick: bool):  # noqa: ARG001
        def run() -> str:
            raise engine_bench.BenchError("perft brazilian depth 8 gave 1 nodes")

        return run

    monkeypatch.setattr(harness, "_runner", broken)
    out = tmp_path / "doc.md"
    assert harness.main(["--only", "engine", "--write", str(out)]) == 1
    text = out.read_text(encoding="utf-8")
    assert "## engine: FAILED" in text and "gave 1 nodes" in text


def test_update_replaces_only_the_sections_rerun_and_says_so() -> None:
    from bench.__main__ import updated

    document = ("# Benchmarks\n\n- Command: `all`\n- Load: 1\n\n## Rules engine\n\nold engine\n\n"
                "### A table\n\n| a |\n\n## Search: speed\n\nold search\n")
    new = updated(document, ["## Search: speed\n\nnew search\n", "## Blitz\n\nnew blitz\n"],
                  "- Rerun: search, blitz")
    assert new.split("\n")[:5] == ["# Benchmarks", "", "- Command: `all`", "- Load: 1",
                                   "- Rerun: search, blitz"]
    assert "old engine" in new and "### A table" in new  # untouched, subsections and all
    assert "old search" not in new and "new search" in new
    assert new.index("## Rules engine") < new.index("## Search: speed") < new.index("## Blitz")


def test_a_later_rerun_of_the_same_sections_replaces_the_earlier_note() -> None:
    from bench.__main__ import updated

    document = "# B\n\n- Command: x\n- Rerun: search on day 1\n- Rerun: engine on day 1\n\n## S\n"
    new = updated(document, ["## S\n\nnew\n"], "- Rerun: search, blitz on day 2",
                  ["search", "blitz"])
    assert "- Rerun: search on day 1" not in new and "- Rerun: engine on day 1" in new
    assert "- Rerun: search, blitz on day 2" in new
