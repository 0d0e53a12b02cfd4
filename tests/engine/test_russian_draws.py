"""Russian draws, FMJD-64 "Rules of the game" 7.2.3-7.2.8, each at its ply and one before.

Plies are counted from the position the test starts at. "His Nth move"
(7.2.4, 7.2.7, 7.2.8) is the stronger side's Nth move since the count
started: ply 2N - 1 when it moves first, 2N when the other side does.
docs/rules.md gives the rules, the counting and the precedence tested here.
"""

from __future__ import annotations

import pytest

from engine import Game, Move
from tests.engine.helpers import quiet_walk

RUSSIAN = "russian"
LONG_DIAGONAL = {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}


def is_king_move(game: Game, move: Move) -> bool:
    piece = game.position.piece_at(move.origin)
    return piece is not None and piece.king


def lone_king_holds_diagonal_after(game: Game, move: Move) -> bool:
    """After `move`, is a lone king the only piece on the long diagonal a1-h8?"""
    game.push(move)
    try:
        position = game.position
        on_diagonal = [piece for square, piece in position.pieces().items()
                       if game.variant.square_name(square) in LONG_DIAGONAL]
        return (len(on_diagonal) == 1 and on_diagonal[0].king
                and position.count(on_diagonal[0].color) == (1, 0))
    finally:
        game.pop()


def off_diagonal(game: Game, move: Move) -> bool:
    return not lone_king_holds_diagonal_after(game, move)


def assert_draw_falls_due_at(game: Game, ply: int, reason: str, rule: str | None) -> None:
    """The walked game is drawn at exactly `ply` by `rule`, and was not one ply before."""
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None, game.fen()
    assert (game.ply, outcome.reason, outcome.rule) == (ply, reason, rule)
    game.pop()
    assert game.outcome() is None
    assert game.draw_counters()[reason] == 1


# ------------------------------------------------------------------ 7.2.8
@pytest.mark.parametrize(
    ("fen", "ply"),
    [
        ("W:WKc1,Ke1:BKh8", 9),  # two kings v king; the stronger side moves first
        ("B:WKc1,Ke1:BKh8", 10),  # ... moves second
        ("W:WKc1,e3:BKh8", 9),  # king and man v king
        ("W:WKc1:BKh8", 9),  # king v king: both sides qualify, White's 5th move comes first
        ("B:WKc1:BKh8", 9),  # ... Black's does
        ("B:WKb2,Kc1:BKa7", 10),  # the long diagonal plays no part in this rule
    ],
)
def test_7_2_8_small_material_against_a_lone_king_five_moves(fen: str, ply: int) -> None:
    game = Game.from_fen(fen, RUSSIAN)
    assert game.draw_counters()["endgame-limit"] == ply
    quiet_walk(game, ply + 5)
    assert_draw_falls_due_at(game, ply, "endgame-limit", "7.2.8")


def test_7_2_8_counts_on_through_a_promotion() -> None:
    # King and man v king; the man crowns on White's first move (two kings v king):
    # still 7.2.8, counted from the start, so White's 5th move is still ply 9.
    game = Game.from_fen("W:WKc1,g7:BKa7", RUSSIAN)
    game.push_text("g7-h8")
    assert game.position.count("W") == (2, 0)
    quiet_walk(game, 20)
    assert_draw_falls_due_at(game, 9, "endgame-limit", "7.2.8")


def test_7_2_8_starts_when_a_capture_reaches_its_material() -> None:
    # Two kings v king and man: no 7.2.8 yet. White must take the man (ply 1);
    # then Black moves first, so White's 5th move is ply 1 + 10.
    game = Game.from_fen("W:WKc1,Ke1:BKh8,d2", RUSSIAN)
    assert all(move.is_capture for move in game.legal_moves())
    game.push(game.legal_moves()[0])
    assert game.draw_counters()["endgame-limit"] == 10
    quiet_walk(game, 20)
    assert_draw_falls_due_at(game, 11, "endgame-limit", "7.2.8")


def test_7_2_8_goes_on_when_the_lone_king_takes_the_man_and_counts_its_moves_from_then() -> None:
    # King and man v king, Black to move: Black's king takes the man (ply 1), leaving
    # king v king. The count goes on (same rule); White's 5th move is ply 10. Black's
    # capture was made as the weaker side, so its own 5th move would only be ply 11.
    game = Game.from_fen("B:WKc1,d4:BKe5", RUSSIAN)
    game.push_text("e5xa1")
    assert game.draw_counters()["endgame-limit"] == 9
    quiet_walk(game, 20)
    assert_draw_falls_due_at(game, 10, "endgame-limit", "7.2.8")


