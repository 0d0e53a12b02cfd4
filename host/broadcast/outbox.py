"""The board's outbox: every message numbered, on disk, until the relay has stored it.

Why on disk: the journal keeps the game, but a relay needs the messages in
order and numbered once. The file is JSON lines:

    {"epoch": "9f2c...", "next_seq": 1, "delivered": 0}   header (first line)
    {"seq": 1, "topic": "...", "payload": "...", "retain": true}
    {"acked": 1}          the broker has message 1 (its PUBACK)
    {"delivered": 1}      the relay has stored everything up to 1 (its `ack` message)
    {"finished": ["Open", "3", 7]}   a game under this assignment (event, round,
                          board) has finished: the next game is not tagged with it,
                          also after a restart

A message is held until the relay says it has stored it, not merely until the
broker has it: a broker that is killed, or restarted from a save older than
its last acknowledgement, may lose what it acknowledged, and the board then
still has it. On every connection the board sends what it holds beyond the
relay's last acknowledgement, oldest first, before anything new (`replay`).
Until some relay has acknowledged this epoch (no relay yet), the broker's
acknowledgement is enough, as a relay that starts later reads every board's
current game from the broker's retained states.

A message line is fsync'd before the message is handed to the client (on the
publisher's thread, never the session's); acknowledgements are not: losing
one at a power cut only means a harmless duplicate. When nothing is held and
the file has grown, it is rewritten to its header alone. A torn last line
(power lost mid-write) is cut off before anything is appended after it.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.broadcast.lines import cut_torn_line
from host.broadcast.topics import encode

#: lines after which an outbox with nothing held is compacted
COMPACT_AFTER = 2000
#: the most messages held for a relay that never acknowledges (about a week of a
#: busy board); beyond it the oldest ones the broker has are let go, with a warning
HOLD_LIMIT = 20000
#: assignments of finished games remembered (the latest ones are all that matter)
FINISHED_KEPT = 50

Assignment = tuple[str, str, int]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Entry:
    seq: int
    topic: str
    payload: bytes
    retain: bool


class Outbox:
    """Numbered, ordered, persistent messages for one board (thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._held: dict[int, Entry] = {}
        self._broker_has: set[int] = set()
        self._lines = 0
        self._warned = False
        #: the relay has stored every message up to this seq (0: no relay has said so)
        self.delivered = 0
        #: assignments (event, round, board) under which a game finished, oldest first
        self.finished: list[Assignment] = []
        self.epoch = ""
        self._next = 1
        self._load()

    # -- reading -----------------------------------------------------------------

    def _load(self) -> None:
        cut_torn_line(self.path)
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (FileNotFoundError, UnicodeDecodeError):
            lines = []
        header: dict[str, Any] | None = None
        highest = 0
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # torn write at power loss
            if not isinstance(record, dict):
                continue
            if header is None:
                if isinstance(record.get("epoch"), str):
                    header = record
                    self.delivered = int(record.get("delivered") or 0)
                    for key in record.get("finished") or []:
                        self._remember(key)
                continue
            if isinstance(record.get("seq"), int):
                entry = Entry(record["seq"], record["topic"], record["payload"].encode("utf-8"),
                              bool(record.get("retain")))
                self._held[entry.seq] = entry
                highest = max(highest, entry.seq)
            elif isinstance(record.get("acked"), int):
                self._broker_has.add(record["acked"])
            elif isinstance(record.get("delivered"), int):
                self.delivered = max(self.delivered, record["delivered"])
            elif isinstance(record.get("finished"), list):
                self._remember(record["finished"])
        if header is None:  # new board, or an unreadable file: a new epoch
            self._held.clear()
            self._broker_has.clear()
            self.delivered = 0
            self.epoch = uuid.uuid4().hex
            self._rewrite(self.epoch, 1)
            return
        self.epoch = str(header["epoch"])
        self._next = max(int(header.get("next_seq", 1)), highest + 1)
        self._lines = len(lines)
        self._forget_done()

    # -- writing -----------------------------------------------------------------

    def add(self, topic: str, data: dict[str, Any], retain: bool = False) -> Entry:
        """Number `data` (sets `epoch` and `seq`), store it durably, return the entry."""
        with self._lock:
            seq = self._next
            self._next += 1
            payload = encode({**data, "epoch": self.epoch, "seq": seq})
            entry = Entry(seq, topic, payload, retain)
            record = {"seq": seq, "topic": topic, "payload": payload.decode("utf-8"),
                      "retain": retain}
            self._append(record, sync=True)
            self._held[seq] = entry
            self._limit()
            return entry

    def acked(self, seq: int) -> None:
        """The broker has `seq`; without a relay that acknowledges, that is enough."""
        with self._lock:
            if seq not in self._held or seq in self._broker_has:
                return
            self._broker_has.add(seq)
            self._append({"acked": seq}, sync=False)
            self._forget_done()

    def relay_acked(self, epoch: str, seq: int) -> None:
        """The relay has stored everything of `epoch` up to `seq` (other epochs: ignored)."""
        with self._lock:
            if epoch != self.epoch or seq <= self.delivered:
                return
            self.delivered = min(seq, self._next - 1)
            self._append({"delivered": self.delivered}, sync=False)
            self._forget_done()

    def finish(self, assignment: Assignment) -> None:
        """A game under `assignment` has finished (kept across restarts)."""
        with self._lock:
            if assignment in self.finished:
                return
            self._remember(list(assignment))
            self._append({"finished": list(assignment)}, sync=True)

    def _remember(self, key: list[Any]) -> None:
        try:
            assignment = (str(key[0]), str(key[1]), int(key[2]))
        except (IndexError, TypeError, ValueError):
            return
        if assignment not in self.finished:
            self.finished = [*self.finished, assignment][-FINISHED_KEPT:]

    def replay(self) -> list[Entry]:
        """What to send on a (re)connection, oldest first, before anything new: all that
        the relay has not acknowledged (or, with no relay yet, that the broker has not)."""
        with self._lock:
            return [self._held[seq] for seq in sorted(self._held)
                    if self.delivered or seq not in self._broker_has]

    def pending(self) -> list[Entry]:
        """Messages still held, oldest first."""
        with self._lock:
            return [self._held[seq] for seq in sorted(self._held)]

    def unsent(self) -> list[Entry]:
        """Messages the broker has not acknowledged, oldest first."""
        with self._lock:
            return [self._held[seq] for seq in sorted(self._held) if seq not in self._broker_has]

    @property
    def next_seq(self) -> int:
        return self._next

    # -- inside the lock -----------------------------------------------------------------

    def _forget_done(self) -> None:
        """Let go what is done: stored by the relay, or (no relay yet) had by the broker."""
        for seq in [s for s in self._held
                    if s <= self.delivered or (not self.delivered and s in self._broker_has)]:
            del self._held[seq]
            self._broker_has.discard(seq)
        if not self._held and self._lines >= COMPACT_AFTER:
            self._rewrite(self.epoch, self._next)

    def _limit(self) -> None:
        excess = len(self._held) - HOLD_LIMIT
        if excess <= 0:
            return
        for seq in sorted(s for s in self._held if s in self._broker_has)[:excess]:
            del self._held[seq]
            self._broker_has.discard(seq)
        if not self._warned:
            self._warned = True
            log.warning("broadcast: no relay has acknowledged the last %d messages; the "
                        "oldest the broker has are no longer kept", HOLD_LIMIT)

    def _append(self, record: dict[str, Any], *, sync: bool) -> None:
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        self._lines += 1

    def _rewrite(self, epoch: str, next_seq: int) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"epoch": epoch, "next_seq": next_seq,
                                     "delivered": self.delivered,
                                     "finished": [list(k) for k in self.finished]}) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        self._lines = 1
