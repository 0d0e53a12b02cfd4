"""What the relay tells its organiser: counts, refusals, and whether it has caught up.

Written to `<out>/relay-status.json` (at most once a second while things
change, and at exit) and served as `/api/status`:

    caught_up      the relay has everything the broker held for it since it started
    connected      it is connected to the broker now
    messages       board messages received, and of them:
      applied        changed a game (or wait for an earlier one)
      duplicates     it had already (QoS 1 re-sends, a board re-sending its outbox)
      refused        refused, by reason (`by_reason`), by board (`by_board`), the
                     last 20 with their text (`recent`)
    lost           seqs a board sent that never arrived although later ones did,
                   given up after a wait (the acknowledgement moves past them)
    boards         per board: online, games, last seq acknowledged
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

RECENT = 20


@dataclass
class RelayStatus:
    started: float = field(default_factory=time.time)
    connected: bool = False
    caught_up: bool = False
    messages: int = 0
    applied: int = 0
    duplicates: int = 0
    lost: int = 0
    by_reason: Counter[str] = field(default_factory=Counter)
    by_board: Counter[str] = field(default_factory=Counter)
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT))
    boards: dict[str, dict[str, Any]] = field(default_factory=dict)
    version: int = 0  # grows on every change: the status file is written when it moved

    def refused(self, board_id: str, kind: str, category: str, reason: str) -> None:
        self.by_reason[category] += 1
        self.by_board[board_id] += 1
        self.recent.append({"board": board_id, "kind": kind, "category": category,
                            "reason": reason, "at": round(time.time(), 3)})
        self.version += 1

    def touch(self) -> None:
        self.version += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "started": round(self.started, 3),
            "connected": self.connected,
            "caught_up": self.caught_up,
            "messages": self.messages,
            "applied": self.applied,
            "duplicates": self.duplicates,
            "refused": {"total": sum(self.by_reason.values()),
                        "by_reason": dict(self.by_reason), "by_board": dict(self.by_board),
                        "recent": list(self.recent)},
            "lost": self.lost,
            "boards": self.boards,
        }
