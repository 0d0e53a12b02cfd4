"""The search returns exactly what a plain minimax returns, on many random positions.

Principal variation search, the transposition table, iterative deepening and
move ordering must never change the value of a position, only how fast it is
found. So, with a material-only evaluation and the selective parts switched
off (no reductions, no extensions, no threat plies), the search's score must
equal a minimax written here with the same horizon rules and nothing else:
depth falls by one per ply, past the horizon every capture is followed (no
standing pat) and a quiet position is scored by material. Men-only starting
positions keep repetitions (which a table cannot see exactly) out of the way.
"""

from __future__ import annotations

import random

import pytest

from engine import Position, Variant, get_variant
from engine.search import Searcher, SearchOptions
from engine.search.api import root_from_position, to_public
from engine.search.searcher import MATE

VARIANTS = ["brazilian", "international", "russian", "english", "portuguese", "italian"]


def material(white: int, black: int, kings: int, white_to_move: bool) -> int:
    score = 100 * ((white & ~kings).bit_count() - (black & ~kings).bit_count()) + 300 * (
        (white & kings).bit_count() - (black & kings).bit_count())
    return score if white_to_move else -score


def plain_minimax(position: Position, depth: int, ply: int = 0) -> int:
    moves = position.legal_moves()
    if not moves:
        return ply - MATE
    if depth <= 0 and not moves[0].is_capture:
        return material(position.white, position.black, position.kings, position.turn == "W")
    return max(-plain_minimax(position.play(m), depth - 1, ply + 1) for m in moves)


def random_position(variant: Variant, rng: random.Random, kings: bool = False) -> Position:
    """Men (and with `kings`, a king or two a side), no man on its crowning row."""
    squares = list(range(1, variant.num_squares + 1))
    rng.shuffle(squares)
    counts = {"W": rng.randint(2, 7), "B": rng.randint(2, 7)}
    placed: dict[str, list[int]] = {"W": [], "B": []}
    for square in squares:
        rank = variant.square_coords(square)[1]
        for colour, crowning in (("W", variant.size - 1), ("B", 0)):
            if len(placed[colour]) < counts[colour] and rank != crowning:
                placed[colour].append(square)
                break
    turn = rng.choice("WB")
    crowned = {colour: set(rng.sample(placed[colour], rng.randint(1, 2))) if kings else set()
               for colour in placed}
    lists = {colour: ",".join(("K" if s in crowned[colour] else "") + str(s)
                              for s in placed[colour]) for colour in placed}
    return Position.from_fen(f"{turn}:W{lists['W']}:B{lists['B']}", variant)


def check_against_minimax(variant_name: str, kings: bool, positions: int, max_depth: int,
                          ) -> None:
    variant = get_variant(variant_name)
    rng = random.Random(f"{variant_name}-{kings}")
    searcher = Searcher(variant, table_bits=12, evaluate=material)
    checked = 0
    while checked < positions:
        position = random_position(variant, rng, kings)
        if not position.legal_moves():
            continue
        depth = rng.randint(1, max_depth)
        options = SearchOptions(max_depth=depth, reductions=False, extensions=False,
                                threat_plies=0)
        result = searcher.search(root_from_position(position), options)
        expected = plain_minimax(position, depth)
        assert result.score == expected, (position.fen(), depth)
        best = to_public(position, result.best)
        assert -plain_minimax(position.play(best), depth - 1, 1) == expected, position.fen()
        checked += 1


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_search_value_equals_plain_minimax(variant_name: str) -> None:
    check_against_minimax(variant_name, kings=False, positions=40, max_depth=4)


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_search_value_equals_plain_minimax_with_kings(variant_name: str) -> None:
    """Kings too (flying or short), to three plies: too short for a repetition, so the
    table's answers cannot depend on the path and must again be exact."""
    check_against_minimax(variant_name, kings=True, positions=25, max_depth=3)


def test_a_king_capture_that_ends_where_it_began_keeps_the_king() -> None:
    """A flying king can take a ring of pieces and land on its own square again."""
    variant = get_variant("brazilian")
    position = Position.from_fen("W:WKd2,a1,c1,e1:Bc3,e3,c5,e5,h8", variant)
    (ring,) = position.legal_moves()
    assert ring.origin == ring.destination and len(ring.captures) == 4
    options = SearchOptions(max_depth=2, reductions=False, extensions=False, threat_plies=0)
    result = Searcher(variant, evaluate=material).search(root_from_position(position), options)
    assert result.score == plain_minimax(position, 2) == 500
