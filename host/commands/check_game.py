"""`draughtsboard check-game FILE.pdn|FOLDER ...`: replay every game of PDN files through the rules.

For clubs checking a tournament file before publishing it and for us checking
the engine against real games: each game is replayed in its variant (named,
from GameType, or inferred, with the grounds printed), and the players, the
first illegal move, the final position, the engine's verdict and whether the
file's result agrees are reported, one game at a time as it is read, so a
collection of any size runs in the same memory. The exact meaning of every
field is in docs/pdn.md.

Exit status: 0 every game legal; 1 some game has an illegal move or is in a
variant not played here; 2 some input cannot be read (a missing file, broken
PDN text, an unknown `--variant`); the other games are still checked.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.pdn import PdnError, PdnGame, UnsupportedVariantError, read_games
from engine.pdn_results import meaning
from engine.variant import Variant
from host.commands._engine_args import variant_from
from host.errors import ExitStatus


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `check-game` sub-command."""
    parser = subparsers.add_parser(
        "check-game",
        help="replay the games of PDN files and report illegal moves and results",
        description=(
            "Replay every game of PDN files (and of the .pdn files in folders). Reports per "
            "game the players, the variant and why, the first illegal move, the final FEN, the "
            "outcome the engine finds and whether the result agrees."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE.pdn|FOLDER",
                        help="PDN files, or folders searched for .pdn files")
    parser.add_argument(
        "--variant",
        help="rules to use for every game (overrides GameType and inference)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per game per line")
    parser.set_defaults(func=run)


class _Tally:
    """Counts for the summary lines; games are not kept (memory stays flat)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def add(self, game: PdnGame) -> None:
        self.counts["games"] += 1
        self.counts["legal"] += game.error is None
        self.counts["agree"] += agrees(game)

    def line(self, name: str) -> str:
        c = self.counts
        text = (f"{name}: {c['games']} games, {c['legal']} legal, {c['games'] - c['legal']} "
                f"with an illegal move, {c['agree']} agree with their result")
        if c["unsupported"]:
            text += f", {c['unsupported']} in a variant not played here"
        if c["unreadable"]:
            text += f", {c['unreadable']} unreadable"
        return text


def run(args: argparse.Namespace) -> int:
    """Check the files; print the report; the exit status says the worst finding."""
    variant = None if args.variant is None else variant_from(args.variant)
    total = _Tally()
    files = 0
    for path in _pdn_files(args.files):
        files += 1
        tally = _check_file(path, variant, args.json)
        total.counts.update(tally.counts)
        if not args.json and (tally.counts["games"] or tally.counts["unsupported"]):
            print(tally.line(str(path)), flush=True)
    if not args.json and files > 1 and (total.counts["games"] or total.counts["unsupported"]):
        print(total.line(f"{files} files"))
    counts = total.counts
    if counts["unreadable"] or counts["missing"]:
        return ExitStatus.CONFIGURATION
    if counts["games"] > counts["legal"] or counts["unsupported"]:
        return ExitStatus.FOUND_PROBLEMS
    return ExitStatus.OK


def _pdn_files(names: list[str]) -> Iterator[Path]:
    """The files named, and the .pdn files under the folders named, in a stable order."""
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdn" and p.is_file())
            if not found:
                _complain(f"{path}: no .pdn file in this folder")
            yield from found
        else:
            yield path


def _check_file(path: Path, variant: Variant | None, as_json: bool) -> _Tally:
    tally = _Tally()

    def on_error(error: PdnError) -> None:
        if isinstance(error, UnsupportedVariantError):
            tally.counts["unsupported"] += 1
            if as_json:
                _print_json({"file": str(path), "game": error.game, "checked": False,
                             "error": str(error)})
            else:
                print(f"game {error.game}: not checked: {error.reason}", flush=True)
        else:
            tally.counts["unreadable"] += 1
            _complain(f"{path}: {error}")

    try:
        handle = path.open("rb")
    except OSError as error:
        tally.counts["missing"] += 1
        _complain(f"cannot read {path}: {error.strerror or error}")
        return tally
    with handle:
        for game in read_games(handle, variant, on_error=on_error):
            tally.add(game)
            if as_json:
                _print_json({"file": str(path), **report(game)})
            else:
                print(_line(game), flush=True)
    if not (tally.counts["games"] or tally.counts["unsupported"] or tally.counts["unreadable"]):
        tally.counts["unreadable"] += 1
        _complain(f"{path}: no game found")
    return tally


def _complain(message: str) -> None:
    """One line on stderr, like `host.cli` does for a `UserError`; checking goes on."""
    print(f"draughtsboard: {message}", file=sys.stderr, flush=True)


def _print_json(row: dict[str, Any]) -> None:
    print(json.dumps(row, ensure_ascii=False), flush=True)


def agrees(game: PdnGame) -> bool:
    """Whether the result the file claims is consistent with the replay.

    Never for a game with an illegal move. When the engine finds the game
    over, the claim must be that very result (in any dialect: `2-0`, `1:0`
    and `1-0` are the same win). When the position is live, the game ended
    off the board (resignation, agreed draw, time, adjudication), so any
    win, loss, draw, double forfeit, `*` or no result at all agrees; only a
    text that is no result does not.
    """
    if game.error is not None:
        return False
    claimed = game.claimed_result
    said = meaning(claimed)
    flagged = flag_fall(game)
    if flagged is not None and said == flagged:
        return False  # the side whose time ran out cannot have won

    if game.first_outcome is not None:
        engine = game.first_outcome.winner or "draw"
        return said == engine
    return claimed is None or said is not None


def flag_fall(game: PdnGame) -> str | None:
    """The side that lost (or drew) on time: the side to move after the last move when
    the file says the game ended by time (`Termination "Time forfeit"`, as lidraughts
    and this board write it); None otherwise."""
    lowered = {key.lower(): value for key, value in game.tags.items()}
    termination = lowered.get("termination", "").lower()
    if "time" not in termination or game.error is not None:
        return None
    return game.position.turn


def report(game: PdnGame) -> dict[str, Any]:
    """The JSON object for one game (field meanings: docs/pdn.md)."""
    outcome = game.first_outcome
    lowered = {key.lower(): value for key, value in game.tags.items()}
    result_tag = lowered.get("result", lowered.get("risultato"))
    return {
        "game": game.number,
        "plies": game.ply,
        "legal": game.error is None,
        "error": game.error,
        "final_fen": game.fen(),
        "outcome": outcome.result if outcome else None,
        "result_tag": (result_tag.strip() or None) if result_tag is not None else None,
        "agrees": agrees(game),
        "white": lowered.get("white", lowered.get("bianco")),
        "black": lowered.get("black", lowered.get("nero")),
        "event": lowered.get("event", lowered.get("evento")),
        "variant": game.variant.name,
        "variant_inferred": game.variant_inferred,
        "variant_grounds": game.variant_grounds,
        "error_ply": game.error_ply,
        "error_move": game.error_move,
        "outcome_reason": outcome.reason if outcome else None,
        "outcome_ply": game.first_outcome_ply,
        "terminator": game.terminator,
        "notes": game.notes,
        # the side whose time ran out (docs/pdn.md), and the time control
        "flag": flag_fall(game),
        "time_control": lowered.get("timecontrol"),
    }


def _line(game: PdnGame) -> str:
    """One human-readable line per game."""
    row = report(game)
    who = " - ".join(name or "?" for name in (row["white"], row["black"]))
    about = ", ".join(part for part in (who if who != "? - ?" else "", row["event"]) if part)
    variant = game.variant.name
    if game.variant_inferred:
        variant += f" (inferred: {'; '.join(game.variant_grounds)})"
    head = f"game {game.number}" + (f" [{about}]" if about else "")
    head += f": {variant}, {game.ply} plies"
    notes = "".join(f"; note: {note}" for note in game.notes)
    if game.error is not None:
        return f"{head}, ILLEGAL at {game.error}{notes}"
    outcome = game.first_outcome
    if outcome is not None:
        verdict = f"engine: {outcome.result} ({outcome.reason}"
        if game.first_outcome_ply is not None and game.first_outcome_ply < game.ply:
            verdict += f" after ply {game.first_outcome_ply}, play went on"
        verdict += ")"
    else:
        verdict = "engine: game not over"
    claimed = game.claimed_result or "none"
    agreement = "agrees" if agrees(game) else "DISAGREES"
    flagged = flag_fall(game)
    if flagged is not None:
        side = "White" if flagged == "W" else "Black"
        said = meaning(game.claimed_result)
        verdict += f"; {side} ran out of time" + (" (a draw)" if said == "draw" else "")
    return f"{head}, legal; {verdict}; result {claimed} {agreement}{notes}"


__all__ = ["agrees", "register", "report", "run"]
