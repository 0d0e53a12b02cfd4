"""`draughtsboard perft`: count the move tree, the standard move-generator check.

Prints `depth nodes` for every depth from 1 to D, so a mismatch with a
published table shows at which depth the generators first disagree.
"""

from __future__ import annotations

import argparse

from engine.perft import perft_counts
from host.commands._engine_args import add_variant_argument, position_from, variant_from
from host.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "perft",
        help="count the leaf nodes of the move tree to each depth",
        description="Print 'depth nodes' for depths 1..D from the initial position or --fen.",
    )
    add_variant_argument(parser)
    parser.add_argument("--depth", type=int, required=True, help="deepest depth to count")
    parser.add_argument("--fen", help="start from this position (PDN FEN)")
    parser.add_argument(
        "--paths",
        action="store_true",
        help="count every distinct capture path, not every distinct move",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_from(args.variant)
    position = position_from(variant, args.fen)
    if args.depth < 1:
        raise UserError("--depth must be at least 1")
    for depth, nodes in enumerate(perft_counts(position, args.depth, paths=args.paths), 1):
        print(f"{depth} {nodes}")
    return 0
