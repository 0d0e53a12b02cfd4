"""Wiring a running board to the broker: `attach(session, config)`.

Imported by `draughtsboard run` only when a broker is configured. The
publisher listens on the session's update bus like every other watcher: on
each change of the game it takes a snapshot (a few microseconds, on the
session's own thread) and queues it; everything slow happens on the
publisher's threads, so the LEDs are never kept waiting. The outbox lives
beside the journal unless the config names another file.
"""

from __future__ import annotations

from collections.abc import Callable

from host.broadcast.mqtt import BrokerSettings
from host.broadcast.publisher import Publisher
from host.broadcast.snapshot import snapshot_of
from host.config import BroadcastConfig
from host.live.bus import Update

#: bus updates after which the game others see has changed (its clocks included)
GAME_CHANGES = frozenset({"move", "outcome", "takeback", "new-game", "clock"})

#: runs a function on the session's thread (the live runtime's loop), from another thread
HandOver = Callable[[Callable[[], None]], object]


def broker_settings(config: BroadcastConfig) -> BrokerSettings:
    return BrokerSettings(
        url=config.broker,
        username=config.username,
        password_file=config.password_file,
        ca_file=config.ca_file,
        keepalive=config.keepalive,
    )


def attach(session: object, config: BroadcastConfig, *,
           hand_over: HandOver | None = None) -> Publisher:
    """Start publishing `session`'s games; returns the publisher (close it at exit).

    The players' names from the club's pairings arrive on the publisher's thread;
    `hand_over` (the live runtime's `loop.call_soon_threadsafe`) carries them to the
    session's thread. Without it (a recorded replay, which has no loop) they are set
    directly, as the replay waits for them before it starts."""
    journal = session.journal.path  # type: ignore[attr-defined]
    outbox = config.outbox or journal.with_name(journal.stem + ".outbox.jsonl")

    def set_tags(tags: dict[str, str]) -> None:
        def apply() -> None:
            session.set_tags(tags)  # type: ignore[attr-defined]

        if hand_over is None:
            apply()
        else:
            hand_over(apply)

    def changed(update: Update) -> None:
        if update.kind in GAME_CHANGES:
            publisher.update(snapshot_of(session))

    publisher = Publisher(broker_settings(config), config.board_id, outbox, on_tags=set_tags)
    publisher.start()
    session.subscribe(changed)  # type: ignore[attr-defined]
    publisher.update(snapshot_of(session))
    return publisher
