"""One stream of a hand family: a game played on the `Table`, and what must come of it.

A family drives a `Driver`: it picks legal moves, has the table's hands carry
them out with its own quirks, and says what the board must report. The
driver keeps the engine position and the physical table in step (captured
pieces left on the board included) and finally samples the switch timeline
at the board's scan rate into a `Scenario`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine import Game, Move, Position, get_variant
from engine.position import Piece

from .moves import Hooks, Style, carry_out
from .positions import partial_finals, rest_stops
from .table import CHATTER, Table
from .timing import MODEL, Timing

#: the chance the host is busy (reads late) when a switch scan would see a change
STALL = 0.02


def _chatter(change: tuple[float, int, bool], changes: list[tuple[float, int, bool]]) -> bool:
    """Is `change` a contact chattering: the same switch changed just before it?"""
    t, square, _ = change
    return any(t - CHATTER <= u < t and sq == square for u, sq, _ in changes)


@dataclass
class Scenario:
    """A replayable stream and the verdict a correct recogniser must reach."""

    family: str
    variant: str
    seed: str
    fen: str
    events: list[dict[str, Any]]
    #: the FEN after each move the board must commit, in order (corrections applied)
    expected: list[str]
    #: illegal-board notices the stream must raise (illegal moves held past the grace)
    alarms: int = 0
    #: a committed move may be re-read ("move-corrected") in this stream: a piece went on
    corrections: bool = False
    touch_move: bool = False
    #: why the stream ends on a board switches cannot read (then nothing more is committed)
    ambiguous: str = ""
    #: (start, end) ms of boards that must not be accepted (illegal moves on the board)
    illegal_windows: list[tuple[int, int]] = field(default_factory=list)
    scan: float = 15.0
    #: the timing profile the hands were drawn from
    timing: str = "model"
    #: when each expected move was really finished (ms, the hands' time): its mover's
    #: last action of it (the landing, or the last captured piece taken off with it)
    finished: list[float] = field(default_factory=list)


class Driver:
    """A game on the table, with the expectations that come with it."""

    def __init__(
        self,
        family: str,
        variant_name: str,
        seed: str,
        *,
        fen: str | None = None,
        bounce: float = 0.3,
        scan: tuple[float, float] = (10, 20),
        stall: float = STALL,
        touch_move: bool = False,
        warmup: tuple[int, int] = (0, 40),
        timing: Timing = MODEL,
    ) -> None:
        """The game starts from `fen`, or after `warmup` random plies from the initial
        position (not part of the stream), so streams meet middle-game positions. The
        hands' durations come from `timing`."""
        self.family = family
        self.timing = timing
        self.variant = get_variant(variant_name)
        self.seed = seed
        self.rng = random.Random(f"{family}/{variant_name}/{seed}")
        if fen:
            self.position = Position.from_fen(fen, self.variant)
        else:
            self.position = self.variant.initial_position()
            for _ in range(self.rng.randint(*warmup)):
                after = self.position.play(self.rng.choice(self.position.legal_moves()))
                if not after.legal_moves():
                    break  # never start from a finished game
                self.position = after
        self.start = self.position
        #: the switch scan period is drawn from this range (ms) for the whole stream
        self.scan_range = scan
        #: the chance a read that would see a change comes late (table.py: a busy host)
        self.stall = stall
        #: the game as the board must follow it (draws by rule end it, as on the board)
        self.game = Game(self.variant, self.position)
        self.table = Table.from_position(
            self.position, self.rng, t=self.rng.uniform(200, 900), bounce=bounce
        )
        self.expected: list[str] = []
        self.finished: list[float] = []
        self.alarms = 0
        self.corrections = False
        self.touch_move = touch_move
        self.ambiguous = ""
        self.illegal_windows: list[tuple[int, int]] = []
        #: captured pieces still on the board (forgotten), oldest first
        self.lingering: list[int] = []
        self.previous_position: Position | None = None
        self.previous_move: Move | None = None

    def reset(self, position: Position) -> None:
        """Start the stream from `position` instead (before the hands did anything)."""
        assert not self.table.changes, "reset after the hands started"
        self.position = self.start = position
        self.game = Game(self.variant, position)
        self.table = Table.from_position(
            position, self.rng, t=self.table.t, bounce=self.table.bounce
        )

    # -- choosing ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.game.outcome() is not None

    def moves(self) -> list[Move]:
        return [] if self.over else self.position.legal_moves()

    def ends(self, move: Move) -> bool:
        """Would `move` end the game (then nothing may go on after it)?"""
        self.game.push(move)
        over = self.game.outcome() is not None
        self.game.pop()
        return over

    def choose(self, prefer=None) -> Move | None:
        """A random legal move (one satisfying `prefer` if there is one)."""
        legal = self.moves()
        if not legal:
            return None
        if prefer is not None:
            liked = [m for m in legal if prefer(m)]
            if liked:
                return self.rng.choice(liked)
        return self.rng.choice(legal)

    # -- playing ------------------------------------------------------------------------

    def play(
        self,
        move: Move,
        style: Style | None = None,
        hooks: Hooks | None = None,
        *,
        check: bool = True,
        apart: float | None = None,
    ) -> None:
        """Carry out `move`; the board must commit it. `check=False` when a hook also
        made the next move (the table is checked after that one). The first touch of a
        square another hand just changed comes `apart` ms after it at least (the
        profile's `hands_apart` unless given)."""
        self.clear_path(move)
        self.extend_finish()
        # One hand cannot take a piece off a square a few ms after another hand put it
        # there: the next player's first touch of a square comes a moment after.
        apart = self.timing.hands_apart if apart is None else apart
        first = {move.origin, *move.captures}
        latest = max(self.table.last_change(sq) for sq in first)
        if self.table.t - latest < apart:
            self.table.t = latest + apart
        if self.timing.hesitates and (
            partial_finals(self.position, move) or rest_stops(self.position, move)
        ):
            # A hand that may hesitate between captured pieces (or on a landing) may
            # leave a shorter capture's final board standing: read, then read again.
            self.corrections = True
        left = carry_out(self.table, self.position, move, self.style(style), hooks)
        self.lingering.extend(left)
        self.advance(move, check=check)

    def advance(self, move: Move, *, check: bool = True) -> None:
        """The engine follows a move the hands made (and its FEN is expected)."""
        self.previous_position, self.previous_move = self.position, move
        self.finished.append(self.finished_at(move))
        self.game.push(move)
        self.position = self.game.position
        self.expected.append(self.position.fen())
        if check:
            self.sync_kings()

    def went_on(self) -> None:
        """The last move is not what the hands finally played (its piece went on):
        the game and the expectations forget it."""
        self.game.pop()
        self.position = self.game.position
        self.expected.pop()
        self.finished.pop()

    def finished_at(self, move: Move) -> float:
        """When the hands finished `move` (just played): the last time its piece came down
        on its end square and its captured pieces came off with it, since its piece left
        its square. Forgotten pieces taken off later are not there yet; the next player's
        actions, made by the hooks after these, are on other squares."""
        changes = [c for c in self.table.changes if c[0] <= self.table.t + 10]
        landed = max(t for t, sq, closed in changes if sq == move.destination and closed)
        start = max(
            t for t, sq, closed in changes if sq == move.origin and not closed and t < landed
        )
        if move.promotes:
            # A man lifted off its new square and a king put down, nothing else between,
            # is the crowning: the opponent's to do, not the move's landing.
            steps = [c for c in changes if c[0] > start and not _chatter(c, changes)]
            # (With no other landing there, e.g. a man resting on its crowning square
            # and lifted on, the landing stands.)
            landed = max(
                (t for i, (t, sq, closed) in enumerate(steps)
                 if sq == move.destination and closed
                 and not (i and steps[i - 1][1] == sq and not steps[i - 1][2])),
                default=landed,
            )
        return max(
            [landed, *(
                t for t, sq, closed in changes
                if t >= start and sq in move.captures and not closed
            )]
        )

    def sync_kings(self) -> None:
        """A crowned man has a king stacked on it (no switch changes); check the table."""
        for square, piece in self.position.pieces().items():
            if piece.king and not self.table.pieces[square].king:
                self.table.pieces[square] = Piece(piece.color, True)
        on_table = {sq: p for sq, p in self.table.pieces.items() if sq not in self.lingering}
        assert on_table == self.position.pieces(), (on_table, self.position.fen())

    def clear_path(self, move: Move) -> None:
        """Forgotten pieces in the way of `move` must come off first (the hand needs the
        square): taken off at once, before the move starts."""
        needed = {sq for path in (move.paths or (move.path,)) for sq in path}
        for square in [sq for sq in self.lingering if sq in needed]:
            self.remove_lingering(square)
            self.table.wait(150, 500)

    def remove_lingering(self, square: int | None = None) -> None:
        if not self.lingering:
            return
        square = self.lingering[0] if square is None else square
        self.lingering.remove(square)
        self.table.remove(square)

    def extend_finish(self) -> None:
        """The last move is finished at its mover's last action that belongs to it before
        the next player's first: its piece put down on its end square again (adjusted,
        brought back, crowned), a captured piece taken off later. Called before the next
        move starts (and at the end): what the hands did since it was played counts
        until someone else's hand changed the board (a piece lifted or put down off the
        move's squares that leaves the board unlike the game, and is not a knock or a
        chatter put back within the profile's `knock_back`)."""
        move = self.previous_move
        if move is None or not self.finished:
            return
        own = {move.origin, move.destination, *move.path, *move.captures}
        after = self.position.occupied()
        changes = sorted(c for c in self.table.changes if c[0] <= self.table.t)
        undone = self.timing.knock_back[1]
        finish = self.finished[-1]
        for t, sq, closed in changes:
            if t <= finish or any(t < u <= t + CHATTER and s == sq for u, s, _ in changes):
                continue  # (a switch chattering is no action)
            landing = sq == move.destination and closed and not move.promotes  # (crowning)
            if landing or (sq in move.captures and not closed):
                finish = t
            elif (
                sq not in own
                and (sq in after) != closed
                and not any(t < u <= t + undone and s == sq for u, s, _ in changes)
            ):
                break  # the next player's first action
        self.finished[-1] = finish

    def style(self, style: Style | None = None) -> Style:
        """`style` (or the plain one) with the paces it leaves open from the profile."""
        return (style or Style()).paced(self.timing)

    def pause(self, low: float | None = None, high: float | None = None) -> None:
        """Between one player's last action and the other's first: the profile's
        thinking time unless given."""
        if low is None or high is None:
            low, high = self.timing.think
        self.table.wait(low, high)

    # -- the end ---------------------------------------------------------------------------

    def scenario(self) -> Scenario:
        # Whatever was forgotten is taken off at the end (unless that is the question).
        while self.lingering and not self.ambiguous:
            self.table.wait(300, 1500)
            self.remove_lingering()
        self.extend_finish()
        scan = self.rng.uniform(*self.scan_range)
        phase = self.rng.uniform(0, scan)
        events = self.table.events(self.start.occupied(), scan, phase, stall=self.stall)
        return Scenario(
            family=self.family,
            variant=self.variant.name,
            seed=self.seed,
            fen=self.start.fen(),
            events=events,
            expected=self.expected,
            alarms=self.alarms,
            corrections=self.corrections,
            touch_move=self.touch_move,
            ambiguous=self.ambiguous,
            illegal_windows=[_as_seen(events, a, b) for a, b in self.illegal_windows],
            scan=scan,
            timing=self.timing.name,
            finished=list(self.finished),
        )


def _as_seen(events: list[dict[str, Any]], start: int, end: int) -> tuple[int, int]:
    """An illegal board's window as the switches report it: from the first scan that
    shows the misplaced piece (a scan or so after the hand put it there)."""
    seen = [e["t"] for e in events if e["t"] >= start]
    return (min(seen, default=start), end)
