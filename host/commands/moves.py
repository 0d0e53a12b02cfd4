"""`draughtsboard moves`: the legal moves of one position, or of many (`--fens`).

With `--json` each move is one line: origin, destination, sorted captured
squares, one landing path and the move in the variant's notation, squares in
the variant's numbering. `--fens FILE|-` reads one FEN per line so that
hundreds of positions cost one process start.
"""

from __future__ import annotations

import argparse
import json

from engine import Move, Position
from host.commands._engine_args import (
    GivenPositions,
    add_position_arguments,
    add_variant_argument,
    variant_from,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List the legal moves of a position (--fen) or of many (--fens FILE|-).",
    )
    add_variant_argument(parser)
    add_position_arguments(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per move")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    positions = GivenPositions(variant_from(args.variant), args)
    for position, fen in positions:
        _print_moves(position, args.json, with_fen=fen)
    return positions.status


def _print_moves(position: Position, as_json: bool, with_fen: str | None) -> None:
    moves = sorted(position.legal_moves(), key=lambda m: (m.origin, m.destination, m.path))
    if not as_json:
        if with_fen is not None:
            print(f"{with_fen}:")
        texts = [position.move_text(m) for m in moves]
        print(" ".join(texts) if texts else "(no legal move)")
        return
    if not moves and with_fen is not None:
        print(json.dumps({"fen": with_fen, "none": True}))
    for move in moves:
        print(json.dumps(move_json(position, move, with_fen)))


def move_json(position: Position, move: Move, fen: str | None = None) -> dict:
    record: dict = {}
    if fen is not None:
        record["fen"] = fen
    record.update({
        "from": move.origin,
        "to": move.destination,
        "captures": sorted(move.captures),
        "path": list(move.path),
        "pdn": position.move_text(move),
    })
    return record

