"""The game journal: every committed move on disk before anyone hears of it.

JSON lines, one record per event (the game's header with its id, variant, start
position and players; moves; takebacks; other players; the end), appended and
fsync'd, so a power cut loses nothing that was announced. A torn line (power
lost, or the disk full, mid-write) is ignored on reading, and the next record
starts on a line of its own. The journal holds the current game only; when a
game ends (or is abandoned for a new one) its PDN goes to the games folder
(`keep_game`).

When the disk refuses a write (full, read-only, the folder gone or no longer
writable), the game goes on: what could not be written is kept in memory, in
order, and `read` answers with it as if written; every later write, and
`flush` (the runtime calls it every few seconds), tries again, and once the
disk takes it the file is whole again. The journal never raises for a write:
it logs the trouble and tells `on_trouble` once when writing stops working
(with the reason) and once when it works again (None), so the board can say so.

Every game has an id, made when it starts and kept in the header (`id`): the
broadcast names the game by it, never by a slot in a round. A journal written
before ids existed gets one derived from its header (`legacy_game_id`), so
resuming it any number of times gives the same id.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from host.players import players_or_none

log = logging.getLogger(__name__)

Record = dict[str, Any]


@dataclass
class JournalGame:
    """What a journal says about one game: enough to rebuild it with the engine."""

    variant: str
    start_fen: str
    started: str
    #: the game's id (`new_game_id`); derived from the header for an older journal
    id: str = ""
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


def new_game_id(started: str) -> str:
    """A new game's id: its start time (sorts, reads) and 32 random bits, so two games
    started in the same second, on one board or on two, never share one."""
    stamp = "".join(ch for ch in started if ch.isdigit())[:14] or "0"
    return f"{stamp}-{secrets.token_hex(4)}"


def legacy_game_id(started: str, variant: str, start_fen: str) -> str:
    """The id of a game whose journal predates ids: the same header, the same id."""
    digest = hashlib.sha256(f"{started}|{variant}|{start_fen}".encode()).hexdigest()[:8]
    stamp = "".join(ch for ch in started if ch.isdigit())[:14] or "0"
    return f"{stamp}-{digest}"


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
    """Append-only, fsync'd record of the current game at `path`, and the hand-over of
    finished games' PDN to the games folder.

    Invariant: once this journal has read or started a game, `_records` is that game as
    it stands, and the file holds its first `_on_disk` records (all of it unless
    `_rewrite`: then the file is to be written whole, a new game or a file that went
    away); `trouble` is None exactly when nothing is waiting to be written.
    """

    def __init__(self, path: Path, on_trouble: Callable[[str | None], None] | None = None) -> None:
        self.path = Path(path)
        self.on_trouble = on_trouble
        #: why writing fails now (None: everything is on disk)
        self.trouble: str | None = None
        self._records: list[Record] | None = None
        self._on_disk = 0
        self._rewrite = False
        #: saved games not written yet: (games folder, name stem, PDN text)
        self._unsaved: list[tuple[Path, str, str]] = []
        self._last_saved: Path | None = None

    def start(
        self,
        variant: str,
        start_fen: str,
        started: str | None = None,
        players: dict[str, str] | None = None,
        clock: str | None = None,
        game_id: str | None = None,
    ) -> str:
        """Begin a new game: atomically replace the file with a fresh header (with who
        plays each side and the time control, so a resumed game is played by the same
        players on the same clock, and the game's id, new unless given). Returns the id."""
        started = started or datetime.now().isoformat(timespec="seconds")
        game_id = game_id or new_game_id(started)
        header: dict[str, Any] = {
            "type": "game",
            "id": game_id,
            "variant": variant,
            "fen": start_fen,
            "started": started,
        }
        if players is not None:
            header["players"] = dict(players)
        if clock is not None:
            header["clock"] = clock
        self._records, self._on_disk, self._rewrite = [header], 0, True
        self.flush()
        return game_id

    def _append(self, record: Record) -> None:
        self._loaded().append(record)
        self.flush()

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

    def finished_later(self, ply: int, clock: dict[str, int], took: int) -> None:
        """Move `ply` was finished later than its record says (its mover acted on it again
        before the next player started): both clocks after it, re-charged."""
        self._append({"type": "clock", "ply": ply, "clock": dict(clock), "took": took})

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
        self.start(record.variant, record.start_fen, record.started, record.players, record.clock,
                   record.id)
        for entry in record.moves:
            self.move(
                entry["ply"], entry["move"], entry["from"], entry["to"], entry["captures"],
                entry["fen"], clock=entry.get("clock"), took=entry.get("took"),
            )

    def keep_game(self, games_dir: Path, stem: str, text: str) -> Path | None:
        """Write a finished (or abandoned) game's PDN to `games_dir` (`write_pdn`); if the
        disk refuses it now, it is kept and written by a later `flush` (None then)."""
        self._unsaved.append((Path(games_dir), stem, text))
        self.flush()
        return None if self._unsaved else self._last_saved

    # -- writing, whatever the disk says -----------------------------------------------

    def flush(self) -> None:
        """Write what is waiting (records, saved games), or say why it cannot; never raises."""
        problem = self._write_records()
        while self._unsaved and problem is None:
            games_dir, stem, text = self._unsaved[0]
            try:
                self._last_saved = write_pdn(games_dir, stem, text)
            except OSError as error:
                problem = f"cannot save the game in {games_dir}: {_reason(error, games_dir)}"
            else:
                self._unsaved.pop(0)
        self._report(problem)

    def _write_records(self) -> str | None:
        records = self._records
        if records is None or (self._on_disk == len(records) and not self._rewrite):
            return None
        try:
            if self._rewrite or not self.path.is_file():  # a new game, or the file went away
                self._replace(records)
            else:
                self._append_lines(records[self._on_disk :])
        except OSError as error:
            return f"cannot write the journal {self.path}: {_reason(error, self.path.parent)}"
        self._on_disk, self._rewrite = len(records), False
        return None

    def _replace(self, records: Iterable[Record]) -> None:
        """The file becomes exactly `records`, or stays as it was (write aside, rename)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.write("".join(json.dumps(r) + "\n" for r in records))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise
        _fsync_dir(self.path.parent)

    def _append_lines(self, records: Iterable[Record]) -> None:
        """Append `records`, each on a line of its own even after a torn write; a write
        that fails is cut back where the disk lets it."""
        text = "".join(json.dumps(r) + "\n" for r in records).encode("utf-8")
        # unbuffered: what the disk refused is not left in a buffer to be written later
        with open(self.path, "a+b", buffering=0) as handle:
            size = handle.seek(0, os.SEEK_END)
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    text = b"\n" + text
            try:
                left = memoryview(text)
                while left:  # write(2) may take part of it, then refuse the rest
                    written = handle.write(left)
                    if not written:
                        raise OSError(errno.EIO, "the disk took nothing")
                    left = left[written:]
                os.fsync(handle.fileno())
            except OSError:
                # a torn line left behind is skipped on reading; the next write starts anew
                with contextlib.suppress(OSError):
                    handle.truncate(size)
                raise

    def _report(self, problem: str | None) -> None:
        """Log and tell `on_trouble` when writing stops, or starts working again."""
        before, self.trouble = self.trouble, problem
        if problem is not None and problem != before:
            log.warning("%s; the game goes on in memory and is written when it can be", problem)
        elif problem is None and before is not None:
            log.info("the journal and the saved games are written again")
        if (problem is None) != (before is None) and self.on_trouble is not None:
            self.on_trouble(problem)

    # -- reading ---------------------------------------------------------------------

    def read(self) -> JournalGame | None:
        """The game as it stands (what is on disk and what waits to be written), or None
        if there is no readable journal."""
        return _game(self._loaded())

    def _loaded(self) -> list[Record]:
        """The current game's records: read from the file the first time."""
        if self._records is None:
            self._records = _read_records(self.path)
            self._on_disk = len(self._records)
        return self._records


def _read_records(path: Path) -> list[Record]:
    """The records the file holds, torn lines left out; none if it cannot be read."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    records = []
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn write (power lost, the disk full)
        if isinstance(record, dict):
            records.append(record)
    return records


def _game(records: Iterable[Record]) -> JournalGame | None:
    """The last game the records describe."""
    game: JournalGame | None = None
    for record in records:
        kind = record.get("type")
        if kind == "game":
            started = record.get("started", "")
            game_id = record.get("id")
            if not isinstance(game_id, str) or not game_id:
                game_id = legacy_game_id(started, record["variant"], record["fen"])
            game = JournalGame(record["variant"], record["fen"], started, game_id)
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
        elif kind == "clock" and game.moves and game.moves[-1].get("ply") == record.get("ply"):
            # the last move finished later than said: its clocks charged again
            game.moves[-1] = {**game.moves[-1], "clock": record.get("clock"),
                              "took": record.get("took")}
        elif kind == "players":
            game.players = players_or_none(record.get("players")) or game.players
        elif kind == "end":
            game.result, game.reason = record.get("result"), record.get("reason")
    return game


def _reason(error: OSError, folder: Path) -> str:
    """The system's words for it ("No space left on device", "Read-only file system"), or
    plain ones when a file stands where `folder` (or a folder above it) should be."""
    if isinstance(error, FileExistsError | NotADirectoryError):
        return f"{folder} is not a folder (a file stands in its way)"
    return error.strerror or str(error)


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
    """Write `text` to a new file in `games_dir` (never overwriting) and fsync it; a write
    the disk refuses leaves no file behind."""
    path = unused_path(games_dir, stem)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
        raise
    _fsync_dir(games_dir)
    return path
