"""The running board's state on disk, for `draughtsboard status`.

Why a file: the board runs as a service with no terminal, and `status` is
run by someone else, later, maybe after a crash. The running board rewrites
one small JSON file atomically (write aside, then rename) whenever the game
changes, and at most once a second otherwise, so a reader never sees half a
file and the SD card is not worn by a write per scan. What it holds:

    {"pid": 1234, "state": "running" | "stopped", "updated": "2025-05-01T20:15:03",
     "started": "...", "board": "gpio", "layout": "standard-8x8",
     "game": {"variant": "brazilian", "started": "...", "moves": 12, "turn": "W",
              "fen": "...", "result": null, "reason": null, "correcting": false,
              "clock": {"control": "5+3", "white": 287000, "black": 301500,
                        "running": "W", "paused": false, ...} | null},
     "pieces": {"1": "B", "22": "W", "29": "WK"},
     "players": {"W": "human", "B": "computer:3"},
     "waiting": null | "cannot open /dev/ttyACM0: ...",
     "problems": [{"time": "...", "level": "warning", "message": "..."}],
     "chatter": {"12": 340}}

`pieces` is the board as it stands (every occupied square and the piece on it, as
recognition explains the switches: `Session.pieces`), which differs from `fen` while a
move is underway or the board is wrong; it changes with every lift and place, so it is
written at most once a second like the chatter, not on every change.

`chatter` counts, per board square (the board's own reading-order number, as
the self-test names them), the flickers the debouncer rejected in the last
minute, for squares with at least `CHATTER_PER_MINUTE`: a loose contact
flickers hundreds of times a minute, a hand's slide a few. `waiting` is why the
board is waited for (host/live/board.py: not plugged in, not ready), null once
it is open.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from host.appliance.logs import RecentProblems

#: rejected flickers per minute from which a switch is reported as chattering
CHATTER_PER_MINUTE = 10
WINDOW = 60.0
#: at most one write per this many seconds unless the game changed
MIN_INTERVAL = 1.0


def _clock(session: Any) -> dict[str, Any] | None:
    """The game's clocks as the session's last scan saw them (host/clock), None untimed."""
    keeper = getattr(session, "game_clock", None)
    if keeper is None:
        return None
    state = keeper.state(getattr(session, "_clock", 0.0))
    if state is None:
        return None
    return {key: value for key, value in state.items() if key != "took"}


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds).isoformat(timespec="seconds")


class StatusWriter:
    """Writes the status file from the session (and the board, for chatter)."""

    def __init__(
        self,
        path: Path,
        *,
        board: str,
        layout: str,
        problems: RecentProblems | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.board = board
        self.layout = layout
        self.problems = problems
        self.clock = clock
        self.started = clock()
        self._last_key: object = None
        self._last_write = float("-inf")
        self._rejected: deque[tuple[float, Counter[int]]] = deque()
        self.failed: str | None = None

    def listener(self, session: Any, board: Any = None) -> Callable[..., None]:
        """A callback for an update bus (announcements, the runtime's session updates):
        whatever it is given, it refreshes the file from `session`."""

        def refresh(*_: object) -> None:
            self.update(session, board=board)

        return refresh

    def update(self, session: Any, *, board: Any = None, force: bool = False) -> bool:
        """Rewrite the file if the game changed, or a second has passed. True if written."""
        now = self.clock()
        chatter = self._chatter(now, board)
        game = self._game(session)
        waiting = getattr(board, "waiting", None)
        # (the pieces change with every lift: they alone do not force a write)
        key = (json.dumps(game, sort_keys=True), tuple(sorted(chatter.items())), waiting)
        if not force and key == self._last_key and now - self._last_write < MIN_INTERVAL:
            return False
        self._last_key = key
        self._last_write = now
        self._write(
            {
                "pid": os.getpid(),
                "state": "running",
                "updated": _iso(now),
                "started": _iso(self.started),
                "board": self.board,
                # a live board knows its layout (the simulator's follows the variant's size)
                "layout": getattr(board, "layout_name", None) or self.layout,
                "game": game,
                "pieces": self._pieces(session),
                "players": dict(getattr(session, "players", {})),
                "waiting": waiting,
                "problems": self._problems(),
                "chatter": {str(sq): n for sq, n in sorted(chatter.items())},
            }
        )
        return True

    def stopped(self, session: Any = None) -> None:
        """The board stopped cleanly: say so (a running state with a dead pid means a crash)."""
        data = self.read(self.path) or {}
        data.update(state="stopped", updated=_iso(self.clock()), pid=os.getpid())
        if session is not None:
            data["game"] = self._game(session)
        data["problems"] = self._problems()
        self._write(data)

    # -- parts --------------------------------------------------------------------------

    @staticmethod
    def _game(session: Any) -> dict[str, Any]:
        rec = session.recogniser
        outcome = rec.outcome
        return {
            "variant": session.variant.name,
            "started": getattr(session, "started", None),
            "moves": len(rec.game.moves),
            "turn": rec.game.position.turn,
            "fen": rec.game.fen(),
            "result": None if outcome is None else (outcome.winner or "draw"),
            "reason": None if outcome is None else outcome.reason,
            "correcting": bool(rec.correcting),
            # both clocks (ms left, which runs) in a timed game, else None
            "clock": _clock(session),
        }

    @staticmethod
    def _pieces(session: Any) -> dict[str, str]:
        pieces = getattr(session, "pieces", None)
        return {} if pieces is None else {str(sq): p for sq, p in pieces().items()}

    def _problems(self) -> list[dict[str, str]]:
        if self.problems is None:
            return []
        return [
            {"time": _iso(e.time), "level": e.level, "message": e.message}
            for e in self.problems.entries
        ]

    def _chatter(self, now: float, board: Any) -> dict[int, int]:
        """Rejected flickers per square in the last minute, for the squares over the mark."""
        debouncer = getattr(board, "debouncer", None)
        if debouncer is None:
            return {}
        self._rejected.append((now, Counter(debouncer.rejected)))
        while len(self._rejected) > 1 and now - self._rejected[1][0] >= WINDOW:
            self._rejected.popleft()
        oldest = self._rejected[0][1]
        latest = self._rejected[-1][1]
        recent = latest - oldest
        return {sq: n for sq, n in recent.items() if n >= CHATTER_PER_MINUTE}

    def _write(self, data: Mapping[str, Any]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
            self.failed = None
        except OSError as error:
            if self.failed is None:  # say it once, not once a second
                import logging

                logging.getLogger(__name__).warning(
                    "cannot write the status file %s: %s", self.path, error.strerror
                )
            self.failed = str(error)

    @staticmethod
    def read(path: Path) -> dict[str, Any] | None:
        """The status file's contents, or None if absent or unreadable."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None