def test_a_win_on_the_move_a_limit_falls_due_is_a_win() -> None:
    # White's 5th move (ply 9) is when 7.2.8 falls due; it takes the king.
    game = Game.from_fen("W:WKc1,Ke1:BKh8", RUSSIAN)
    for text in ("c1-a3", "h8-g7", "e1-d2", "g7-f8", "d2-c3", "f8-h6", "a3-b4", "h6-g7"):
        game.push_text(text)
        assert game.outcome() is None
    game.push_text("c3xh8")
    assert game.ply == 9 and game.outcome() is not None
    assert (game.outcome().winner, game.outcome().reason) == ("W", "no-pieces")


# ------------------------------------------------------------------ 7.2.7
@pytest.mark.parametrize(
    ("fen", "ply"),
    [
        ("W:WKc1,Ke1,Kg1:BKa1", 9),  # three kings v a lone king holding the long diagonal
        ("B:WKc1,Ke1,Kg1:BKa1", 10),
        ("W:WKc1,Ke1,h2:BKa1", 9),  # two kings and a man
        ("W:WKc1,e3,h2:BKa1", 9),  # king and two men: their moves count too
    ],
)
def test_7_2_7_three_pieces_against_a_lone_king_on_the_long_diagonal(fen: str, ply: int) -> None:
    game = Game.from_fen(fen, RUSSIAN)
    assert game.draw_counters()["endgame-limit"] == ply
    quiet_walk(game, ply + 5, allowed=lone_king_holds_diagonal_after)
    assert_draw_falls_due_at(game, ply, "endgame-limit", "7.2.7")


def test_7_2_7_counts_only_moves_after_which_the_lone_king_holds_the_diagonal() -> None:
    # Black's king leaves the diagonal with its 3rd move (ply index 5) and comes back
    # with its 4th: White's move between does not count, so its 5th counted move is
    # its 6th move, ply 11, not 9.
    game = Game.from_fen("W:WKc1,Ke1,Kg1:BKa1", RUSSIAN)

    def allowed(game: Game, move: Move) -> bool:
        return lone_king_holds_diagonal_after(game, move) == (game.ply not in (5, 6))

    quiet_walk(game, 20, allowed=allowed)
    assert_draw_falls_due_at(game, 11, "endgame-limit", "7.2.7")


def test_7_2_7_does_not_count_while_the_lone_king_is_off_the_diagonal() -> None:
    # The same material with Black's king kept off the diagonal: 7.2.4 decides.
    game = Game.from_fen("W:WKc1,Ke1,Kg1:BKa7", RUSSIAN)
    assert game.draw_counters()["endgame-limit"] == 29
    quiet_walk(game, 35, allowed=off_diagonal)
    assert_draw_falls_due_at(game, 29, "endgame-limit", "7.2.4")


# ------------------------------------------------------------------ 7.2.4
@pytest.mark.parametrize(
    ("fen", "ply"),
    [
        ("W:WKc1,Ke1,Kh2:BKa7", 29),  # White's 15th move
        ("W:WKc1,Ke1,Kg1,Kh2:BKa7", 29),  # four kings: the same rule
    ],
)
def test_7_2_4_three_or_more_kings_against_a_lone_king_fifteen_moves(fen: str, ply: int) -> None:
    game = Game.from_fen(fen, RUSSIAN)
    quiet_walk(game, ply + 5, allowed=off_diagonal)
    assert_draw_falls_due_at(game, ply, "endgame-limit", "7.2.4")


def test_7_2_4_and_7_2_5_falling_due_together_name_7_2_4() -> None:
    # Black moves first: White's 15th move is ply 30, when 15 king moves each (7.2.5)
    # are also complete. The more specific rule is named.
    game = Game.from_fen("B:WKc1,Ke1,Kh2:BKa7", RUSSIAN)
    assert game.draw_counters() == {"no-progress": 30, "endgame-limit": 30}
    quiet_walk(game, 35, allowed=off_diagonal)
    assert_draw_falls_due_at(game, 30, "endgame-limit", "7.2.4")
    assert game.draw_counters() == {"no-progress": 1, "endgame-limit": 1}


def test_7_2_4_counts_from_the_capture_that_leaves_the_lone_king() -> None:
    # Three kings and a man v king: no 7.2.4. Black's king takes the man (ply 1);
    # White's 15th move after that is ply 1 + 29.
    game = Game.from_fen("B:WKc1,Ke1,Kh2,b6:BKa7", RUSSIAN)
    assert game.draw_counters()["endgame-limit"] == 60  # only 7.2.6 (5 pieces) runs
    game.push_text("a7xc5")
    quiet_walk(game, 35, allowed=off_diagonal)
    assert_draw_falls_due_at(game, 30, "endgame-limit", "7.2.4")


def test_7_2_4_starts_again_when_the_material_changes() -> None:
    # Four kings v king: White moves (ply 1), Black's king takes a king (ply 2): three
    # kings v king, a new correlation of forces. White's 15th move after it is ply 31;
    # had the first count gone on, White's 15th move would have been ply 29.
    game = Game.from_fen("W:WKc1,Ke1,Kh2,Kb6:BKa7", RUSSIAN)
    game.push_text("e1-d2")
    game.push_text("a7xc5")
    assert game.position.count("W") == (3, 0)
    quiet_walk(game, 35, allowed=off_diagonal)
    assert_draw_falls_due_at(game, 31, "endgame-limit", "7.2.4")


