"""Which game a review is of: a saved game, an uploaded PDN file, or the game just finished.

A review names its game by an id, `saved:NAME.pdn` (a file of the games folder)
or `upload:HASH.pdn` (an uploaded file, kept in the folder's `uploads/` under its
content's hash), and a game number in that file (from 1). The game just finished
is its saved file: `current_id` finds it by its moves. Every game is read with
the engine's PDN reader, so any of the eight variants, named by GameType or
inferred, is reviewed with its own rules.

An upload is checked whole before anything is written: not PDN, a variant this
board does not play, an illegal move, no moves, more than `MAX_UPLOAD` bytes:
each refused with one line saying what is wrong (`ReviewError`), and nothing
is kept.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, Position
from engine.pdn import PdnError, PdnGame, UnsupportedVariantError, read_games
from engine.variant import WHITE
from host.records.journal import pdn_stem
from host.review.analysis import move_data
from host.review.store import analysis_path, game_key
from host.voice.messages import VARIANT_NAMES

#: a saved game's file name (what the games folder may hand out)
SAVED_GAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.pdn$")
UPLOAD = re.compile(r"^[0-9a-f]{16}\.pdn$")
UPLOADS = "uploads"
#: the largest PDN file accepted for review: a long tournament's worth of games
MAX_UPLOAD = 1 << 20
#: games read from one file (a bigger collection is a database, not a game to review)
MAX_GAMES = 500


class ReviewError(Exception):
    """A review that cannot be made; `status` is the HTTP status that fits, `code` what
    kind of refusal it is (the page says it in the viewer's language: "too-large",
    "binary", "not-pdn", "variant", "illegal", "no-moves", "no-game", "not-found",
    "still-playing", "forbidden", "cannot-keep", "bad-request") and `detail` the engine's
    or the system's own words, when there are any."""

    def __init__(self, message: str, status: int = 400, code: str = "bad-request",
                 detail: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class ReviewGame:
    """One game to review: where it comes from, the game itself and its content key."""

    id: str
    number: int
    game: PdnGame
    key: str
    store: Path  # where its analysis is kept (beside the PDN file)
    file_games: tuple[dict[str, Any], ...]  # every game of its file, as a list shows it

    @property
    def sides(self) -> list[str]:
        """Who plays each move."""
        return [position.turn for position in self.game.positions[:-1]]


def file_of(games_dir: Path, review_id: str) -> Path:
    """The PDN file a review id names; ReviewError(404) for an id that names none."""
    kind, _, name = review_id.partition(":")
    if kind == "saved" and SAVED_GAME.match(name):
        path = games_dir / name
    elif kind == "upload" and UPLOAD.match(name):
        path = games_dir / UPLOADS / name
    else:
        raise ReviewError(f"no such game {review_id!r}", 404, "not-found")
    if not path.is_file():
        raise ReviewError(f"no such game {review_id!r}", 404, "not-found")
    return path


def load(games_dir: Path, review_id: str, number: int = 1) -> ReviewGame:
    """Game `number` of the file `review_id` names, read and replayed (remembered while
    the file stays the same: the page asks again every second while it is analysed)."""
    path = file_of(games_dir, review_id)
    games = _games_in(path)
    if not 1 <= number <= len(games):
        raise ReviewError(f"{path.name} has {len(games)} game(s), not a game {number}", 404,
                          "not-found")
    game = games[number - 1]
    if game.error is not None:
        raise ReviewError(f"game {number} cannot be reviewed: {game.error}", 422, "illegal",
                          game.error)
    if not game.moves:
        raise ReviewError(f"game {number} has no moves to review", 422, "no-moves")
    return ReviewGame(review_id, number, game, game_key(game), analysis_path(path),
                      tuple(summary(candidate) for candidate in games))


def read_all(data: bytes) -> list[PdnGame]:
    """Every game of a PDN file (at most MAX_GAMES); ReviewError(422) when the text is
    not PDN at all or names a variant this board does not play."""
    if b"\x00" in data[:4096]:
        raise ReviewError("this is not a PDN file (it holds binary data)", 422, "binary")
    games: list[PdnGame] = []
    try:
        for game in read_games(data):
            games.append(game)
            if len(games) >= MAX_GAMES:
                break
    except UnsupportedVariantError as error:
        raise ReviewError(f"game {error.game}: {error.reason}", 422, "variant",
                          error.reason) from None
    except PdnError as error:
        raise ReviewError(f"this is not a PDN file this board can read ({error})", 422,
                          "not-pdn", str(error)) from None
    if not games:
        raise ReviewError("no game found in the file", 422, "no-game")
    return games


def accept_upload(games_dir: Path, data: bytes) -> tuple[str, list[dict[str, Any]]]:
    """Check an uploaded PDN file and keep it for review: (its id, its games). Nothing
    is written unless at least one game can be reviewed."""
    if len(data) > MAX_UPLOAD:
        raise ReviewError(f"the file is too large ({len(data)} bytes; at most {MAX_UPLOAD})",
                          413, "too-large")
    games = read_all(data)
    reviewable = [game for game in games if game.error is None and game.moves]
    if not reviewable:
        first = games[0]
        if first.error is not None:
            raise ReviewError(f"game {first.number}: {first.error}", 422, "illegal",
                              first.error)
        raise ReviewError("the game has no moves to review", 422, "no-moves")
    name = hashlib.sha256(data).hexdigest()[:16] + ".pdn"
    folder = games_dir / UPLOADS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if not path.exists():
        temporary = folder / f".{name}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, path)
    return f"upload:{name}", [summary(game) for game in games]


def summary(game: PdnGame) -> dict[str, Any]:
    """A game as a list shows it: players, result, variant, moves, or why it cannot be
    reviewed."""
    tags = game.tags
    why = game.error if game.error is not None else (None if game.moves else "no moves")
    return {"number": game.number, "white": tags.get("White", ""),
            "black": tags.get("Black", ""), "event": tags.get("Event", ""),
            "date": tags.get("Date", ""), "result": game.claimed_result or "*",
            "variant": game.variant.name, "plies": len(game.moves), "error": why}


def listing(games_dir: Path, limit: int = 100) -> list[dict[str, Any]]:
    """The saved and uploaded games, newest first: each file's id, name, first game and
    how many games it holds."""
    entries: list[tuple[float, Path, str]] = []
    for folder, kind, pattern in ((games_dir, "saved", SAVED_GAME),
                                  (games_dir / UPLOADS, "upload", UPLOAD)):
        try:
            for path in folder.iterdir():
                if pattern.match(path.name) and path.is_file():
                    entries.append((path.stat().st_mtime, path, kind))
        except OSError:
            continue
    entries.sort(key=lambda entry: entry[0], reverse=True)
    found = []
    for _, path, kind in entries[:limit]:
        item = _describe(path, kind)
        if item is not None:
            found.append(item)
    return found


_described: dict[tuple[str, int, int], dict[str, Any] | None] = {}
_read: dict[tuple[str, int, int], list[PdnGame]] = {}
_lock = threading.Lock()  # the routes read files in worker threads


def _games_in(path: Path) -> list[PdnGame]:
    """The games of a file, read once per version of the file (a few files remembered)."""
    try:
        stat = path.stat()
        cache_key = (str(path), stat.st_mtime_ns, stat.st_size)
        with _lock:
            known = _read.get(cache_key)
        if known is not None:
            return known
        data = path.read_bytes()
    except OSError as error:
        raise ReviewError(f"cannot read {path.name}: {error.strerror}", 404, "not-found",
                          str(error.strerror)) from None
    games = read_all(data)
    with _lock:
        if len(_read) >= 8:
            _read.pop(next(iter(_read)))
        _read[cache_key] = games
    return games


def _describe(path: Path, kind: str) -> dict[str, Any] | None:
    """One file for the list (remembered while the file stays the same)."""
    try:
        stat = path.stat()
        cache_key = (str(path), stat.st_mtime_ns, stat.st_size)
        with _lock:
            if cache_key in _described:
                return _described[cache_key]
        games = read_all(path.read_bytes())
    except (OSError, ReviewError):
        return None
    first = games[0]
    item = {"id": f"{kind}:{path.name}", "name": path.name, "kind": kind,
            "games": len(games), **summary(first)}
    with _lock:
        if len(_described) > 1000:
            _described.clear()
        _described[cache_key] = item
    return item


def current_id(games_dir: Path, game: Game, started: str) -> str:
    """The saved file of the game just finished (found by its moves among the files
    named after its start)."""
    key = game_key(game)
    stem = pdn_stem(started, game.variant.name)
    for path in sorted(games_dir.glob(f"{stem}*.pdn")):
        if not SAVED_GAME.match(path.name):
            continue
        try:
            games = read_all(path.read_bytes())
        except (OSError, ReviewError):
            continue
        if any(candidate.error is None and game_key(candidate) == key for candidate in games):
            return f"saved:{path.name}"
    raise ReviewError("the finished game is not in the games folder (it could not be saved)",
                      404, "not-found")


def pieces(position: Position) -> dict[str, str]:
    """Square -> "W", "B", "WK", "BK", as the page draws them."""
    return {str(square): piece.color + ("K" if piece.king else "")
            for square, piece in position.pieces().items()}


def game_json(review: ReviewGame, colours: Mapping[str, str]) -> dict[str, Any]:
    """Everything the review page needs to draw every position and name every move."""
    game = review.game
    variant = game.variant
    numbered = range(1, variant.num_squares + 1)
    first_black = game.positions[0].turn != WHITE
    moves = []
    for ply, (before, move) in enumerate(zip(game.positions, game.moves, strict=False)):
        moves.append({**move_data(before, move), "ply": ply, "side": before.turn,
                      "number": (ply + first_black) // 2 + 1})
    return {
        "id": review.id,
        "number": review.number,
        "games": len(review.file_games),
        "file_games": list(review.file_games) if len(review.file_games) > 1 else [],
        "key": review.key,
        "variant": variant.name,
        "variant_names": {language: names.get(variant.name, variant.name)
                          for language, names in VARIANT_NAMES.items()},
        "size": variant.size,
        "squares": {str(sq): list(variant.square_coords(sq)) for sq in numbered},
        "names": ({str(sq): variant.square_name(sq) for sq in numbered}
                  if variant.notation == "algebraic" else None),
        "colours": dict(colours),
        "tags": dict(game.tags),
        "result": game.claimed_result or "*",
        "positions": [{"pieces": pieces(position), "turn": position.turn}
                      for position in game.positions],
        "moves": moves,
    }
