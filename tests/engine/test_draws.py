"""Every win and draw rule of docs/rules.md, per variant (Russian: test_russian_draws.py)."""

from __future__ import annotations

import pytest

from engine import Game, Position, get_variant
from tests.engine.helpers import quiet_walk


def game_from(variant: str, fen: str) -> Game:
    v = get_variant(variant)
    return Game(v, Position.from_fen(fen, v))


def test_win_when_the_opponent_has_no_pieces() -> None:
    game = game_from("brazilian", "W:Wc3:Bd4")
    game.push(game.legal_moves()[0])
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "W" and outcome.reason == "no-pieces"
    assert outcome.result == "1-0"


def test_a_set_up_position_without_opponent_pieces_is_already_won() -> None:
    outcome = game_from("brazilian", "W:W22:B").outcome()
    assert outcome is not None and outcome.winner == "W" and outcome.reason == "no-pieces"


def test_win_when_the_opponent_is_blocked() -> None:
    # Black's man on a7 is blocked by two White men (b6 and the man behind it on c5)
    game = game_from("brazilian", "B:Wb6,c5:Ba7")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "W" and outcome.reason == "no-moves"


def test_no_outcome_in_the_initial_position() -> None:
    assert Game(get_variant("brazilian")).outcome() is None


def test_threefold_repetition_is_a_draw_on_the_third_occurrence() -> None:
    game = game_from("brazilian", "W:WKc1:BKf8")
    cycle = ["c1-d2", "f8-e7", "d2-c1", "e7-f8"]
    for text in cycle * 2:
        assert game.outcome() is None
        game.push(game.position.parse_move(text))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.reason == "threefold-repetition"
    game.pop()
    assert game.outcome() is None  # taking back undoes the count


@pytest.mark.parametrize(
    ("variant", "fen", "plies"),
    [
        ("brazilian", "W:WKa1,Kc1:BKh8,Kf8", 80),
        ("english", "W:WK29,K30:BK1,K2", 80),
        ("italian", "W:WK29,K30:BK1,K2", 80),
        ("pool", "W:WK29,K30:BK1,K2", 80),
        ("spanish", "W:WK1,K2:BK29,K30", 80),
        ("portuguese", "W:WK1,K2:BK29,K30", 40),
        ("international", "W:WK46,K47,K48:BK1,K2,K3", 50),
        ("russian", "W:WKa1,Kc1:BKh8,Kf8,Kb8", 30),
    ],
)
def test_no_progress_draw(variant: str, fen: str, plies: int) -> None:
    game = game_from(variant, fen)
    quiet_walk(game, plies + 5)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "no-progress"
    assert game.ply == plies
    game.pop()
    assert game.outcome() is None and game.draw_counters()["no-progress"] == 1


def test_a_man_move_resets_the_no_progress_count() -> None:
    game = game_from("brazilian", "W:WKc1,h2:BKb8,a7")
    for text in ("c1-d2", "b8-c7"):
        game.push(game.position.parse_move(text))
    assert game.draw_counters()["no-progress"] == 78
    game.push(game.position.parse_move("h2-g3"))
    assert game.draw_counters()["no-progress"] == 80


@pytest.mark.parametrize(
    ("variant", "fen", "plies", "rule"),
    [
        # seed 002 art. 6.3: three kings, two kings and a man, a king and two men v a king
        ("international", "W:WK47,K48,K49:BK3", 20, "6.3"),
        ("international", "W:WK47,K48,39:BK3", 20, "6.3"),
        ("international", "W:WK47,38,39:BK3", 20, "6.3"),
        # art. 6.4: two kings, a king and a man, a king v a king
        ("international", "W:WK47,K48:BK3", 10, "6.4"),
        ("international", "W:WK47,39:BK3", 10, "6.4"),
        ("international", "W:WK47:BK3", 10, "6.4"),
        ("international", "B:WK47:BK3", 10, "6.4"),
    ],
)
def test_endgame_limits(variant: str, fen: str, plies: int, rule: str) -> None:
    game = game_from(variant, fen)
    assert game.draw_counters()["endgame-limit"] == plies
    quiet_walk(game, plies + 5)
    outcome = game.outcome()
    assert outcome is not None and (outcome.reason, outcome.rule) == ("endgame-limit", rule)
    assert game.ply == plies
    game.pop()
    assert game.outcome() is None and game.draw_counters()["endgame-limit"] == 1


def test_international_limit_runs_on_through_a_promotion_within_its_material() -> None:
    # A king and two men v king (6.3); a man crowns on ply 1 (two kings and a man v
    # king, still 6.3): the count goes on from the start, 10 moves each = ply 20.
    game = game_from("international", "W:WK47,7,39:BK45")
    game.push_text("7-1")
    assert game.position.count("W") == (2, 1)
    assert game.draw_counters()["endgame-limit"] == 19
    quiet_walk(game, 25)
    assert game.ply == 20 and game.outcome() is not None
    assert (game.outcome().reason, game.outcome().rule) == ("endgame-limit", "6.3")


def test_international_limit_starts_again_when_a_capture_changes_the_rule() -> None:
    # Three kings v king (6.3): the lone king takes one (ply 1) and 6.4 starts from 0.
    game = game_from("international", "B:WK47,K48,K19:BK24")
    game.push(game.legal_moves()[0])
    assert game.position.count("W") == (2, 0)
    assert game.draw_counters()["endgame-limit"] == 10


def test_brazilian_applies_no_three_kings_against_one_limit() -> None:
    game = game_from("brazilian", "W:WKc1,Ke1,Kg1:BKb8")
    assert game.draw_counters()["endgame-limit"] is None
    quiet_walk(game, 60)
    assert game.ply == 60 and game.outcome() is None


def test_portuguese_forcada_needs_a_king_on_the_long_diagonal() -> None:
    portuguese = get_variant("portuguese")
    # Portuguese: 1 = h1; the long diagonal runs h1-a8 (squares 1, 5, 10, 14, 19, 23, 28, 32)
    on_diagonal = [s for s in range(1, 33)
                   if sum(portuguese.square_coords(s)) == 7]
    assert sorted(on_diagonal) == [1, 5, 10, 14, 19, 23, 28, 32]
    game = game_from("portuguese", "W:WK1,K2,K3:BK30")
    quiet_walk(game, 30)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "endgame-limit"
    assert game.ply == 24
    # without a king on the long diagonal the count has not started
    off = game_from("portuguese", "W:WK2,K3,K4:BK30")
    assert off.draw_counters()["endgame-limit"] is None
