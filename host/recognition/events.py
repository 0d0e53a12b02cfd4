"""What the recogniser reports: one `Event` per thing that happened.

Its own module because the recogniser makes events in several of its parts, and
the session, the clock, the replay and the tests read them.
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
