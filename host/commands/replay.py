"""`draughtsboard replay`: run a recorded sensor stream through the recogniser.

Prints one JSON line per committed move and result (and, with `--leds`, per
LED frame change), so checks and bug reports can drive the exact recogniser
the board runs, with no hardware and a simulated clock.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from engine import FenError
from host.clock.control import parse_time_control
from host.commands._engine_args import add_variant_argument, variant_from
from host.errors import UserError
from host.streams.replay import replay


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a recorded sensor stream (JSON lines) and print the moves recognised",
        description="Replay lift/place/occupied events through the move recogniser "
        "on a simulated clock; prints JSON lines.",
    )
    add_variant_argument(parser, required=True)
    parser.add_argument("--fen", help="start position (default: the initial position)")
    parser.add_argument("--events", required=True, help="event file, or - for stdin")
    parser.add_argument("--leds", action="store_true", help="also print every LED frame change")
    parser.add_argument(
        "--notices",
        action="store_true",
        help="also print illegal-board, board-ok, check-colours, crown and "
        "capture-mandatory events",
    )
    parser.add_argument(
        "--hints", choices=("off", "captures", "full"), default="full", help="hint level"
    )
    parser.add_argument(
        "--touch-move",
        action="store_true",
        help="club play: a piece released on a legal square has moved (default: a move "
        "that goes on before the opponent acts is re-read)",
    )
    parser.add_argument(
        "--clock",
        metavar="CONTROL",
        help="time the game on the replay's clock: minutes+increment (5+3, 0.5+1, "
        "5+3/2+3 for White then Black); each move record gets both clocks after it (ms), "
        "and a flag fall is an outcome with reason \"time\"",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_from(args.variant)

    def output(record: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")

    options = {
        "fen": args.fen,
        "leds": args.leds,
        "notices": args.notices,
        "hint_level": args.hints,
        "touch_move": args.touch_move,
        "clock": parse_time_control(args.clock),
    }
    try:
        if args.events == "-":
            replay(variant, sys.stdin, output, **options)
        else:
            with _open(args.events) as handle:
                replay(variant, handle, output, **options)
    except FenError as error:
        raise UserError(f"bad --fen: {error}") from None
    except UnicodeDecodeError:
        raise UserError(f"events file {args.events} is not UTF-8 text") from None
    sys.stdout.flush()
    return 0


def _open(path: str) -> TextIO:
    try:
        return open(path, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot read events file {path}: {error.strerror}") from None
