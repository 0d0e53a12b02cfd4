"""Positions for the families that need a particular move on the board.

Crowning, long king captures and king captures ending on their own square are
rare in random games, so they are looked for in two places: along random
games, and in sparse random set-ups (a few kings and men scattered). Both are
seeded, so a family's stream is the same on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Move, Position, Variant

Wanted = Callable[[Position, Move], bool]


def along_random_game(
    variant: Variant, rng: random.Random, wanted: Wanted, max_plies: int = 160
) -> tuple[Position, Move] | None:
    """The first position of a random game where a legal move is `wanted`."""
    position = variant.initial_position()
    for _ in range(max_plies):
        legal = position.legal_moves()
        if not legal:
            return None
        hits = [m for m in legal if wanted(position, m)]
        if hits:
            return position, rng.choice(hits)
        position = position.play(rng.choice(legal))
    return None


def sparse(
    variant: Variant, rng: random.Random, wanted: Wanted, *, tries: int = 4000
) -> tuple[Position, Move] | None:
    """A random sparse set-up (side to move has a king or two) where a move is `wanted`."""
    n = variant.num_squares
    first_rank = {"W": 0, "B": variant.size - 1}
    for _ in range(tries):
        squares = rng.sample(range(1, n + 1), rng.randint(6, 13))
        turn = rng.choice("WB")
        other = "B" if turn == "W" else "W"
        own = squares[: rng.randint(1, 3)]
        theirs = squares[len(own) :]
        parts = {turn: [], other: []}
        for i, sq in enumerate(own):
            parts[turn].append(f"K{sq}" if i == 0 or rng.random() < 0.3 else str(sq))
        for sq in theirs:
            # Men never stand on their own promotion row.
            rank = variant.square_coords(sq)[1]
            king = rank == first_rank[turn] or rng.random() < 0.15
            parts[other].append(f"K{sq}" if king else str(sq))
        for colour in (turn, other):
            parts[colour] = [p for p in parts[colour] if not _man_on_last_row(variant, colour, p)]
        if not parts[other]:
            continue
        fen = f"{turn}:W{','.join(parts['W'])}:B{','.join(parts['B'])}"
        try:
            position = Position.from_fen(fen, variant)
        except ValueError:
            continue
        hits = [m for m in position.legal_moves() if wanted(position, m)]
        if hits:
            return position, rng.choice(hits)
    return None


def _man_on_last_row(variant: Variant, colour: str, text: str) -> bool:
    if text.startswith("K"):
        return False
    rank = variant.square_coords(int(text))[1]
    return rank == (variant.size - 1 if colour == "W" else 0)


def find(
    variant: Variant, rng: random.Random, wanted: Wanted, *, sparse_first: bool = False
) -> tuple[Position, Move] | None:
    """A position where `wanted` holds for a legal move, from random games or set-ups."""
    order = (sparse, along_random_game) if sparse_first else (along_random_game, sparse)
    for _ in range(6):
        for search in order:
            found = search(variant, rng, wanted)
            if found is not None:
                return found
    return None


def promotes(position: Position, move: Move) -> bool:
    return move.promotes


def long_king_capture(least: int) -> Wanted:
    def wanted(position: Position, move: Move) -> bool:
        piece = position.piece_at(move.origin)
        return bool(piece and piece.king and len(move.captures) >= least)

    return wanted


def ring_capture(position: Position, move: Move) -> bool:
    return move.origin == move.destination and move.is_capture


def shorter_capture_on_the_way(position: Position, move: Move) -> bool:
    """A capture passing over a landing square where another legal capture of the same
    piece ends, with captured pieces it also takes: resting there with those taken
    off shows that shorter capture's final board (free-choice variants)."""
    return bool(rest_stops(position, move))


def rest_stops(position: Position, move: Move) -> list[tuple[int, frozenset[int]]]:
    """(i, captured) for each landing `move.path[i]` (not the last) that is the end of a
    legal capture of the same piece whose captured pieces `move` also takes."""
    if not move.is_capture:
        return []
    stops = []
    for other in position.legal_moves():
        if other == move or other.origin != move.origin or not other.captures < move.captures:
            continue
        for i, landing in enumerate(move.path[:-1]):
            if landing == other.destination:
                stops.append((i, other.captures))
    return stops


def partial_finals(position: Position, move: Move) -> bool:
    """Does the board of `move` with only some captured pieces off equal another legal
    capture's final board (same piece, same square, fewer pieces)?"""
    return any(
        m != move
        and m.origin == move.origin
        and m.destination == move.destination
        and m.captures < move.captures
        for m in position.legal_moves()
    )
