"""`draughtsboard check-game FILE.pdn`: replay every game of a PDN file through the rules.

For clubs checking a tournament file before publishing it and for us checking
the engine against real games: each game is replayed in its variant (named,
from GameType, or inferred), and the first illegal move, the final position,
the engine's verdict and whether the file's result agrees are reported. The
exact meaning of every field is in docs/pdn.md.

Exit status: 0 all games legal, 1 some game has an illegal move, 2 the file
cannot be read (missing, malformed PDN, unknown variant).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine import Variant
from engine.pdn import PdnError, PdnGame, read_games
from engine.pdn_replay import Replay, replay_game
from host.commands._engine_args import variant_from
from host.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the `check-game` sub-command."""
    parser = subparsers.add_parser(
        "check-game",
        help="replay the games of a PDN file and report illegal moves and results",
        description=(
            "Replay every game of a PDN file. Reports per game the first illegal move, "
            "the final FEN, the outcome the engine finds and whether the result agrees."
        ),
    )
    parser.add_argument("file", metavar="FILE.pdn", help="PDN file to check")
    parser.add_argument(
        "--variant",
        help="rules to use for every game (overrides GameType and inference)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per game per line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check the file; print the report; 1 if any game has an illegal move."""
    variant = None if args.variant is None else variant_from(args.variant)
    games = _read(Path(args.file))
    replays = [_replay(game, variant) for game in games]
    if args.json:
        for replay in replays:
            print(json.dumps(report(replay), ensure_ascii=False))
    else:
        for replay in replays:
            print(_line(replay))
        print(_summary(args.file, replays))
    return 1 if any(not replay.legal for replay in replays) else 0


def report(replay: Replay) -> dict[str, Any]:
    """The JSON object for one game (field meanings: docs/pdn.md)."""
    outcome = replay.outcome
    return {
        "game": replay.game.index,
        "plies": replay.plies,
        "legal": replay.legal,
        "error": replay.error,
        "final_fen": replay.final_fen,
        "outcome": replay.engine_result,
        "result_tag": replay.game.result_tag(),
        "agrees": replay.agrees,
        "variant": replay.variant.name,
        "variant_inferred": replay.inferred,
        "error_ply": replay.error_ply,
        "error_move": replay.error_move,
        "outcome_reason": outcome.reason if outcome else None,
        "outcome_ply": replay.outcome_ply,
        "terminator": replay.game.result,
        "notes": replay.notes,
    }


def _read(path: Path) -> list[PdnGame]:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        games = read_games(data)
    except PdnError as error:
        raise UserError(f"{path}: {error}") from None
    if not games:
        raise UserError(f"{path}: no game found")
    return games


def _replay(game: PdnGame, variant: Variant | None) -> Replay:
    try:
        return replay_game(game, variant)
    except PdnError as error:
        raise UserError(str(error)) from None


def _line(replay: Replay) -> str:
    """One human-readable line per game."""
    variant = replay.variant.name + (" (inferred)" if replay.inferred else "")
    head = f"game {replay.game.index}: {variant}, {replay.plies} plies"
    if not replay.legal:
        return f"{head}, ILLEGAL at {replay.error}"
    if replay.outcome is not None:
        verdict = f"engine: {replay.engine_result} ({replay.outcome.reason}"
        if replay.outcome_ply is not None and replay.outcome_ply < replay.plies:
            verdict += f" after ply {replay.outcome_ply}, play went on"
        verdict += ")"
    else:
        verdict = "engine: game not over"
    claimed = replay.claimed_result or "none"
    agreement = "agrees" if replay.agrees else "DISAGREES"
    notes = "".join(f"; note: {note}" for note in replay.notes)
    return f"{head}, legal; {verdict}; result {claimed} {agreement}{notes}"


def _summary(name: str, replays: list[Replay]) -> str:
    legal = sum(replay.legal for replay in replays)
    agree = sum(replay.agrees for replay in replays)
    return (
        f"{name}: {len(replays)} games, {legal} legal, {len(replays) - legal} with an illegal "
        f"move, {agree} agree with their result"
    )
