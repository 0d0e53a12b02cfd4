"""The recogniser: sensed occupancy in, committed moves and LED roles out.

Recognition is set matching (docs/play.md). For each turn the legal moves
define every board a hand can pass through: `expected - {o} - S + L` for S a
subset of the captured pieces (removed in any order, even before the piece is
lifted) and L empty or one landing square. A settled board that equals the
final state of exactly one legal move commits it; an in-progress board lights
what comes next; anything else is a board to put right after a grace period.
Time is passed in (`observe(now, occupied)`), never read, so the live session
and the deterministic replay run the very same code.

No I/O here: the caller journals, announces and draws the returned events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Game, Move, Outcome
from host.hints import Hint, HintBuilder, add_move, correction_pair, end_pattern, filter_level

#: a state must last this long (seconds) before it is acted on; under 200 ms is transient
SETTLE = 0.25
#: a final state that is also on the way to a longer capture waits this long (< 0.6 s)
HOLD = 0.55
#: taking back and starting a new game from the board need a calmer board
CALM = 0.5
#: an unrecognised board is left alone this long before guidance starts
GRACE = 3.0
EPS = 1e-6


@dataclass(frozen=True)
class Event:
    """Something that happened, for the session to journal, announce or print."""

    kind: str
    time: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    """One way a legal capture path explains the sensed board."""

    move: Move
    path: tuple[int, ...]
    removed: frozenset[int]
    lifted: bool  # the capturing piece has left its origin
    at: int | None  # index in `path` of the square it stands on, or None if in hand


@dataclass
class _Turn:
    """Everything precomputed when a turn starts."""

    expected: frozenset[int]
    moves: list[Move]
    paths: list[Move]
    finals: dict[frozenset[int], list[Move]]
    must_capture: frozenset[int]
    destinations: dict[int, frozenset[int]]
    previous: frozenset[int] | None


class Recogniser:
    """Follows one game from occupancy snapshots (squares in the variant's numbering)."""

    def __init__(self, game: Game, *, hint_level: str = "full", start: float = 0.0) -> None:
        self.game = game
        self.variant = game.variant
        self.hint_level = hint_level
        self.coords = {
            sq: self.variant.square_coords(sq) for sq in range(1, self.variant.num_squares + 1)
        }
        self.initial = self.variant.initial_position().occupied()
        self.outcome: Outcome | None = None
        self.crown: int | None = None
        self._crown_lifted = False
        self.correcting = False
        self._block: frozenset[int] | None = None
        self._alerted = False
        self._last_move: Move | None = None
        self._reached: Move | None = None  # the last move whose final board was seen this turn
        #: the only moves accepted this turn (None: every legal move); see `allow_only`
        self.allowed: tuple[Move, ...] | None = None
        self.sensed: frozenset[int] = frozenset()
        self.since = start
        self._state: tuple[str, Any] = ("unknown", None)
        self.hint = Hint()
        #: every frame shown since the caller last drained it (see `drain_frames`)
        self._frames: list[Hint] = []
        self._new_turn()
        self.sensed = self.turn.expected
        self._evaluate(start, [])

    # -- public ----------------------------------------------------------------

    @property
    def expected(self) -> frozenset[int]:
        return self.turn.expected

    def observe(self, now: float, occupied: frozenset[int]) -> list[Event]:
        """Feed one snapshot; returns what happened (maybe nothing)."""
        events: list[Event] = []
        occupied = frozenset(occupied)
        if occupied != self.sensed:
            done = self._finished_by_reply(occupied)
            self.sensed = occupied
            self.since = now
            if self._block is not None and occupied != self._block:
                self._block = None
            if done is not None:
                # A fast reply: the next player started before the settle time ran out.
                self._commit(now, done, events)
            else:
                self._evaluate(now, events)
        self._timers(now, events)
        return events

    def drain_frames(self) -> list[Hint]:
        """The frames shown since the last call, in order (a frame may last no time at all,
        e.g. the start-of-turn frame when the reply had already begun)."""
        frames, self._frames = self._frames, []
        return frames

    def tick(self, now: float) -> list[Event]:
        """Let time pass with the board unchanged (settle timers)."""
        return self.observe(now, self.sensed)

    def next_deadline(self) -> float | None:
        """When a timer will fire if the board stays as it is, or None if it is at rest."""
        kind, info = self._state
        if self._block == self.sensed:
            return None
        if kind == "final":
            return self.since + (HOLD if info[1] else SETTLE)
        if kind in ("takeback", "new-game"):
            return self.since + CALM
        if kind == "unknown" and not self.correcting and self.outcome is None:
            return self.since + GRACE
        return None

    def take_back(self, now: float) -> list[Event]:
        """The `takeback` command: undo the last move; the board is then guided back."""
        events: list[Event] = []
        if not self.game.moves:
            events.append(Event("nothing-to-take-back", now))
            return events
        self._undo(now, events)
        self._block = self.sensed
        self._guide_now(now, events)
        return events

    def new_game(self, now: float, game: Game) -> list[Event]:
        """The `new` command (or the initial set-up found on the board)."""
        self.game = game
        self.outcome = None
        self.crown = None
        self._last_move = None
        self._new_turn()
        events = [Event("new-game", now, {"fen": game.fen(), "side": game.position.turn})]
        self._block = self.sensed if self.sensed != self.expected else None
        self._guide_now(now, events)
        return events

    def finish(self, now: float, winner: str | None, reason: str) -> list[Event]:
        """End the game by resignation or agreement."""
        self.outcome = Outcome(winner, reason)
        events = [Event("outcome", now, {"winner": winner, "reason": reason})]
        self._evaluate(now, [])
        return events

    def set_hint_level(self, now: float, level: str) -> list[Event]:
        """Show more or less help from now on; the current frame is redrawn at once."""
        self.hint_level = level
        events: list[Event] = []
        if self.correcting and self._state[0] not in ("expected", "progress"):
            self._show(self._correction_hint())
        else:
            self._evaluate(now, events)
        return events

    def allow_only(self, now: float, moves: list[Move] | None) -> list[Event]:
        """Accept only `moves` this turn (the hook for host/computer_player.py).

        The computer's move is carried out by a person: while the computer thinks
        nothing is accepted (`[]`), then only its move (`[move]`); another legal move
        reads as a wrong board and is guided back, and the idle frame lights the
        allowed move (always, whatever the hint level: it is an instruction, not
        help). `None` lifts the restriction; a new turn (a move, a takeback, a new
        game) lifts it too, so a restriction can never outlive its position."""
        self.allowed = None if moves is None else tuple(moves)
        self._new_turn(keep_allowed=True)
        events: list[Event] = []
        self._evaluate(now, events)
        return events

    def resume(self, now: float) -> list[Event]:
        """After a restart: guide the board to the journal's position straight away."""
        events: list[Event] = []
        self._guide_now(now, events)
        return events

    # -- turn set-up -------------------------------------------------------------

    def _new_turn(self, *, keep_allowed: bool = False) -> None:
        pos = self.game.position
        if not keep_allowed:
            self.allowed = None
        moves, paths = restrict(pos.legal_moves(), pos.legal_paths(), self.allowed)
        finals: dict[frozenset[int], list[Move]] = {}
        expected = pos.occupied()
        for move in moves:
            final = (expected - {move.origin} - move.captures) | {move.destination}
            finals.setdefault(final, []).append(move)
        capture = any(m.is_capture for m in moves)
        dests: dict[int, set[int]] = {}
        for move in moves:
            dests.setdefault(move.origin, set()).add(move.destination)
        previous = None
        if self.game.moves:
            positions = getattr(self.game, "positions", None)
            if positions and len(positions) >= 2:
                previous = positions[-2].occupied()
            else:
                last = self.game.pop()
                previous = self.game.position.occupied()
                self.game.push(last)
        self.turn = _Turn(
            expected=expected,
            moves=moves,
            paths=paths,
            finals=finals,
            must_capture=frozenset(m.origin for m in moves) if capture else frozenset(),
            destinations={o: frozenset(d) for o, d in dests.items()},
            previous=previous,
        )
        self._last_move = self.game.moves[-1] if self.game.moves else None
        self._reached = None
        self._alerted = False
        self.correcting = False
        if self.outcome is None:
            self.outcome = self.game.outcome()

    # -- classification --------------------------------------------------------

    def progress(self, sensed: frozenset[int]) -> list[Progress]:
        """Every (capture path, removed set, landing) that explains `sensed` as a move underway."""
        return explain(self.turn.expected, self.turn.paths, sensed)

    def _finished_by_reply(self, sensed: frozenset[int]) -> Move | None:
        """The move this turn that `sensed` proves finished (see `_completes`), if the board
        means nothing in this turn: the last final board reached (however briefly), or
        else the only move underway that explains it (its final board and the reply's
        first change arrived together)."""
        if self.outcome is not None or self._block == self.sensed:
            return None
        kind, info = self._state
        candidates: list[Move] = []
        if self._reached is not None:
            candidates.append(self._reached)
        if kind == "progress":
            candidates.extend(dict.fromkeys(pr.move for pr in info))
        if not candidates or self._classify(sensed)[0] != "unknown":
            return None
        if self._reached is not None and self._completes(self._reached, sensed):
            return self._reached
        matches = [m for m in candidates if self._completes(m, sensed)]
        return matches[0] if len(matches) == 1 else None

    def _completes(self, move: Move, sensed: frozenset[int]) -> bool:
        """Is `sensed` (unexplained in this turn) the final board of `move` with the next
        player already at work: one of their pieces lifted, or a capture of theirs underway?
        That proves `move` was finished even if its final board was left quickly."""
        pos = self.game.position
        final = (pos.occupied() - {move.origin} - move.captures) | {move.destination}
        if not sensed < final:
            return False
        after = pos.play(move)
        gone = final - sensed
        if len(gone) == 1:
            piece = after.piece_at(next(iter(gone)))
            if piece is not None and piece.color == after.turn:
                return True
        return bool(explain(final, after.legal_paths(), sensed))

    def _classify(self, sensed: frozenset[int]) -> tuple[str, Any]:
        turn = self.turn
        if sensed == turn.expected:
            return ("expected", None)
        if turn.previous is not None and sensed == turn.previous:
            return ("takeback", None)
        if sensed == self.initial and (self.game.moves or turn.expected != self.initial):
            return ("new-game", None)
        if self.outcome is not None:
            return ("unknown", None)
        finals = turn.finals.get(sensed)
        if finals is not None:
            if len(finals) != 1:
                return ("unknown", None)  # two different moves look the same: wait for more
            on_the_way = any(
                pr.at is None or pr.at < len(pr.path) - 1 or pr.removed != pr.move.captures
                for pr in self.progress(sensed)
            )
            return ("final", (finals[0], on_the_way))
        found = self.progress(sensed)
        if found:
            return ("progress", found)
        return ("unknown", None)

    # -- reacting to a new board ------------------------------------------------

    def _evaluate(self, now: float, events: list[Event]) -> None:
        sensed = self.sensed
        turn = self.turn
        # The crowned man lifted to stack a king: not a move, just confirmation on return.
        if self.crown is not None and self.outcome is None:
            if sensed == turn.expected - {self.crown}:
                self._crown_lifted = True
                self._state = ("crowning", None)
                self._show(self._idle_hint())
                return
            if sensed == turn.expected and self._crown_lifted:
                events.append(Event("crown-confirmed", now, {"square": self.crown}))
                self.crown = None
                self._crown_lifted = False
        self._state = self._classify(sensed)
        kind, info = self._state
        if kind == "final":
            self._reached = info[0]
        elif kind == "expected":
            self._reached = None
        if kind != "unknown":
            self._alerted = False
        if kind == "expected":
            if self.correcting:
                self.correcting = False
                events.append(Event("board-ok", now))
            self._show(self._idle_hint())
        elif self.correcting and kind != "progress":
            self._show(self._correction_hint())
        elif kind in ("takeback", "new-game"):
            self._show(self._idle_hint())
        elif kind == "final":
            self._show(HintBuilder().add("destination", [info[0].destination]).build())
        elif kind == "progress":
            self._show(self._progress_hint(info))
        elif self.outcome is not None:
            self._show(self._idle_hint())
        else:
            # Unrecognised but maybe still moving: keep the last frame, except when a
            # single piece is in the air that may not move (or is the opponent's): then
            # no destinations at all, and the capture alert if a capture is mandatory.
            missing = turn.expected - sensed
            if len(missing) == 1 and sensed < turn.expected:
                self._show(self._idle_hint())
            self._check_capture_alert(now, events)

    def _check_capture_alert(self, now: float, events: list[Event]) -> None:
        """Lifting a piece that may not move while a capture is mandatory: flash the
        pieces that must capture and say so, at once (no grace: the hand is in the air)."""
        turn = self.turn
        missing = turn.expected - self.sensed
        if (
            turn.must_capture
            and len(missing) == 1
            and not (self.sensed - turn.expected)
            and not missing <= turn.must_capture
        ):
            (sq,) = missing
            piece = self.game.position.piece_at(sq)
            if piece is not None and piece.color == self.game.position.turn:
                if not self._alerted:
                    self._alerted = True
                    events.append(
                        Event("capture-mandatory", now, {"squares": sorted(turn.must_capture)})
                    )
                self._show(
                    HintBuilder().add("capture-alert", turn.must_capture, blink=True).build()
                )

    def _timers(self, now: float, events: list[Event]) -> None:
        deadline = self.next_deadline()
        if deadline is None or now + EPS < deadline:
            return
        kind, info = self._state
        if kind == "final":
            self._commit(now, info[0], events)
        elif kind == "takeback":
            self._undo(now, events)
            self._evaluate(now, events)
        elif kind == "new-game":
            events.extend(self.new_game(now, type(self.game)(self.variant)))
            self._evaluate(now, events)
        elif kind == "unknown":
            self.correcting = True
            missing = sorted(self.turn.expected - self.sensed)
            extra = sorted(self.sensed - self.turn.expected)
            events.append(Event("illegal-board", now, {"missing": missing, "extra": extra}))
            self._show(self._correction_hint())

    def _commit(self, now: float, move: Move, events: list[Event]) -> None:
        pos = self.game.position
        text = pos.move_text(move)
        side = pos.turn
        self.game.push(move)
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self._new_turn()
        events.append(
            Event(
                "move",
                now,
                {
                    "move": text,
                    "fen": self.game.fen(),
                    "side": side,
                    "from": move.origin,
                    "to": move.destination,
                    "captures": sorted(move.captures),
                    "ply": len(self.game.moves),
                },
            )
        )
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())  # the start of the new turn, however short
        if self.outcome is not None:
            events.append(
                Event(
                    "outcome", now, {"winner": self.outcome.winner, "reason": self.outcome.reason}
                )
            )
        self._evaluate(now, events)

    def _undo(self, now: float, events: list[Event]) -> None:
        before = self.game.moves[-1]
        self.game.pop()
        text = self.game.position.move_text(before)
        self.outcome = None
        self.crown = None
        self._new_turn()
        events.append(Event("takeback", now, {"move": text, "fen": self.game.fen()}))

    def _guide_now(self, now: float, events: list[Event]) -> None:
        """Re-evaluate after the game changed under a still board; guide at once if wrong."""
        self._evaluate(now, events)
        if self._state[0] != "expected" and self.outcome is None:
            self.correcting = True
            self._show(self._correction_hint())

    # -- hints -------------------------------------------------------------------

    def _show(self, hint: Hint) -> None:
        capture_turn = bool(self.turn.must_capture)
        level = "full" if self.allowed else self.hint_level  # an allowed move is an order
        self.hint = filter_level(hint, level, capture_turn)
        if len(self._frames) >= 64:  # a caller that never drains (the live session) loses none
            del self._frames[0]  # of `self.hint`; the log only serves replay
        self._frames.append(self.hint)

    def _idle_hint(self) -> Hint:
        build = HintBuilder()
        if self.outcome is not None:
            pos = self.game.position
            pieces = {sq: piece.color for sq, piece in pos.pieces().items()}
            squares = end_pattern(
                self.coords, self.variant.size, self.outcome.reason, self.outcome.winner, pieces
            )
            return build.add("end", squares).build()
        build.add("must-capture", self.turn.must_capture)
        for move in self.allowed or ():
            add_move(build, move)
        if self.crown is not None:
            build.add("crown", [self.crown])
        if self._last_move is not None:
            build.add("last-move", [self._last_move.origin, self._last_move.destination])
        return build.build()

    def _progress_hint(self, found: list[Progress]) -> Hint:
        build = HintBuilder()
        for pr in found:
            o = pr.move.origin
            if not pr.lifted:
                build.add("must-capture", [o])
                build.add("remove", pr.move.captures - pr.removed)
            elif pr.at is None:
                # Where the piece may end its move (only moves still possible given the
                # pieces already removed); first landings of longer captures as extra help.
                dests = {q.move.destination for q in found if q.lifted and q.at is None}
                build.add("destination", dests)
                if not pr.removed and len(pr.path) > 1 and pr.path[0] not in dests:
                    build.add("landing", [pr.path[0]])
            elif pr.at < len(pr.path) - 1:
                build.add("landing", [pr.path[pr.at + 1]])
            else:
                build.add("remove", pr.move.captures - pr.removed)
        return build.build()

    def _correction_hint(self) -> Hint:
        take, put = correction_pair(
            self.turn.expected - self.sensed, self.sensed - self.turn.expected, self.coords
        )
        return HintBuilder().add("wrong", put).add("wrong", take, blink=True).build()


