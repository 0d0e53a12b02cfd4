"""Search limits: every nonsense limit is one `EngineError` before anything is searched.

Each case once searched forever (a NaN or infinite time, an unbounded depth),
silently to another depth (0 searched to 6), not at all (-1 returned a move
unsearched) or raised a TypeError (1.5). The command line refuses the same
limits with one line and exit status 2 (tests/test_analyse.py).
"""

from __future__ import annotations

import math

import pytest

from engine import EngineError, Game, Position, get_variant
from engine.search import Searcher, SearchOptions, analyse, root_from_position
from engine.search.levels import Clock, get_level, hard_limit, time_for_move
from engine.search.options import MAX_DEPTH, MAX_SECONDS
from engine.search.table import TranspositionTable

BRAZILIAN = get_variant("brazilian")


@pytest.mark.parametrize("depth", [0, -1, MAX_DEPTH + 1, 10**100, 1.5, "3", True])
def test_a_depth_out_of_range_or_not_whole_is_refused(depth: object) -> None:
    with pytest.raises(EngineError, match="depth"):
        analyse(Game(BRAZILIAN), depth=depth)  # type: ignore[arg-type]


@pytest.mark.parametrize("seconds", [0, -1, 0.0, -0.0, math.nan, math.inf, -math.inf,
                                     MAX_SECONDS + 1, 10**400 // 10**399 * 10**20, "2", True])
def test_a_time_out_of_range_or_not_a_number_is_refused(seconds: object) -> None:
    with pytest.raises(EngineError, match="time"):
        analyse(Game(BRAZILIAN), time=seconds)  # type: ignore[arg-type]


def test_the_messages_say_what_is_allowed() -> None:
    with pytest.raises(EngineError) as raised:
        analyse(Game(BRAZILIAN), time=math.nan)
    assert str(raised.value) == "a search time must be a number of seconds, not NaN"
    with pytest.raises(EngineError) as raised:
        analyse(Game(BRAZILIAN), depth=0)
    assert str(raised.value) == f"a search depth runs from 1 to {MAX_DEPTH} plies, not 0"


def test_good_limits_still_search() -> None:
    analysis = analyse(Game(BRAZILIAN), depth=1)
    assert analysis.depth == 1 and analysis.best in Game(BRAZILIAN).legal_moves()
    analysis = analyse(Game(BRAZILIAN), depth=MAX_DEPTH, time=0.05)
    assert analysis.best is not None and analysis.stopped


@pytest.mark.parametrize("subject", [None, "W:W21:B1", 5, BRAZILIAN])
def test_analyse_takes_a_game_or_a_position(subject: object) -> None:
    with pytest.raises(EngineError, match="Game or a Position"):
        analyse(subject, depth=1)  # type: ignore[arg-type]


def test_options_and_limits_together_are_refused() -> None:
    with pytest.raises(EngineError, match="not both"):
        analyse(Game(BRAZILIAN), depth=2, options=SearchOptions(max_depth=2))


def test_a_searcher_of_another_variant_is_refused() -> None:
    with pytest.raises(EngineError, match="for international"):
        analyse(Game(BRAZILIAN), depth=1, searcher=Searcher(get_variant("international")))


@pytest.mark.parametrize(("field", "value"), [
    ("max_depth", 0), ("time_limit", math.nan), ("time_limit", math.inf), ("node_limit", 0),
    ("node_limit", 2.5), ("quiescence_plies", -1), ("margin", -5), ("threat_plies", None),
    ("deadline", math.nan), ("deadline", math.inf), ("deadline", "soon"),
])
def test_search_options_check_every_limit(field: str, value: object) -> None:
    with pytest.raises(EngineError, match=field):
        SearchOptions(**{field: value})
    options = SearchOptions()
    setattr(options, field, value)  # set after it was made: checked when the search starts
    searcher = Searcher(BRAZILIAN)
    with pytest.raises(EngineError, match=field):
        searcher.search(root_from_position(BRAZILIAN.initial_position()), options)


def test_a_searcher_takes_a_variant_or_its_name_and_a_table_of_sane_size() -> None:
    assert Searcher("brazilian").variant is BRAZILIAN
    with pytest.raises(EngineError, match="unknown variant"):
        Searcher("chess")
    for bits in (4, 40, 16.0, "16"):
        with pytest.raises(EngineError, match="bits from 8 to 24"):
            TranspositionTable(bits)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", [0, 5, -1, "4", 4.0, True, None])
def test_a_level_that_does_not_exist_is_refused(level: object) -> None:
    with pytest.raises(EngineError, match="choose 1 to 4"):
        get_level(level)  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "field"), [
    ((math.nan, 0, 0, 4), "time_left_ms"), ((-1, 0, 0, 4), "time_left_ms"),
    ((60000, math.inf, 0, 4), "increment_ms"), ((60000, 1000, -2, 4), "plies_played"),
    ((60000, 1000, 1.5, 4), "plies_played"), ((60000, 1000, 0, 7), "level"),
])
def test_time_for_move_refuses_nonsense(args: tuple, field: str) -> None:
    with pytest.raises(EngineError, match=field):
        time_for_move(*args)


def test_a_clock_and_the_hard_limit_refuse_nonsense() -> None:
    with pytest.raises(EngineError, match="overhead_ms"):
        Clock(1000, 0, overhead_ms=math.nan)
    with pytest.raises(EngineError, match="time_left_ms"):
        hard_limit(math.inf)


def test_a_deadline_cuts_even_the_first_iteration() -> None:
    """A hard deadline already passed: the first legal move comes back unsearched."""
    position = Position.from_fen("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12", BRAZILIAN)
    searcher = Searcher(BRAZILIAN)
    now = searcher.clock()
    result = searcher.search(root_from_position(position),
                             SearchOptions(time_limit=5.0, deadline=now - 1.0))
    assert result.stopped and result.depth == 0 and result.best in searcher.legal(
        position.white, position.black, position.kings, True)
