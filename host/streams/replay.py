"""Replay a recorded sensor stream through the recogniser on a simulated clock.

Deterministic and hardware-free: events are applied at their own time (switch
bounce dropped first, as the board's debouncer would: host/streams/bounce.py) and, in
between, the clock jumps to each settle timer's deadline (rounded up to the
millisecond) so timers fire exactly as they would live, however long the gaps. An
event that says when the switches were last read without it (`since`) had no read
between: the timers due meanwhile fire with it, as on a host that read it late.
This is how the checks, the soak test and bug reports exercise the same
recogniser the board runs.

A malformed line stops the replay with `UserError` naming the line, but only
after everything before it has been replayed (clock run on included), so no
move recognised before the bad line is lost.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine import Game, Position, Variant
from host.clock.control import TimeControl
from host.clock.keeper import GameClock
from host.errors import UserError
from host.hints import Hint
from host.recognition.events import Event
from host.recognition.recogniser import Recogniser
from host.streams.bounce import without_bounce

#: the live session's tick when it plays a script (host/streams/events.py);
#: replay jumps to deadlines
TICK_MS = 10
#: after the last event the clock runs on at most this long for the board to settle
RUN_ON_MS = 10_000


@dataclass(frozen=True)
class StreamEvent:
    """One line of a stream: at `t` ms, `lift`/`place` one square or the whole `occupied`
    set; `since` (optional): the last time, in ms, the switches were read without this
    change (a host that stalled read it late: it happened between `since` and `t`)."""

    t: int
    kind: str
    squares: frozenset[int]
    line: int
    since: int | None = None


def parse_events(
    lines: Iterable[str], variant: Variant, *, first_line: int = 1, last_t: float = 0
) -> Iterator[StreamEvent]:
    """Parse JSON lines lazily; a malformed line raises `UserError` naming its number.
    `first_line` and `last_t` continue a stream fed in pieces (`run --events`)."""
    n = variant.num_squares
    for number, raw in enumerate(lines, start=first_line):
        text = raw.strip()
        if number == 1:
            text = text.lstrip("\ufeff")
        if not text:
            continue

        def bad(why: str, number: int = number) -> UserError:
            return UserError(f"events line {number}: {why}")

        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise bad(f"not valid JSON ({error.msg})") from None
        if not isinstance(record, dict):
            raise bad("expected an object like {\"t\": 120, \"lift\": 22}")
        t = record.get("t")
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
            raise bad(f"\"t\" must be a non-negative number of milliseconds, not {t!r}")
        if t < last_t:
            raise bad(f"\"t\" goes backwards ({t} after {last_t})")
        actions = [key for key in ("lift", "place", "occupied") if key in record]
        extra = set(record) - {"t", "lift", "place", "occupied", "since"}
        if len(actions) != 1 or extra:
            raise bad("needs \"t\" and exactly one of \"lift\", \"place\", \"occupied\"")
        kind = actions[0]
        value = record[kind]
        squares = value if kind == "occupied" else [value]
        if not isinstance(squares, list):
            raise bad("\"occupied\" must be a list of squares")
        for sq in squares:
            if isinstance(sq, bool) or not isinstance(sq, int) or not 1 <= sq <= n:
                raise bad(f"square {sq!r} is not a square of {variant.name} (1..{n})")
        since = record.get("since")
        if since is not None and (
            isinstance(since, bool) or not isinstance(since, int | float)
            or not math.isfinite(since) or not 0 <= since <= t
        ):
            raise bad(f"\"since\" must be a time in ms no later than \"t\", not {since!r}")
        last_t = t
        yield StreamEvent(
            int(round(t)), kind, frozenset(squares), number,
            None if since is None else int(round(since)),
        )


def read_since(events: list[StreamEvent]) -> float | None:
    """When the switches were last read without any of `events` (changes read at one
    instant), in seconds; None when no event says."""
    given = [event.since for event in events if event.since is not None]
    return min(given) / 1000 if given else None


def apply(occupied: frozenset[int], event: StreamEvent) -> frozenset[int]:
    if event.kind == "lift":
        return occupied - event.squares
    if event.kind == "place":
        return occupied | event.squares
    return event.squares


Output = Callable[[dict[str, Any]], None]


def event_record(event: Event, notices: bool) -> dict[str, Any] | None:
    """The JSON line for a recogniser event, or None if it is not printed."""
    t = int(round(event.time * 1000))
    d = event.data
    if event.kind == "move":
        return {"t": t, "move": d["move"], "fen": d["fen"], **_clock_of(d)}
    if event.kind == "move-corrected":
        return {
            "t": t, "move-corrected": d["move"], "was": d["was"], "fen": d["fen"], **_clock_of(d)
        }
    if event.kind == "move-finished":  # (a timed replay: the clocks re-charged)
        return {"t": t, "ply": d["ply"], **_clock_of(d)} if "clock" in d else None
    if event.kind == "outcome":
        kind = "draw" if d["winner"] is None else "win"
        return {"t": t, "outcome": kind, "winner": d["winner"], "reason": d["reason"]}
    if event.kind == "takeback":
        return {"t": t, "takeback": d["move"], "fen": d["fen"]}
    if event.kind == "new-game":
        return {"t": t, "new-game": True, "fen": d["fen"]}
    if not notices:
        return None
    return {"t": t, "notice": event.kind, **d}


def _clock_of(data: dict[str, Any]) -> dict[str, Any]:
    """A timed game's move carries both clocks after it (ms, increment included)."""
    return {"clock": data["clock"]} if "clock" in data else {}


