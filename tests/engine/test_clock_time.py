"""The computer on a game clock: how much of it a move may take, and never flagging.

`time_for_move` is checked over every kind of clock (hypothesis); then whole
games of every level against itself are played on a simulated clock, each
search charged its own time on a clock that advances per look (a slow machine:
about 1,600 nodes a second), so the test
measures the plan and the search's stops, not this machine's load. The same
games on wall time, through the worker process: tests/host/test_computer_clock.py
and, 20 games a level at 1+1, `make bench` (bench/blitz_bench.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import Game, get_variant
from engine.search import Searcher, root_from_game
from engine.search.api import to_public
from engine.search.levels import (
    LEVELS,
    MIN_SECONDS,
    MOST_OF_LEFT,
    choose,
    get_level,
    hard_limit,
    time_for_move,
)
from tests.engine.test_search_levels import StepClock

clocks = st.floats(min_value=0, max_value=3 * 3600 * 1000, allow_nan=False)
increments = st.floats(min_value=0, max_value=60_000, allow_nan=False)


@settings(max_examples=400, deadline=None)
@example(left=3035.0, increment=981.0, plies=0, level=2, overhead=1.0)  # the quarter, exactly
@given(left=clocks, increment=increments, plies=st.integers(0, 400),
       level=st.sampled_from(sorted(LEVELS)), overhead=st.floats(0, 10_000))
def test_a_move_never_takes_more_than_a_share_of_the_time_left(
        left: float, increment: float, plies: int, level: int, overhead: float) -> None:
    seconds = time_for_move(left, increment, plies, level, overhead)
    assert MIN_SECONDS <= seconds <= get_level(level).move_time
    # (a float's last bit aside: the share is computed from seconds, the test from ms)
    available = (left - overhead) / 1000
    if available > MIN_SECONDS / MOST_OF_LEFT:
        assert seconds <= MOST_OF_LEFT * available * (1 + 1e-9) < left / 1000
    assert hard_limit(left, overhead) <= max(0.0, available)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_with_time_to_spare_each_level_keeps_its_own_time(level: int) -> None:
    for control in [(90 * 60_000, 30_000), (15 * 60_000, 10_000), (5 * 60_000, 3000)]:
        assert time_for_move(*control, 20, level) == get_level(level).move_time


def test_low_on_time_a_move_spends_less_than_the_increment() -> None:
    """So the clock climbs back instead of running out: the reserve is kept."""
    assert time_for_move(3_000, 1_000, 80, 4) < 1.0
    assert time_for_move(500, 1_000, 80, 4) < 0.2
    assert time_for_move(60_000, 1_000, 0, 4) > 1.0  # early, with a minute left, more


def test_carrying_moves_out_is_planned_for() -> None:
    assert time_for_move(60_000, 1_000, 10, 4, overhead_ms=800) < time_for_move(
        60_000, 1_000, 10, 4)


def simulated_game(level: int, control: tuple[float, float], plies: int,
                   variant: str = "brazilian") -> tuple[float, Game]:
    """A game of `level` against itself; returns the least time left after a move (ms)."""
    game = Game(get_variant(variant))
    left = {"W": control[0], "B": control[0]}
    least = float("inf")
    chosen = get_level(level)
    searchers = {side: Searcher(game.variant, clock=StepClock(0.005)) for side in "WB"}
    rng = random.Random(level)
    while game.outcome() is None and game.ply < plies:
        side = game.turn
        searcher = searchers[side]
        budget = time_for_move(left[side], control[1], game.ply, level)
        start = searcher.clock()
        hard = max(budget, hard_limit(left[side]))
        result = searcher.search(root_from_game(game),
                                 chosen.options(budget, deadline=start + hard))
        spent = searcher.clock() - start
        left[side] -= 1000 * spent
        assert left[side] > 0, f"level {level} flagged at ply {game.ply}"
        left[side] += control[1]
        least = min(least, left[side])
        move = choose(result, chosen, rng)
        assert move is not None
        game.push(to_public(game.position, move))
    return least, game


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_blitz_one_plus_one_never_flags_on_the_searchs_own_clock(level: int) -> None:
    least, game = simulated_game(level, (60_000, 1_000), 120)
    assert game.ply >= 40 or game.outcome() is not None
    assert least > 1_000  # a second and more in hand at the worst moment


def test_a_half_minute_and_a_second_never_flags_either() -> None:
    least, _ = simulated_game(4, (30_000, 1_000), 120)
    assert least > 1_000
