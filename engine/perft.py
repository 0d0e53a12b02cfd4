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
    """Leaf nodes at `depth` plies."""
    if depth < 1:
        return 1
    return perft_counts(position, depth, paths)[-1]


def perft_counts(position: Position, depth: int, paths: bool = False) -> list[int]:
    """Nodes at every depth 1..`depth`, from one walk of the tree.

    The command line prints every depth; counting each level on the way down
    costs no more than the deepest count alone.
    """
    if depth < 1:
        return []
    counts = [0] * (depth + 1)
    generator = generator_for(position.variant)
    legal = generator.legal
    count = generator.count

    def walk(white: int, black: int, kings: int, white_to_move: bool, level: int) -> None:
        own, opp = (white, black) if white_to_move else (black, white)
        if level == depth - 1:
            counts[depth] += count(own, opp, kings, white_to_move, paths)
            return
        moves = legal(own, opp, kings, white_to_move, paths)
        counts[level + 1] += len(moves)
        for origin, destination, captured, king_after, _path, _order in moves:
            moved = own ^ (1 << origin) ^ (1 << destination)
            remaining = opp & ~captured
            new_kings = kings & ~(captured | 1 << origin)
            if king_after:
                new_kings |= 1 << destination
            if white_to_move:
                walk(moved, remaining, new_kings, False, level + 1)
            else:
                walk(remaining, moved, new_kings, True, level + 1)

    walk(position.white, position.black, position.kings, position.turn == WHITE, 0)
    return counts[1:]
