"""Announcements: one event, many listeners (console, speech, later the web page).

Why listeners: the recogniser and session only say *what happened*; how it is
shown or spoken is each listener's business, and the future web page subscribes
the same way. A failing listener is reported once and never breaks play.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from host.voice.messages import render


@dataclass(frozen=True)
class Announcement:
    """`kind` (see `host.voice.messages`), its parameters, and the sentence.

    The sentence is in the chosen language.
    """

    kind: str
    params: dict[str, object] = field(default_factory=dict)
    text: str = ""


Listener = Callable[[Announcement], None]
HISTORY = 200


class Announcer:
    """Renders events in one language and hands them to every subscribed listener."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self._listeners: list[Listener] = []
        #: the latest announcements (bounded: the board runs for weeks as a service)
        self.history: deque[Announcement] = deque(maxlen=HISTORY)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add a listener; returns a function that removes it again."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def announce(self, kind: str, **params: object) -> Announcement:
        item = Announcement(kind, dict(params), render(self.language, kind, params))
        self.history.append(item)
        for listener in list(self._listeners):
            try:
                listener(item)
            except Exception as error:  # a listener must never stop the game
                print(f"warning: announcement listener failed: {error}", file=sys.stderr)
                self._listeners.remove(listener)
        return item


def console_listener(stream: TextIO | None = None) -> Listener:
    """Prints each sentence on its own line (stdout by default)."""

    def listen(item: Announcement) -> None:
        print(item.text, file=stream or sys.stdout, flush=True)

    return listen


def speech_listener(speaker: object) -> Listener:
    """Queues each sentence on a `host.voice.speech.Speaker`, with how much it matters (the end
    of the game cuts a move's announcement short)."""
    from host.voice.speech import priority_of

    def listen(item: Announcement) -> None:
        speaker.say(item.text, priority_of(item.kind))  # type: ignore[attr-defined]

    return listen
