"""The relay's store: what it has applied, on disk before it acknowledges anything.

One file, `<out>/.relay/store.jsonl`, of JSON lines appended in order:

    {"m": [board_id, kind, payload, arrived]}   a board's message the relay kept
    {"x": [board_id, epoch, seq]}               a message dealt with, not kept (refused)
    {"round": {...}}                            the organiser's pairings (the round message)
    {"lost": [board_id, epoch, seq]}            a seq given up on (never arrived)

and, after a compaction, also

    {"file": [board_id, game_id, round]}        where a game was filed, in filing order
    {"current": round}                          the current round
    {"seqs": [board_id, epoch, high, [seq...]]} the seqs dealt with (see relay_games.SeqRun)

The relay replays the file through its own rules at start, so the store and
what the relay knows are one account; the files it writes (PDN, status) are
made from it. Lines are fsync'd (`commit`) before the broker is told the
messages arrived, so a relay killed at any moment has every message either
stored or still queued for it at the broker. `arrived` is wall-clock time
(the `--delay` survives a restart). A torn last line is ignored.

Compaction (`rewrite`) replaces the file with the lines that rebuild the same
state: each game's newest state and what followed it, the rounds, where each
game is filed; the relay does it whenever the file has grown past
`COMPACT_AFTER` lines (not with `--delay`, whose older versions it would drop).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from host.broadcast.lines import cut_torn_line

#: lines after which the store is compacted
COMPACT_AFTER = 20000


class Store:
    """Append-only, fsync'd record of what the relay applied (not thread-safe: the relay's
    loop is its only user)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / "store.jsonl"
        self._buffer: list[str] = []
        self.lines = 0

    def read(self) -> Iterator[dict[str, Any]]:
        """Every record, in order (an unreadable line is skipped; a torn last line is cut
        off the file, so the next record starts on a line of its own)."""
        cut_torn_line(self.path)
        try:
            handle = open(self.path, encoding="utf-8")  # noqa: SIM115
        except FileNotFoundError:
            return
        with handle:
            for line in handle:
                self.lines += 1
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(record, dict):
                    yield record

    def add(self, record: dict[str, Any]) -> None:
        """Queue a record for the next `commit`."""
        self._buffer.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def commit(self) -> None:
        """Write and fsync what was added (OSError if the disk refuses: the relay stops)."""
        if not self._buffer:
            return
        text = "\n".join(self._buffer) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.path)) from None
        self.lines += len(self._buffer)
        self._buffer.clear()

    def rewrite(self, records: Iterable[dict[str, Any]]) -> None:
        """Replace the store with `records`, atomically and durably."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        count = 0
        with open(tmp, "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
                handle.write("\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self.lines = count
