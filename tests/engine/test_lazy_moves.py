"""A flying king's captures from `legal_moves()`: paths spelt when first read.

Their `path`, `paths` and `captured_order` are spelt on the first read of any of
them (engine/king_captures.py, `EveryPath`); the moves are listed, in the order of
their first paths, without spelling a path. These tests pin what a user may do with
such a move (compare, hash, show, copy, pickle, replace, play, write), each against
the reference generator (tests/engine/legacy_movegen.py), and that the listing
order and the endings come out right where a careless walk would get them wrong.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from bench.engine_bench import WORST_POSITIONS
from engine import Position, get_variant
from engine.king_captures import EnemyPieces, KingCaptures
from engine.movegen import generator_for
from engine.position import Move
from tests.engine import legacy_movegen
from tests.engine.test_movegen_exact import fields, mutated_boards

LAZY = ("path", "paths", "captured_order")
THREE_KINGS = WORST_POSITIONS[2]


def adversarial() -> Position:
    return Position.from_fen(THREE_KINGS[1], get_variant(THREE_KINGS[0]))


def unspelt_moves() -> list[Move]:
    """A fresh list of the moves of an adversarial position, none of its paths spelt."""
    moves = adversarial().legal_moves()
    assert all(not set(LAZY) & set(vars(m)) for m in moves)
    return moves


@pytest.mark.parametrize("first_read", LAZY)
def test_any_lazy_field_read_first_spells_them_all(first_read: str) -> None:
    expected = legacy_movegen.legacy_legal_moves(adversarial())
    moves = unspelt_moves()
    order = list(range(len(moves)))
    random.Random(first_read).shuffle(order)  # read in another order than listed
    for index in order:
        getattr(moves[index], first_read)
        assert set(LAZY) <= set(vars(moves[index]))
    assert [fields(m) for m in moves] == [fields(m) for m in expected]


def test_a_lazy_move_pickles_and_copies_as_a_plain_move() -> None:
    expected = legacy_movegen.legacy_legal_moves(adversarial())
    for copy_of in (lambda m: pickle.loads(pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL)),
                    lambda m: pickle.loads(pickle.dumps(m, protocol=2)), copy.copy,
                    copy.deepcopy):
        moves = unspelt_moves()
        copied = [copy_of(m) for m in moves]
        assert [type(m) for m in copied] == [Move] * len(moves)
        assert [fields(m) for m in copied] == [fields(m) for m in expected]
        assert copied == moves and [hash(m) for m in copied] == [hash(m) for m in moves]
        assert [repr(m) for m in copied] == [repr(m) for m in expected]


def test_a_lazy_move_replaced() -> None:
    expected = legacy_movegen.legacy_legal_moves(adversarial())
    kept = dataclasses.replace(unspelt_moves()[1])
    assert fields(kept) == fields(expected[1]) and kept == expected[1]
    changed = dataclasses.replace(unspelt_moves()[1], paths=((7,),), promotes=True)
    assert changed.paths == ((7,),) and changed.promotes
    assert changed.path == expected[1].path and changed.captured_order == expected[1].captured_order
    frozen = unspelt_moves()[0]
    for name in (*LAZY, "origin"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(frozen, name, ())
    assert fields(frozen) == fields(expected[0])


def test_a_lazy_move_is_shown_played_and_written_as_before() -> None:
    position = adversarial()
    expected = legacy_movegen.legacy_legal_moves(position)
    for index, move in enumerate(unspelt_moves()):
        assert repr(move) == repr(expected[index])
    for index, move in enumerate(unspelt_moves()):
        assert position.move_text(move) == position.move_text(expected[index])
    for index, move in enumerate(unspelt_moves()):
        assert position.play(move) == position.play(expected[index])
    for index, move in enumerate(unspelt_moves()):
        every_landing = repr(expected[index]).removeprefix("<Move ").removesuffix(">")
        assert position.parse_move(every_landing) == move
        assert fields(position.parse_move(every_landing)) == fields(expected[index])


def king_searches(position: Position) -> list[KingCaptures]:
    """The searches of the side to move's kings that reach the longest capture."""
    own, opp = ((position.white, position.black) if position.turn == "W"
                else (position.black, position.white))
    generator = generator_for(position.variant)
    pieces = EnemyPieces(opp, len(generator.bit_names))
    searches = [KingCaptures(generator.king_rays, origin, (own | opp) & ~(1 << origin), opp,
                             pieces, position.variant.bit_to_square)
                for origin in range(len(generator.bit_names))
                if (own & position.kings) >> origin & 1]
    longest = max((s.longest for s in searches), default=0)
    return [s for s in searches if s.longest == longest > 0]


@pytest.mark.parametrize("variant", ["international", "brazilian"])
def test_the_walk_lists_what_spelling_every_path_lists(variant: str) -> None:
    """Per king, the endings listed from the search's last layer and by the walk over
    the marked states, in order, the walk's first paths and every path grouped by
    move, against grouping every spelt path; on boards where the two shortcuts the
    walk takes are exercised: endings reached from several last states, and states reached again
    through later parents (a walk that listed an ending once per last state, or took
    the last parent's path, would differ)."""
    rules = get_variant(variant)
    shared_endings = later_parents = reordered = 0
    for white, black, kings in mutated_boards(rules, 120, seed=31):
        for turn in ("W", "B"):
            for search in king_searches(Position(rules, white, black, kings, turn)):
                spelling = search.spelling()
                spelt = spelling.spelt()
                grouped: dict[tuple[int, int], list[tuple[int, ...]]] = {}
                for path, ending in spelt:
                    grouped.setdefault(ending, []).append(path)
                endings = spelling.endings()
                assert [ending for ending, _, _ in endings] == list(grouped)
                assert list(search._last_endings()) == list(grouped)  # from the layers' order
                assert [spelling.first_path(state, land) for _, state, land in endings] == [
                    group[0] for group in grouped.values()]
                assert search.spelling().every_path() == [
                    (group[0][1::2], group[0][0::2], tuple(path[1::2] for path in group))
                    for group in grouped.values()]
                # a move whose paths end with different pieces: several last states
                shared_endings += sum(len({path[-2] for path in group}) > 1
                                      for group in grouped.values())
                # a move whose paths part before their last landing: its states are
                # reached through several parents, the first path through the earliest
                later_parents += sum(len({path[:-1] for path in group}) > 1
                                     for group in grouped.values())
                reordered += [e for e, _, _ in endings] != sorted(e for e, _, _ in endings)
    assert shared_endings >= 20 and later_parents >= 50 and reordered >= 20
