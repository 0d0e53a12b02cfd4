"""Perft from the initial position against the published table (docs/rules.md)."""

from __future__ import annotations

import pytest

from engine import Position, get_variant, perft

TABLE = {
    "brazilian": [7, 49, 302, 1469, 7473, 37628],
    "russian": [7, 49, 302, 1469, 7482, 37986],
    "pool": [7, 49, 302, 1469, 7482, 37986],
    "english": [7, 49, 302, 1469, 7361, 36768],
    "portuguese": [7, 49, 302, 1469, 7361, 36473],
    "spanish": [7, 49, 302, 1469, 7361, 36473],
    "italian": [7, 49, 302, 1469, 7361, 36473],
    "international": [9, 81, 658, 4265, 27117],
}


@pytest.mark.parametrize("variant", sorted(TABLE))
def test_perft_initial_position(variant: str) -> None:
    position = get_variant(variant).initial_position()
    assert [perft(position, d) for d in range(1, len(TABLE[variant]) + 1)] == TABLE[variant]


def test_perft_counts_the_same_move_once_and_paths_separately() -> None:
    # A king taking a ring of four men can go round either way: one move, two paths.
    position = Position.from_fen("W:WKd2:Bc3,e3,c5,e5", get_variant("brazilian"))
    assert perft(position, 1) == len(position.legal_moves())
    assert perft(position, 1, paths=True) == len(position.legal_paths())
    assert perft(position, 1, paths=True) > perft(position, 1)


def test_perft_depth_zero_is_one_node() -> None:
    assert perft(get_variant("brazilian").initial_position(), 0) == 1


def test_bulk_counting_agrees_with_generating_every_leaf() -> None:
    # The last ply is counted with bitboard shifts; compare with plain generation.
    for name in ("brazilian", "international", "italian", "english"):
        position = get_variant(name).initial_position()
        by_generation = sum(
            len(position.play(m).play(n).legal_moves())
            for m in position.legal_moves()
            for n in position.play(m).legal_moves()
        )
        assert perft(position, 3) == by_generation


def test_russian_depth_8_matches_both_published_conventions() -> None:
    # damforum.nl perft thread (one count per move) and Kodra's tests (one per path):
    # the first depth at which the two conventions differ.
    position = get_variant("russian").initial_position()
    assert perft(position, 8) == 929_899
    assert perft(position, 8, paths=True) == 929_905
