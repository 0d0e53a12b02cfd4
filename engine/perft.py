"""Perft: count the leaf nodes of the move tree, the standard move-generator test.

The last ply is bulk-counted (`MoveGenerator.count`): quiet moves by shifting
whole bitboards, captures by generating them. `paths=True` counts every
distinct capture path instead of every distinct move (the convention of some
published tables).
"""

from __future__ import annotations

from engine.errors import EngineError
from engine.movegen import generator_for
from engine.position import Position
from engine.variant import WHITE

# Far beyond any count that could finish (published tables stop near depth 20)
# and far within Python's recursion limit, which the walk below uses one frame
# of per ply. A deeper request is refused before anything is allocated.
MAX_DEPTH = 40


def perft(position: Position, depth: int, paths: bool = False) -> int:
    """Leaf nodes at `depth` plies (1 at depth 0); EngineError beyond MAX_DEPTH or for a
    `position` that is not a `Position`."""
    check_depth(depth, minimum=0)
    if not isinstance(position, Position):
        raise EngineError(f"perft counts from a Position, not {type(position).__name__}")
    if depth == 0:
        return 1
    return perft_counts(position, depth, paths)[-1]


def check_depth(depth: int, minimum: int = 1) -> int:
    """`depth` itself if perft can count to it; else an EngineError saying the range."""
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise EngineError(f"a perft depth is a whole number, not {type(depth).__name__}")
    if not minimum <= depth <= MAX_DEPTH:
        raise EngineError(f"perft depth must be from {minimum} to {MAX_DEPTH}")
    return depth


def perft_counts(position: Position, depth: int, paths: bool = False) -> list[int]:
    """Nodes at every depth 1..`depth`, from one walk of the tree.

    The command line prints every depth; counting each level on the way down
    costs no more than the deepest count alone.
    """
    if not isinstance(position, Position):
        raise EngineError(f"perft counts from a Position, not {type(position).__name__}")
    if check_depth(depth, minimum=0) == 0:
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
