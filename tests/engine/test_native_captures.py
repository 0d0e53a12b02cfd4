"""The compiled king search (engine/capture_search.c through engine/native_captures.py) finds
what the Python search finds (engine/king_captures.py), in the same order.

Compared on every king of seeded crowded boards, boards near the benchmark's
adversarial ones and the adversarial ones themselves, in the variants whose kings
fly under the majority rule (`MoveGenerator.kings_by_layers`): the pieces the
longest capture takes, the states searched and the endings (landing, pieces taken)
in the order of their first paths;
then whole `legal_moves()` with and without the library, every field of every move,
paths read. Where the library cannot answer (a search larger than its tables), the
Python search does, with the same moves.

The library is built by `pip install` where a C compiler exists (setup.py); without
one these tests skip, and CI (which installs gcc) requires them (`native-captures` in
DRAUGHTSBOARD_REQUIRE).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bench.engine_bench import WORST_POSITIONS
from engine import Position, get_variant, native_captures
from engine.capture_walk import capture_walker
from engine.king_captures import EnemyPieces, KingCaptures
from engine.king_paths import NODE_BITS
from engine.movegen import generator_for
from engine.variant import WHITE, Variant
from tests.engine.test_movegen_exact import fields, mutated_boards, random_boards
from tests.tools import need_tool

VARIANTS = ("international", "brazilian")  # the variants searched by layers


@pytest.fixture(autouse=True)
def _built() -> None:
    need_tool("native-captures", native_captures.available(),
              "engine/capture_search.c was not built (no C compiler at `pip install`?)")


def boards(variant: str, count: int, seed: int) -> list[tuple[int, int, int]]:
    rules = get_variant(variant)
    worst = [Position.from_fen(fen, rules) for name, fen, _ in WORST_POSITIONS
             if name == variant]
    return [*((p.white, p.black, p.kings) for p in worst),
            *random_boards(rules, count, seed=seed),
            *mutated_boards(rules, count // 2, seed=seed + 1),
            *crowded_men_boards(rules, count // 2, seed=seed + 2)]


def crowded_men_boards(rules: Variant, count: int, seed: int) -> list[tuple[int, int, int]]:
    """Seeded boards where men do the capturing: two to eight white pieces, mostly men,
    among many black ones with gaps between them (long men's captures need both)."""
    rng = random.Random(seed)
    geometry = rules.geometry
    squares = [b for b in range(geometry.valid.bit_length()) if geometry.valid >> b & 1]
    found = []
    for _ in range(count):
        rng.shuffle(squares)
        whites, blacks = rng.randint(2, 8), rng.randint(8, len(squares) // 2)
        white = sum(1 << b for b in squares[:whites])
        black = sum(1 << b for b in squares[whites:whites + blacks])
        kings = sum(1 << b for b in squares[:whites + blacks] if rng.random() < 0.1)
        kings |= (white & geometry.top_row) | (black & geometry.bottom_row)
        found.append((white, black, kings))
    return found


def python_search(variant: str, origin: int, own: int, opp: int) -> KingCaptures:
    """The Python search of the king on `origin`, whether the library exists or not."""
    generator = generator_for(get_variant(variant))
    pieces = EnemyPieces(opp, len(generator.bit_names))
    return KingCaptures(generator.king_rays, origin, (own | opp) & ~(1 << origin), opp, pieces,
                        get_variant(variant).bit_to_square, compiled=False)


def pieces(variant: str, seed: int,
           kings_wanted: bool) -> Iterator[tuple[tuple, int, int, int, int, bool]]:
    """Every king (or every man) of the side to move, both sides in turn, on the boards
    of `seed`: (where, for a failure's message; origin, own, opp, kings, white to move)."""
    rules = get_variant(variant)
    for white, black, kings in boards(variant, 400, seed=seed):
        for turn in (WHITE, "B"):
            own, opp = (white, black) if turn == WHITE else (black, white)
            chosen = own & kings if kings_wanted else own & ~kings
            for origin in (b for b in range(chosen.bit_length()) if chosen >> b & 1):
                where = (variant, Position(rules, white, black, kings, turn).fen(), origin)
                yield where, origin, own, opp, kings, turn == WHITE


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_king_finds_what_the_python_search_finds(variant: str) -> None:
    rays = generator_for(get_variant(variant)).king_rays
    compared = longest = 0
    for where, origin, own, opp, _, _ in pieces(variant, 61, kings_wanted=True):
        got = native_captures.endings(rays, origin, (own | opp) & ~(1 << origin), opp)
        assert got is not None
        expected = python_search(variant, origin, own, opp)
        assert got[:2] == (expected.longest, expected.states), where
        assert got[2] == (expected._last_endings() if expected.longest else []), where
        compared += 1
        longest = max(longest, got[0])
    assert compared > 1000 and longest >= 8  # long captures among them


def walked(variant: str, origin: int, own: int, opp: int, kings: int,
           white: bool) -> tuple[int, list[tuple[int, int]]]:
    """The longest captures of the man on `origin` by the square-by-square walk: how
    many pieces, and each (destination, pieces taken as compact bits) once, in the
    order of their first paths."""
    generator = generator_for(get_variant(variant))
    crowning = generator.top_row if white else generator.bottom_row
    walk = capture_walker(generator, opp, kings, crowning, generator.men_jumps[white])
    sequences: list = []
    walk(origin, False, 0, (), (), sequences, (own | opp) & ~(1 << origin))
    longest = max((captured.bit_count() for _, captured, *_ in sequences), default=0)
    pieces = EnemyPieces(opp, len(generator.bit_names))
    compact = [sum(pieces.bit[b] for b in range(captured.bit_length()) if captured >> b & 1)
               >> NODE_BITS for _, captured, *_ in sequences]
    return longest, list(dict.fromkeys(
        (final, taken) for (final, captured, *_), taken in zip(sequences, compact, strict=True)
        if captured.bit_count() == longest))


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_man_finds_what_the_walk_finds(variant: str) -> None:
    rays = generator_for(get_variant(variant)).king_rays
    compared = longest = 0
    for where, origin, own, opp, kings, white in pieces(variant, 81, kings_wanted=False):
        got = native_captures.endings(rays, origin, (own | opp) & ~(1 << origin), opp,
                                      king=False)
        assert got is not None
        expected = walked(variant, origin, own, opp, kings, white)
        assert (got[0], got[2]) == expected, where
        compared += got[0] > 0
        longest = max(longest, got[0])
    assert compared > 300 and longest >= 5  # men capturing, some of them far


def legal_moves(position: Position) -> list[tuple]:
    """Every field of every legal move, paths read, on a fresh position."""
    fresh = Position(position.variant, position.white, position.black, position.kings,
                     position.turn)
    return [fields(move) for move in fresh.legal_moves()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_are_the_same_with_the_library_or_without(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_variant(variant)
    positions = [Position(rules, white, black, kings, turn)
                 for white, black, kings in boards(variant, 60, seed=71)
                 for turn in (WHITE, "B")]
    compiled = [legal_moves(position) for position in positions]
    monkeypatch.setattr(native_captures, "_longest_captures", None)
    assert not native_captures.available()
    assert [legal_moves(position) for position in positions] == compiled
    # many of them with several captures of four pieces or more
    assert sum(len(moves) > 1 and len(moves[0][2]) >= 4 for moves in compiled) >= 10


def test_a_search_larger_than_the_library_can_hold_is_made_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    name, fen, _ = WORST_POSITIONS[-1 if WORST_POSITIONS[-1][0] == "international" else 1]
    position = Position.from_fen(fen, get_variant(name))
    compiled = legal_moves(position)
    land, taken, _, counts = native_captures._ADDRESSES
    monkeypatch.setattr(native_captures, "_ADDRESSES", (land, taken, 1, counts))  # one ending
    own, opp = ((position.white, position.black) if position.turn == WHITE
                else (position.black, position.white))
    rays = generator_for(position.variant).king_rays
    origins = [b for b in range(own.bit_length()) if (own & position.kings) >> b & 1]
    assert any(native_captures.endings(rays, o, (own | opp) & ~(1 << o), opp) is None
               for o in origins)
    assert legal_moves(position) == compiled
