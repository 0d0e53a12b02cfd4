"""Replay a recorded sensor stream through the recogniser on a simulated clock.

Deterministic and hardware-free: events are applied at their own time and, in
between, time advances in 10 ms ticks so settle timers fire exactly as they
would live. This is how the checks, the soak test and bug reports exercise the
same recogniser the board runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine import Game, Position, Variant
from host.errors import UserError
from host.recogniser import Event, Recogniser

TICK_MS = 10
#: after the last event the clock runs on at most this long for the board to settle
RUN_ON_MS = 10_000


@dataclass(frozen=True)
class StreamEvent:
    """One line of a stream: at `t` ms, `lift`/`place` one square or the whole `occupied` set."""

    t: int
    kind: str
    squares: frozenset[int]
    line: int


def parse_events(lines: Iterable[str], variant: Variant) -> Iterator[StreamEvent]:
    """Parse JSON lines lazily; a malformed line raises `UserError` naming its number."""
    last_t = 0
    n = variant.num_squares
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
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
        if isinstance(t, bool) or not isinstance(t, int | float) or t < 0:
            raise bad(f"\"t\" must be a non-negative number of milliseconds, not {t!r}")
        if t < last_t:
            raise bad(f"\"t\" goes backwards ({t} after {last_t})")
        actions = [key for key in ("lift", "place", "occupied") if key in record]
        extra = set(record) - {"t", "lift", "place", "occupied"}
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
        last_t = t
        yield StreamEvent(int(round(t)), kind, frozenset(squares), number)


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
        return {"t": t, "move": d["move"], "fen": d["fen"]}
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


def replay(
    variant: Variant,
    lines: Iterable[str],
    output: Output,
    *,
    fen: str | None = None,
    leds: bool = False,
    notices: bool = False,
    hint_level: str = "full",
) -> Recogniser:
    """Run the stream; `output` receives each JSON record. Returns the final recogniser."""
    position = Position.from_fen(fen, variant) if fen else variant.initial_position()
    rec = Recogniser(Game(variant, position), hint_level=hint_level, start=0.0)
    shown: dict[int, str] = {}

    def emit(events: list[Event], now_ms: int) -> None:
        nonlocal shown
        for event in events:
            record = event_record(event, notices)
            if record is not None:
                output(record)
        if leds and rec.hint.roles != shown:
            shown = dict(rec.hint.roles)
            output({"t": now_ms, "leds": {str(sq): role for sq, role in shown.items()}})

    occupied = rec.expected
    now = 0
    emit([], 0)
    pending: list[StreamEvent] = []

    def flush() -> None:
        nonlocal occupied
        for ev in pending:
            occupied = apply(occupied, ev)
        pending.clear()
        emit(rec.observe(now / 1000, occupied), now)

    for event in parse_events(lines, variant):
        if pending and event.t != pending[0].t:
            flush()
        while now + TICK_MS < event.t:
            now += TICK_MS
            emit(rec.tick(now / 1000), now)
        now = event.t
        pending.append(event)
    if pending:
        flush()
    limit = now + RUN_ON_MS
    while rec.next_deadline() is not None and now < limit:
        now += TICK_MS
        emit(rec.tick(now / 1000), now)
    return rec
