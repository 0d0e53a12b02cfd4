"""The computer on a wall clock, through its worker process: blitz against itself.

A short control keeps the run modest; the full 20 games a level at 1+1 are in
`make bench` (bench/blitz_bench.py, docs/BENCHMARKS.md). The control leaves a
reserve of seconds, so only a stall of seconds on this machine could flag.
"""

from __future__ import annotations

import pytest

from bench.blitz_bench import play
from engine.search.levels import LEVELS


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_each_level_plays_a_blitz_game_against_itself_without_flagging(level: int) -> None:
    game = play(level, (6_000, 200), seed=level, max_plies=50)
    assert game.flagged is None, f"level {level} flagged at ply {game.plies}"
    assert game.plies >= 20 or game.result != "*"
