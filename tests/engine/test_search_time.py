"""Time spent wisely: the settled positions where a level stops before its time.

The search's own clock is replaced by one that advances per look (the
searcher looks every few nodes), so these tests measure the search's
accounting, not this machine's load: the same positions stop for the same
reasons on a Pi.
"""

from __future__ import annotations

import pytest

from engine import Game, Position, get_variant
from engine.search import Searcher, root_from_game, root_from_position
from engine.search.levels import get_level
from engine.search.options import SearchOptions
from engine.search.timing import (
    DEAD_DRAW,
    FAR_ABOVE,
    FAR_ABOVE_DEPTH,
    ONLY_MOVE,
    STABLE,
    material_draw,
)
from tests.engine.test_search_levels import MIDDLEGAME, StepClock

BRAZILIAN = get_variant("brazilian")
# Brazilian, White to move: c3-d4 gives a man and takes three; every other move is quiet.
SHOT = "W:W21,22,23,24,26,27,28,30,31:B1,4,5,7,8,12,14,15"


def level_search(fen: str, level: int, variant: str = "brazilian", step: float = 0.0005):
    chosen = get_variant(variant)
    searcher = Searcher(chosen, clock=StepClock(step))
    position = Position.from_fen(fen, chosen)
    return searcher.search(root_from_position(position), get_level(level).options())


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_a_single_legal_move_is_played_at_once(level: int) -> None:
    result = level_search("W:W22:B11,18", level)  # 22x13 is forced
    assert result.settled == ONLY_MOVE and result.depth == 0 and result.nodes == 0


@pytest.mark.parametrize("level", [3, 4])
def test_one_move_far_above_all_others_is_played_well_before_the_time(level: int) -> None:
    result = level_search(SHOT, level)
    move_time = get_level(level).move_time
    assert result.settled == FAR_ABOVE and result.depth == FAR_ABOVE_DEPTH
    assert result.elapsed < move_time / 2
    assert (result.best[0], result.best[1]) == (BRAZILIAN.square_to_bit[22],
                                                BRAZILIAN.square_to_bit[18])  # c3-d4


@pytest.mark.parametrize(("variant", "fen"), [
    ("russian", "W:WKc1:BKh8"),  # king against king
    ("brazilian", "W:WK1,K2:BK30"),  # two flying kings cannot beat one
    ("international", "W:WK1,47:BK30"),  # nor a king and a man
])
def test_a_dead_drawn_ending_is_not_thought_about_for_long(variant: str, fen: str) -> None:
    position = Position.from_fen(fen, variant)
    assert material_draw(position.variant, position.white, position.black, position.kings)
    result = level_search(fen, 4, variant)
    assert result.settled == DEAD_DRAW and result.score == 0
    assert result.elapsed < get_level(4).move_time / 4


def test_material_that_can_still_win_is_not_called_drawn() -> None:
    for variant, fen in [("brazilian", "W:WK1,K2,K3:BK30"), ("english", "W:WK1,K2:BK30"),
                         ("brazilian", "W:WK1,K2:BK30,K31"), ("brazilian", "W:W21:B1")]:
        position = Position.from_fen(fen, variant)
        assert not material_draw(position.variant, position.white, position.black,
                                 position.kings), fen


def test_a_stable_best_move_does_not_start_an_iteration_it_cannot_finish() -> None:
    """Along a game, a settled level 4 spends less than its time on many moves and
    never more: the accounting of "stable" on the search's own clock."""
    game = Game(BRAZILIAN)
    level = get_level(4)
    spent = []
    reasons = []
    for _ in range(12):
        searcher = Searcher(BRAZILIAN, clock=StepClock(0.0005))
        result = searcher.search(root_from_game(game), level.options())
        spent.append(result.elapsed)
        reasons.append(result.settled)
        game.push(next(m for m in game.legal_moves()
                       if (BRAZILIAN.square_to_bit[m.origin],
                           BRAZILIAN.square_to_bit[m.destination]) == result.best[:2]))
    assert max(spent) <= level.move_time * 1.01
    assert STABLE in reasons
    assert sum(spent) < 0.9 * len(spent) * level.move_time


def test_analysis_asked_for_a_time_uses_all_of_it() -> None:
    """Saving time is for players: `analyse --time` and the default options search on."""
    searcher = Searcher(BRAZILIAN, clock=StepClock(0.0005))
    position = Position.from_fen(MIDDLEGAME, BRAZILIAN)
    result = searcher.search(root_from_position(position), SearchOptions(time_limit=1.0))
    assert result.settled is None and result.elapsed >= 1.0
    result = Searcher(BRAZILIAN, clock=StepClock(0.0005)).search(
        root_from_position(Position.from_fen(SHOT, BRAZILIAN)), SearchOptions(time_limit=1.0))
    assert result.settled is None and result.elapsed >= 1.0  # not even a far-above move
