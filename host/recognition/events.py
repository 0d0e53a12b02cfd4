"""What the recogniser reports: one `Event` per thing that happened.

Its own module because every part of the recogniser (host/recognition/recogniser.py and the
recognition_* modules mixed into it) makes events, and the session, the replay
and the tests read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened, for the session to journal, announce or print."""

    kind: str
    time: float
    data: dict[str, Any] = field(default_factory=dict)
