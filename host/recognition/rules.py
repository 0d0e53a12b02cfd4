"""What the rules allow in one position, shaped for explaining hands.

`TurnRules` lists every legal path of the side to move (a multi-capture by
different routes is several paths of one move) with what a hand does while
playing it: the squares it lands on, the squares it passes over, the pieces it
takes. Stories (host/recognition/story.py) ask it which paths are still possible
after the hand's actions so far. Made once per position and kept in a small cache:
many stories share a position.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import Move, Position, Variant


@dataclass(frozen=True, slots=True)
class Path:
    """One way of playing a legal move: its landings in order (the last is where it
    ends), the squares it passes over on the way, the pieces it takes."""

    index: int
    move: Move
    origin: int
    landings: tuple[int, ...]
    captures: frozenset[int]
    way: frozenset[int]

    @property
    def destination(self) -> int:
        return self.landings[-1]

    def lands_after(self, square: int, done: int) -> int | None:
        """The index of `square` among the landings from `done` on (None if it is not
        one): a hand may skip landings, never go back to one."""
        for i in range(done, len(self.landings)):
            if self.landings[i] == square:
                return i
        return None


class TurnRules:
    """The legal paths of one position (only `allowed` moves, when given)."""

    def __init__(self, position: Position, allowed: frozenset[Move] | None) -> None:
        self.position = position
        self.side = position.turn
        self.other = "B" if self.side == "W" else "W"
        variant = position.variant
        moves = position.legal_moves()
        if allowed is not None:
            moves = [m for m in moves if m in allowed]
        by_key = {m: m for m in moves}
        paths: list[Path] = []
        for raw in position.legal_paths():
            move = by_key.get(raw)
            if move is None:
                continue
            paths.append(
                Path(
                    len(paths),
                    move,
                    raw.origin,
                    raw.path,
                    raw.captures,
                    frozenset(trajectory(variant, raw.origin, raw.path)),
                )
            )
        self.moves: tuple[Move, ...] = tuple(moves)
        self.paths: tuple[Path, ...] = tuple(paths)
        origins: dict[int, list[int]] = {}
        for path in paths:
            origins.setdefault(path.origin, []).append(path.index)
        self.by_origin = {o: tuple(found) for o, found in origins.items()}
        self.capturable = frozenset(sq for p in paths for sq in p.captures)
        capture = any(m.captures for m in moves)
        self.must_capture = frozenset(m.origin for m in moves) if capture else frozenset()
        self.capture_paths = tuple(p.index for p in paths if p.captures)

    def from_origin(self, origin: int) -> tuple[int, ...]:
        return self.by_origin.get(origin, ())

    def destinations(self, paths: tuple[int, ...]) -> frozenset[int]:
        return frozenset(self.paths[i].destination for i in paths)


@lru_cache(maxsize=256)
def rules_for(position: Position, allowed: frozenset[Move] | None = None) -> TurnRules:
    """The rules of `position`, cached (positions are immutable)."""
    return TurnRules(position, allowed)


def trajectory(variant: Variant, origin: int, landings: tuple[int, ...]) -> list[int]:
    """Every square a piece passes or lands on going from `origin` through `landings`,
    in order (the origin itself not included, unless the way crosses it again)."""
    squares: list[int] = []
    here = origin
    for stop in landings:
        (f0, r0), (f1, r1) = variant.square_coords(here), variant.square_coords(stop)
        steps = abs(f1 - f0)
        df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
        for i in range(1, steps + 1):
            square = variant.square_at(f0 + df * i, r0 + dr * i)
            if square is not None:
                squares.append(square)
        here = stop
    return squares


class Geometry:
    """Where the squares of one board are: diagonal distances and neighbours."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        n = variant.num_squares
        self.coords = [(0, 0)] + [variant.square_coords(sq) for sq in range(1, n + 1)]
        self._neighbours = [frozenset[int]()] + [self._around(sq) for sq in range(1, n + 1)]

    def _around(self, square: int) -> frozenset[int]:
        f, r = self.coords[square]
        found = (self.variant.square_at(f + df, r + dr) for df in (-1, 1) for dr in (-1, 1))
        return frozenset(sq for sq in found if sq is not None)

    def steps(self, a: int, b: int) -> float:
        """Squares from `a` to `b` along a diagonal (infinite if not on one)."""
        (fa, ra), (fb, rb) = self.coords[a], self.coords[b]
        steps = abs(fa - fb)
        return float(steps) if steps == abs(ra - rb) != 0 else float("inf")

    def distance(self, a: int, b: int) -> int:
        """King's-move distance between two squares (for pairing squares to put right)."""
        (fa, ra), (fb, rb) = self.coords[a], self.coords[b]
        return max(abs(fa - fb), abs(ra - rb))

    def neighbours(self, square: int) -> frozenset[int]:
        """The dark squares diagonally next to `square`."""
        return self._neighbours[square]


_GEOMETRIES: dict[str, Geometry] = {}


def geometry_for(variant: Variant) -> Geometry:
    """The geometry of `variant`'s board (made once)."""
    found = _GEOMETRIES.get(variant.name)
    if found is None:
        found = _GEOMETRIES[variant.name] = Geometry(variant)
    return found
