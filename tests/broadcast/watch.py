"""A test's own MQTT client (paho, like the product): subscribe, collect, wait."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from host.broadcast.mqtt import BrokerSettings, make_client, start


class Watcher:
    """Collects (topic, payload, retained) for its subscriptions, across reconnects."""

    def __init__(self, settings: BrokerSettings, *subscriptions: str) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.refused: list[str] = []
        self._changed = threading.Condition()
        self.connected = threading.Event()
        self.answered = threading.Event()
        self.client = make_client(settings)
        self.subscriptions = subscriptions

        def on_connect(client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
            if reason.is_failure:
                self.refused.append(str(reason))
                self.answered.set()
                return
            for topic in self.subscriptions:
                client.subscribe(topic, qos=1)
            self.connected.set()
            self.answered.set()

        def on_subscribe(*_args: Any) -> None:
            with self._changed:
                self._changed.notify_all()

        def on_message(_c: Any, _u: Any, message: Any) -> None:
            with self._changed:
                self.messages.append((message.topic, bytes(message.payload), message.retain))
                self._changed.notify_all()

        self.client.on_connect = on_connect
        self.client.on_subscribe = on_subscribe
        self.client.on_message = on_message
        start(self.client, settings)
        self.answered.wait(10)
        if not self.connected.is_set():
            self.close()
            raise AssertionError(f"watcher could not connect: {self.refused}")

    def wait_for(self, test: Callable[[list[tuple[str, bytes, bool]]], Any],
                 timeout: float = 10.0) -> Any:
        """Wait until `test(messages)` is truthy; return its value (AssertionError on time-out)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = test(list(self.messages))
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; got {len(self.messages)} messages: "
                                         f"{[t for t, _, _ in self.messages][-10:]}")
                self._changed.wait(min(left, 0.2))

    def on(self, topic: str) -> list[bytes]:
        return [payload for t, payload, _ in self.messages if t == topic]

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
