"""The relay's files: per round, `games.pdn` in fixed board order and one file per game.

Layout under the output folder:

    round-3/games.pdn       every game of round 3, board 1 first (lidraughts polls this)
    round-3/board-07.pdn    one game
    round-3/round.json      what the relay knows of the round, to carry on after a restart
    unpaired/...            games on boards that have no pairing

Why fixed order, with a placeholder for a board that has not started:
lidraughts matches the games of a multi-game source to its chapters by
position in the file, so a game must never move (a board joining late would
otherwise shift every game after it). Every file is written to a temporary
name, fsync'd and renamed, so a reader never sees half a file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine import get_variant
from engine.pdn_write import write_game
from host.broadcast.relay_games import GameView, replay

UNPAIRED = "unpaired"
#: seconds between saves of a round's state (round.json) while games change
STATE_EVERY = 5.0


def round_folder(round_name: str | None) -> str:
    """A safe folder name for a round (`3` -> `round-3`)."""
    if not round_name:
        return UNPAIRED
    return "round-" + re.sub(r"[^A-Za-z0-9._-]", "_", round_name)


def write_atomic(path: Path, text: str, *, durable: bool = False) -> None:
    """Replace `path` with `text` through a temporary file and a rename, so a reader
    sees the old file or the new one, never half. `durable` also fsyncs (for the
    relay's own state; the PDN files are rebuilt from the broker after a crash)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(text.encode("utf-8"))
        if durable:
            handle.flush()
            os.fsync(handle.fileno())
    os.replace(tmp, path)


@dataclass
class Pairing:
    board: int
    board_id: str
    white: str | None
    black: str | None


@dataclass
class RoundRecord:
    """One round: its pairings (from the organiser) and the latest game seen per board."""

    name: str | None
    event: str | None = None
    pairings: dict[int, Pairing] = field(default_factory=dict)
    games: dict[str, GameView] = field(default_factory=dict)  # key: board number or board id

    def ordered(self) -> list[tuple[str, Pairing | None, GameView | None]]:
        """(key, pairing, game) in board order: paired boards by number, then the rest."""
        keys: dict[str, Pairing | None] = {str(n): p for n, p in sorted(self.pairings.items())}
        extra = sorted(
            (k for k in self.games if k not in keys),
            key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k),
        )
        return [(k, keys.get(k), self.games.get(k)) for k in [*keys, *extra]]


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")


def _clean(value: str | None) -> str | None:
    """A tag value as the strict writer takes it: no line breaks or control characters
    (a board's message or a pairings file may carry any text)."""
    return _CONTROL.sub(" ", value).strip() or None if value else None


def game_key(view: GameView) -> str:
    return str(view.board) if view.board is not None else view.board_id


def pdn_of(round_record: RoundRecord, pairing: Pairing | None, view: GameView | None,
           key: str, variant_name: str) -> str:
    """One game's PDN: players and Round `r.b` from the pairing, else from the board."""
    number = pairing.board if pairing else (view.board if view else None)
    round_tag = f"{round_record.name}.{number}" if round_record.name and number else "?"
    white = (pairing.white if pairing else None) or (view.white if view else None)
    black = (pairing.black if pairing else None) or (view.black if view else None)
    event = (view.event if view and view.event else None) or round_record.event
    tags = {
        "Event": _clean(event) or "?",
        "Site": "?",
        "Date": view.date if view else "????.??.??",
        "Round": _clean(round_tag) or "?",
        "White": _clean(white) or "?",
        "Black": _clean(black) or "?",
    }
    if view is None:  # a paired board with no game yet: its place is kept
        variant = get_variant(variant_name)
        return write_game(variant, tags, [], "*")
    variant = get_variant(view.variant)
    start = None if view.start_fen == variant.initial_position().fen() else view.start_fen
    return write_game(variant, tags, view.moves, view.result or "*", start)


