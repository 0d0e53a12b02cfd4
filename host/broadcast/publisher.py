"""The board side: publish every change of the game, in order, whatever the network does.

One entry point, `Publisher.update(snapshot)`, which the runtime calls after
each change of the game (today `attach` wires it to the session's change
listeners). It only puts the snapshot on a queue: the publisher's worker
thread turns snapshots into messages (move, correction, state), numbers and
stores them in the outbox, and hands them to paho, whose own thread sends
them. So publishing never delays the LEDs or the recogniser, and a broker
that is down only means the outbox grows until it is back.

Every connection starts the same way: subscribe to the board's assignment,
the relay's acknowledgement and its own status, then say `online`. When that
`online` comes back, the broker has delivered everything retained before it
(mosquitto handles one client's packets in order), so the board knows what
the relay last stored: it sends again everything the outbox holds beyond it,
oldest first, and only then anything new. Messages made while the broker is
away, or before that moment, wait in the outbox.

The board also reads its assignment (players, event, round, board number),
retained by `draughtsboard pairings`: it tags the current game if that game has
not started, or has started without one, and never re-tags a finished game; a
new game is not tagged with an assignment a game already finished under (the
outbox remembers those across restarts).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.broadcast import topics
from host.broadcast.mqtt import BrokerSettings, connack_problem, make_client, start
from host.broadcast.outbox import Entry, Outbox
from host.broadcast.snapshot import GameSnapshot

TagsListener = Callable[[dict[str, str]], None]
log = logging.getLogger(__name__)
#: seconds to wait for our own `online` to come back before publishing anyway (a broker
#: whose ACL, from an older broker-config, does not let a board read its own status)
SYNC_WAIT = 5.0



class Publisher:
    """Publishes one board's games to `draughtsboard/v1/board/<board_id>/...`."""

    def __init__(
        self,
        settings: BrokerSettings,
        board_id: str,
        outbox_path: Path,
        *,
        on_tags: TagsListener | None = None,
    ) -> None:
        self.settings = settings
        self.board_id = board_id
        self.outbox = Outbox(outbox_path)
        self.on_tags = on_tags
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._last: GameSnapshot | None = None
        self._assignment: dict[str, Any] | None = None
        self._bound: dict[str, dict[str, Any]] = {}  # game id -> its assignment
        self._seq_by_mid: dict[int, int] = {}
        self._live = False  # the worker's: connected and the outbox replayed
        self._connections = 0  # paho's thread: which connection a sync belongs to
        self._connected = threading.Event()
        self._idle = threading.Event()
        self._client: Any = None
        self._worker: threading.Thread | None = None
        self._closing = False
        self._was_connected = False
        self._said_unreachable = False
        self._ready = threading.Event()

    # -- the entry point --------------------------------------------------------------

    def update(self, snapshot: GameSnapshot) -> None:
        """The game changed (or may have): publish what is new. Never blocks."""
        self._queue.put(("snapshot", snapshot))

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> Publisher:
        client = make_client(self.settings, persistent=True)
        client.will_set(topics.board_topic(self.board_id, topics.STATUS), topics.OFFLINE,
                        qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.on_connect_fail = self._on_connect_fail
        self._client = client
        self._worker = threading.Thread(target=self._work, name="broadcast", daemon=True)
        self._worker.start()
        start(client, self.settings)
        return self

    def wait_ready(self, timeout: float) -> bool:
        """Wait until connected and the retained assignment (if any) is applied.
        A recorded replay calls this so its whole game goes out with the players' names."""
        return self._ready.wait(timeout)

    def flush(self, timeout: float) -> bool:
        """Wait until every message so far is acknowledged (True) or `timeout` passes."""
        marker = threading.Event()
        self._queue.put(("mark", marker))
        deadline = time.monotonic() + timeout
        if not marker.wait(timeout):
            return False
        while self.outbox.unsent():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self, timeout: float = 3.0, *, wait_for_broker: bool = False) -> None:
        """Say offline (a clean exit fires no Last Will), flush, disconnect. What is not
        acknowledged stays in the outbox for the next start.

        Connected, it waits up to `timeout` for the acknowledgements. Not connected, it
        waits only with `wait_for_broker` (a recorded replay that should go out whole);
        a board whose player is switching variants does not wait for a broker that is down.
        """
        if self._client is None:
            return
        waits = wait_for_broker or self._connected.is_set()
        flushed = self.flush(timeout) if waits else False
        if not flushed and self.outbox.unsent():
            log.warning("broadcast: %d messages kept in the outbox for next time",
                        len(self.outbox.unsent()))
        if self._connected.is_set():
            info = self._client.publish(topics.board_topic(self.board_id, topics.STATUS),
                                        topics.OFFLINE, qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=1.0)
        self._closing = True
        self._queue.put(("stop", None))
        if self._worker is not None:
            self._worker.join(timeout=2.0)
        self._client.disconnect()
        self._client.loop_stop()
        self._client = None

    # -- paho's thread: only hands work to the worker -------------------------------------------

    def _on_connect(self, client: Any, _userdata: Any, _flags: Any, reason: Any,
                    _props: Any) -> None:
        problem = connack_problem(reason)
        if problem:
            log.warning("broadcast: %s", problem)
            return
        # Subscribe first: our own `online` coming back marks the end of what the broker
        # had retained for us (the relay's acknowledgement, the assignment).
        client.subscribe([(topics.board_topic(self.board_id, kind), 1)
                          for kind in (topics.ASSIGNMENT, topics.ACK, topics.STATUS)])
        client.publish(topics.board_topic(self.board_id, topics.STATUS), topics.ONLINE,
                       qos=1, retain=True)
        self._connections += 1
        timer = threading.Timer(SYNC_WAIT, self._queue.put,
                                args=(("sync-late", self._connections),))
        timer.daemon = True
        timer.start()
        if not self._connected.is_set():
            log.info("broadcast: connected to %s as board %s", self.settings.url, self.board_id)
        self._connected.set()
        self._said_unreachable = False

    def _on_connect_fail(self, _client: Any, _userdata: Any) -> None:
        if not self._said_unreachable:  # once, until it connects (it retries every few s)
            self._said_unreachable = True
            log.warning("broadcast: cannot connect to %s (unreachable, TLS or certificate "
                        "problem); retrying, moves are kept", self.settings.url)

    def _on_disconnect(self, _client: Any, _userdata: Any, _flags: Any, reason: Any,
                       _props: Any) -> None:
        if self._connected.is_set() and not self._closing:
            log.warning("broadcast: lost the broker (%s); moves are kept and sent when it is "
                        "back", reason)
        self._connected.clear()
        self._queue.put(("disconnected", None))

    def _on_publish(self, _client: Any, _userdata: Any, mid: int, _reason: Any,
                    _props: Any) -> None:
        self._queue.put(("acked", mid))

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        kind = message.topic.rsplit("/", 1)[-1]
        if kind == topics.STATUS:
            if not message.retain and bytes(message.payload) == topics.ONLINE.encode():
                self._queue.put(("synced", None))  # our own `online`, just said
            return
        if kind == topics.ACK:
            try:
                self._queue.put(("relay-ack", topics.check_message(topics.ACK,
                                                                   message.payload)))
            except topics.BadMessage as error:
                if message.payload:
                    log.warning("broadcast: ignored a bad acknowledgement: %s", error)
            return
        try:
            data = topics.check_message(topics.ASSIGNMENT, message.payload)
        except topics.BadMessage as error:
            if message.payload:  # an empty retained message clears the assignment
                log.warning("broadcast: ignored a bad assignment: %s", error)
                return
            data = None
        self._queue.put(("assignment", data))

    # -- the worker thread: outbox, diffing, numbering ----------------------------------------

    def _work(self) -> None:
        while True:
            kind, item = self._queue.get()
            try:
                if kind == "stop":
                    return
                if kind == "snapshot":
                    self._publish_changes(item)
                elif kind == "acked":
                    seq = self._seq_by_mid.pop(item, None)
                    if seq is not None:
                        self.outbox.acked(seq)
                elif kind == "relay-ack":
                    self.outbox.relay_acked(item["epoch"], item["seq"])
                    self._send_again(item)
                elif kind == "assignment":
                    self._assign(item)
                elif kind == "mark":
                    item.set()
                elif kind == "synced":
                    self._go_live()
                elif kind == "sync-late" and item == self._connections and not self._live:
                    log.warning("broadcast: the broker did not echo this board's status in "
                                "%.0f s (an ACL from an older broker-config?); publishing "
                                "anyway", SYNC_WAIT)
                    self._go_live()
                elif kind == "disconnected":
                    self._live = False
                    self._seq_by_mid.clear()
            except Exception as error:  # never let one bad change stop the publisher
                log.warning("broadcast: could not publish a change: %s", error)

    def _go_live(self) -> None:
        """Connected, and the broker has told us all it kept: what the relay has not
        stored goes again, oldest first; then the current state (a broker restarted
        without its retained messages must still show this game); then live."""
        if self._live:
            return
        for entry in self.outbox.replay():
            self._send(entry)
        self._live = True
        if self._was_connected and self._last is not None:
            self._publish_state(self._last)
        self._was_connected = True
        self._ready.set()

    def _send_again(self, ack: dict[str, Any]) -> None:
        """The relay lacks some messages although later ones reached it: send them again."""
        missing = ack.get("missing")
        if not missing or not self._live or ack["epoch"] != self.outbox.epoch:
            return
        for entry in self.outbox.pending():
            if missing[0] <= entry.seq <= missing[1]:
                self._send(entry)

    def _send(self, entry: Entry) -> None:
        info = self._client.publish(entry.topic, entry.payload, qos=1, retain=entry.retain)
        self._seq_by_mid[info.mid] = entry.seq

    def _add(self, kind: str, data: dict[str, Any], retain: bool = False) -> None:
        entry = self.outbox.add(topics.board_topic(self.board_id, kind), data, retain)
        if self._live:  # otherwise it waits for the next connection's replay
            self._send(entry)

    def _publish_changes(self, snap: GameSnapshot) -> None:
        last = self._last
        if last is None or snap.game != last.game or snap.positions[0] != last.positions[0]:
            self._bind_new_game(snap)
        elif snap.moves == last.moves and (snap.result, snap.reason) == (last.result, last.reason):
            if snap.clock_course != last.clock_course:  # the clocks changed course only
                self._last = snap
                self._publish_state(snap)
            return
        else:
            kept = topics.plies_in_common(snap.moves, last.moves)
            if kept < len(last.moves):
                self._add(topics.CORRECTION, {"game": snap.game, "from_ply": kept + 1,
                                              "ts": snap.ts})
            for ply in range(kept + 1, len(snap.moves) + 1):
                self._add(topics.MOVE, {"game": snap.game, "ply": ply,
                                        "move": snap.move_texts[ply - 1],
                                        "fen": snap.fens[ply - 1], "ts": snap.ts})
        self._last = snap
        if snap.finished and snap.game in self._bound:
            self.outbox.finish(_key(self._bound[snap.game]))
        self._publish_state(snap)

    def _publish_state(self, snap: GameSnapshot) -> None:
        tagged = self._bound.get(snap.game) or {}
        self._add(topics.STATE, {
            "game": snap.game,
            "started": snap.started or None,
            "variant": snap.variant,
            "start_fen": snap.start_fen,
            "fen": snap.fen,
            "moves": list(snap.move_texts),
            "players": {"white": tagged.get("white"), "black": tagged.get("black")},
            "event": tagged.get("event"),
            "round": tagged.get("round"),
            "board": tagged.get("board"),
            "clocks": snap.clocks,
            "result": snap.result,
            "reason": snap.reason,
            "ts": snap.ts,
        }, retain=True)

    # -- assignments ------------------------------------------------------------------------------

    def _bind_new_game(self, snap: GameSnapshot) -> None:
        latest = self._assignment
        if latest is not None and _key(latest) not in self.outbox.finished:
            self._bind(snap.game, latest)
        else:
            self._tags_changed({})

    def _assign(self, data: dict[str, Any] | None) -> None:
        self._assignment = data
        last = self._last
        if data is None or last is None or _key(data) in self.outbox.finished:
            return  # (a game already finished under it: not the next game's)
        if not last.moves or (not last.finished and last.game not in self._bound):
            self._bind(last.game, data)
            self._publish_state(last)

    def _bind(self, game: str, data: dict[str, Any]) -> None:
        self._bound[game] = data
        tags = {"Event": data.get("event"), "Round": f"{data['round']}.{data['board']}",
                "White": data.get("white"), "Black": data.get("black")}
        self._tags_changed({k: v for k, v in tags.items() if v})

    def _tags_changed(self, tags: dict[str, str]) -> None:
        if self.on_tags is not None:
            self.on_tags(tags)


def _key(assignment: dict[str, Any]) -> tuple[str, str, int]:
    return (str(assignment.get("event")), str(assignment["round"]), int(assignment["board"]))
