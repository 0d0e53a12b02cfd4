"""`draughtsboard relay`: every board's games in, a live PDN per round out.

Threads, each with one job: paho's network thread only queues what arrives;
the relay's loop takes what is queued in batches, hands each message to the
intake (`relay_intake`), stores the batch (fsync), and only then
acknowledges it, to the broker (the message may go) and to each board (what
it may stop holding); then it writes the files that changed, publishes the
public copies and tells the spectator page. The web server answers
spectators.

The relay keeps a persistent session (QoS 1): while it is away, stopped or
killed, the broker holds every board's messages for it, and what it had
received but not stored comes again. At start it rebuilds from its store,
connects, subscribes, and sends itself a marker; everything the broker held
for it arrives before the marker, so when the marker comes back it has
caught up, and only from then on does it write files or answer spectators
(before, they get 503): a restarted relay never serves an older file.

A relay that cannot go on (its store or files cannot be written, its loop
failed) says why and sets `failed`; the command exits with the status
`relay_exit` gives it, and the service restarts it.
"""

from __future__ import annotations

import json
import queue
import secrets
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.broadcast import topics
from host.broadcast.mqtt import BrokerSettings, connack_problem, make_client, start
from host.broadcast.relay_exit import CANNOT_WRITE, CONFIGURATION, CRASH
from host.broadcast.relay_files import RoundWriter, write_atomic
from host.broadcast.relay_games import GameView
from host.broadcast.relay_intake import Intake
from host.broadcast.relay_status import RelayStatus
from host.broadcast.relay_store import Store
from host.broadcast.relay_views import Views

#: the most the loop sleeps when nothing happens
IDLE_WAKE = 1.0
#: the most messages handled, stored and acknowledged together
BATCH = 500
#: seconds between copies of a round's whole PDN on its public topic (and at once
#: when a game ends or the pairings change)
PDN_EVERY = 30.0
#: seconds between writes of the status file while things change
STATUS_EVERY = 1.0
#: seconds to wait for the catch-up marker before serving anyway (a broker whose ACL,
#: from an older broker-config, does not let the relay write its own topic)
MARKER_WAIT = 30.0
#: connection refusals that no retry can mend
_REFUSED_LOGIN = ("not authori", "bad user name or password")

Listener = Callable[[str, dict[str, Any]], None]


@dataclass(frozen=True)
class Arrival:
    topic: str
    payload: bytes
    arrived: float  # monotonic
    wall: float
    mid: int
    qos: int
    generation: int  # the connection it came on (acknowledged on that one only)


