"""`draughtsboard analyse`: the search's best move, score, depth and line for a position.

With `--json` one object per position: `best` (the move as the variant
writes it), `from`, `to`, `captures` (sorted), `score` (centi-men from the
side to move's view), `mate` (plies to a forced end: > 0 the side to move
wins, < 0 it loses, 0 it has already lost; null otherwise), `depth`, `nodes`
and `pv` (the expected line, as move texts). Squares are in the variant's
numbering, as `moves` prints them. `--fens FILE|-` analyses one FEN a line,
each object then with `fen`; a line that cannot be read is reported on
stderr and skipped (exit status 2 at the end).
"""

from __future__ import annotations

import argparse
import json

from engine import Position
from engine.search import Analysis, Searcher, analyse
from engine.search.searcher import SearchOptions
from host.commands._engine_args import (
    GivenPositions,
    add_position_arguments,
    add_variant_argument,
    variant_from,
)
from host.errors import UserError

DEFAULT_TIME = 2.0  # seconds, when neither --time nor --depth is given


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyse",
        help="search a position: best move, score, depth and line",
        description="Search a position (--fen) or many (--fens FILE|-) for the best move.",
    )
    add_variant_argument(parser)
    add_position_arguments(parser)
    parser.add_argument("--time", type=float, metavar="S",
                        help=f"seconds per position (default {DEFAULT_TIME:g} without --depth)")
    parser.add_argument("--depth", type=int, metavar="D", help="search depth in plies")
    parser.add_argument("--json", action="store_true", help="one JSON object per position")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_from(args.variant)
    options = _options(args.time, args.depth)
    searcher = Searcher(variant)
    positions = GivenPositions(variant, args)
    for position, fen in positions:
        if fen is not None:
            searcher.new_game()  # each line on its own: no lessons carried from the last
        _report(position, analyse(position, searcher=searcher, options=options), args.json,
                fen=fen)
    return positions.status


def _options(seconds: float | None, depth: int | None) -> SearchOptions:
    if seconds is not None and not seconds > 0:
        raise UserError("--time must be a positive number of seconds")
    if depth is not None and depth < 1:
        raise UserError("--depth must be at least 1")
    if seconds is None and depth is None:
        seconds = DEFAULT_TIME
    return SearchOptions(max_depth=depth or 64, time_limit=seconds)


def analysis_json(position: Position, analysis: Analysis, fen: str | None = None) -> dict:
    record: dict = {"fen": fen} if fen is not None else {}
    best = analysis.best
    texts = []
    here = position
    for move in analysis.pv:
        texts.append(here.move_text(move))
        here = here.play(move)
    record.update({
        "best": position.move_text(best) if best else None,
        "from": best.origin if best else None,
        "to": best.destination if best else None,
        "captures": sorted(best.captures) if best else [],
        "score": analysis.score,
        "mate": analysis.mate,
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "pv": texts,
    })
    return record


def _report(position: Position, analysis: Analysis, as_json: bool, fen: str | None) -> None:
    record = analysis_json(position, analysis, fen)
    if as_json:
        print(json.dumps(record))
        return
    if fen is not None:
        print(f"{fen}:")
    if record["best"] is None:
        print("no legal move: the side to move has lost")
        return
    if record["mate"] is not None:
        side = "wins" if record["mate"] > 0 else "loses"
        value = f"the side to move {side} in {abs(record['mate'])} plies"
    else:
        value = f"{record['score'] / 100:+.2f} men"
    print(f"best {record['best']}  score {value}  depth {record['depth']}  "
          f"nodes {record['nodes']}")
    print("line " + " ".join(record["pv"]))
