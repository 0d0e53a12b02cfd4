"""The game journal: every committed move on disk before anyone hears of it.

JSON lines, one record per event (the game's header with its variant, start
position and players; moves; takebacks; other players; the end), appended and
fsync'd, so a power cut loses nothing that was announced. A torn last line
(power lost mid-write) is ignored on reading. The journal holds the current
game only; when a game ends (or is abandoned for a new one) its PDN goes to
the games folder.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from host.players import players_or_none


@dataclass
class JournalGame:
    """What a journal says about one game: enough to rebuild it with the engine."""

    variant: str
    start_fen: str
    started: str
    moves: list[dict[str, Any]] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None
    #: who plays each side (host/players.py) as last recorded; None in a journal written
    #: before players were kept (the config's players then count)
    players: dict[str, str] | None = None
    #: the game's time control (`5+3`, host/clock/control.py); None: untimed, or a journal
    #: written before clocks were kept
    clock: str | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Journal:
    """Append-only, fsync'd record of the current game at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def start(
        self,
        variant: str,
        start_fen: str,
        started: str | None = None,
        players: dict[str, str] | None = None,
        clock: str | None = None,
    ) -> None:
        """Begin a new game: atomically replace the file with a fresh header (with who
        plays each side and the time control, so a resumed game is played by the same
        players on the same clock)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        header: dict[str, Any] = {
            "type": "game",
            "variant": variant,
            "fen": start_fen,
            "started": started or datetime.now().isoformat(timespec="seconds"),
        }
        if players is not None:
            header["players"] = dict(players)
        if clock is not None:
            header["clock"] = clock
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(header) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(self.path.parent)

    def _append(self, record: dict[str, Any]) -> None:
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def move(
        self,
        ply: int,
        text: str,
        origin: int,
        destination: int,
        captures: list[int],
        fen: str,
        *,
        clock: dict[str, int] | None = None,
        took: int | None = None,
    ) -> None:
        """A committed move; in a timed game with both clocks after it (ms, increment
        included) and what it took, so a power cut loses at most the time since."""
        record: dict[str, Any] = {
            "type": "move",
            "ply": ply,
            "move": text,
            "from": origin,
            "to": destination,
            "captures": sorted(captures),
            "fen": fen,
        }
        if clock is not None:
            record["clock"] = dict(clock)
        if took is not None:
            record["took"] = took
        self._append(record)

    def players(self, players: dict[str, str]) -> None:
        """Other players from here on (the board's level square, the page)."""
        self._append({"type": "players", "players": dict(players)})

    def takeback(self, ply: int) -> None:
        self._append({"type": "takeback", "ply": ply})

    def end(self, result: str, reason: str) -> None:
        self._append({"type": "end", "result": result, "reason": reason})

    def reopen(self) -> None:
        """Taking back after the game ended: the end mark is withdrawn (the game is written
        again without it)."""
        record = self.read()
        if record is None:
            return
        self.start(record.variant, record.start_fen, record.started, record.players, record.clock)
        for entry in record.moves:
            self.move(
                entry["ply"], entry["move"], entry["from"], entry["to"], entry["captures"],
                entry["fen"], clock=entry.get("clock"), took=entry.get("took"),
            )

    def read(self) -> JournalGame | None:
        """The game on disk, or None if there is no readable journal."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (FileNotFoundError, UnicodeDecodeError):
            return None
        game: JournalGame | None = None
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # torn write at power loss: only ever the last line
            if not isinstance(record, dict):
                continue
            kind = record.get("type")
            if kind == "game":
                game = JournalGame(record["variant"], record["fen"], record.get("started", ""))
                game.players = players_or_none(record.get("players"))
                clock = record.get("clock")
                game.clock = clock if isinstance(clock, str) else None
            elif game is None:
                continue
            elif kind == "move":
                game.moves.append(record)
            elif kind == "takeback" and game.moves:
                # A takeback after the end (a physical one, from the board) opens the game again.
                game.moves.pop()
                game.result = game.reason = None
            elif kind == "players":
                game.players = players_or_none(record.get("players")) or game.players
            elif kind == "end":
                game.result, game.reason = record.get("result"), record.get("reason")
        return game


def result_text(winner: str | None, variant_name: str) -> str:
    """PDN result from the winner ("W", "B" or None for a draw); International scores 2-0."""
    if variant_name == "international":
        return {"W": "2-0", "B": "0-2"}.get(winner or "", "1-1")
    return {"W": "1-0", "B": "0-1"}.get(winner or "", "1/2-1/2")


def pdn_stem(started: datetime | str, variant_name: str) -> str:
    """The one naming scheme for saved games (`play` and `run` alike):
    `YYYYMMDD-HHMMSS-variant`, from when the game started, so files sort by date."""
    if isinstance(started, str):
        try:
            started = datetime.fromisoformat(started)
        except ValueError:
            started = datetime.now()
    return f"{started:%Y%m%d-%H%M%S}-{variant_name}"


def unused_path(games_dir: Path, stem: str) -> Path:
    """`games_dir/stem.pdn`, or `stem-2.pdn`, `stem-3.pdn`... if taken (never overwrites)."""
    games_dir.mkdir(parents=True, exist_ok=True)
    path = games_dir / f"{stem}.pdn"
    n = 1
    while path.exists():
        n += 1
        path = games_dir / f"{stem}-{n}.pdn"
    return path


def write_pdn(games_dir: Path, stem: str, text: str) -> Path:
    """Write `text` to a new file in `games_dir` (never overwriting) and fsync it."""
    path = unused_path(games_dir, stem)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    _fsync_dir(games_dir)
    return path
