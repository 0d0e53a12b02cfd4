"""The update bus: every change in a live game, pushed to whoever listens.

Why a bus and not calls: the session should not know who watches it. The web
page's sockets, the status file (host/appliance/status.py), the club's MQTT publisher
(host/broadcast/board.py) and the computer opponent (host/computer/player.py)
listen. Each update says *what* changed
(`kind`) and carries the facts of the change (`data`, plain JSON-able values);
a listener that needs the whole picture reads it from the session.

Listeners run synchronously, in the order they subscribed, on the thread that
changed the game (the live runtime's event loop). They must be quick: a
listener with slow work (network, disk) schedules it and returns. A listener
that raises is reported once on stderr and dropped, so it can never stop play.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: the kinds of update a listener may see
KINDS = (
    "board",  # the sensed occupancy changed: {"occupied": [squares]}
    "leds",  # the LED roles changed: {"leds": {square: role}, "blink": [squares]}
    "move",  # a move was committed (journal written): the recogniser's move data
    "takeback",  # the last move was taken back: {"move", "fen"}
    "new-game",  # a new game started: {"variant", "fen", "side", "game_id"}
    "outcome",  # the game ended: {"winner", "reason", "result"}
    "announcement",  # something was said: {"kind", "text", "params"}
    "notice",  # recogniser notices: crown, illegal-board, board-ok, capture-mandatory...
    "settings",  # hint level, language or players changed: {"hints", "language", "players"}
    "device",  # the board itself: {"event": one of host.session.core.DEVICE_EVENTS}
    "hint-request",  # a player asked for a hint (the board's command menu): {}
    "draw-offer",  # a person offered the computer a draw: {"side": the person's side}
    "computer",  # the computer opponent: {"state": "thinking" | "move" | "hint" | "idle", ...}
    "tags",  # the game's players, event, round (a club's pairings): {"tags": {PDN tag: value}}
    # both clocks changed course (a move, a take back, a start or stop, the flag):
    # {"control", "white", "black" (ms left), "running", "paused", "flagged", "took"}
    "clock",
)


@dataclass(frozen=True)
class Update:
    """One change: `kind` (see `KINDS`), when it happened (session clock), and its facts."""

    kind: str
    time: float
    data: Mapping[str, Any] = field(default_factory=dict)


Listener = Callable[[Update], None]


class UpdateBus:
    """Delivers each published `Update` to every subscribed listener."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add `listener`; returns a function that removes it again (safe to call twice)."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def publish(self, kind: str, time: float, /, **data: Any) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown update kind {kind!r}")
        update = Update(kind, time, data)
        for listener in list(self._listeners):
            try:
                listener(update)
            except Exception as error:  # a listener must never stop the game
                print(f"warning: update listener failed and was dropped: {error}", file=sys.stderr)
                if listener in self._listeners:
                    self._listeners.remove(listener)