class RoundWriter:
    """Keeps every round seen and writes its files when they change."""

    def __init__(self, out_dir: Path, state_every: float = STATE_EVERY) -> None:
        self.out_dir = Path(out_dir)
        self.rounds: dict[str | None, RoundRecord] = {}
        self.state_every = state_every
        # (round, key) -> (the view, the pairing's names, variant, its PDN): a game's text
        # is made again only when its view object changes (views are immutable)
        self._pdn: dict[tuple[str | None, str], tuple[Any, ...]] = {}
        self._on_disk: dict[Path, str] = {}  # what this relay last wrote to each file
        self._state_saved: dict[str | None, float] = {}
        self.load()

    def round(self, name: str | None) -> RoundRecord:
        return self.rounds.setdefault(name, RoundRecord(name))

    def set_pairings(self, name: str, event: str | None, pairings: list[Pairing]) -> None:
        record = self.round(name)
        record.event = event
        record.pairings = {p.board: p for p in pairings}

    def file_game(self, view: GameView,
                  current_round: RoundRecord | None) -> tuple[str | None, GameView]:
        """Put `view` in its round (its own tag, else the current round's pairing for its
        board id, else unpaired); returns the round's name and the game as filed."""
        name = view.round
        if name is None and current_round is not None:
            for pairing in current_round.pairings.values():
                if pairing.board_id == view.board_id:
                    name = current_round.name
                    view = _with_board(view, pairing.board)
                    break
        record = self.round(name)
        record.games[game_key(view)] = view
        return name, view

    def write(self, name: str | None, default_variant: str = "brazilian", *,
              now: float | None = None) -> list[Path]:
        """Write the round's files whose text changed; the paths written. The round's
        state (round.json) is saved at most every `state_every` seconds of `now`
        (and always when `now` is None)."""
        record = self.round(name)
        folder = self.out_dir / round_folder(name)
        written: list[Path] = []
        texts: list[str] = []
        variants = {v.variant for v in record.games.values()}
        variant_name = next(iter(variants)) if len(variants) == 1 else default_variant
        for key, pairing, view in record.ordered():
            names = (pairing.white, pairing.black) if pairing else None
            cached = self._pdn.get((name, key))
            if cached and _same_record(cached[0], view) and cached[1:3] == (names, variant_name):
                text = cached[3]
            else:
                text = pdn_of(record, pairing, view, key, variant_name)
                self._pdn[(name, key)] = (view, names, variant_name, text)
            texts.append(text)
            stem = f"board-{int(key):02d}" if key.isdigit() else f"board-{key}"
            written += self._replace(folder / f"{stem}.pdn", text)
        written += self._replace(folder / "games.pdn", "".join(texts))
        last = self._state_saved.get(name)
        if now is None or last is None or now - last >= self.state_every:
            self.save_state(name, now)
        return written

    def save_state(self, name: str | None, now: float | None = None) -> None:
        """round.json, fsync'd: what a restarted relay carries on from."""
        record = self.round(name)
        path = self.out_dir / round_folder(name) / "round.json"
        write_atomic(path, json.dumps(_round_json(record), indent=1), durable=True)
        self._state_saved[name] = now if now is not None else 0.0

    def save_all(self) -> None:
        for name in list(self.rounds):
            if self.rounds[name].games or self.rounds[name].pairings:
                self.save_state(name)

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

    def games_pdn(self, name: str | None) -> str:
        path = self.out_dir / round_folder(name) / "games.pdn"
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            return ""

    # -- carrying on after a restart ----------------------------------------------------

    def load(self) -> None:
        """Read back every `round.json` (a restarted relay keeps earlier rounds whole)."""
        if not self.out_dir.is_dir():
            return
        for path in sorted(self.out_dir.glob("*/round.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                record = self.round(data.get("name"))
                record.event = data.get("event")
                for p in data.get("pairings", []):
                    record.pairings[int(p["board"])] = Pairing(
                        int(p["board"]), p["board_id"], p.get("white"), p.get("black"))
                for key, game in data.get("games", {}).items():
                    record.games[key] = _view_from_json(game)
            except (OSError, ValueError, KeyError, TypeError) as error:
                print(f"relay: cannot read {path}: {error}; that round starts afresh")


def _same_record(a: GameView | None, b: GameView | None) -> bool:
    """Would both give the same PDN? (A board going offline changes its view, not its
    game; the moves tuple is shared between such views, so `is` compares it cheaply.)"""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return (a.moves is b.moves and (a.game, a.result, a.white, a.black, a.event, a.round,
                                    a.board, a.start_fen) ==
            (b.game, b.result, b.white, b.black, b.event, b.round, b.board, b.start_fen))


def _with_board(view: GameView, board: int) -> GameView:
    return replace(view, board=board)


def _round_json(record: RoundRecord) -> dict[str, Any]:
    return {
        "name": record.name,
        "event": record.event,
        "pairings": [vars(p) for _, p in sorted(record.pairings.items())],
        "games": {key: view.to_json(with_diagram=False) for key, view in record.games.items()},
    }


def _view_from_json(data: dict[str, Any]) -> GameView:
    variant = get_variant(data["variant"])
    game = replay(variant, data["start_fen"], data["moves"])
    return GameView(
        board_id=data["board_id"], game=data["game"], variant=variant.name,
        start_fen=data["start_fen"], moves=tuple(game.moves), move_texts=tuple(data["moves"]),
        fen=game.fen(), white=data.get("white"), black=data.get("black"),
        event=data.get("event"), round=data.get("round"), board=data.get("board"),
        result=data.get("result"), reason=data.get("reason"), online=False,
        ts=float(data.get("ts") or 0.0),
    )
