"""`run --events`: a session driven by a recorded event stream on a simulated clock.

The stream is the replay format (host/replay.py: lift, place, occupied at `t`
milliseconds), plus typed commands as `{"t": ms, "command": "takeback"}`. The
clock advances in the live scan's ticks between events, so the session's
timers fire as they would on the board; after the last event it runs on until
the board is at rest. Used by tests, the crash test and bug reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from host.replay import TICK_MS, apply, parse_events
from host.session import Session


def run_stream(session: Session, lines: Iterable[str], *, commands: bool = True) -> None:
    """Drive the session from replay-format events on a simulated clock. Lines of the
    form {"t": ms, "command": "takeback"} are typed commands."""
    occupied = session.recogniser.expected
    now = 0
    for raw in lines:
        text = raw.strip()
        if commands and '"command"' in text:
            record = json.loads(text)
            t = int(record["t"])
            while now + TICK_MS < t:
                now += TICK_MS
                session.observe(now / 1000, occupied)
            now = max(now, t)
            session.command(now / 1000, str(record["command"]))
            occupied = session.recogniser.sensed
            if session.quit:
                return
            continue
        for event in parse_events([text], session.variant):
            while now + TICK_MS < event.t:
                now += TICK_MS
                session.observe(now / 1000, occupied)
            now = max(now, event.t)
            occupied = apply(occupied, event)
            session.observe(now / 1000, occupied)
    limit = now + 10_000
    while session.recogniser.next_deadline() is not None and now < limit:
        now += TICK_MS
        session.observe(now / 1000, occupied)
