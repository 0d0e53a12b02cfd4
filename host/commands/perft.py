"""`draughtsboard perft`: count the move tree, the standard move-generator check.

Prints `depth nodes` for every depth from 1 to D, so a mismatch with a
published table shows at which depth the generators first disagree.
"""

from __future__ import annotations

import argparse

from engine.perft import MAX_DEPTH, perft_counts
from host.commands._engine_args import add_variant_argument, position_from, variant_from
from host.errors import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "perft",
        help="count the leaf nodes of the move tree to each depth",
        description="Print 'depth nodes' for depths 1..D from the initial position or --fen.",
    )
    add_variant_argument(parser)
    # Read as text and checked in `run`, so a bad depth is one line of error
    # (argparse would print its usage too) and never reaches int() at full size.
    parser.add_argument("--depth", required=True, help=f"deepest depth to count (1-{MAX_DEPTH})")
    parser.add_argument("--fen", help="start from this position (PDN FEN)")
    parser.add_argument(
        "--paths",
        action="store_true",
        help="count every distinct capture path, not every distinct move",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_from(args.variant)
    depth = depth_from(args.depth)
    position = position_from(variant, args.fen)
    for ply, nodes in enumerate(perft_counts(position, depth, paths=args.paths), 1):
        print(f"{ply} {nodes}")
    return 0


def depth_from(text: str) -> int:
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit() and 1 <= len(digits) <= 3
            and 1 <= int(digits) <= MAX_DEPTH):
        raise UserError(f"--depth must be a whole number from 1 to {MAX_DEPTH}")
    return int(digits)
