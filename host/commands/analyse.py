"""`draughtsboard analyse`: the search's best move, score, depth and line for a position.

With `--json` one object per position: `best` (the move as the variant
writes it), `from`, `to`, `captures` (sorted), `score` (centi-men from the
side to move's view), `mate` (plies to a forced end: > 0 the side to move
wins, < 0 it loses, 0 it has already lost; null otherwise), `depth`, `nodes`
and `pv` (the expected line, as move texts). Squares are in the variant's
numbering, as `moves` prints them. `--fens FILE|-` analyses one FEN a line,
each object then with `fen`; a line that cannot be read is reported on
stderr and skipped (exit status 2 at the end).

Limits: `--time` from above 0 to an hour, `--depth` from 1 to 64 plies; without
either the search takes 2 s. `--depth` alone still stops after `DEPTH_TIME`
seconds (a deep search of a full board would take days), and then says on
stderr which depth it completed. A limit out of range, infinite or not a
number is refused before anything is searched (exit status 2).

`--game FILE.pdn` (`--number N` for another game of the file) reviews a whole game
instead: every position's evaluation, each move judged (inaccuracy, mistake,
blunder), a summary per player; the same analysis the page's review shows, kept
beside the file (host/review/report.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine import EngineError, Position
from engine.search import Analysis, Searcher, analyse
from engine.search.options import MAX_DEPTH, MAX_SECONDS, SearchOptions, check_depth, check_seconds
from host.commands._engine_args import (
    GivenPositions,
    add_position_arguments,
    add_variant_argument,
    variant_from,
)
from host.errors import UserError
from host.review.report import review_file

DEFAULT_TIME = 2.0  # seconds, when neither --time nor --depth is given
DEPTH_TIME = 60.0  # seconds: with --depth alone, the search still stops then


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "analyse",
        help="search a position: best move, score, depth and line",
        description="Search a position (--fen) or many (--fens FILE|-) for the best move.",
    )
    add_variant_argument(parser)
    source = add_position_arguments(parser)
    source.add_argument("--game", metavar="FILE", type=Path,
                        help="review a whole game of a PDN file (its variant from the file)")
    parser.add_argument("--number", type=int, default=1, metavar="N",
                        help="with --game: which game of the file (default 1)")
    # Read as text and checked in `_options`, so a bad limit is one line of error.
    parser.add_argument("--time", metavar="S",
                        help=f"seconds per position, above 0 and at most {MAX_SECONDS:g} "
                        f"(default {DEFAULT_TIME:g} without --depth, {DEPTH_TIME:g} with it)")
    parser.add_argument("--depth", metavar="D",
                        help=f"search depth in plies, 1 to {MAX_DEPTH}")
    parser.add_argument("--json", action="store_true", help="one JSON object per position")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.game is not None:
        if args.time is not None or args.depth is not None:
            raise UserError("--game searches every position to the review's own budget: "
                            "leave out --time and --depth")
        return review_file(args.game, args.number, args.json)
    variant = variant_from(args.variant)
    options = _options(args.time, args.depth)
    searcher = Searcher(variant)
    positions = GivenPositions(variant, args)
    for position, fen in positions:
        if fen is not None:
            searcher.new_game()  # each line on its own: no lessons carried from the last
        analysis = analyse(position, searcher=searcher, options=options)
        if args.depth is not None and analysis.stopped and analysis.best is not None:
            print(f"draughtsboard: stopped after {options.time_limit:g} s at depth "
                  f"{analysis.depth} (give --time to search longer)", file=sys.stderr)
        _report(position, analysis, args.json, fen=fen)
    return positions.status


def _options(time_text: str | None, depth_text: str | None) -> SearchOptions:
    """The search limits from the command line's text; UserError for any out of range."""
    try:
        depth = None if depth_text is None else check_depth(_whole(depth_text), "--depth")
        seconds = None if time_text is None else check_seconds(_number(time_text), "--time")
    except EngineError as error:
        raise UserError(str(error)) from None
    if seconds is None:
        seconds = DEFAULT_TIME if depth is None else DEPTH_TIME
    return SearchOptions(max_depth=depth or MAX_DEPTH, time_limit=seconds)


def _whole(text: str) -> int | str:
    digits = text.strip()
    if digits.lstrip("-").isascii() and digits.lstrip("-").isdigit() and len(digits) <= 6:
        return int(digits)
    return digits  # refused by check_depth, naming what was given


def _number(text: str) -> float | str:
    try:
        return float(text) if len(text) <= 40 else text
    except ValueError:
        return text


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
