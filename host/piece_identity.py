"""Which piece stands where, as far as lifts and places tell.

Reed switches see a piece, never its colour or whether it is a king. But the
recogniser knows the position and sees every lift and place, so it can follow
pieces: a lifted piece is in the air until a place puts one down. With one
piece in the air the next place is that piece; with several, any of them. A
hand puts down what it picked up last, so a place that takes the most recently
lifted piece is the plausible reading and any other costs one "surprise";
pieces lifted in the same scan are equally recent (switches cannot order them).
A place with nothing in the air is a piece from the box: unknown.

The tracker keeps the few readings (hypotheses) with the fewest surprises. The
guidance uses them to send the lifted piece back to its own square, and to say
"check the colours" when the board looks right but the plausible readings
disagree about which piece stands where.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine import Position
from engine.position import Piece
from host.turn_boards import Reading

#: readings kept at most (the cheapest); beyond this a board is simply doubtful
MAX_READINGS = 24


@dataclass(frozen=True)
class _Reading:
    board: Mapping[int, Piece | None]  # None: a piece from the box (unknown)
    air: tuple[tuple[Piece | None, int], ...]  # (piece, lift number), in lift order
    surprises: int

    def key(self) -> tuple[object, ...]:
        return (frozenset(self.board.items()), tuple(sorted(self.air, key=repr)))


class PieceTracker:
    """Follows pieces through lifts and places from a known position."""

    def __init__(self, pieces: Mapping[int, Piece], sensed: Iterable[int] | None = None) -> None:
        self.reset(pieces, sensed)

    def reset(
        self,
        pieces: Mapping[int, Piece],
        sensed: Iterable[int] | None = None,
        *,
        in_air: bool = True,
    ) -> None:
        """Start from `pieces` (square -> piece) with the board as `sensed` (default:
        exactly those squares): sensed squares without a piece hold unknown pieces;
        pieces not sensed are in the air (lifted), or, with `in_air=False` (a board
        found as it is, after a restart), nowhere known."""
        squares = set(pieces) if sensed is None else set(sensed)
        board = {sq: pieces.get(sq) for sq in squares}
        air = tuple(
            (piece, 0) for sq, piece in sorted(pieces.items()) if sq not in squares and in_air
        )
        self._lifts = 0
        self._readings = [_Reading(board, air, 0)]
        #: for squares filled since: the colours that were in the air at that moment
        self._put_from: dict[int, frozenset[str | None]] = {}

    def update(self, lifted: Iterable[int], placed: Iterable[int]) -> None:
        """One scan's changes: `lifted` squares emptied, `placed` squares filled."""
        lifted, placed = sorted(lifted), sorted(placed)
        if not lifted and not placed:
            return
        if lifted:
            self._lifts += 1
        for sq in lifted:
            self._put_from.pop(sq, None)
        if placed:
            # Whatever the readings, one of these colours came down (None: the box).
            colours: set[str | None] = set()
            for reading in self._readings:
                air = [p for p, _ in reading.air] + [reading.board.get(sq) for sq in lifted]
                colours |= {p.color if p else None for p in air} if air else {None}
            for sq in placed:
                self._put_from[sq] = frozenset(colours)
        found: dict[tuple[object, ...], _Reading] = {}
        for reading in self._readings:
            board = dict(reading.board)
            air = list(reading.air)
            for sq in lifted:
                air.append((board.pop(sq, None), self._lifts))
            scan = self._lifts if lifted else -1
            for result in _place_all(board, tuple(air), placed, reading.surprises, scan):
                key = result.key()
                if key not in found or found[key].surprises > result.surprises:
                    found[key] = result
        ordered = sorted(found.values(), key=lambda r: r.surprises)
        cheapest = ordered[0].surprises
        self._readings = [r for r in ordered if r.surprises <= cheapest + 1][:MAX_READINGS]

    def _plausible(self) -> list[_Reading]:
        cheapest = self._readings[0].surprises
        return [r for r in self._readings if r.surprises == cheapest]

    def pieces_at(self, square: int) -> set[Piece | None]:
        """The pieces the plausible readings put on `square` (None: from the box)."""
        return {r.board[square] for r in self._plausible() if square in r.board}

    def sure_colour(self, square: int) -> str | None:
        """The colour of the piece on `square` when it cannot be another (say, only
        pieces of one colour were in the air when it was put down); else None."""
        if square in self._put_from:
            put = self._put_from[square]
            return next(iter(put)) if len(put) == 1 else None
        colours = set()
        for reading in self._readings:
            piece = reading.board.get(square)
            if piece is None:
                return None
            colours.add(piece.color)
        return colours.pop() if len(colours) == 1 else None

    def plausible_colour(self, square: int) -> str | None:
        """The colour the plausible readings agree on for `square` (None if they do not,
        or if it is a piece from the box)."""
        pieces = self.pieces_at(square)
        colours = {p.color if p else None for p in pieces}
        return colours.pop() if len(colours) == 1 else None

    def hand_holds(self, colour: str) -> bool:
        """Is the piece lifted last (the one in the hand) surely of `colour`?"""
        found: set[Piece | None] = set()
        for reading in self._plausible():
            if reading.air:
                latest = max(n for _, n in reading.air)
                found |= {piece for piece, n in reading.air if n == latest}
        return bool(found) and all(p is not None and p.color == colour for p in found)

    def contradicts(self, reading: Reading, position: Position) -> bool:
        """Does `reading` (of a turn from `position`) put a piece of one colour where a
        piece of the other colour was surely put down? (A move's landing square holds
        the piece from its origin.)"""
        landings: dict[int, int] = {}
        if reading.kind == "final" and reading.move is not None:
            landings[reading.move.destination] = reading.move.origin
        for p in reading.found:
            if p.lifted and p.at is not None:
                landings[p.path[p.at]] = p.move.origin
        for square, origin in landings.items():
            seen = self.sure_colour(square)
            piece = position.piece_at(origin)
            if seen is not None and piece is not None and seen != piece.color:
                return True
        return False

    def doubtful(self, target: Mapping[int, Piece]) -> frozenset[int]:
        """Squares where a plausible reading has another piece than `target` says
        (pieces from the box are the players' choice, never doubted)."""
        squares: set[int] = set()
        for reading in self._plausible():
            for sq, piece in reading.board.items():
                if piece is not None and sq in target and target[sq] != piece:
                    squares.add(sq)
        return frozenset(squares)