class Relay:
    """Follows every board, writes the rounds' files, feeds spectators."""

    def __init__(
        self,
        settings: BrokerSettings,
        out_dir: Path,
        *,
        delay: float = 0.0,
        trace: Path | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.out_dir = Path(out_dir)
        self.delay = delay
        self.log = log or (lambda text: print(f"relay: {text}", file=sys.stderr, flush=True))
        self.status = RelayStatus()
        self.store = Store(self.out_dir / ".relay")
        self.intake = Intake(self.store, self.status, self.log)
        self.views = Views(self.intake)
        self.writer = RoundWriter(self.out_dir)
        self.listeners: list[Listener] = []
        #: guards what spectators read (the intake and views) against the loop
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self.caught_up = threading.Event()
        self.failed = threading.Event()
        self.failure: tuple[int, str] | None = None
        self._queue: queue.Queue[Arrival | None] = queue.Queue()
        self._trace = open(trace, "a", encoding="utf-8") if trace else None  # noqa: SIM115
        self._client: Any = None
        self._thread: threading.Thread | None = None
        self._generation = 0
        self._nonce = ""
        self._marker_late = ""  # the nonce whose marker did not come back in time
        self._user = settings.username or "relay"
        self._sync_topic = topics.relay_sync_topic(self._user)
        self._write_all = False
        self._pdn_sent: dict[str | None, float] = {}
        self._pdn_due: dict[str | None, float] = {}
        self._status_written = (-1, 0.0)
        self._stopping = False
        self._unreachable_said = False  # "cannot reach the broker" said since last connected

    # -- life cycle --------------------------------------------------------------------

    def start(self) -> Relay:
        client = make_client(self.settings, persistent=True, manual_ack=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        client.on_connect_fail = self._on_connect_fail
        self._client = client
        self._thread = threading.Thread(target=self._loop, name="relay", daemon=True)
        self._thread.start()
        self.log(f"connecting to {self.settings.url}")
        start(client, self.settings)
        return self

    def stop(self) -> None:
        """Store what is in hand, compact the store if it has grown, disconnect."""
        self._stopping = True
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self.failure is None:
            try:
                with self.lock:
                    self.store.commit()
                    if self.intake.should_compact(self.delay):
                        self.intake.compact()
                self._write_status(force=True)
            except OSError as error:
                self.log(f"could not save on the way out: {error}")
        if self._trace is not None:
            self._trace.close()

    def _fail(self, status: int, reason: str) -> None:
        if self.failure is None:
            self.failure = (status, reason)
            self.log(f"cannot go on: {reason}")
            self.failed.set()

    # -- paho's thread ---------------------------------------------------------------------

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        problem = connack_problem(reason)
        if problem:
            self.log(problem)
            if any(word in str(reason).lower() for word in _REFUSED_LOGIN):
                self._fail(CONFIGURATION, f"{problem} (check --username and --password-file)")
            return
        self._unreachable_said = False
        self._generation += 1
        self._nonce = secrets.token_hex(8)
        client.subscribe([*((topics.board_topic("+", kind), 1) for kind in
                            (*topics.BOARD_KINDS,)), (topics.ROUND, 1), (self._sync_topic, 1)])
        self.log(f"connected to {self.settings.url}")
        self.status.connected = True
        self.status.touch()
        self.connected.set()

    def _on_subscribe(self, client: Any, *_args: Any) -> None:
        # Everything the broker holds for us comes before this marker comes back.
        client.publish(self._sync_topic, self._nonce, qos=1)
        timer = threading.Timer(MARKER_WAIT, setattr, args=(self, "_marker_late", self._nonce))
        timer.daemon = True
        timer.start()

    def _on_connect_fail(self, _c: Any, _u: Any) -> None:
        # paho retries on its own; said once per outage, so nobody waits on a silent relay
        if not self._unreachable_said:
            self._unreachable_said = True
            self.log(f"cannot connect to {self.settings.url} (unreachable, TLS or "
                     "certificate problem); retrying")

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if self.connected.is_set() and not self._stopping:
            self.log(f"lost the broker ({reason}); reconnecting")
        self.connected.clear()
        self.status.connected = False
        self.status.touch()

    def _on_message(self, _c: Any, _u: Any, message: Any) -> None:
        self._queue.put(Arrival(message.topic, bytes(message.payload), time.monotonic(),
                                time.time(), message.mid, message.qos, self._generation))

    # -- the relay's loop ----------------------------------------------------------------------

    def _loop(self) -> None:
        try:
            with self.lock:
                restored = self.intake.restore(time.monotonic(), time.time())
                if self.intake.should_compact(self.delay):
                    self.intake.compact()
            if restored:
                self.log(f"restored {restored} records from {self.store.path}")
            while True:
                batch = self._take(self._timeout())
                if batch is None:
                    return
                with self.lock:
                    for arrival in batch:
                        self._handle(arrival)
                    self.intake.give_up_gaps(time.monotonic())
                    self.store.commit()
                    if self.intake.should_compact(self.delay):
                        self.intake.compact()
                self._acknowledge(batch)
                if not self.caught_up.is_set() and self._marker_late == self._nonce != "":
                    self.log(f"the broker did not return the relay's marker in "
                             f"{MARKER_WAIT:.0f} s (an ACL from an older broker-config?); "
                             "serving what it has")
                    with self.lock:
                        self._catch_up()
                if self.caught_up.is_set():
                    self._publish()
                self._write_status()
        except OSError as error:  # a full disk, a folder it may not write
            where = f" {error.filename}" if error.filename else ""
            self._fail(CANNOT_WRITE, f"cannot write{where}: {error.strerror or error}")
        except Exception as error:  # a fault of its own
            self.log("".join(traceback.format_exception(error)).rstrip())
            self._fail(CRASH, f"{type(error).__name__}: {error}")

    def _timeout(self) -> float:
        now = time.monotonic()
        wake = [now + IDLE_WAKE, *self._pdn_due.values()]
        due = self.intake.boards.next_due(now - self.delay)
        if due is not None:
            wake.append(due + self.delay)
        return max(0.0, min(wake) - now)

    def _take(self, timeout: float) -> list[Arrival] | None:
        """The next batch (maybe empty after `timeout`), or None to stop."""
        try:
            first = self._queue.get(timeout=timeout)
        except queue.Empty:
            return []
        batch = [first]
        while len(batch) < BATCH:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                break
        if None in batch:
            for arrival in batch:  # handle what came before the stop; it is stored in stop()
                if arrival is None:
                    break
                with self.lock:
                    self._handle(arrival)
            return None
        return batch  # type: ignore[return-value]

    def _handle(self, arrival: Arrival) -> None:
        if arrival.topic == topics.ROUND:
            self.intake.pairings(arrival.payload)
        elif arrival.topic == self._sync_topic:
            if arrival.payload.decode("utf-8", "replace") == self._nonce:
                self._catch_up()
        else:
            parsed = topics.parse_board_topic(arrival.topic)
            if parsed is not None:
                self.intake.board_message(parsed[0], parsed[1], arrival.payload,
                                          arrival.arrived, arrival.wall)

    def _catch_up(self) -> None:
        if self.caught_up.is_set():
            return
        self._write_all = True
        self.caught_up.set()
        self.status.caught_up = True
        self.status.touch()
        games = sum(len(feed.games) for feed in self.intake.boards.feeds.values())
        self.log(f"caught up: {len(self.intake.boards.feeds)} boards, {games} games")

    def _acknowledge(self, batch: list[Arrival]) -> None:
        """After the store has the batch: the broker may let the messages go, and each
        board may stop holding what the relay has stored."""
        client = self._client
        if client is None:
            return
        for arrival in batch:
            if arrival.qos and arrival.generation == self._generation:
                client.ack(arrival.mid, arrival.qos)
        for board_id, epoch, seq in self.intake.acks():
            client.publish(topics.board_topic(board_id, topics.ACK),
                           topics.encode({"epoch": epoch, "seq": seq}), qos=1, retain=True)
        with self.lock:
            gaps = self.intake.gaps(time.monotonic())
        for board_id, epoch, seq, missing in gaps:
            self.log(f"board {board_id}: asking again for seq {missing[0]}..{missing[1]}")
            client.publish(topics.board_topic(board_id, topics.ACK), topics.encode(
                {"epoch": epoch, "seq": seq, "missing": missing}), qos=1, retain=True)

    # -- what is shown ------------------------------------------------------------------------

    def _publish(self) -> None:
        now = time.monotonic()
        visible_at = now - self.delay
        with self.lock:
            moved = self.views.refresh(visible_at)
            dirty = set(self.intake.rounds_changed)
            new_rounds: set[str | None] = set(self.intake.pairings_changed)
            self.intake.rounds_changed.clear()
            self.intake.pairings_changed.clear()
            if self._write_all:
                dirty |= set(self.intake.rounds.rounds)
                new_rounds |= set(self.intake.rounds.rounds)
                self._write_all = False
            changes: list[tuple[str | None, GameView, dict[str, Any]]] = []
            for before, view in moved:
                change = self.views.change(before, view)
                if change is None:
                    continue
                dirty.add(change["round"])
                changes.append((change["round"], view, change))
                if view.finished and (before is None or not before.finished):
                    self._pdn_due[change["round"]] = now
            for name in dirty:
                if name in self.intake.rounds.rounds:
                    self.writer.write(self.intake.rounds.rounds[name], self.views.slots(name),
                                      self.views.shown)
                    self._pdn_due.setdefault(name, now if name in new_rounds else
                                             self._pdn_sent.get(name, now - PDN_EVERY)
                                             + PDN_EVERY)
            self.intake.boards.forget_before(visible_at)
            for name in new_rounds:
                if name is not None and name == self.intake.rounds.current:
                    self._tell("round", self.views.round_summary(name))
            for _, _, change in changes:
                self._tell("moves", change)
        written = time.time()
        for name, view, _change in changes:
            self._public_game(name, view)
            self._traced(view, written)
        self._public_rounds(now)

    def _tell(self, kind: str, data: dict[str, Any]) -> None:
        """To every spectator page (called with the lock held: a page's snapshot and the
        changes after it are never interleaved)."""
        for listener in list(self.listeners):
            listener(kind, data)

    def _public_game(self, name: str | None, view: GameView) -> None:
        if self._client is None or name is None:
            return
        found = self.views.where(view.key)
        if found is None:
            return
        with self.lock:
            entry = self.views.entry(name, found[1])
        self._client.publish(topics.public_game_topic(name, found[1].key), topics.encode(entry),
                             qos=1, retain=True)

    def _public_rounds(self, now: float) -> None:
        """Each round's whole PDN, retained: when a game ends or the pairings change,
        else at most every PDN_EVERY seconds (never on every move)."""
        for name, due in list(self._pdn_due.items()):
            if due > now:
                continue
            del self._pdn_due[name]
            self._pdn_sent[name] = now
            if self._client is not None and name is not None:
                self._client.publish(topics.public_round_topic(name),
                                     self.writer.games_pdn(name), qos=1, retain=True)

    def _traced(self, view: GameView, written: float) -> None:
        if self._trace is None:
            return
        log = self.intake.boards.game(view.key)
        arrived = next((a for a, v in reversed(log.versions) if v is view), None) if log else None
        received = written - (time.monotonic() - arrived) if arrived is not None else written
        self._trace.write(json.dumps({"board_id": view.board_id, "game": view.game,
                                      "ply": len(view.moves), "ts": view.ts,
                                      "received": received, "written": written}) + "\n")
        self._trace.flush()

    def _write_status(self, *, force: bool = False) -> None:
        version, at = self._status_written
        now = time.monotonic()
        if not force and (self.status.version == version or now - at < STATUS_EVERY):
            return
        with self.lock:
            text = json.dumps(self.status.to_json(), indent=1)
            self._status_written = (self.status.version, now)
        write_atomic(self.out_dir / "relay-status.json", text)

    # -- for spectators ---------------------------------------------------------------------

    def round_summary(self, name: str | None = None) -> dict[str, Any]:
        """The round spectators see (the current one unless named): games in file order."""
        with self.lock:
            return self.views.round_summary(self._round_name(name))

    def _round_name(self, name: str | None) -> str | None:
        if name is None:
            name = self.intake.rounds.current
            if name is None and self.intake.rounds.rounds:
                name = next(reversed(self.intake.rounds.rounds))
        return name

    def follow(self, listener: Listener) -> None:
        """Add a spectator: it is told the current round, whole, then every change."""
        with self.lock:
            listener("round", self.views.round_summary(self._round_name(None)))
            self.listeners.append(listener)

    def status_json(self) -> dict[str, Any]:
        with self.lock:
            return self.status.to_json()

    def unfollow(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)
