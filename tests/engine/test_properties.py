"""Properties over random games, in every variant (hypothesis)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import VARIANTS, Game, Position, get_variant
from engine.movegen import MoveGenerator
from engine.variant import FREE

variants = st.sampled_from(sorted(VARIANTS))


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game of random legal moves, up to 60 plies or its end."""
    variant = get_variant(draw(variants))
    game = Game(variant)
    plies = draw(st.integers(min_value=0, max_value=60))
    for _ in range(plies):
        if game.outcome() is not None:
            break
        legal = game.legal_moves()
        game.push(legal[draw(st.integers(min_value=0, max_value=len(legal) - 1))])
    return game


@settings(max_examples=60, deadline=None)
@given(games())
def test_push_pop_restores_position_hash_and_counters(game: Game) -> None:
    fen, key = game.fen(), game.position.key
    counters = game.draw_counters()
    repetitions = game.repetitions()
    for move in game.legal_moves():
        game.push(move)
        game.pop()
        assert game.fen() == fen
        assert game.position.key == key
        assert hash(game.position) == hash(Position.from_fen(fen, game.variant))
        assert game.draw_counters() == counters
        assert game.repetitions() == repetitions


@settings(max_examples=60, deadline=None)
@given(games())
def test_fen_and_move_text_round_trip(game: Game) -> None:
    position = game.position
    assert Position.from_fen(position.fen(), game.variant) == position
    for move in position.legal_moves():
        assert position.parse_move(position.move_text(move)) == move
        for path in move.paths:
            full = "x".join(str(s) for s in (move.origin, *path))
            if move.is_capture and game.variant.notation == "numeric":
                assert position.parse_move(full) == move


@settings(max_examples=60, deadline=None)
@given(games())
def test_no_piece_is_jumped_twice_and_paths_match_captures(game: Game) -> None:
    for move in game.position.legal_paths():
        if move.is_capture:
            assert len(move.path) == len(move.captures)
            assert len(set(move.captured_order)) == len(move.captured_order)
            assert move.origin not in move.captures
            assert all(game.position.piece_at(s).color != game.position.turn
                       for s in move.captures)


@settings(max_examples=80, deadline=None)
@given(games())
def test_captures_are_maximal_where_the_variant_demands_it(game: Game) -> None:
    variant = game.variant
    position = game.position
    legal = position.legal_moves()
    if not legal or not legal[0].is_capture:
        return
    # the same rules with free choice give every complete sequence
    free = MoveGenerator(dataclasses.replace(variant, capture_rule=FREE))
    own, opp = ((position.white, position.black) if position.turn == "W"
                else (position.black, position.white))
    every = free.captures(own, opp, position.kings, position.turn == "W")
    longest = max(raw[2].bit_count() for raw in every)
    counts = {len(m.captures) for m in legal}
    if variant.capture_rule == FREE:
        assert len(legal) == len({(r[0], r[1], r[2]) for r in every})
    else:
        assert counts == {longest}
