"""`draughtsboard pairings FILE --broker URL`: publish a round's pairings to every board.

See host/broadcast/pairings.py for the CSV and docs/broadcast.md for the evening.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from host.commands._broker_args import add_broker_arguments, settings_from_arguments
from host.errors import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "pairings",
        help="publish a round's pairings (CSV: board, board id, white, black) to the boards",
        description="Read a round's pairings and publish each board's assignment (retained), "
        "so boards and the relay carry the players' names and the board order.",
    )
    parser.add_argument(
        "file", metavar="FILE.csv", help="CSV: board number, board id, white, black"
    )
    add_broker_arguments(parser, "organiser")
    parser.add_argument("--round", dest="round_name", metavar="ROUND", help="round name or number")
    parser.add_argument("--event", help="event name")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the file and print what would be published")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from host.broadcast.pairings import publish_round, read_pairings

    path = Path(args.file)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text") from None
    pairing = read_pairings(text, str(path), event=args.event, round_name=args.round_name)
    if args.dry_run:
        print(json.dumps(pairing.round_message(), ensure_ascii=False, indent=1))
        return 0
    cleared = publish_round(settings_from_arguments(args, "organiser"), pairing)
    print(f"round {pairing.name}: {len(pairing.boards)} boards paired"
          + (f"; cleared {', '.join(cleared)}" if cleared else ""))
    return 0
