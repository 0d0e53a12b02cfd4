"""`run --events`: a session driven by a recorded event stream on a simulated clock.

The stream is the replay format (host/replay.py: lift, place, occupied at `t`
milliseconds), plus typed commands as `{"t": ms, "command": "takeback"}`
(docs/play.md describes it). The clock advances in the live scan's ticks
between events, so the session's timers (the recogniser's and the board
commands') fire as they would on the board; after the last event it runs on
until the board is at rest. Used by tests, the crash test and bug reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from engine import get_variant
from host.errors import UserError
from host.replay import TICK_MS, apply, parse_events
from host.session import Session


def run_stream(session: Session, lines: Iterable[str], *, commands: bool = True) -> None:
    """Drive the session from replay-format events on a simulated clock. Lines of the
    form {"t": ms, "command": "takeback"} are typed commands. A bad line stops it with
    `UserError` naming that line's number, after what came before it has been played."""
    occupied = session.recogniser.expected
    now = 0

    def observe(t: int, board: frozenset[int]) -> None:
        session.observe(t / 1000, board)
        if session.next_variant is not None:  # chosen on the board: same squares, new rules
            session.new_game(t / 1000, get_variant(session.next_variant), board)

    bad: UserError | None = None
    try:
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
                while now + TICK_MS < t:
                    now += TICK_MS
                    observe(now, occupied)
                now = max(now, t)
                session.command(now / 1000, word)
                occupied = session.sensed
                if session.quit:
                    return
                continue
            for event in parse_events([text], session.variant, first_line=number, last_t=now):
                while now + TICK_MS < event.t:
                    now += TICK_MS
                    observe(now, occupied)
                now = max(now, event.t)
                occupied = apply(occupied, event)
                observe(now, occupied)
    except UserError as error:  # what came before the bad line still counts
        bad = error
    limit = now + 10_000
    while session.next_deadline() is not None and now < limit:
        now += TICK_MS
        observe(now, occupied)
    if bad is not None:
        raise bad
