"""One explanation of the switch history: a story of hands playing the game.

A `Story` says, since the last certain position (the base): which plies were
played and when each was finished (`plies`), the game position after them, the
ply underway (`Underway`: the piece in the hand or resting on a square, the
captured pieces taken off), the pieces off their squares for other reasons
(`Loose`: touched, knocked, put where the game has none), the captured pieces
still standing (forgotten, `lingering`) and what the story costs.

Invariant: a story accounts for every sensed square. Its board (`occupied`) is
exactly the switches' board; every change extends it by hand actions that keep
that true (host/recognition/lifts.py, places.py). Which piece stands on a square
(`piece_at`) follows from where the story says it came from: one truth for the
lights, the page and the guidance.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine import Move, Position
from engine.position import Piece
from host.recognition.costs import TOGETHER, Term, in_air, lagged

#: why a piece is off its own square (besides the ply underway)
TOUCH = "touch"  # lifted out of turn by a hand, to be put back
KNOCK = "knock"  # pushed off its switch, or onto a neighbour
STRAY = "stray"  # put where no story of the game has it (a wrong board)
CROWN = "crown"  # a crowned man lifted to stack a king on it
GUIDED = "guided"  # put where the lights asked while the board was put right


@dataclass(frozen=True, slots=True)
class Ply:
    """A finished ply: the move, the position it was played from, and when the mover's
    last action belonging to it was (its final landing, or the last captured piece
    taken off when that came later, before the opponent's first action)."""

    move: Move
    before: Position
    finished: float


@dataclass(frozen=True, slots=True)
class Underway:
    """The ply of the side to move, in progress.

    `origin` is the moving piece's square (None while only captured pieces are off);
    `stops` the landing squares it touched down on, in order; `removed` the captured
    pieces taken off. The piece is in the hand (`on` None) or resting on `on` since
    `since` (then `rest` is what resting there costs as time goes on); `left` is the
    square it last left, at `since` when in the hand. `was` is set when this is the last
    committed move going on (read again), `bound` when it may only go back (touch-move).
    `early`: how long before its turn began its piece was lifted (a touch played on),
    until it comes down somewhere."""

    origin: int | None
    removed: frozenset[int] = frozenset()
    stops: tuple[int, ...] = ()
    lifted: bool = False
    on: int | None = None
    left: int | None = None
    since: float = 0.0
    last: float = 0.0
    rest: Term | None = None
    early: float = 0.0
    was: Move | None = None
    #: the square a man stood on crowned, its move complete, and since when: lifted
    #: and put back there, it was being crowned (a king stacked), and its move was
    #: finished then
    crowned_at: tuple[int, float] | None = None
    bound: bool = False
    #: the piece has come down somewhere since it was lifted (no longer carried from rest)
    touched: bool = False
    #: seconds the hand carrying it spent putting pieces it knocked back (not thinking)
    busy: float = 0.0
    #: how much earlier than `since` it may have left `left` (the reads of that change:
    #: host/recognition/costs.py)
    lead: float = 0.0
    #: how much shorter `early` may have been (the turn may have begun that much sooner)
    early_lead: float = 0.0

    @property
    def least_early(self) -> float:
        """The shortest time the reads allow between its lift and its turn beginning."""
        return max(0.0, self.early - self.early_lead)

    def key(self) -> tuple[object, ...]:
        return (self.origin, self.removed, self.stops, self.lifted, self.on, self.was,
                self.bound, self.early, self.touched)


@dataclass(frozen=True, slots=True)
class Loose:
    """A piece off its own square for a reason other than the ply underway: `home` is
    its square in the story's position (None: it belongs nowhere), `at` where it
    stands now (None: in a hand), `left` the square it last left, at `since`. Its
    `term` (a knocked piece not back, a touched piece held long) runs until it is
    back."""

    kind: str
    piece: Piece | None
    home: int | None
    at: int | None
    left: int | None
    since: float
    hand: str | None = None
    term: Term | None = None
    #: a knock: when the stroke that knocked it began (pieces one stroke knocked share
    #: one term: the hand that put one back puts back the others)
    stroke: float | None = None
    #: how much earlier than `since` it may have left `left`
    lead: float = 0.0

    def key(self) -> tuple[object, ...]:
        return (self.kind, self.piece, self.home, self.at, self.hand)


@dataclass(frozen=True, slots=True)
class Story:
    """One explanation of the switch history since the base (see the module docstring).

    `fixed` is the cost of everything done so far; conditions still going on (the ply's
    piece resting, a knocked piece not back) add their terms (`cost`). `acted`: the side
    to move has started since the last ply finished (closing the last move to a
    re-read); `turn_began`: when that turn began. `crowned`: the crowned man's
    lift-and-return was seen."""

    plies: tuple[Ply, ...]
    position: Position
    ply: Underway | None = None
    loose: tuple[Loose, ...] = ()
    lingering: tuple[tuple[int, Piece], ...] = ()
    acted: bool = False
    turn_began: float = 0.0
    crowned: bool = False
    fixed: float = 0.0
    #: squares whose switch still reads a piece slid off them onto a neighbour, and
    #: since when (a switch letting go a moment after the next one closed)
    ghosts: tuple[tuple[int, float], ...] = ()
    #: the conditions still going on (made from the fields above)
    _terms: tuple[Term, ...] = field(default=(), init=False, repr=False, compare=False)
    _key: tuple[object, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        found = [loose.term for loose in self.loose if loose.term is not None]
        found += [lagged(since) for _, since in self.ghosts]
        ply = self.ply
        if ply is not None:
            if ply.rest is not None:
                if not ply.rest.pauses or self.knocked_since() is None:
                    found.append(ply.rest)
            elif ply.lifted and ply.on is None and self.knocked_since() is None:
                found.append(self._in_air())
        object.__setattr__(self, "_terms", tuple(found))

    def knocked_since(self) -> float | None:
        """When the hand carrying the ply's piece (or the capture waiting for captured
        pieces to come off: a `pauses` rest) knocked pieces still off, if it did: it
        puts them back before it goes on, and the ply is not waiting meanwhile."""
        ply = self.ply
        if ply is None or not ply.lifted:
            return None
        if ply.on is not None:  # (resting: only what the landing hand knocked)
            if ply.rest is None or not ply.rest.pauses:
                return None
            strokes = [
                loose.stroke for loose in self.loose
                if loose.kind == KNOCK and loose.stroke is not None
                and abs(loose.stroke - ply.since) <= TOGETHER + 1e-9
            ]
            return min(strokes, default=None)
        strokes = [
            loose.stroke for loose in self.loose
            if loose.kind == KNOCK and loose.stroke is not None and loose.stroke >= ply.since
        ]
        return min(strokes, default=None)

    def air_cost(self, now: float) -> float:
        """What carrying the ply's piece until `now` (the earliest it may have come down)
        cost, once it comes down."""
        ply = self.ply
        assert ply is not None
        paused = self.knocked_since()
        return self._in_air().ended(now if paused is None else paused)

    def _in_air(self) -> Term:
        """What the ply's piece in the hand costs as time goes on: lifted before its turn
        began (`early`), it is a reply prepared while the opponent moved, carried at once
        from the landing it answers (costs.PREPARED)."""
        ply = self.ply
        assert ply is not None
        prepared = ply.since + ply.early + ply.busy if ply.early > 0 else None
        return in_air(ply.since + ply.busy, prepared)

    # -- cost --------------------------------------------------------------------------

    def terms(self) -> tuple[Term, ...]:
        """The conditions still going on, each growing costlier while it lasts."""
        return self._terms

    def cost(self, now: float) -> float:
        cost = self.fixed
        for term in self._terms:
            cost += term.at(now)
        return cost

    def wrong(self, now: float) -> bool:
        """Does this story need a piece where no hand would leave it (a stray, or a
        condition that lasted past all plausibility)? Then the board is unexplained."""
        if any(loose.kind == STRAY for loose in self.loose):
            return True
        return any(term.wrong and term.at(now) >= term.cap - 1e-9 for term in self.terms())

    def key(self) -> tuple[object, ...]:
        """What the story says, its costs and times aside: two stories with one key are
        the same explanation and only the cheaper is kept."""
        if self._key is None:
            key = (
                tuple(p.move for p in self.plies),
                self.ply.key() if self.ply is not None else None,
                frozenset(loose.key() for loose in self.loose),
                self.lingering,
                self.acted,
                self.crowned,
                tuple(sq for sq, _ in self.ghosts),
            )
            object.__setattr__(self, "_key", key)
        return self._key  # type: ignore[return-value]

    # -- the board it accounts for --------------------------------------------------------

    def occupied(self) -> frozenset[int]:
        """The board this story says the switches show."""
        board = set(self.position.occupied())
        ply = self.ply
        if ply is not None:
            board -= ply.removed
            if ply.lifted and ply.origin is not None:
                board.discard(ply.origin)
            if ply.on is not None:
                board.add(ply.on)
        for loose in self.loose:
            if loose.home is not None:
                board.discard(loose.home)
        for loose in self.loose:
            if loose.at is not None:
                board.add(loose.at)
        board.update(sq for sq, _ in self.lingering)
        board.update(sq for sq, _ in self.ghosts)
        return frozenset(board)

    def piece_at(self, square: int) -> Piece | None:
        """The piece this story has on `square` (None: one from outside the game)."""
        ply = self.ply
        if ply is not None and ply.on == square and ply.origin is not None:
            return self.position.piece_at(ply.origin)
        for loose in self.loose:
            if loose.at == square:
                return loose.piece
        for sq, piece in self.lingering:
            if sq == square:
                return piece
        return self.position.piece_at(square)

    def loose_at(self, square: int) -> Loose | None:
        for loose in self.loose:
            if loose.at == square:
                return loose
        return None

    def is_home(self, square: int) -> bool:
        """Does the position's own piece stand on `square`, on its square?"""
        ply = self.ply
        if ply is not None and (
            (ply.lifted and ply.origin == square) or square in ply.removed or ply.on == square
        ):
            return False
        if any(loose.home == square or loose.at == square for loose in self.loose):
            return False
        return self.position.piece_at(square) is not None

    def lingering_squares(self) -> frozenset[int]:
        return frozenset(sq for sq, _ in self.lingering)

    def with_cost(self, extra: float) -> Story:
        return replace(self, fixed=self.fixed + extra) if extra else self

    def unread(self, now: float, unseen: float) -> Story:
        """This story after the switches went unread for `unseen` seconds before `now` (a
        host that stalled): a condition going on may have been broken and begun again
        meanwhile (a resting piece lifted and put back, a knocked piece put back and
        knocked again), so that time does not count towards it: each condition is
        counted as if it had begun that much later (never later than `now`)."""

        def later(begun: float) -> float:
            return min(unseen, max(0.0, now - begun))

        ply = self.ply
        if ply is not None:
            if ply.rest is not None:
                rest = ply.rest
                ply = replace(ply, rest=replace(rest, start=rest.start + later(rest.start)))
            elif ply.lifted and ply.on is None:
                ply = replace(ply, busy=ply.busy + later(ply.since + ply.busy))
        loose = tuple(
            piece if (term := piece.term) is None
            else replace(piece, term=replace(term, start=term.start + later(piece.since)))
            for piece in self.loose
        )
        return replace(self, ply=ply, loose=loose)