# ------------------------------------------------------------------ 7.2.5
@pytest.mark.parametrize(
    "fen",
    [
        "W:WKa3,Kc1,g3,h2:BKh8,Kf8,a7,b6",  # eight pieces: no endgame limit, only 7.2.5
        "W:WKa1,Kc1:BKh8,Kf8,Kb8",  # five kings: 7.2.5 comes before 7.2.6's 30 moves
    ],
)
def test_7_2_5_fifteen_moves_each_with_only_kings_moved(fen: str) -> None:
    game = Game.from_fen(fen, RUSSIAN)
    quiet_walk(game, 35, allowed=is_king_move)
    assert_draw_falls_due_at(game, 30, "no-progress", None)


def test_7_2_5_is_reset_by_a_man_move() -> None:
    game = Game.from_fen("W:WKa3,Kc1,g3,h2:BKh8,Kf8,a7,b6", RUSSIAN)
    game.push_text("c1-d2")
    assert game.draw_counters()["no-progress"] == 29
    game.push_text("b6-c5")
    assert game.draw_counters()["no-progress"] == 30


# ------------------------------------------------------------------ 7.2.6
def man_moves_at(*indices: int):
    """Allow only king moves, except a man move (never a crowning) at the given ply indices.

    White moves at even indices, Black at odd ones (White starts); a gap of 28
    plies or less between man moves keeps 7.2.5 (30 plies) from falling due.
    """

    def allowed(game: Game, move: Move) -> bool:
        if game.ply in indices:
            return not is_king_move(game, move) and not move.promotes
        return is_king_move(game, move)

    return allowed


@pytest.mark.parametrize(
    ("fen", "ply", "man_moves"),
    [
        ("W:WKc1,e3:BKh8,d6", 60, (10, 37)),  # 4 pieces: 30 moves each
        ("W:WKc1,Ke1,e3:BKh8,d6", 60, (10, 37)),  # 5 pieces, unequal kings: still 7.2.6
        ("W:WKh2,a3,c3:BKa7,f6,h6", 120, (10, 37, 64, 91)),  # 6 pieces: 60 moves each
        ("W:WKe1,Kh2,a3,b2:BKd8,g7,h6", 120, (10, 37, 64, 91)),  # 7 pieces
    ],
)
def test_7_2_6_both_sides_with_kings_and_the_material_unchanged(
    fen: str, ply: int, man_moves: tuple[int, ...]
) -> None:
    # Man moves now and then keep 7.2.5 from falling due first; they do not reset 7.2.6.
    game = Game.from_fen(fen, RUSSIAN)
    assert game.draw_counters()["endgame-limit"] == ply
    quiet_walk(game, ply + 5, allowed=man_moves_at(*man_moves))
    assert_draw_falls_due_at(game, ply, "endgame-limit", "7.2.6")


def test_7_2_6_and_7_2_5_falling_due_together_name_7_2_6() -> None:
    # The last man move is Black's at ply index 29: no progress for 30 plies at ply 60.
    game = Game.from_fen("W:WKc1,e3:BKh8,d6", RUSSIAN)
    quiet_walk(game, 65, allowed=man_moves_at(10, 29))
    assert game.draw_counters() == {"no-progress": 0, "endgame-limit": 0}
    assert_draw_falls_due_at(game, 60, "endgame-limit", "7.2.6")


def test_7_2_6_starts_again_on_a_promotion() -> None:
    game = Game.from_fen("W:WKc1,g7:BKh2,d6", RUSSIAN)
    game.push_text("c1-d2")
    assert game.draw_counters()["endgame-limit"] == 59
    game.push_text("d6-c5")
    game.push_text("g7-f8")  # crowned: the balance of material changed
    assert game.draw_counters()["endgame-limit"] == 60


def test_7_2_6_does_not_apply_when_one_side_has_no_king() -> None:
    game = Game.from_fen("W:WKc1,e3:Bd6,f6", RUSSIAN)
    assert game.draw_counters()["endgame-limit"] is None


# ------------------------------------------------------------------ 7.2.3
def test_7_2_3_repetition_is_named_before_an_endgame_limit_due_on_the_same_ply() -> None:
    game = Game.from_fen("W:WKc1,Ke1:BKh8", RUSSIAN)
    game.push_text("e1-f2")  # ply 1: the position the cycle returns to
    for text in ("h8-g7", "c1-d2", "g7-h8", "d2-c1") * 2:
        game.push_text(text)
    # ply 9: White's 5th move (7.2.8) and the 3rd occurrence of the position after ply 1
    assert game.repetitions() == 3
    assert game.draw_counters()["endgame-limit"] == 0
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "threefold-repetition"
    game.pop()
    assert game.outcome() is None
