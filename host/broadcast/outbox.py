"""The board's outbox: every message numbered, on disk, until the broker has it.

Why on disk: the journal keeps the game, but a relay needs the messages in
order and numbered once. A board that loses power with messages the broker
never acknowledged sends them after the restart, with the same numbers, and
the numbering goes on from there (a reused number would be dropped by the
relay as a duplicate). The file is JSON lines:

    {"epoch": "9f2c...", "next_seq": 1}          header (first line)
    {"seq": 1, "topic": "...", "payload": "...", "retain": true}
    {"acked": 1}

A message line is fsync'd before the message is handed to the client (on the
publisher's thread, never the session's). Acknowledgements are not fsync'd:
losing one at a power cut only means a harmless duplicate. When nothing is
pending and the file has grown, it is rewritten to its header alone. A torn
last line (power lost mid-write) is ignored, as in the journal.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.broadcast.topics import encode

#: lines after which an outbox with nothing pending is compacted
COMPACT_AFTER = 2000


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
        self._pending: dict[int, Entry] = {}
        self._lines = 0
        self.epoch, self._next = self._load()

    # -- reading -----------------------------------------------------------------

    def _load(self) -> tuple[str, int]:
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
                continue
            if isinstance(record.get("seq"), int):
                entry = Entry(record["seq"], record["topic"], record["payload"].encode("utf-8"),
                              bool(record.get("retain")))
                self._pending[entry.seq] = entry
                highest = max(highest, entry.seq)
            elif isinstance(record.get("acked"), int):
                self._pending.pop(record["acked"], None)
        if header is None:  # new board, or an unreadable file: a new epoch
            epoch = uuid.uuid4().hex
            self._rewrite(epoch, 1)
            return epoch, 1
        self._lines = len(lines)
        next_seq = max(int(header.get("next_seq", 1)), highest + 1)
        return str(header["epoch"]), next_seq

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
            self._pending[seq] = entry
            return entry

    def acked(self, seq: int) -> None:
        """The broker has `seq`: forget it (compacting the file when it has grown)."""
        with self._lock:
            if self._pending.pop(seq, None) is None:
                return
            if not self._pending and self._lines >= COMPACT_AFTER:
                self._rewrite(self.epoch, self._next)
            else:
                self._append({"acked": seq}, sync=False)

    def pending(self) -> list[Entry]:
        """Messages not yet acknowledged, oldest first."""
        with self._lock:
            return [self._pending[seq] for seq in sorted(self._pending)]

    @property
    def next_seq(self) -> int:
        return self._next

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
            handle.write(json.dumps({"epoch": epoch, "next_seq": next_seq}) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        self._lines = 1
