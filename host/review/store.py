"""The analysis kept beside the game: `NAME.analysis.json` next to `NAME.pdn`.

One file per PDN file, holding the analysis of each of its games under the
game's *content key* (`game_key`: its variant, start position and moves), so a
file that changes (a game saved again with more moves) is analysed again, and
the same game under another name is still recognised by its moves. The file also
records the analysis's version and node budget; an analysis made with others is
ignored and made again. Only complete analyses are written, atomically (a
temporary file renamed over the old one), so a power cut leaves the old file or
the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from engine import Game
from host.review.analysis import NODES, VERSION, PositionEval, move_key

FORMAT = "draughtsboard-analysis"


def game_key(game: Game) -> str:
    """The game's content: variant, start position and every move, hashed (sha256)."""
    moves = [list(move_key(move)) for move in game.moves]
    text = json.dumps([game.variant.name, game.positions[0].fen(), moves],
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def analysis_path(pdn: Path) -> Path:
    """Where the analysis of the games in `pdn` is kept."""
    return pdn.with_name(pdn.stem + ".analysis.json")


def load(path: Path, key: str, nodes: int = NODES) -> list[PositionEval] | None:
    """The stored analysis of the game `key`, or None (no file, another game, another
    version or budget, or a file that cannot be read: then it is simply made again)."""
    data = _read(path)
    if data is None or data.get("version") != VERSION or data.get("nodes") != nodes:
        return None
    entry = data.get("games", {}).get(key)
    if not isinstance(entry, dict):
        return None
    try:
        return [PositionEval.from_json(item) for item in entry["evals"]]
    except (KeyError, TypeError, ValueError):
        return None


def save(path: Path, key: str, evals: list[PositionEval], nodes: int = NODES) -> None:
    """Keep the complete analysis of game `key` in `path` (other games' entries stay)."""
    data = _read(path)
    if data is None or data.get("version") != VERSION or data.get("nodes") != nodes:
        data = {"format": FORMAT, "version": VERSION, "nodes": nodes, "games": {}}
    data["games"][key] = {"evals": [item.to_json() for item in evals]}
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".analysis-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, separators=(",", ":"))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    if not isinstance(data.get("games"), dict):
        return None
    return data
