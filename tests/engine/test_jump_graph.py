"""Several flying kings share one exploration of the board (engine/jump_graph.py).

Each king's jumps are taken from the whole board's exploration except those that
read its own square, which it explores again on its board (`KingGain` says what
that board gains). These tests pin that the shortcut is exact: the board a king's
gain builds is the board rebuilt without the king, every jump a king reaches is
what exploring its own board alone finds, and the legal moves with every group of
kings sharing (not only groups of `SHARED_FROM` on boards of `SHARED_BOARD`) are the
reference generator's. The compiled search (engine/native_captures.py) is turned off
here: these tests are about the Python search, which never shares a board when the
compiled one is in use.
"""

from __future__ import annotations

import pytest

import engine.majority_captures
from engine import Position, get_variant, native_captures
from engine.jump_graph import Board, JumpGraph, KingTables, Tables
from engine.king_captures import EnemyPieces, KingCaptures
from engine.king_paths import NODE
from engine.movegen import generator_for
from engine.variant import WHITE
from tests.engine.test_movegen_exact import (
    assert_same_moves,
    assert_same_raw,
    mutated_boards,
    random_boards,
)

VARIANTS = ("international", "brazilian", "russian")


@pytest.fixture(autouse=True)
def _python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native_captures, "_longest_captures", None)


def sides(white: int, black: int, turn: str) -> tuple[int, int]:
    return (white, black) if turn == WHITE else (black, white)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_kings_board_is_the_whole_board_and_what_it_gains(variant: str) -> None:
    rules = get_variant(variant)
    rays = generator_for(rules).king_rays
    checked = 0
    for white, black, _ in [*random_boards(rules, 300, seed=5),
                            *mutated_boards(rules, 100, seed=6)]:
        for turn in (WHITE, "B"):
            own, opp = sides(white, black, turn)
            pieces = EnemyPieces(opp, len(generator_for(rules).bit_names))
            graph = JumpGraph(rays, own | opp, opp, pieces.bit, rules.bit_to_square, own)
            for origin in (b for b in range(own.bit_length()) if own >> b & 1):
                if own & (own - 1) == 0:
                    continue  # one piece: the whole board is already its board
                got = graph._gain(origin).board()
                rebuilt = Board(rays, (own | opp) & ~(1 << origin), opp)
                assert (got.occupied, got.empty, got.jumpable, got.crossing()) == (
                    rebuilt.occupied, rebuilt.empty, rebuilt.jumpable, rebuilt.crossing())
                checked += 1
    assert checked > 500


def reached(tables: Tables | KingTables, firsts: list[int]) -> list[int]:
    """Every jump reachable from `firsts` through the tables' edges."""
    seen = list(dict.fromkeys(firsts))
    for node in seen:
        for x in tables.edges[node] or ():
            if x & NODE ^ node not in seen:
                seen.append(x & NODE ^ node)
    return seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_jump_a_king_reaches_is_what_its_own_board_gives(variant: str) -> None:
    rules = get_variant(variant)
    generator = generator_for(rules)
    rays, names = generator.king_rays, rules.bit_to_square
    explored_again = shared = 0
    for white, black, kings in [*random_boards(rules, 300, seed=7),
                                *mutated_boards(rules, 150, seed=8)]:
        for turn in (WHITE, "B"):
            own, opp = sides(white, black, turn)
            capturing = own & kings
            if capturing.bit_count() < 2:
                continue
            pieces = EnemyPieces(opp, len(generator.bit_names))
            graph = JumpGraph(rays, own | opp, opp, pieces.bit, names, capturing)
            for origin in (b for b in range(capturing.bit_length()) if capturing >> b & 1):
                alone = KingCaptures(rays, origin, (own | opp) & ~(1 << origin), opp, pieces,
                                     names)
                together = KingCaptures(rays, origin, (own | opp) & ~(1 << origin), opp,
                                        pieces, names, graph)
                assert together.longest == alone.longest
                if not alone.longest:
                    continue
                mine, theirs = together._jumps, alone._jumps
                firsts = [state & NODE for _, state in alone._firsts]
                nodes = reached(theirs, firsts)
                assert reached(mine, firsts) == nodes
                lands, steps = mine.land_list(), mine.step_list()
                for node in nodes:
                    assert (mine.edges[node], lands[node], steps[node]) == (
                        theirs.edges[node], theirs.lands[node], theirs.steps[node])
                explored_again += mine is not graph.tables
                shared += mine is graph.tables
    assert explored_again > 100 and shared > 20  # both ways are exercised


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_when_any_two_kings_share(variant: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.majority_captures, "SHARED_FROM", 2)
    monkeypatch.setattr(engine.majority_captures, "SHARED_BOARD", 8)
    rules = get_variant(variant)
    longest = [assert_same_raw(rules, *board) for board in mutated_boards(rules, 120, seed=41)]
    assert sum(n >= 6 for n in longest) >= 30
    for white, black, kings in [*random_boards(rules, 60, seed=42),
                                *mutated_boards(rules, 40, seed=43)]:
        for turn in (WHITE, "B"):
            assert_same_moves(Position(rules, white, black, kings, turn))
