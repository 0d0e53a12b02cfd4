"""The relay's files: per round, `games.pdn` in a fixed order and one file per game.

Layout under the output folder:

    round-3/games.pdn        every game of round 3: board 1 first, then later games
    round-3/board-07.pdn     board 7's game; board-07-2.pdn its second of the round
    unpaired/...             games of boards without pairings (board-b9.pdn)

The order is `relay_rounds.Rounds.layout`'s: a game never moves in the file,
since lidraughts matches the games of a multi-game source to its chapters by
position. A paired board that has not started yet keeps its place (tags, no
moves, `*`). Every file is written to a temporary name and renamed, so a
reader never sees half a file; they are rebuilt from the relay's store, so
they need no fsync of their own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from engine import get_variant
from engine.pdn_clocks import clock_comment
from engine.pdn_write import write_game
from host.broadcast.relay_games import GameView
from host.broadcast.relay_rounds import RoundRecord, Slot
from host.clock.control import parse_time_control
from host.errors import UserError

UNPAIRED = "unpaired"
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")


def round_folder(round_name: str | None) -> str:
    """A safe folder name for a round (`3` -> `round-3`)."""
    if not round_name:
        return UNPAIRED
    return "round-" + re.sub(r"[^A-Za-z0-9._-]", "_", round_name)


def write_atomic(path: Path, text: str, *, durable: bool = False) -> None:
    """Replace `path` with `text` through a temporary file and a rename, so a reader
    sees the old file or the new one, never half; `durable` also fsyncs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(text.encode("utf-8"))
        if durable:
            handle.flush()
            os.fsync(handle.fileno())
    os.replace(tmp, path)


def _clean(value: str | None) -> str | None:
    """A tag value as the strict writer takes it: no line breaks or control characters
    (a board's message or a pairings file may carry any text)."""
    return _CONTROL.sub(" ", value).strip() or None if value else None


def pdn_of(record: RoundRecord, slot: Slot, view: GameView | None, variant_name: str) -> str:
    """One game's PDN. A paired game's players, event and `Round "r.b"` come from the
    organiser's pairings, never from the board; an unpaired game's from the board."""
    pairing = slot.pairing
    if pairing is not None and record.name is not None:
        round_tag = f"{record.name}.{pairing.board}" + (f".{slot.nth}" if slot.nth > 1 else "")
        white, black, event = pairing.white, pairing.black, record.event
    else:
        round_tag = "?"
        white, black = (view.white, view.black) if view else (None, None)
        event = record.event if record.name is not None else (view.event if view else None)
    tags = {
        "Event": _clean(event) or "?",
        "Site": "?",
        "Date": view.date if view else "????.??.??",
        "Round": _clean(round_tag) or "?",
        "White": _clean(white) or "?",
        "Black": _clean(black) or "?",
    }
    if view is None:  # a paired board with no game yet: its place is kept
        return write_game(get_variant(variant_name), tags, [], "*")
    variant = get_variant(view.variant)
    start = None if view.start_fen == variant.initial_position().fen() else view.start_fen
    tags.update(_clock_tags(view))
    return write_game(variant, tags, view.moves, view.result or "*", start,
                      comments=_clock_comments(view))


def _clock_tags(view: GameView) -> dict[str, str]:
    """A timed game's `TimeControl` (seconds + increment), and `Termination` when a flag
    fell, as the board's own PDN has them (docs/pdn.md)."""
    tags: dict[str, str] = {}
    clocks = view.clocks or {}
    try:
        control = parse_time_control(str(clocks["control"])) if "control" in clocks else None
    except UserError:
        control = None  # a board's text this relay cannot read: the game without it
    if control is not None:
        tags["TimeControl"] = control.pdn()
    if view.reason == "time":
        tags["Termination"] = "Time forfeit"
    return tags


def _clock_comments(view: GameView) -> list[str | None]:
    """Both clocks after each move, as lidraughts writes them, where the board said them."""
    after = (view.clocks or {}).get("after")
    if not isinstance(after, list):
        return []
    comments: list[str | None] = []
    for ply, pair in enumerate(after[: len(view.moves)]):
        ok = isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in pair)
        mover = _mover(view, ply)
        comments.append(clock_comment(mover, pair[0] / 1000, pair[1] / 1000) if ok else None)
    return comments


def _mover(view: GameView, ply: int) -> str:
    """Who made ply `ply` (from 0) of the game (the start position's side, alternating)."""
    first = view.start_fen.strip()[:1].upper()
    first = first if first in ("W", "B") else "W"
    return first if ply % 2 == 0 else ("B" if first == "W" else "W")


class RoundWriter:
    """Writes each round's files when their text changes (and removes files of games
    that moved to another round)."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        # (round, slot key) -> (view, pairing, nth, variant, text): a game's text is made
        # again only when its view object changes (views are immutable)
        self._pdn: dict[tuple[str | None, str], tuple[object, ...]] = {}
        self._on_disk: dict[Path, str] = {}  # what this relay last wrote to each file
        self._games: dict[str | None, str] = {}  # each round's games.pdn text

    def write(self, record: RoundRecord, slots: list[Slot],
              views: Mapping[tuple[str, str], GameView | None],
              default_variant: str = "brazilian") -> list[Path]:
        """Write the round's files whose text changed; the paths written."""
        folder = self.out_dir / round_folder(record.name)
        shown = [views.get(slot.game) if slot.game else None for slot in slots]
        variants = {view.variant for view in shown if view is not None}
        variant_name = next(iter(variants)) if len(variants) == 1 else default_variant
        written: list[Path] = []
        texts: list[str] = []
        wanted: set[Path] = set()
        for slot, view in zip(slots, shown, strict=True):
            cache_key = (record.name, slot.key)
            cached = self._pdn.get(cache_key)
            if cached and cached[0] is view and cached[1:4] == (slot.pairing, record.event,
                                                                variant_name):
                text = str(cached[4])
            else:
                text = pdn_of(record, slot, view, variant_name)
                self._pdn[cache_key] = (view, slot.pairing, record.event, variant_name, text)
            texts.append(text)
            path = folder / f"{slot.file_stem}.pdn"
            wanted.add(path)
            written += self._replace(path, text)
        games = "".join(texts)
        self._games[record.name] = games
        written += self._replace(folder / "games.pdn", games)
        for path in [p for p in self._on_disk if p.parent == folder and p not in wanted
                     and p.name != "games.pdn"]:
            path.unlink(missing_ok=True)  # a game that moved to another round
            del self._on_disk[path]
        return written

    def games_pdn(self, name: str | None) -> str:
        """The round's games.pdn as last written ("" before)."""
        return self._games.get(name, "")

    def _replace(self, path: Path, text: str) -> list[Path]:
        if self._on_disk.get(path) == text:
            return []
        if path not in self._on_disk:  # first time in this run: maybe already there
            try:
                if path.read_text(encoding="utf-8") == text:
                    self._on_disk[path] = text
                    return []
            except (OSError, UnicodeDecodeError):
                pass
        write_atomic(path, text)
        self._on_disk[path] = text
        return [path]
