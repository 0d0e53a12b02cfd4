"""The move generator gives exactly what the reference generator gave, in every variant.

The reference is the generator of commit 1034685 (tests/engine/legacy_movegen.py),
before flying kings got their own search (engine/king_captures.py) and
`legal_moves()` its own move builder. Compared: every raw move with its path
and capture order, in the same order (the first path of a move is its `path`),
with and without paths, the search's moves without paths (`moves_only`), the
counts and the capture test; and every field of every `Move` (a flying king's
`path`, `paths` and `captured_order` are spelt when read: see
tests/engine/test_lazy_moves.py). Positions: the adversarial ones of the benchmark, every position
of corpus games, positions of seeded random games, and seeded random boards
crowded with kings and pieces to take, in all eight variants.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from bench.engine_bench import WORST_POSITIONS
from engine import VARIANTS, Position, get_variant
from engine.movegen import MoveGenerator
from engine.pdn import read_games
from engine.position import Move
from engine.variant import WHITE, Variant
from tests.engine import legacy_movegen
from tests.paths import CORPUS

EIGHT_BY_EIGHT = sorted(name for name in VARIANTS if get_variant(name).size == 8)
Board = tuple[int, int, int]  # white, black, kings


def assert_same_raw(variant: Variant, white: int, black: int, kings: int) -> int:
    """Both sides to move on one board: every output of both generators agrees.
    Returns the most pieces one move takes (to show the boards are not trivial)."""
    new = MoveGenerator(variant)
    old = legacy_movegen.generator_for(variant)
    longest = 0
    for white_moves in (True, False):
        own, opp = (white, black) if white_moves else (black, white)
        args = (own, opp, kings, white_moves)
        every = new.legal(*args, paths=True)
        where = Position(variant, white, black, kings, "W" if white_moves else "B").fen()
        assert every == old.legal(*args, paths=True), (variant.name, where)
        first_paths = old.legal(*args)
        assert new.legal(*args) == first_paths, (variant.name, where)
        # the search's call: the same moves in the same order, paths left out or not
        unspelt = new.moves_only(*args)
        assert [m[:4] for m in unspelt] == [m[:4] for m in first_paths], (variant.name, where)
        assert all(m[4:] in (f[4:], ((), ())) for m, f in zip(unspelt, first_paths, strict=True))
        assert new.count(*args) == old.count(*args), (variant.name, where)
        assert new.count(*args, paths=True) == old.count(*args, paths=True), (variant.name, where)
        assert new.has_capture(*args) == old.has_capture(*args), (variant.name, where)
        longest = max([longest, *(raw[2].bit_count() for raw in every)])
    return longest


def fields(move: Move) -> tuple:
    return tuple(getattr(move, f.name) for f in dataclasses.fields(Move))


def assert_same_moves(position: Position) -> None:
    got = Position(position.variant, position.white, position.black, position.kings,
                   position.turn).legal_moves()
    assert [fields(m) for m in got] == [fields(m) for m in
                                        legacy_movegen.legacy_legal_moves(position)], position


def random_boards(variant: Variant, count: int, seed: int) -> Iterator[Board]:
    """Seeded boards: a few white pieces, mostly kings, among many black ones (a
    quarter kings); men never stand on their crowning row."""
    rng = random.Random(seed)
    geometry = variant.geometry
    squares = [b for b in range(geometry.valid.bit_length()) if geometry.valid >> b & 1]
    for _ in range(count):
        rng.shuffle(squares)
        whites = rng.randint(1, 5)
        blacks = rng.randint(3, len(squares) // 2)
        white = black = kings = 0
        for bit in squares[:whites]:
            white |= 1 << bit
            if rng.random() < 0.7:
                kings |= 1 << bit
        for bit in squares[whites:whites + blacks]:
            black |= 1 << bit
            if rng.random() < 0.25:
                kings |= 1 << bit
        kings |= (white & geometry.top_row) | (black & geometry.bottom_row)
        yield white, black, kings


def mutated_boards(variant: Variant, count: int, seed: int) -> Iterator[Board]:
    """The benchmark's adversarial boards of this size, each changed by one to three
    seeded mutations (a piece added, removed, moved, crowned or uncrowned): boards
    near the worst known ones, with long king captures of many paths."""
    rng = random.Random(seed)
    geometry = variant.geometry
    squares = [b for b in range(geometry.valid.bit_length()) if geometry.valid >> b & 1]
    bases = [Position.from_fen(fen, get_variant(name)) for name, fen, _ in WORST_POSITIONS
             if get_variant(name).size == variant.size]
    for _ in range(count):
        base = rng.choice(bases)
        white, black, kings = base.white, base.black, base.kings
        for _ in range(rng.randint(1, 3)):
            empty = [b for b in squares if not (white | black) >> b & 1]
            taken = [b for b in squares if (white | black) >> b & 1]
            bit = 1 << rng.choice(taken)
            kind = rng.random()
            if kind < 0.3:
                black |= 1 << rng.choice(empty)
            elif kind < 0.5:
                white, black, kings = white & ~bit, black & ~bit, kings & ~bit
            elif kind < 0.7:
                to = 1 << rng.choice(empty)
                white = white & ~bit | (to if white & bit else 0)
                black = black & ~bit | (to if black & bit else 0)
                kings = kings & ~bit | (to if kings & bit else 0)
            else:
                kings ^= bit
        kings |= (white & geometry.top_row) | (black & geometry.bottom_row)
        yield white, black, kings


def random_game_positions(variant: Variant, games: int, seed: int) -> Iterator[Position]:
    rng = random.Random(seed)
    for _ in range(games):
        position = variant.initial_position()
        for _ in range(200):
            yield position
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))


@pytest.mark.parametrize(("variant", "fen", "what"), WORST_POSITIONS)
def test_adversarial_positions_of_the_benchmark(variant: str, fen: str, what: str) -> None:
    position = Position.from_fen(fen, get_variant(variant))
    assert_same_raw(position.variant, position.white, position.black, position.kings)
    assert_same_moves(position)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_crowded_boards(variant: str) -> None:
    rules = get_variant(variant)
    longest = [assert_same_raw(rules, *board) for board in random_boards(rules, 700, seed=23)]
    assert sum(n >= 3 for n in longest) >= 40  # the sample reaches multiple captures


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_boards_near_the_adversarial_ones(variant: str) -> None:
    rules = get_variant(variant)
    longest = [assert_same_raw(rules, *board) for board in mutated_boards(rules, 300, seed=17)]
    assert sum(n >= 6 for n in longest) >= 80  # long captures, where the searches differ most


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_crowded_boards_as_moves(variant: str) -> None:
    rules = get_variant(variant)
    for white, black, kings in [*random_boards(rules, 100, seed=9),
                                *mutated_boards(rules, 60, seed=3)]:
        for turn in (WHITE, "B"):
            assert_same_moves(Position(rules, white, black, kings, turn))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_positions_of_random_games(variant: str) -> None:
    for position in random_game_positions(get_variant(variant), 6, seed=5):
        assert_same_raw(position.variant, position.white, position.black, position.kings)
        assert_same_moves(position)


@pytest.mark.parametrize("name", ["wk2003.pdn", "DUTCH96H.pdn", "ussr1947.pdn", "OCA_2.0.pdn",
                                  "Campionato_Assoluto_2005.pdn"])
def test_corpus_positions(name: str) -> None:
    """Every position of the file's games; 8x8 boards also under every other 8x8 rule set."""
    checked = 0
    for number, game in enumerate(read_games(CORPUS / name)):
        if number >= 12:
            break
        variants = [game.variant] if game.variant.size == 10 else [
            get_variant(v) for v in EIGHT_BY_EIGHT]
        for position in game.positions:
            assert_same_moves(position)
            for variant in variants:
                assert_same_raw(variant, position.white, position.black, position.kings)
            checked += 1
    assert checked > 500


def test_generated_moves_set_every_field() -> None:
    """Every field of every generated move, a flying king's lazy ones once read (see
    tests/engine/test_lazy_moves.py)."""
    position = Position.from_fen(WORST_POSITIONS[1][1], get_variant(WORST_POSITIONS[1][0]))
    quiet = get_variant("brazilian").initial_position()
    every_field = {f.name for f in dataclasses.fields(Move)}
    for move in position.legal_moves() + quiet.legal_moves():
        assert fields(move)  # reads every field
        assert set(vars(move)) == every_field
        assert move == dataclasses.replace(move) and hash(move) == hash(dataclasses.replace(move))
