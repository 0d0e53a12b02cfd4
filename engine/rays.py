"""Ray tables for one board size: what a piece sees along each diagonal.

Built once per board size (`rays_for`) and shared by every variant of that
size. The tables are flat lists indexed by ``square * 4 + direction`` (the
direction in `Geometry.directions` order: up-left, up-right, down-left,
down-right), so a lookup costs one index operation:

- ``ray[i]``: the squares from `square` outwards along `direction`, nearest
  first, the square itself excluded (empty at the edge of the board);
- ``ray_mask[i]``: the same squares as a bitboard; ``masks[d][square]`` is
  ``ray_mask[square * 4 + d]``, for loops that stay on one direction.

Per direction:

- ``ascending[d]``: bit indices grow along `d`, so the nearest square of a
  masked ray is its lowest set bit (else its highest);
- ``step[d]``: the bit distance between neighbours along `d`: the k-th square
  of a ray (k = 0 for the nearest) is ``square + (k + 1) * step[d]``;
- ``back[d]``: the opposite direction;
- ``ahead[d]``: the directions a king may scan after jumping along `d` (every
  direction but `back[d]`, in direction order): backwards it would only meet
  the piece it has just jumped.

And per ray index, ``jumps[square * 4 + d]`` gathers in one tuple what the king
search (`engine.king_captures`) reads about "the piece on `square` jumped along
`d`", so that exploring a jump costs one tuple unpack (see `Jump`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.geometry import geometry_for


@dataclass(frozen=True)
class Rays:
    ray: tuple[tuple[int, ...], ...]
    ray_mask: tuple[int, ...]
    masks: tuple[tuple[int, ...], ...]
    ascending: tuple[bool, bool, bool, bool]
    step: tuple[int, int, int, int]
    back: tuple[int, int, int, int]
    ahead: tuple[tuple[int, ...], ...]
    valid: int
    jumps: tuple[Jump, ...]


# What the king search needs of a jump "the piece on square p jumped along d",
# indexed like the rays (p * 4 + d): (p, d, ray mask, ray, ascending[d], step[d],
# the crossing diagonal's growing and falling directions, masks[those directions])
Jump = tuple[int, int, int, tuple[int, ...], bool, int, int, int, tuple[int, ...],
             tuple[int, ...]]
# per direction: the crossing diagonal's two directions (bits growing, then falling)
CROSSING = ((1, 2), (0, 3), (0, 3), (1, 2))


# up-left <-> down-right, up-right <-> down-left (Geometry.directions order)
_BACK = (3, 2, 1, 0)


@cache
def rays_for(size: int) -> Rays:
    geometry = geometry_for(size)
    slots = (max(geometry.rays) + 1) * 4
    ray: list[tuple[int, ...]] = [()] * slots
    ray_mask = [0] * slots
    for square, per_direction in geometry.rays.items():
        for direction, squares in enumerate(per_direction):
            ray[square * 4 + direction] = squares
            ray_mask[square * 4 + direction] = sum(1 << s for s in squares)
    step = geometry.directions
    masks = tuple(tuple(ray_mask[d::4]) for d in range(4))
    ascending = (step[0] > 0, step[1] > 0, step[2] > 0, step[3] > 0)
    jumps = tuple(
        (index >> 2, index & 3, ray_mask[index], ray[index], ascending[index & 3],
         step[index & 3], *CROSSING[index & 3], masks[CROSSING[index & 3][0]],
         masks[CROSSING[index & 3][1]])
        for index in range(slots))
    return Rays(
        ray=tuple(ray),
        ray_mask=tuple(ray_mask),
        masks=masks,
        ascending=ascending,
        step=step,
        back=_BACK,
        ahead=tuple(tuple(d for d in range(4) if d != _BACK[e]) for e in range(4)),
        valid=geometry.valid,
        jumps=jumps,
    )
