"""Perft: count the leaf nodes of the move tree, the standard move-generator test.

The last ply is bulk-counted (`MoveGenerator.count`): quiet moves by shifting
whole bitboards, captures by generating them. `paths=True` counts every
distinct capture path instead of every distinct move (the convention of some
published tables).
"""

from __future__ import annotations

from engine.movegen import generator_for
from engine.position import Position
from engine.variant import WHITE


def perft(position: Position, depth: int, paths: bool = False) -> int:
    if depth < 1:
        return 1
    generator = generator_for(position.variant)
    legal = generator.legal
    count = generator.count

    def walk(white: int, black: int, kings: int, white_to_move: bool, depth: int) -> int:
        own, opp = (white, black) if white_to_move else (black, white)
        if depth == 1:
            return count(own, opp, kings, white_to_move, paths)
        total = 0
        for origin, destination, captured, king_after, _path, _order in legal(
            own, opp, kings, white_to_move, paths
        ):
            moved = own ^ (1 << origin) ^ (1 << destination)
            remaining = opp & ~captured
            new_kings = kings & ~(captured | 1 << origin)
            if king_after:
                new_kings |= 1 << destination
            if white_to_move:
                total += walk(moved, remaining, new_kings, False, depth - 1)
            else:
                total += walk(remaining, moved, new_kings, True, depth - 1)
        return total

    return walk(position.white, position.black, position.kings, position.turn == WHITE, depth)