def frame_record(t: int, hint: Hint) -> dict[str, Any]:
    """An LED frame as printed by `replay --leds`: each square's role, and the squares
    that blink (only when some do, so frames without blinking stay as they were)."""
    record: dict[str, Any] = {"t": t, "leds": {str(sq): role for sq, role in hint.roles.items()}}
    if hint.blink:
        record["blink"] = sorted(hint.blink)
    return record


def replay(
    variant: Variant,
    lines: Iterable[str],
    output: Output,
    *,
    fen: str | None = None,
    leds: bool = False,
    notices: bool = False,
    hint_level: str = "full",
    touch_move: bool = False,
    clock: TimeControl | None = None,
    clock_warnings: tuple[float, ...] = (),
) -> Recogniser:
    """Run the stream; `output` receives each JSON record. Returns the final recogniser.

    With `clock`, the game is timed on the replay's simulated clock: the side to move's
    time starts at the first switch change, each move record carries both clocks after
    it, and a flag fall is an outcome (`"reason": "time"`) at the time it fell.

    A malformed line raises `UserError` after the lines before it were replayed and the
    clock ran on (their moves are output first)."""
    position = Position.from_fen(fen, variant) if fen else variant.initial_position()
    rec = Recogniser(
        Game(variant, position), hint_level=hint_level, start=0.0, touch_move=touch_move
    )
    timer = GameClock(clock, clock_warnings)
    shown: tuple[dict[int, str], frozenset[int]] | None = None

    def emit(events: list[Event], now_ms: int) -> list[Event]:
        """Output `events` (charged on the clock), with whatever the clock makes due."""
        nonlocal shown
        events = timer.follow(events, rec, now_ms / 1000)
        events += timer.tick(now_ms / 1000, rec)
        for event in events:
            record = event_record(event, notices)
            if record is not None:
                output(record)
        for hint in rec.drain_frames():
            if leds and (hint.roles, hint.blink) != shown:
                shown = (dict(hint.roles), hint.blink)
                output(frame_record(now_ms, hint))
        return events

    occupied = rec.expected
    now = 0
    start: list[Event] = []
    if rec.outcome is not None:  # the position given is already the end of the game
        outcome = rec.outcome
        start.append(Event("outcome", 0.0, {"winner": outcome.winner, "reason": outcome.reason}))
    emit(start, 0)
    pending: list[StreamEvent] = []

    def run_until(limit_ms: int) -> None:
        """Fire every settle timer due before `limit_ms` (exclusive), in order."""
        nonlocal now
        same = 0  # ticks at one instant (a commit may make the next one due at once)
        while True:
            due_at = [t for t in (rec.next_deadline(), timer.next_deadline()) if t is not None]
            if not due_at:
                return
            deadline = min(due_at)
            due = max(now, math.ceil(deadline * 1000 - 1e-3))
            if due >= limit_ms:
                return
            same = same + 1 if due == now else 0
            now = due
            fired = emit(rec.tick(now / 1000), now)
            after = [t for t in (rec.next_deadline(), timer.next_deadline()) if t is not None]
            if (not fired and min(after, default=None) == deadline) or same > 8:
                return  # nothing fired (should not happen): never spin

    def flush() -> None:
        nonlocal occupied
        since = read_since(pending)
        for ev in pending:
            occupied = apply(occupied, ev)
        pending.clear()
        timer.start(rec.game.position.turn, now / 1000)  # the first switch change starts it
        emit(rec.observe(now / 1000, occupied, since), now)

    error: UserError | None = None
    try:
        for event in without_bounce(parse_events(lines, variant)):
            if pending and event.t != pending[0].t:
                flush()
            # (a host reads and decides only when it runs: between the last read without
            # this change and the read that saw it, a stalled host did neither)
            run_until(event.t if event.since is None else min(event.t, event.since + 1))
            now = event.t
            pending.append(event)
    except UserError as bad:
        error = bad
    if pending:
        flush()
    run_until(now + RUN_ON_MS + 1)
    if error is not None:
        raise error
    return rec
