"""Board commands without a keyboard: the command piece.

A club table has no keyboard, so resigning, offering and accepting a draw,
taking back, and choosing the variant and the computer's level are done with
the pieces. Every command starts the same way: a **spare piece** (one already
captured, or any piece not in the game) is put on an empty square while the
rest of the board stays exactly as the game expects, and left there for
`hold` seconds (2 s). That board can never arise from ordinary play: every
move lifts a piece before it lands one, every capture takes pieces off, and
the only time a piece is added to a square is while a move is being taken
back (the moved piece's origin and the captured squares), which are excluded.
A noisy hand (bounce, a slide, a touched piece) never holds a board with
nothing missing and one piece too many for two seconds.

* **At the start** (no move made yet, the pieces in the initial position),
  the middle squares are a fixed menu: each is a variant of this board's size,
  the last one the computer's level. Holding the spare piece on one chooses
  it; on the level square the level goes up by one each further `hold`.
* **During a game** the hold opens a menu: the board lights, on each player's
  half, a `draw` square and a blinking `resign` square, a `takeback`
  square near the spare piece and, next nearest, a `hint` square (the best
  move, lit for a few seconds: host/computer/player.py); in a timed game a
  `clock` square comes before the hint (an arbiter's stop: both clocks stop, or
  run again). Moving the spare piece onto one of them and
  leaving it `choose` seconds (1 s) carries it out; taking it off the board
  (for `away` seconds), or any other change on the board, closes the menu
  without doing anything, and so does leaving it `menu_timeout` seconds.
  A draw is agreed when both players choose `draw` with no move in between.

While a spare piece is being used it is hidden from the recogniser
(`mask`), so the game never reads it as a wrong board; a piece that opened
nothing (or a menu left to time out) is not hidden, so a stuck switch still
gets the recogniser's correction. No I/O here: the session announces the
returned events and draws `hint` over the game's frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import VARIANTS, Game, Outcome, Variant, get_variant
from host.hints import Hint

#: seconds the spare piece rests on an option before it is carried out
CHOOSE = 1.0
#: seconds the spare piece may be off the board (in the hand) before the menu closes
AWAY = 3.0
#: seconds a menu stays open with no choice
MENU_TIMEOUT = 15.0
#: seconds the chosen option stays lit as confirmation
CONFIRM = 1.5
#: the level square counts 0 (two players), 1..4 (the computer's levels), then 0 again
LEVELS = 5


class GameState(Protocol):
    """What the detector reads of the recogniser (its public state)."""

    expected: frozenset[int]
    game: Game
    outcome: Outcome | None
    correcting: bool


@dataclass(frozen=True)
class GestureEvent:
    """A board command: `menu`, `menu-closed`, `resign` (side), `draw-offer` (side),
    `draw-accept` (side), `takeback`, `hint`, `clock` (stop or restart the clocks),
    `variant` (name), `level` (level)."""

    kind: str
    time: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Candidate:
    square: int
    since: float


@dataclass
class _Menu:
    options: dict[int, str]  # square -> "resign:W", "draw:B", "takeback"
    opened: float
    at: int | None  # where the spare piece stands (None: in the hand)
    since: float


@dataclass
class _Spent:
    """The spare piece after it did something: ignored until it leaves the board."""

    square: int
    masked: bool
    next_level: float | None = None  # the level square keeps counting while held


def start_menu(variant: Variant) -> dict[int, str]:
    """The fixed start menu: the middle squares (nearer White's row first, left to right)
    are this board's variants in the engine's order; the last is the level square."""
    size = variant.size
    middle = sorted(
        (
            sq
            for sq in range(1, variant.num_squares + 1)
            if variant.square_coords(sq)[1] in (size // 2 - 1, size // 2)
        ),
        key=lambda sq: (variant.square_coords(sq)[1], variant.square_coords(sq)[0]),
    )
    names = [n for n in VARIANTS if get_variant(n).size == size]
    menu = {sq: f"variant:{name}" for sq, name in zip(middle[:-1], names, strict=False)}
    menu[middle[-1]] = "level"
    return menu


class GestureDetector:
    """Watches snapshots for the spare piece and turns it into commands."""

    def __init__(
        self,
        variant: Variant,
        *,
        hold: float = 2.0,
        choose: float = CHOOSE,
        away: float = AWAY,
        menu_timeout: float = MENU_TIMEOUT,
        level: int = 0,
        timed: bool = False,
    ) -> None:
        self.variant = variant
        self.hold = hold
        self.choose = choose
        self.away = away
        self.menu_timeout = menu_timeout
        self.level = level
        #: the game has a clock: the menu offers to stop it (and to restart it)
        self.timed = timed
        self.coords = {sq: variant.square_coords(sq) for sq in range(1, variant.num_squares + 1)}
        self.initial = variant.initial_position().occupied()
        self.start_options = start_menu(variant)
        #: the side whose draw offer stands, and the ply it was made at
        self.offer: tuple[str, int] | None = None
        self._candidate: _Candidate | None = None
        self._menu: _Menu | None = None
        self._spent: _Spent | None = None
        self._confirm: tuple[Hint, float] | None = None
        self._now = 0.0

    # -- public ----------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """Is a menu open (the spare piece in use)?"""
        return self._menu is not None

    @property
    def hint(self) -> Hint | None:
        """The frame to show instead of the game's, or None."""
        if self._menu is not None:
            roles = {sq: option.split(":")[0] for sq, option in self._menu.options.items()}
            if self._menu.at is not None:
                roles[self._menu.at] = "command"
            blink = frozenset(sq for sq, role in roles.items() if role == "resign")
            return Hint(dict(sorted(roles.items())), blink)
        if self._confirm is not None and self._now < self._confirm[1]:
            return self._confirm[0]
        return None

    @property
    def spent(self) -> bool:
        """Has the spare piece carried out a command and still stands on the board?"""
        return self._spent is not None

    def ignore_until_lifted(self, square: int) -> None:
        """A spare piece already stands on `square` (it chose this game's variant, on the
        detector of the game before): hidden from the game, and no command, until lifted."""
        self._spent = _Spent(square, masked=True)

    def mask(self, occupied: frozenset[int], state: GameState) -> frozenset[int]:
        """The snapshot as the recogniser should see it: without the spare piece in use."""
        extra = occupied - state.expected
        if len(extra) != 1 or not occupied >= state.expected:
            if self._spent is not None and self._spent.masked and self._spent.square in occupied:
                return occupied - {self._spent.square}  # the game's pieces are being moved
            return occupied
        (square,) = extra
        if self._menu is not None or (self._candidate and self._candidate.square == square):
            return occupied - {square}
        if self._spent is not None and self._spent.masked and self._spent.square == square:
            return occupied - {square}
        return occupied

    def next_deadline(self) -> float | None:
        """When a timer fires if the board stays as it is (None: nothing pending)."""
        times = []
        if self._candidate is not None:
            times.append(self._candidate.since + self.hold)
        if self._menu is not None:
            menu = self._menu
            times.append(menu.opened + self.menu_timeout)
            if menu.at is None:
                times.append(menu.since + self.away)
            elif menu.at in menu.options:
                times.append(menu.since + self.choose)
        if self._spent is not None and self._spent.next_level is not None:
            times.append(self._spent.next_level)
        if self._confirm is not None and self._now < self._confirm[1]:
            times.append(self._confirm[1])
        return min(times) if times else None

    def observe(self, now: float, occupied: frozenset[int], state: GameState) -> list[GestureEvent]:
        """Feed one snapshot (in the variant's numbering) with the game's state."""
        self._now = now
        events: list[GestureEvent] = []
        occupied = frozenset(occupied)
        if self.offer is not None and len(state.game.moves) != self.offer[1]:
            self.offer = None  # a move declines a draw offer
        if self._spent is not None:
            self._watch_spent(now, occupied, state, events)
        elif self._menu is not None:
            self._watch_menu(now, occupied, state, events)
        else:
            self._watch_idle(now, occupied, state, events)
        return events

    # -- states ------------------------------------------------------------------------

    def _spare(self, occupied: frozenset[int], state: GameState) -> int | None:
        """The square of the one piece too many, if that is the only difference."""
        if not occupied > state.expected or len(occupied) != len(state.expected) + 1:
            return None
        (square,) = occupied - state.expected
        return square

    def _at_start(self, state: GameState) -> bool:
        return not state.game.moves and state.expected == self.initial

    def _forbidden(self, state: GameState) -> frozenset[int]:
        """Squares a piece returns to while the last move is taken back."""
        if not state.game.moves:
            return frozenset()
        last = state.game.moves[-1]
        return frozenset(last.captures) | {last.origin}

    def _watch_idle(
        self, now: float, occupied: frozenset[int], state: GameState, events: list[GestureEvent]
    ) -> None:
        square = self._spare(occupied, state)
        usable = (
            square is not None
            and state.outcome is None
            and not state.correcting
            and square not in self._forbidden(state)
        )
        if not usable:
            self._candidate = None
            return
        assert square is not None
        if self._candidate is None or self._candidate.square != square:
            self._candidate = _Candidate(square, now)
            return
        if now + 1e-9 < self._candidate.since + self.hold:
            return
        self._candidate = None
        if self._at_start(state):
            option = self.start_options.get(square)
            if option is not None:
                self._carry_out(now, square, option, state, events)
            return
        options = self._options(square, state)
        self._menu = _Menu(options, now, square, now)
        events.append(GestureEvent("menu", now, {"options": dict(options)}))

    def _watch_menu(
        self, now: float, occupied: frozenset[int], state: GameState, events: list[GestureEvent]
    ) -> None:
        menu = self._menu
        assert menu is not None
        square = self._spare(occupied, state)
        if occupied == state.expected:
            where: int | None = None
        elif square is not None and state.outcome is None and not state.correcting:
            where = square
        else:  # someone is moving the game's pieces: that is play, not a command
            self._close(now, events, masked=False, square=None)
            return
        if where != menu.at:
            menu.at, menu.since = where, now
        if now + 1e-9 >= menu.opened + self.menu_timeout:
            self._close(now, events, masked=False, square=where)
        elif where is None and now + 1e-9 >= menu.since + self.away:
            self._close(now, events, masked=False, square=None)
        elif where in menu.options and now + 1e-9 >= menu.since + self.choose:
            self._menu = None
            self._carry_out(now, where, menu.options[where], state, events)

    def _watch_spent(
        self, now: float, occupied: frozenset[int], state: GameState, events: list[GestureEvent]
    ) -> None:
        spent = self._spent
        assert spent is not None
        if spent.square not in occupied or spent.square in state.expected:
            self._spent = None
            self._watch_idle(now, occupied, state, events)
            return
        if spent.next_level is not None:
            still = self._spare(occupied, state) == spent.square and self._at_start(state)
            if not still:
                spent.next_level = None
            elif now + 1e-9 >= spent.next_level:
                self._next_level(now, spent.square, events)
                spent.next_level = now + self.hold

    def _close(
        self, now: float, events: list[GestureEvent], *, masked: bool, square: int | None
    ) -> None:
        self._menu = None
        if square is not None:
            self._spent = _Spent(square, masked)
        events.append(GestureEvent("menu-closed", now))

    # -- doing --------------------------------------------------------------------------

    def _carry_out(
        self, now: float, square: int, option: str, state: GameState, events: list[GestureEvent]
    ) -> None:
        kind, _, value = option.partition(":")
        self._spent = _Spent(square, masked=True)
        role = kind
        if kind == "variant":
            role = "choice"
            events.append(GestureEvent("variant", now, {"variant": value}))
        elif kind == "level":
            role = "choice"
            self._next_level(now, square, events)
            self._spent.next_level = now + self.hold
        elif kind == "resign":
            events.append(GestureEvent("resign", now, {"side": value}))
        elif kind == "draw":
            ply = len(state.game.moves)
            if self.offer is not None and self.offer[0] != value and self.offer[1] == ply:
                self.offer = None
                events.append(GestureEvent("draw-accept", now, {"side": value}))
            else:
                self.offer = (value, ply)
                events.append(GestureEvent("draw-offer", now, {"side": value}))
        elif kind == "takeback":
            events.append(GestureEvent("takeback", now))
        elif kind == "hint":
            events.append(GestureEvent("hint", now))
        elif kind == "clock":
            events.append(GestureEvent("clock", now))
        self._confirm = (Hint({square: role}, frozenset()), now + CONFIRM)

    def _next_level(self, now: float, square: int, events: list[GestureEvent]) -> None:
        self.level = (self.level + 1) % LEVELS
        events.append(GestureEvent("level", now, {"level": self.level}))
        self._confirm = (Hint({square: "choice"}, frozenset()), now + CONFIRM)

    def _options(self, square: int, state: GameState) -> dict[int, str]:
        """Where the menu's choices are lit: empty squares, never the spare piece's own,
        never a square a takeback would fill; each player's on their own half, nearest
        their edge; the takeback nearest the spare piece."""
        size = self.variant.size
        taken = set(state.expected) | self._forbidden(state) | {square}
        free = [sq for sq in self.coords if sq not in taken]
        options: dict[int, str] = {}
        for side, half, order in (
            ("W", range(0, size // 2), lambda sq: (self.coords[sq][1], self.coords[sq][0])),
            ("B", range(size // 2, size), lambda sq: (-self.coords[sq][1], -self.coords[sq][0])),
        ):
            mine = sorted((sq for sq in free if self.coords[sq][1] in half), key=order)
            for sq, kind in zip(mine, ("draw", "resign"), strict=False):
                options[sq] = f"{kind}:{side}"
        fx, fy = self.coords[square]
        rest = sorted(
            (sq for sq in free if sq not in options),
            key=lambda sq: (max(abs(self.coords[sq][0] - fx), abs(self.coords[sq][1] - fy)), sq),
        )
        # (in a timed game stopping the clock comes before a hint: the opening's few
        # empty squares may hold only one of them)
        near = ["takeback"] if state.game.moves else []
        near += ["clock", "hint"] if self.timed else ["hint"]
        for sq, kind in zip(rest, near, strict=False):
            options[sq] = kind
        return dict(sorted(options.items()))
