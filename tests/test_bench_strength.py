"""The strength bench's machinery: match scoring, adjudication, openings, the dame-rs summary.

The matches themselves take an hour and run in `make bench`; these check the
parts that decide what its table says, in a second.
"""

from __future__ import annotations

from bench.matches import (
    DECISIVE,
    LEAD_PLIES,
    Player,
    RandomPlayer,
    match,
    material,
    openings,
    play_game,
)
from bench.strength_bench import _equal_depth
from engine import Game, Move, Position, get_variant


class FirstMove(Player):
    name = "first"

    def move(self, game: Game) -> Move:
        return game.legal_moves()[0]


def test_a_match_plays_each_start_with_both_colours() -> None:
    starts = openings("brazilian", 2, seed=1)
    score = match(starts, RandomPlayer(), FirstMove(), seed=3)
    assert score.games == 4 == len(score.plies)
    assert score.wins + score.draws + score.losses == 4
    assert 0 <= score.percent() <= 100


def test_openings_are_named_book_positions_and_repeatable() -> None:
    first = openings("russian", 5, seed=9)
    again = openings("russian", 5, seed=9)
    assert [name for name, _ in first] == [name for name, _ in again]
    assert len({name for name, _ in first}) == 5
    assert all(position.legal_moves() for _, position in first)


def test_a_big_lasting_lead_is_adjudicated_to_the_side_ahead() -> None:
    variant = get_variant("brazilian")
    start = Position.from_fen("W:W21,22,23,24,25,26,27,28:B1,2,3,4", variant)  # four men up
    assert material(start) >= DECISIVE
    winner, plies, adjudicated = play_game(start, FirstMove(), FirstMove(), seed=1)
    assert winner == "W" and adjudicated and plies >= LEAD_PLIES - 1


def test_the_game_ends_by_the_rules_first() -> None:
    variant = get_variant("brazilian")
    start = Position.from_fen("W:W22:B18", variant)  # White takes the last piece
    assert play_game(start, FirstMove(), FirstMove(), seed=1) == ("W", 1, False)


def test_equal_depth_summary() -> None:
    text = _equal_depth([(1, 100.0), (2, 75.0), (4, 40.0), (6, 10.0)], "0.2.0")
    assert "between depths 2 and 4" in text and text.startswith("dame-rs 0.2.0.")
    assert "under half even against depth 1" in _equal_depth([(1, 30.0)], "0.2.0")
    assert "every depth tried (up to 2)" in _equal_depth([(1, 90.0), (2, 60.0)], "0.2.0")
