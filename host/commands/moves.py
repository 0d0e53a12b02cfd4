"""`draughtsboard moves`: the legal moves of one position, or of many (`--fens`).

With `--json` each move is one line: origin, destination, sorted captured
squares, one landing path and the move in the variant's notation, squares in
the variant's numbering. `--fens FILE|-` reads one FEN per line so that
hundreds of positions cost one process start.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from engine import EngineError, Move, Position
from host.commands._engine_args import add_variant_argument, position_from, variant_from
from host.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List the legal moves of a position (--fen) or of many (--fens FILE|-).",
    )
    add_variant_argument(parser)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--fen", help="the position (PDN FEN)")
    source.add_argument("--fens", metavar="FILE", help="a file with one FEN per line, or -")
    parser.add_argument("--json", action="store_true", help="one JSON object per move")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_from(args.variant)
    if args.fen is not None:
        _print_moves(position_from(variant, args.fen), args.json, with_fen=None)
        return 0
    # A bad line is reported and skipped, so one typo does not cost the whole batch.
    status = 0
    for line_number, fen in _fen_lines(args.fens):
        try:
            position = Position.from_fen(fen, variant)
        except EngineError as error:
            print(f"draughtsboard: {args.fens}, line {line_number}: {error}", file=sys.stderr)
            status = 2
            continue
        _print_moves(position, args.json, with_fen=fen)
    return status


def _fen_lines(source: str) -> Iterable[tuple[int, str]]:
    """Non-blank lines with their numbers. Bytes that are not UTF-8 become U+FFFD,
    so a line of binary garbage is one FEN error like any other, not a crash."""
    try:
        stream = (_stdin() if source == "-"
                  else open(source, encoding="utf-8", errors="replace"))  # noqa: SIM115
    except OSError as error:
        raise UserError(f"cannot read {source}: {error.strerror or error}") from None
    with stream:
        try:
            for number, line in enumerate(stream, start=1):
                if line.strip():
                    yield number, line.strip()
        except OSError as error:  # a directory, a vanished file
            raise UserError(f"cannot read {source}: {error.strerror or error}") from None


def _stdin() -> TextIO:
    buffer = getattr(sys.stdin, "buffer", None)  # absent when a test put text in its place
    if buffer is None:
        return sys.stdin
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="replace")


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

