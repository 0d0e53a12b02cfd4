"""The PDN benchmark's pieces work (its figures are judged by `make bench`, not here)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench import pdn_bench
from engine.pdn import read_games


def test_the_synthetic_collection_is_read_back_whole_and_mixed(tmp_path: Path) -> None:
    path = tmp_path / "collection.pdn"
    size = pdn_bench.write_collection(path, 30)
    assert size == path.stat().st_size > 0
    games = list(read_games(path))
    assert [game.number for game in games] == list(range(1, 31))
    assert all(game.error is None for game in games)
    assert Counter(game.variant.name for game in games) == {
        "russian": 10, "international": 10, "english": 10}
    assert [game.tags["Round"] for game in games[:3]] == ["1", "2", "3"]


def test_one_measured_process_reports_time_and_peak_memory(tmp_path: Path) -> None:
    path = tmp_path / "small.pdn"
    pdn_bench.write_collection(path, 6)
    run = pdn_bench._measure("records", 6, path, pdn_bench.RECORDS)
    assert run.seconds > 0 and run.peak_kb > 1000 and run.status == 0
    document = pdn_bench._document([run, run, run], [(run, None)], None, "not here", quick=True)
    assert document.startswith("## PDN reading\n")
    assert "| records | 6 |" in document and "Not measured: not here." in document
