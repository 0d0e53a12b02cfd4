"""`draughtsboard relay`: every board's game in, a live PDN per round out.

Three threads, each with one job: paho's network thread only queues what
arrives; the relay's loop applies messages (`relay_games.Boards`), waits out
the delay, files games in rounds and writes them (`relay_files.RoundWriter`),
publishes the delayed copies on `draughtsboard/v1/public/...` and tells the
spectator page (`spectators`); the web server answers spectators.

The relay keeps no broker session: on every (re)connect it subscribes again
and the retained states give it every board's whole game, so a relay started
late, restarted, or cut off for a while catches up by itself.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.broadcast import topics
from host.broadcast.mqtt import BrokerSettings, connack_problem, make_client, start
from host.broadcast.relay_files import Pairing, RoundRecord, RoundWriter
from host.broadcast.relay_games import Boards, GameView

#: the most the loop sleeps when nothing happens (it also wakes for delayed versions)
IDLE_WAKE = 1.0

Listener = Callable[[str, dict[str, Any]], None]


class Relay:
    """Subscribes to every board, writes the rounds' files, feeds spectators."""

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
        self.delay = delay
        self.log = log or (lambda text: print(f"relay: {text}", file=sys.stderr, flush=True))
        self.boards = Boards(delay, log=self.log)
        self.writer = RoundWriter(out_dir)
        self.current_round: str | None = None
        self.listeners: list[Listener] = []
        self._queue: queue.Queue[tuple[str, bytes, float] | None] = queue.Queue()
        self._shown: dict[str, GameView] = {}
        self._lock = threading.Lock()  # guards what spectators read
        self._trace = open(trace, "a", encoding="utf-8") if trace else None  # noqa: SIM115
        self._client: Any = None
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()

    # -- life cycle --------------------------------------------------------------------

    def start(self) -> Relay:
        client = make_client(self.settings, client_id=f"draughtsboard-relay-{id(self):x}")
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        self._thread = threading.Thread(target=self._loop, name="relay", daemon=True)
        self._thread.start()
        start(client, self.settings)
        return self

    def stop(self) -> None:
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            self.writer.save_all()
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self._trace is not None:
            self._trace.close()

    # -- paho's thread ---------------------------------------------------------------------

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        problem = connack_problem(reason)
        if problem:
            self.log(problem)
            return
        client.subscribe([(f"{topics.ROOT}/board/+/+", 1), (topics.ROUND, 1)])
        self.log(f"connected to {self.settings.url}")
        self.connected.set()

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if self.connected.is_set():
            self.log(f"lost the broker ({reason}); reconnecting")
        self.connected.clear()

    def _on_message(self, _c: Any, _u: Any, message: Any) -> None:
        self._queue.put((message.topic, bytes(message.payload), time.monotonic()))

    # -- the relay's loop ----------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            now = time.monotonic()
            due = self.boards.next_due(now - self.delay)
            timeout = IDLE_WAKE if due is None else max(0.0, min(IDLE_WAKE, due + self.delay - now))
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = ()  # type: ignore[assignment]
            batch = [item]
            while not self._queue.empty():  # take everything waiting: one write per batch
                batch.append(self._queue.get_nowait())
            dirty: set[str | None] = set()
            for entry in batch:
                if entry is None:
                    return
                if entry:
                    dirty |= self._receive(*entry)
            try:
                self._publish(dirty)
            except Exception as error:  # a full disk must not stop the relay
                self.log(f"could not write the round files: {error}")

    def _receive(self, topic: str, payload: bytes, arrived: float) -> set[str | None]:
        if topic == topics.ROUND:
            return self._pairings(payload)
        self.boards.handle(topic, payload, arrived)
        return set()

    def _pairings(self, payload: bytes) -> set[str | None]:
        if not payload:
            return set()
        try:
            data = topics.check_message("round", payload)
        except topics.BadMessage as error:
            self.log(f"ignored the round's pairings: {error}")
            return set()
        pairings = [Pairing(int(b["board"]), b["board_id"], b.get("white"), b.get("black"))
                    for b in data["boards"]]
        with self._lock:
            self.writer.set_pairings(data["round"], data["event"], pairings)
            self.current_round = data["round"]
        return {data["round"]}

    def _publish(self, dirty: set[str | None]) -> None:
        visible_at = time.monotonic() - self.delay
        views = self.boards.views_at(visible_at)
        changed: list[GameView] = []
        with self._lock:
            current = self.writer.rounds.get(self.current_round) if self.current_round else None
            for board_id, view in views.items():
                if self._shown.get(board_id) is not view:
                    self._shown[board_id] = view
                    name, filed = self.writer.file_game(view, current)
                    dirty.add(name)
                    changed.append(filed)
            for name in dirty:
                self.writer.write(name, now=time.monotonic())
        received = {view.board_id: self._arrival(view) for view in changed}
        self.boards.forget_before(visible_at)
        written = time.time()
        for name in dirty:
            self._announce_round(name)
        for view in changed:
            self._announce_game(view, written, received[view.board_id])

    def _announce_round(self, name: str | None) -> None:
        if name is None:
            return
        if self._client is not None:
            self._client.publish(topics.public_round_topic(name), self.writer.games_pdn(name),
                                 qos=1, retain=True)
        for listener in list(self.listeners):
            listener("round", {"round": name})

    def _arrival(self, view: GameView) -> float:
        """Wall-clock time the message that made `view` arrived (for the trace)."""
        feed = self.boards.feeds.get(view.board_id)
        for arrived, version in reversed(feed.history if feed else []):
            if version.game == view.game and version.moves == view.moves:
                return time.time() - (time.monotonic() - arrived)
        return time.time()

    def _announce_game(self, view: GameView, written: float, received: float) -> None:
        data = view.to_json()
        record = self._record_of(view)
        if record is not None and record.name is not None and self._client is not None:
            board = data["board"] if data["board"] is not None else view.board_id
            self._client.publish(topics.public_board_topic(record.name, board),
                                 topics.encode(data), qos=1, retain=True)
        for listener in list(self.listeners):
            listener("game", data)
        if self._trace is not None:
            self._trace.write(json.dumps({"board_id": view.board_id, "ply": len(view.moves),
                                          "ts": view.ts, "received": received,
                                          "written": written}) + "\n")
            self._trace.flush()

    def _record_of(self, view: GameView) -> RoundRecord | None:
        for record in self.writer.rounds.values():
            if any(game is view or game.board_id == view.board_id and game.game == view.game
                   for game in record.games.values()):
                return record
        return None

    # -- for spectators ---------------------------------------------------------------------

    def round_summary(self, name: str | None = None) -> dict[str, Any]:
        """The round spectators see (the current one unless named): games in board order."""
        with self._lock:
            if name is None:
                name = self.current_round
                if name is None and self.writer.rounds:
                    name = next(reversed(self.writer.rounds))
            record = self.writer.rounds.get(name)
            rounds = [r for r in self.writer.rounds if r is not None]
            if record is None:
                return {"round": name, "event": None, "rounds": rounds, "games": []}
            games = []
            for key, pairing, view in record.ordered():
                entry = view.to_json() if view else {"moves": [], "result": None}
                entry["key"] = key
                if pairing is not None:
                    entry.update(board=pairing.board, board_id=pairing.board_id,
                                 white=pairing.white or entry.get("white"),
                                 black=pairing.black or entry.get("black"))
                games.append(entry)
            return {"round": name, "event": record.event, "rounds": rounds, "games": games}
