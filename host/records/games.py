"""The journal's games as the engine knows them: rebuilt, resumed, and saved as PDN.

Why apart from the session: which game to resume decides how the board is
opened (its variant's size and numbering), before any session exists; and a
saved game is the same PDN whether the game ended, was abandoned for a new
one, or was set aside for another variant.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from engine import Game, Position, get_variant
from engine.pdn_clocks import clock_comment
from engine.pdn_write import write_game
from host.clock.control import parse_time_control
from host.config import Config
from host.errors import UserError
from host.records.journal import Journal, JournalGame, pdn_stem, write_pdn

log = logging.getLogger(__name__)


def variant_to_play(config: Config, *, explicit: bool, resume: bool = True) -> Config:
    """The config with the variant the session will play: without an explicit `--variant`,
    an unfinished game in the journal is resumed in its own variant (the board must be
    laid out for it before it is opened)."""
    if explicit or not resume:
        return config
    record = Journal(config.journal).read()
    if record is None or record.finished or record.variant == config.variant:
        return config
    return config.with_overrides(variant=record.variant)


def rebuild(record: JournalGame) -> Game:
    """The journal's game replayed through the engine (moves matched by from/to/captures)."""
    variant = get_variant(record.variant)
    game = Game(variant, Position.from_fen(record.start_fen, variant))
    for entry in record.moves:
        key = (entry["from"], entry["to"], frozenset(entry["captures"]))
        match = [m for m in game.legal_moves() if (m.origin, m.destination, m.captures) == key]
        if len(match) != 1:
            raise UserError(f"the journal's move {entry.get('move')!r} is not legal; start anew")
        game.push(match[0])
    return game


def resumable_game(config: Config) -> Game | None:
    """The unfinished game of `config.variant` in the journal, rebuilt, or None: what
    `Session` resumes once `variant_to_play` has chosen the variant. The live runtime asks
    first, to set the simulator's pieces up as that game stands."""
    record = Journal(config.journal).read()
    if record is None or record.finished or record.variant != config.variant:
        return None
    return rebuild(record)


def pdn_text(record: JournalGame, result: str, tags: Mapping[str, str] | None = None) -> str:
    """The journal's game as PDN, with `result` (`*` while it goes on); `tags` add to or
    replace the board's own (players, event and round from a club's pairings). A timed
    game has its `TimeControl` (seconds + increment), both clocks after every move as
    lidraughts writes them, and `Termination "Time forfeit"` when a flag fell."""
    variant = get_variant(record.variant)
    start = Position.from_fen(record.start_fen, variant)
    start_fen = None if start.fen() == variant.initial_position().fen() else record.start_fen
    game = rebuild(record)
    clocked: dict[str, str] = {}
    control = parse_time_control(record.clock) if record.clock else None
    if control is not None:
        clocked["TimeControl"] = control.pdn()
    if record.reason == "time":
        clocked["Termination"] = "Time forfeit"
    tags = {
        "Event": "draughtsboard",
        "Site": "draughtsboard",
        "Date": record.started[:10].replace("-", "."),
        **clocked,
        **(tags or {}),
    }
    comments = [
        clock_comment(game.positions[ply].turn, clock["white"] / 1000, clock["black"] / 1000)
        if isinstance(clock := entry.get("clock"), dict) else None
        for ply, entry in enumerate(record.moves)
    ]
    return write_game(variant, tags, list(game.moves), result, start_fen, comments=comments)


def save_game(
    record: JournalGame,
    result: str,
    games_dir: Path,
    tags: Mapping[str, str] | None = None,
    journal: Journal | None = None,
) -> Path | None:
    """Write the game's PDN to the games folder (a game is never lost); None if it cannot
    be written now: handed to `journal` (`Journal.keep_game`), it is written when the disk
    takes it again; without one, it is only said in the log. The game goes on either way."""
    text = pdn_text(record, result, tags)
    stem = pdn_stem(record.started, record.variant)
    if journal is not None:
        return journal.keep_game(games_dir, stem, text)
    try:
        return write_pdn(games_dir, stem, text)
    except OSError as error:
        log.warning("cannot save the game in %s: %s", games_dir, error.strerror or error)
        return None
