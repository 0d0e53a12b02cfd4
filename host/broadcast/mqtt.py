"""One place that turns a broker URL and credentials into a paho-mqtt client.

Why paho-mqtt (and not aiomqtt, which wraps it): paho runs its own network
thread (`loop_start`), so a slow or absent broker can never hold up the
recogniser or the LEDs whatever loop the host runs; it reconnects by itself
with a back-off and re-sends un-acknowledged QoS 1 messages, in order, after
reconnecting. aiomqtt adds asyncio on top of the same code (more memory, not
less) and leaves reconnecting to the caller. The memory paho adds to a board
is measured by `make bench` (docs/BENCHMARKS.md).

paho is imported here only, and only when a broker is configured.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.config import check_broker_url
from host.errors import UserError

#: back-off between reconnect attempts (seconds): quick to come back after a
#: broker restart, gentle on a broker that is down for the evening
RECONNECT_MIN, RECONNECT_MAX = 1, 8


@dataclass(frozen=True)
class BrokerSettings:
    """How to reach the broker, for any of our clients (board, relay, organiser)."""

    url: str
    username: str | None = None
    password: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None
    keepalive: int = 15

    def address(self) -> tuple[str, str, int]:
        return check_broker_url(self.url)

    def secret(self) -> str | None:
        if self.password_file is None:
            return self.password
        try:
            return self.password_file.read_text(encoding="utf-8").strip()
        except OSError as error:
            raise UserError(
                f"cannot read the broker password file {self.password_file}: {error.strerror}"
            ) from None


def import_paho() -> Any:
    try:
        import paho.mqtt.client as paho
    except ModuleNotFoundError:
        raise UserError(
            "broadcasting needs paho-mqtt: pip install 'draughtsboard[broadcast]'"
        ) from None
    return paho


def make_client(settings: BrokerSettings, *, persistent: bool = False,
                manual_ack: bool = False) -> Any:
    """A configured, not yet connected paho client (MQTT 3.1.1).

    The client id is the user name: the club's broker replaces whatever id a
    client sends by its user name anyway (`use_username_as_clientid`), so nobody
    can take another's id; sending the same keeps a session findable on any
    broker. `persistent` keeps the session (subscriptions and the QoS 1 messages
    queued while away) between connections: boards and the relay use it. With
    `manual_ack` a message is acknowledged only when the caller says so (the
    relay, once it has stored it).
    """
    paho = import_paho()
    scheme, _host, _port = settings.address()
    client = paho.Client(
        paho.CallbackAPIVersion.VERSION2,
        client_id=settings.username or f"draughtsboard-{uuid.uuid4().hex[:12]}",
        protocol=paho.MQTTv311,
        clean_session=not persistent,
        manual_ack=manual_ack,
    )
    if settings.username:
        client.username_pw_set(settings.username, settings.secret())
    if scheme == "mqtts":
        import ssl

        if settings.ca_file is not None and not settings.ca_file.is_file():
            raise UserError(f"broker CA file {settings.ca_file} does not exist")
        ca = str(settings.ca_file) if settings.ca_file else None
        client.tls_set(ca_certs=ca, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)
    return client


def start(client: Any, settings: BrokerSettings) -> None:
    """Connect in the background and start paho's network thread.

    `connect_async` never blocks and never fails on an unreachable broker:
    the thread keeps retrying, which is what a board switched on before the
    club's broker needs.
    """
    _scheme, host, port = settings.address()
    client.connect_async(host, port, keepalive=settings.keepalive)
    client.loop_start()


def connack_problem(reason_code: Any) -> str | None:
    """A one-line explanation of a refused connection, or None if accepted."""
    if not getattr(reason_code, "is_failure", False):
        return None
    return f"the broker refused the connection: {reason_code}"
