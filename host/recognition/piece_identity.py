"""Which piece stands where, as far as lifts and places tell.

Reed switches see a piece, never its colour or whether it is a king. But the
recogniser knows the position and sees every lift and place, so it can follow
pieces: a lifted piece is in the air until a place puts one down. With one
piece in the air the next place is that piece; with several, any of them.

What is plausible: each player has one hand, and a hand puts down what it
picked up last. The mover's hand holds the mover's pieces; a piece of the
opponent's that the move captures goes to the box (taken off, not put down
again); any other piece of the opponent's is in the opponent's hand (a touch).
A place that takes the piece lifted last by a hand, or puts a captured piece
back on its own square (knocked off and put back, the capture taken back), is
plausible; anything else costs one "surprise". Pieces lifted in the same scan
are equally recent, and a piece is not carried to another square within the
scan it was lifted in. A place with nothing in the air is a piece from the box:
unknown.

The tracker keeps the few readings (hypotheses) with the fewest surprises. The
guidance uses them to send the lifted piece back to its own square, and to say
"check the colours" when the board looks right but the plausible readings
disagree about which piece stands where.

Bounded by design (the host runs in 512 MB on a Pi Zero 2): never more than
MAX_READINGS readings, at any moment, also part-way through a scan. Many pieces
put down in one scan (a board swept clean and set up again, a mock board's
first poll) would otherwise mean every colour on every square: 2**24 readings.
When the readings of one cost would overflow, the tracker gives up telling them
apart: they collapse into one reading whose squares hold, where they disagreed,
the set of pieces that may stand there (`Identity`). A square with a doubt is
never declared right: the guidance asks to check the colours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from engine import Position
from engine.position import Piece
from host.recognition.turn_boards import Reading

#: readings held at most, at any moment (the cheapest); beyond this they collapse
MAX_READINGS = 24
#: where a lifted piece is: in the mover's hand, the opponent's hand, or the box
MOVER, OTHER, BOX = "mover", "other", "box"
#: pieces as the page, the status file and the API write them
CODES = ("W", "B", "WK", "BK")


def code_of(piece: Piece) -> str:
    """`piece` as written: "W", "B", "WK" or "BK"."""
    return piece.color + ("K" if piece.king else "")


def piece_of(code: str) -> Piece:
    """The piece a code names (one of CODES)."""
    if code not in CODES:
        raise ValueError(f"piece must be one of {', '.join(CODES)}, not {code!r}")
    return Piece(code[0], code.endswith("K"))

#: what stands on a square (or is in the air): a piece; None, a piece from the box
#: (unknown, the players' choice); or, once the tracker gave up telling pieces apart,
#: the set of pieces it may be
Identity = Piece | frozenset[Piece | None] | None
#: (identity, lift number, hand, the square it was lifted from; 0 if unknown)
Lifted = tuple[Identity, int, str, int]


def candidates(identity: Identity) -> frozenset[Piece | None]:
    """The pieces `identity` may be (None: a piece from the box)."""
    return identity if isinstance(identity, frozenset) else frozenset({identity})


def _colours(identity: Identity) -> set[str | None]:
    return {p.color if p else None for p in candidates(identity)}


def _merge(identities: Iterable[Identity]) -> Identity:
    union: frozenset[Piece | None] = frozenset().union(*(candidates(i) for i in identities))
    return next(iter(union)) if len(union) == 1 else union


@dataclass(frozen=True)
class _Reading:
    board: Mapping[int, Identity]
    air: tuple[Lifted, ...]
    surprises: int

    def key(self) -> tuple[object, ...]:
        return (frozenset(self.board.items()), frozenset(Counter(self.air).items()))


class PieceTracker:
    """Follows pieces through lifts and places from a known position."""

    def __init__(self, pieces: Mapping[int, Piece], sensed: Iterable[int] | None = None) -> None:
        #: the most readings held at once since the tracker was made (a memory witness)
        self.most_held = 1
        #: pieces a hand said it puts down next on a square (the simulator's tray)
        self._told: dict[int, Piece] = {}
        self.turn("W", ())
        self.reset(pieces, sensed)

    def reset(
        self,
        pieces: Mapping[int, Piece],
        sensed: Iterable[int] | None = None,
        *,
        in_air: bool = True,
        likely: Mapping[int, Piece] | None = None,
    ) -> None:
        """Start from `pieces` (square -> piece) with the board as `sensed` (default:
        exactly those squares): sensed squares without a piece hold unknown pieces;
        pieces not sensed are in the air (lifted), or, with `in_air=False` (a board
        found as it is, after a restart), nowhere known. `likely`: what an unknown
        piece probably is (the tracker's reading before the reset), for drawing it
        only (`likeliest`); recognition never relies on it."""
        squares = set(pieces) if sensed is None else set(sensed)
        board = {sq: pieces.get(sq) for sq in squares}
        air = tuple(
            (piece, 0, MOVER, sq)
            for sq, piece in sorted(pieces.items())
            if sq not in squares and in_air
        )
        self._lifts = 0
        self._readings = [_Reading(board, air, 0)]
        self._likely = {sq: p for sq, p in (likely or {}).items() if board.get(sq, 0) is None}
        #: for squares filled since: the colours that were in the air at that moment
        self._put_from: dict[int, frozenset[str | None]] = {}

    def tell(self, square: int, piece: Piece) -> None:
        """The next piece put down on `square` is `piece` (a hand that knows what it
        holds: the simulator's tray). It stays told across turns until that place."""
        self._told[square] = piece

    def forget_told(self, square: int) -> None:
        self._told.pop(square, None)

    def told(self, square: int) -> Piece | None:
        """The piece a hand said it puts down next on `square`, if any."""
        return self._told.get(square)

    def turn(self, mover: str, capturable: Iterable[int]) -> None:
        """Whose hand is whose from now on: `mover` moves, capturing `capturable`."""
        self._mover = mover
        self._capturable = frozenset(capturable)

    @property
    def readings(self) -> int:
        """How many readings are held now (at most MAX_READINGS)."""
        return len(self._readings)

    def _hand(self, square: int, identity: Identity) -> str:
        colours = _colours(identity)
        if None in colours or self._mover in colours:
            return MOVER
        return BOX if square in self._capturable else OTHER

    def update(
        self, lifted: Iterable[int], placed: Iterable[int], late: Mapping[int, int] | None = None
    ) -> None:
        """One scan's changes: `lifted` squares emptied, `placed` squares filled.

        `late` maps a square lifted now to a neighbouring one filled a moment before:
        that piece may have been shoved there, its switch seen leaving late (it
        chattered). The piece on that square may then be the one lifted now, and the
        one put down there may still be in the air: neither square's colour is sure."""
        lifted, placed = sorted(lifted), sorted(placed)
        late = late or {}
        if not lifted and not placed:
            return
        if lifted:
            self._lifts += 1
        for sq in lifted:
            self._put_from.pop(sq, None)
            self._likely.pop(sq, None)
        for sq, near in late.items():
            if near in self._put_from:
                shoved = set().union(*(_colours(r.board.get(sq)) for r in self._readings))
                self._put_from[near] = self._put_from[near] | shoved
        if placed:
            # Whatever the readings, one of these colours came down (None: the box).
            colours: set[str | None] = set()
            for reading in self._readings:
                air = [p for p, *_ in reading.air] + [reading.board.get(sq) for sq in lifted]
                air += [reading.board.get(near) for near in late.values()]
                colours |= set().union(*map(_colours, air)) if air else {None}
            for sq in placed:
                self._put_from[sq] = frozenset(colours)
        scan = self._lifts if lifted else -1
        told = {sq: self._told.pop(sq) for sq in placed if sq in self._told}
        start = []
        for reading in self._readings:
            board = dict(reading.board)
            air = list(reading.air)
            for sq in lifted:
                piece = board.pop(sq, None)
                air.append((piece, self._lifts, self._hand(sq, piece), sq))
            for sq, piece in told.items():
                # The piece the hand said: from the air if one like it is there (a
                # captured piece put back), else from outside the game (a spare).
                same = [i for i, lift in enumerate(air) if lift[0] == piece]
                if same:
                    del air[same[-1]]
                board[sq] = piece
            start.append(_Reading(board, tuple(air), reading.surprises))
        for sq, piece in told.items():
            self._put_from[sq] = frozenset({piece.color})
        rest = [sq for sq in placed if sq not in told]
        self._readings = _place_all(start, rest, scan, self._witness)

    def _witness(self, held: int) -> None:
        self.most_held = max(self.most_held, held)

    def _plausible(self) -> list[_Reading]:
        cheapest = self._readings[0].surprises
        return [r for r in self._readings if r.surprises == cheapest]

    def pieces_at(self, square: int) -> set[Piece | None]:
        """The pieces the plausible readings put on `square` (None: from the box)."""
        found: set[Piece | None] = set()
        for reading in self._plausible():
            if square in reading.board:
                found |= candidates(reading.board[square])
        return found

    def likeliest(self, square: int, prefer: Iterable[Piece] = ()) -> Piece | None:
        """The piece the plausible readings put on `square`: the one they agree on; where
        they do not, the first of `prefer` they allow (the game's own piece there, say),
        else the first in a fixed order. A piece they do not know (from the box) is what
        it likely was before the last reset, if anything; else None."""
        pieces = {p for p in self.pieces_at(square) if p is not None}
        if not pieces:
            return self._likely.get(square)
        for piece in prefer:
            if piece in pieces:
                return piece
        return min(pieces, key=lambda p: (p.color, p.king))

    def sure_colour(self, square: int) -> str | None:
        """The colour of the piece on `square` when it cannot be another (say, only
        pieces of one colour were in the air when it was put down); else None."""
        if square in self._put_from:
            put = self._put_from[square]
            return next(iter(put)) if len(put) == 1 else None
        colours: set[str | None] = set()
        for reading in self._readings:
            colours |= _colours(reading.board.get(square))
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
                latest = max(n for _, n, *_ in reading.air)
                for piece, n, *_ in reading.air:
                    if n == latest:
                        found |= candidates(piece)
        return bool(found) and all(p is not None and p.color == colour for p in found)

    def contradicts(self, reading: Reading, position: Position) -> bool:
        """Does `reading` (of a turn from `position`) put a piece of one colour where a
        piece of the other colour was surely put down? (A move's landing square holds
        the piece from its origin.) Or read a captured piece as not taken off yet where
        that piece cannot be standing (another piece was put down on its square: the
        next player's king landing where a captured man stood)?"""
        for p in reading.found:
            for square in p.move.captures - p.removed:
                original, seen = position.piece_at(square), self.pieces_at(square)
                if original is not None and seen and None not in seen and original not in seen:
                    return True
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
            for sq, identity in reading.board.items():
                if sq in target and candidates(identity) - {None, target[sq]}:
                    squares.add(sq)
        return frozenset(squares)


def _place_all(
    readings: list[_Reading], placed: list[int], scan: int, witness: Callable[[int], None]
) -> list[_Reading]:
    """Every way of putting pieces from the air on the `placed` squares (put down in
    one scan, in an order nobody knows), bounded after each square; see the module
    docstring for the costs. `witness` hears how many readings are held at once."""
    partial = readings
    for done, sq in enumerate(placed, 1):
        nxt = []
        for reading in partial:
            b, a, cost = reading.board, reading.air, reading.surprises
            if not a:
                nxt.append(_Reading({**b, sq: None}, a, cost))
                continue
            latest: dict[str, int] = {}
            for hand in (MOVER, OTHER):
                ranks = [n for _, n, h, _ in a if h == hand]
                earlier = [n for n in ranks if n != scan]
                if ranks:
                    latest[hand] = max(earlier or ranks)
            tried: set[Lifted] = set()
            for i, lift in enumerate(a):
                if lift in tried:
                    continue
                tried.add(lift)
                piece, n, hand, home = lift
                if hand == BOX:
                    # A captured piece comes back only to its own square (knocked off
                    # and put back, the capture taken back); anywhere else it is one
                    # taken from the box, which no hand had just lifted.
                    surprise = 0 if home == sq else 1
                else:
                    surprise = 0 if latest.get(hand) == n else 1
                nxt.append(_Reading({**b, sq: piece}, a[:i] + a[i + 1 :], cost + surprise))
        witness(len(nxt))
        # Each square still to fill may cost one more surprise: keep every reading that
        # may yet end among the two cheapest costs.
        partial = _bounded(nxt, spread=1 + len(placed) - done)
    return _bounded(partial)


def _bounded(readings: list[_Reading], spread: int = 1) -> list[_Reading]:
    """The readings worth keeping: duplicates merged (cheapest kept), costs up to
    `spread` above the cheapest only, at most MAX_READINGS (or one per cost, if
    there are more costs than that). A cost whose readings do not all fit
    collapses into one reading (its doubts kept, see `_collapse`), never truncated:
    dropping some would make the rest look surer than they are."""
    unique: dict[tuple[object, ...], _Reading] = {}
    for reading in readings:
        key = reading.key()
        if key not in unique or unique[key].surprises > reading.surprises:
            unique[key] = reading
    cheapest = min(r.surprises for r in unique.values())
    tiers = [
        tier
        for cost in range(cheapest, cheapest + spread + 1)
        if (tier := [r for r in unique.values() if r.surprises == cost])
    ]
    kept: list[_Reading] = []
    for i, tier in enumerate(tiers):
        room = MAX_READINGS - len(kept) - (len(tiers) - 1 - i)  # one left for each to come
        kept += tier if len(tier) <= room else [_collapse(tier)]
    return kept


def _collapse(readings: list[_Reading]) -> _Reading:
    """One reading for several of one cost: where they disagree about a square (or a
    piece in the air) it holds the set of pieces it may be. The readings have the same
    squares and as many pieces in the air (the same lifts and places made them); the
    pieces in the air they share stay as they are, the others are paired in lift order."""
    first = readings[0]
    board: dict[int, Identity] = {}
    for sq in first.board:
        here = {r.board[sq] for r in readings}
        board[sq] = here.pop() if len(here) == 1 else _merge(here)
    airs = [Counter(r.air) for r in readings]
    shared = airs[0].copy()
    for air in airs[1:]:
        shared &= air
    rest = [sorted((air - shared).elements(), key=lambda e: (e[1], e[2])) for air in airs]
    merged = tuple(shared.elements()) + tuple(
        (
            _merge(e[0] for e in column),
            max(e[1] for e in column),
            column[0][2],
            column[0][3] if len({e[3] for e in column}) == 1 else 0,
        )
        for column in zip(*rest, strict=True)
    )
    return _Reading(board, merged, first.surprises)
