"""Bitboard geometry for 8x8 and 10x10 boards.

Dark squares are packed into a Python int with one *ghost* bit between every
pair of rows, so that the four diagonal neighbours of every square are at a
fixed distance: +n and +n+1 (towards White's far side) and -n, -n-1, where n
is half the board size. A shift that would wrap around an edge lands on a
ghost bit, which is never part of `valid`, so whole-board shifts generate
moves for every man at once. Coordinates here are *inner* ones: (file, rank)
with file mirrored on the mirrored boards, so that every variant sees dark
squares at file + rank even.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Geometry:
    size: int
    half: int
    directions: tuple[int, int, int, int]  # up-left, up-right, down-left, down-right
    valid: int  # all playable squares
    top_row: int  # White's crowning row
    bottom_row: int  # Black's crowning row
    long_diagonal: int  # a1..h8 (inner coordinates): the "grande diagonal"
    rays: dict[int, tuple[tuple[int, ...], ...]]  # bit -> squares along each direction
    jumps: dict[int, tuple[tuple[int, int, int], ...]]  # bit -> (direction, over, landing)

    def bit_of(self, file: int, rank: int) -> int:
        return (rank * (self.size + 1) + file) // 2


@cache
def geometry_for(size: int) -> Geometry:
    half = size // 2
    width = size + 1

    def bit(file: int, rank: int) -> int:
        return (rank * width + file) // 2

    squares = {(f, r): bit(f, r) for r in range(size) for f in range(size) if (f + r) % 2 == 0}
    valid = sum(1 << b for b in squares.values())
    steps = ((-1, 1), (1, 1), (-1, -1), (1, -1))
    directions = tuple(bit(1 + df, 1 + dr) - bit(1, 1) for df, dr in steps)
    # bit(1,1) is valid; its four neighbours are at offsets half, half+1, -half-1, -half
    rays: dict[int, tuple[tuple[int, ...], ...]] = {}
    jumps: dict[int, tuple[tuple[int, int, int], ...]] = {}
    for (f, r), b in squares.items():
        ray_list = []
        jump_list = []
        for d_index, (df, dr) in enumerate(steps):
            ray = []
            x, y = f + df, r + dr
            while 0 <= x < size and 0 <= y < size:
                ray.append(squares[(x, y)])
                x, y = x + df, y + dr
            ray_list.append(tuple(ray))
            if len(ray) >= 2:
                jump_list.append((d_index, ray[0], ray[1]))
        rays[b] = tuple(ray_list)
        jumps[b] = tuple(jump_list)
    top = sum(1 << squares[(f, size - 1)] for f in range(size) if (f + size - 1) % 2 == 0)
    bottom = sum(1 << squares[(f, 0)] for f in range(size) if f % 2 == 0)
    diagonal = sum(1 << squares[(i, i)] for i in range(size))
    return Geometry(
        size=size,
        half=half,
        directions=directions,  # type: ignore[arg-type]
        valid=valid,
        top_row=top,
        bottom_row=bottom,
        long_diagonal=diagonal,
        rays=rays,
        jumps=jumps,
    )
