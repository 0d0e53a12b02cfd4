"""Switch bounce in recorded streams: what the board's debouncer would never pass on.

On the board, hardware/debounce.py only lets a square's new level through once
it has been read on two scans in a row, so the recogniser never sees a reed
contact chattering for a few milliseconds. A recorded-style stream (`replay`,
`run --events`) carries the raw changes, bounce included: a place, a lift 3 ms
later and a place again. Fed as they are, those look like a piece put down and
taken away by a hand faster than any hand, which the recogniser rightly reads
as another piece. So the streams go through a filter first.

Bounce has a signature: a contact that bounces comes back to its new level, so
the change is made, undone and made again within a few milliseconds (X, not-X,
X). The middle two are dropped; the first change keeps its own time, so a
stream without bounce replays exactly as before. A change undone once and left
so (a piece landing and taken off at once by the next player's hand, however
fast) is not bounce and stays.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, TypeVar

from host.errors import UserError


class Change(Protocol):
    """A line of a stream: a lift or place of one square, or anything else (a whole
    board reading, a typed command), which passes through as it is."""

    @property
    def t(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def squares(self) -> frozenset[int]: ...


Line = TypeVar("Line", bound=Change)

#: a change undone within this many ms is bounce (the board's debouncer needs two
#: 10 ms scans to agree; recorded bounce lasts 2 to 12 ms, a hand's brush 30 ms or more)
BOUNCE_MS = 15

OPPOSITE = {"lift": "place", "place": "lift"}


def without_bounce(events: Iterable[Line]) -> Iterator[Line]:
    """`events` without bounce: on one square, a change undone and made again, each
    within `BOUNCE_MS` of the one before, loses the undoing and the redoing.

    Lazy, looking ahead `BOUNCE_MS`. Anything but a lift or place (a whole-board
    reading, a command) passes as it is and ends the look-ahead. A malformed line
    (`UserError`) still lets every change before it through first, then is raised."""
    held: list[Line] = []
    #: per square, the kind and time of the last two changes let through (oldest first)
    recent: dict[frozenset[int], list[tuple[str, int]]] = {}
    try:
        for event in events:
            if event.kind not in OPPOSITE:
                yield from held
                held.clear()
                recent.clear()
                yield event
                continue
            while held and held[0].t < event.t - BOUNCE_MS:
                yield held.pop(0)
            seen = recent.setdefault(event.squares, [])
            if _bounces(seen, event):
                undone = next(e for e in reversed(held) if e.squares == event.squares)
                held.remove(undone)
                seen.pop()
                continue
            held.append(event)
            seen.append((event.kind, event.t))
            del seen[:-2]
    except UserError:
        yield from held
        raise
    yield from held


def _bounces(seen: list[tuple[str, int]], event: Change) -> bool:
    """Does `event` redo the change before the last one on its square, the last one
    having undone it, each within `BOUNCE_MS`?"""
    if len(seen) < 2:
        return False
    (made, made_at), (undone, undone_at) = seen
    return (
        made == event.kind
        and undone == OPPOSITE[event.kind]
        and undone_at - made_at <= BOUNCE_MS
        and event.t - undone_at <= BOUNCE_MS
    )
