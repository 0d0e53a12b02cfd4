"""`draughtsboard analyse --game FILE.pdn`: the review of a game on the command line.

The same analysis as the page's (host/review/analysis.py, the same node budget) and
the same verdicts (host/review/classify.py), kept in the same place: an analysis
already beside the file is read, not made again, and one made here is kept there for
the page (when the folder can be written). Printed as one line per move (the move, the
evaluation after it, the best move, the verdict) and a summary per player; `--json`
prints one object instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from host.errors import UserError
from host.review import store
from host.review.analysis import NODES, PositionEval, evaluate_positions
from host.review.classify import Verdict, judge_game, summary, thresholds_json
from host.review.games import ReviewError, read_all

CLASS_WORDS = {"best": "best", "good": "good", "inaccuracy": "inaccuracy",
               "mistake": "mistake", "blunder": "blunder", "forced": "only move"}


def review_file(path: Path, number: int, as_json: bool, out: TextIO | None = None) -> int:
    """Review game `number` of the PDN file at `path`; the exit status."""
    out = out or sys.stdout
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        games = read_all(data)
    except ReviewError as error:
        raise UserError(f"{path}: {error}") from None
    if not 1 <= number <= len(games):
        raise UserError(f"{path} has {len(games)} game(s); --number {number} is not one")
    game = games[number - 1]
    if game.error is not None:
        raise UserError(f"{path}, game {number} cannot be reviewed: {game.error}")
    if not game.moves:
        raise UserError(f"{path}, game {number} has no moves to review")
    key = store.game_key(game)
    kept = store.analysis_path(path)
    evals = store.load(kept, key)
    if evals is None:
        evals = _analyse(game, sys.stderr)
        try:
            store.save(kept, key, evals)
        except OSError as error:
            print(f"draughtsboard: the analysis is not kept ({kept}: {error.strerror})",
                  file=sys.stderr)
    sides = [position.turn for position in game.positions[:-1]]
    verdicts = [v for v in judge_game(game.moves, sides, evals) if v is not None]
    if as_json:
        print(json.dumps({
            "game": {"number": number, "variant": game.variant.name, "tags": game.tags},
            "evals": [item.to_json() for item in evals],
            "verdicts": [item.to_json() for item in verdicts],
            "summary": summary(verdicts),
            "thresholds": thresholds_json(),
            "nodes": NODES,
        }), file=out)
        return 0
    _print(game, evals, verdicts, out)
    return 0


def _analyse(game: Any, progress: TextIO) -> list[PositionEval]:
    total = len(game.moves) + 1
    found = []
    show = progress.isatty()
    for item in evaluate_positions(game):
        found.append(item)
        if show:
            print(f"\ranalysing: {len(found)}/{total} positions", end="", file=progress,
                  flush=True)
    if show:
        print(file=progress)
    return found


def men(centimen: int, signed: bool = True) -> str:
    return f"{centimen / 100:+.1f}" if signed else f"{centimen / 100:.1f}"


def _value(evaluation: PositionEval) -> str:
    if evaluation.mate is not None:
        side = "White" if evaluation.score > 0 else "Black"
        return f"{side} won" if evaluation.mate == 0 else f"{side} wins in {abs(evaluation.mate)}"
    return men(evaluation.score)


def _print(game: Any, evals: list[PositionEval], verdicts: list[Verdict], out: TextIO) -> None:
    tags = game.tags
    white, black = tags.get("White", "White"), tags.get("Black", "Black")
    print(f"{white} - {black}  {game.claimed_result or '*'}  ({game.variant.name}, "
          f"{len(game.moves)} plies; evaluations in men, White's view)", file=out)
    first_black = game.positions[0].turn != "W"
    for verdict in verdicts:
        ply = verdict.ply
        before = game.positions[ply]
        number = (ply + first_black) // 2 + 1
        dots = "." if verdict.side == "W" else "..."
        mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(verdict.kind, "")
        text = before.move_text(game.moves[ply]) + mark
        best = evals[ply].best
        judged = CLASS_WORDS[verdict.kind]
        if verdict.kind in ("inaccuracy", "mistake", "blunder", "good"):
            judged += f" (-{men(verdict.loss, signed=False)})"
        print(f"{number:>3}{dots:<3} {text:<14} {_value(evals[ply + 1]):>14}   "
              f"best {best['text'] if best else '-':<12} {judged}", file=out)
    for side, name in (("W", "White"), ("B", "Black")):
        counts = summary(verdicts)[side]
        print(f"{name}: {counts['inaccuracy']} inaccuracies, {counts['mistake']} mistakes, "
              f"{counts['blunder']} blunders; average loss {counts['average_loss']:.2f} men",
              file=out)
