"""`draughtsboard play`: two people play at the terminal, no hardware needed.

This is what `make run` starts until the simulator page lands. Defaults come
from the same config file as the board (`--config`), flags win over it.
"""

from __future__ import annotations

import argparse
import sys

from host.commands._engine_args import position_from, variant_from
from host.config import add_config_argument, load_config
from host.terminal_game import TerminalGame


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game at the terminal, typing the moves",
        description="Two players type their moves; illegal moves are refused with the reason.",
    )
    parser.add_argument("--variant", help="rules to play by (default from the config: brazilian)")
    parser.add_argument("--fen", help="start from this position (PDN FEN)")
    parser.add_argument("--language", "--lang", choices=("pt-BR", "en"),
                        help="language of the messages (default from the config: pt-BR)")
    add_config_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    variant = variant_from(args.variant or config.variant)
    start = position_from(variant, args.fen)
    game = TerminalGame(
        variant,
        start=start,
        language=args.language or config.language,
        games_dir=config.games_dir,
        stdin=sys.stdin,
        stdout=sys.stdout,
    )
    return game.run()
