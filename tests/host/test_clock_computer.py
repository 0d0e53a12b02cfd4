"""The computer plays to the clock: against itself on a blitz clock (1+1), through the real
session, recogniser, clock and search worker, it never loses on time at any level (the
hands' time to carry its moves out included: tests/host/blitz.py). The first 24 plies of
a game per level here; `make bench` plays 20 whole games per level (docs/BENCHMARKS.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.host.blitz import play


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_the_computer_keeps_its_time_on_a_blitz_clock(level: int, tmp_path: Path) -> None:
    game = play(level, "1+1", seed=level, max_plies=24, folder=tmp_path)
    assert not game.flagged, game
    assert game.plies == 24 or game.result is not None, game
    # Never near the flag: with 1 s a move added, the clock climbs back, not down.
    assert game.least_left_ms > 20_000, game
