"""The python-chess-like surface of `Game` and `Move` (docs/engine-api.md)."""

from __future__ import annotations

import pytest

from engine import VARIANTS, Game, IllegalMoveError, Position, get_variant


def test_the_variant_is_named_once() -> None:
    by_name = Game.from_fen("W:W21:B1", "english")
    by_record = Game.from_fen("W:W21:B1", get_variant("english"))
    assert by_name.variant is by_record.variant is by_name.position.variant
    assert Game("international").position == get_variant(20).initial_position()


def test_push_text_plays_and_returns_the_move_parse_does_not_play() -> None:
    game = Game("international")
    move = game.parse("32-28")
    assert game.ply == 0 and move in game.legal_moves()
    assert game.push_text("32-28") == move and game.moves == [move]
    with pytest.raises(IllegalMoveError) as refused:
        game.push_text("32-28")  # now empty
    assert refused.value.code == "no-piece" and game.ply == 1


def test_is_game_over_follows_the_outcome() -> None:
    game = Game.from_fen("W:Wc3:Bd4", "brazilian")
    assert not game.is_game_over()
    game.push_text("c3xe5")
    assert game.is_game_over() and game.outcome().result == "1-0"


@pytest.mark.parametrize(
    ("variant", "fen", "text", "shown"),
    [
        ("russian", None, "c3-d4", "<Move c3-d4>"),
        ("brazilian", "W:Wa3,e3:Bb4,d6,f4", "a3xe7", "<Move a3xc5xe7>"),
        ("international", None, "32-28", "<Move 32-28>"),
        ("english", None, "11-15", "<Move 11-15>"),
        ("portuguese", "W:W1:B5,13", "1x17", "<Move 1x10x17>"),
    ],
)
def test_repr_of_a_move_is_in_its_variant_notation_with_every_landing(
    variant: str, fen: str | None, text: str, shown: str
) -> None:
    game = Game(variant) if fen is None else Game.from_fen(fen, variant)
    move = game.parse(text)
    assert repr(move) == shown
    assert game.parse(repr(move)[len("<Move "):-1]) == move  # readable back


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_move_text_written_is_read_back_as_the_same_move(name: str) -> None:
    # Positions with multi-captures, short and long, in every variant.
    game = Game(name)
    for _ in range(40):
        if game.is_game_over():
            break
        for move in game.legal_moves():
            assert game.parse(game.move_text(move)) == move
            assert game.parse(repr(move)[len("<Move "):-1]) == move
        game.push(max(game.legal_moves(), key=lambda m: (len(m.captures), m.destination)))


def test_a_move_made_by_hand_has_a_numeric_repr() -> None:
    position = Position.from_fen("W:W22:B1", "brazilian")
    (move,) = [m for m in position.legal_moves() if m.destination == 18]
    assert repr(move) == "<Move c3-d4>"
    bare = type(move)(origin=22, destination=18, captures=frozenset(), path=(18,))
    assert repr(bare) == "<Move 22-18>" and bare == move
