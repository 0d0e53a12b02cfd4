"""`run --events`: a session driven by a recorded event stream on a simulated clock.

The stream is the replay format (host/streams/replay.py: lift, place, occupied at `t`
milliseconds), plus typed commands as `{"t": ms, "command": "takeback"}`
(docs/play.md describes it). The clock advances in the live scan's ticks
between events, so the session's timers (the recogniser's and the board
commands') fire as they would on the board; after the last event it runs on
until the board is at rest. Used by tests, the crash test and bug reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine import Variant, get_variant
from host.errors import UserError
from host.session import Session
from host.streams.bounce import without_bounce
from host.streams.replay import TICK_MS, StreamEvent, apply, parse_events


@dataclass(frozen=True)
class Command:
    """A typed command line of the stream, at `t` ms."""

    t: int
    word: str
    line: int
    kind: str = "command"
    squares: frozenset[int] = frozenset()


def stream_lines(
    lines: Iterable[str], variant: Variant, *, commands: bool = True
) -> Iterator[StreamEvent | Command]:
    """The stream's events and commands, in order; a bad line raises `UserError`."""
    last_t: float = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if commands and '"command"' in text:
            try:
                record = json.loads(text)
                t, word = int(record["t"]), str(record["command"])
            except (ValueError, KeyError, TypeError):
                raise UserError(
                    f'events line {number}: a command is {{"t": 1200, "command": "takeback"}}'
                ) from None
            last_t = max(last_t, t)
            yield Command(t, word, number)
            continue
        for event in parse_events([text], variant, first_line=number, last_t=last_t):
            last_t = event.t
            yield event


def run_stream(session: Session, lines: Iterable[str], *, commands: bool = True) -> None:
    """Drive the session from replay-format events on a simulated clock. Lines of the
    form {"t": ms, "command": "takeback"} are typed commands. Switch bounce is dropped
    as in `replay` (host/streams/bounce.py). A bad line stops it with `UserError` naming that
    line's number, after what came before it has been played."""
    occupied = session.recogniser.expected
    now = 0

    def observe(t: int, board: frozenset[int], since: int | None = None) -> None:
        session.observe(t / 1000, board, None if since is None else since / 1000)
        if session.next_variant is not None:  # chosen on the board: same squares, new rules
            session.new_game(t / 1000, get_variant(session.next_variant), board)

    bad: UserError | None = None
    try:
        for item in without_bounce(stream_lines(lines, session.variant, commands=commands)):
            read = getattr(item, "since", None)  # (the last read without it: none between)
            until = item.t if read is None else min(item.t, read + 1)
            while now + TICK_MS < until:
                now += TICK_MS
                observe(now, occupied)
            now = max(now, item.t)
            if isinstance(item, Command):
                session.command(now / 1000, item.word)
                occupied = session.sensed
                if session.quit:
                    return
                continue
            occupied = apply(occupied, item)
            observe(now, occupied, item.since)
    except UserError as error:  # what came before the bad line still counts
        bad = error
    limit = now + 10_000
    while session.next_deadline() is not None and now < limit:
        now += TICK_MS
        observe(now, occupied)
    if bad is not None:
        raise bad
