"""Where a piece in a hand can come down: the squares of a move's way, and how far
apart two squares are along a diagonal (a king sliding touches each square on
its way for a moment; host/recognition/timing.py says how long).
"""

from __future__ import annotations

from engine import Move, Variant


def diagonal_steps(a: tuple[int, int], b: tuple[int, int]) -> float:
    """Squares between `a` and `b` along a diagonal (infinite if not on one)."""
    steps = abs(a[0] - b[0])
    return steps if steps == abs(a[1] - b[1]) != 0 else float("inf")


def neighbours(variant: Variant, square: int) -> list[int]:
    """The squares diagonally next to `square` (where a knock shoves a piece)."""
    f, r = variant.square_coords(square)
    found = (variant.square_at(f + df, r + dr) for df in (-1, 1) for dr in (-1, 1))
    return [sq for sq in found if sq is not None]


def trajectory(variant: Variant, move: Move) -> set[int]:
    """Every square `move`'s piece may come down on: its landings and the squares it
    slides over between them, on any of its paths."""
    squares: set[int] = set()
    for path in move.paths or (move.path,):
        here = move.origin
        for stop in path:
            (f0, r0), (f1, r1) = variant.square_coords(here), variant.square_coords(stop)
            steps = abs(f1 - f0)
            df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
            for i in range(1, steps + 1):
                square = variant.square_at(f0 + df * i, r0 + dr * i)
                if square is not None:
                    squares.add(square)
            here = stop
    return squares