def _place_all(
    board: dict[int, Piece | None],
    air: tuple[tuple[Piece | None, int], ...],
    placed: list[int],
    surprises: int,
    now: int,
) -> list[_Reading]:
    """Every way of putting pieces from the air on the `placed` squares (put down in
    one scan, in an order nobody knows). Plausible: the pieces lifted last, but not
    ones lifted in this very scan (no hand carries a piece to another square that
    fast); each other choice is a surprise."""
    ranked = sorted({n for _, n in air if n != now}, reverse=True) or [now]
    expected: list[int] = []  # the lift numbers the plausible pieces come from
    for n in ranked:
        expected += [m for _, m in air if m == n]
    likely = expected[: len(placed)]
    partial = [(board, air, surprises, likely)]
    for sq in placed:
        nxt = []
        for b, a, cost, still in partial:
            if not a:
                nxt.append(({**b, sq: None}, a, cost, still))
                continue
            tried: set[tuple[Piece | None, int]] = set()
            for i, (piece, n) in enumerate(a):
                if (piece, n) in tried:
                    continue
                tried.add((piece, n))
                rest = list(still)
                if n in rest:
                    rest.remove(n)
                    extra = 0
                else:
                    extra = 1
                nxt.append(({**b, sq: piece}, a[:i] + a[i + 1 :], cost + extra, rest))
        partial = nxt
    return [_Reading(b, a, cost) for b, a, cost, _ in partial]
