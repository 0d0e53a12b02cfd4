"""Wiring a running board to the broker: `attach(session, config)`.

Imported by `draughtsboard run` only when a broker is configured. The outbox
lives beside the journal unless the config names another file.
"""

from __future__ import annotations

from host.broadcast.mqtt import BrokerSettings
from host.broadcast.publisher import Publisher
from host.broadcast.snapshot import snapshot_of
from host.config import BroadcastConfig


def broker_settings(config: BroadcastConfig) -> BrokerSettings:
    return BrokerSettings(
        url=config.broker,
        username=config.username,
        password_file=config.password_file,
        ca_file=config.ca_file,
        keepalive=config.keepalive,
    )


def attach(session: object, config: BroadcastConfig) -> Publisher:
    """Start publishing `session`'s games; returns the publisher (close it at exit)."""
    journal = session.journal.path  # type: ignore[attr-defined]
    outbox = config.outbox or journal.with_name(journal.stem + ".outbox.jsonl")

    def set_tags(tags: dict[str, str]) -> None:
        session.game_tags = tags  # type: ignore[attr-defined]

    publisher = Publisher(broker_settings(config), config.board_id, outbox, on_tags=set_tags)
    publisher.start()
    session.change_listeners.append(  # type: ignore[attr-defined]
        lambda changed: publisher.update(snapshot_of(changed))
    )
    publisher.update(snapshot_of(session))
    return publisher