def explain(expected: frozenset[int], paths: list[Move], sensed: frozenset[int]) -> list[Progress]:
    """Every (capture path, removed set, landing) that explains `sensed` as a move underway
    from the board `expected`."""
    missing = expected - sensed
    extra = sensed - expected
    if len(extra) > 1:
        return []
    found: list[Progress] = []
    for p in paths:
        o = p.origin
        rest = missing - {o}
        if not rest <= p.captures:
            continue
        if o in missing:
            if extra:
                (sq,) = extra
                for i, landing in enumerate(p.path):
                    if landing == sq:
                        found.append(Progress(p, p.path, frozenset(rest), True, i))
            else:
                found.append(Progress(p, p.path, frozenset(rest), True, None))
        elif not extra and rest and p.is_capture:
            found.append(Progress(p, p.path, frozenset(rest), False, None))
    return found


def restrict(
    moves: list[Move], paths: list[Move], allowed: tuple[Move, ...] | None
) -> tuple[list[Move], list[Move]]:
    """The legal moves and capture paths that are among `allowed` (all when None), matched
    by origin, destination and captured pieces (any of a move's paths may be taken)."""
    if allowed is None:
        return moves, paths
    keys = {(m.origin, m.destination, m.captures) for m in allowed}
    return (
        [m for m in moves if (m.origin, m.destination, m.captures) in keys],
        [p for p in paths if (p.origin, p.destination, p.captures) in keys],
    )
