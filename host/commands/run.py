"""`draughtsboard run`: play on the board (or the simulator) with hints, speech and a journal.

Settings come from the config file; flags override them for one run. Typed
commands on stdin: takeback, new, resign, draw, quit. `--events FILE` drives
the session from a recorded stream instead of a board (tests, demos, bug
reports) on a simulated clock.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from engine import get_variant
from host.announce import Announcer, console_listener, speech_listener
from host.boards import open_configured_board
from host.config import Config, add_setting_flags, flag_values, load_config
from host.errors import UserError
from host.session import Session, run_board, run_stream
from host.speech import Speaker
from host.squares import SquareMap


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "run",
        help="play on the physical board: hints, announcements, journal and resume",
        description="Follow a game on the board. Commands on stdin: "
        "takeback, new, resign, draw, quit.",
    )
    parser.add_argument("--config", help="config file over the system one (default: the user's)")
    add_setting_flags(parser)
    parser.add_argument("--new", action="store_true", help="start a new game, do not resume")
    parser.add_argument("--events", help="drive from a recorded event stream (file or -)")
    parser.set_defaults(func=run)


def settings(args: argparse.Namespace) -> Config:
    """The config files, then the flags (docs/config.md)."""
    return load_config(args.config, flag_values(args))


def run(args: argparse.Namespace) -> int:
    config = settings(args)
    announcer = Announcer(config.language)
    announcer.subscribe(console_listener())
    if config.speech:
        announcer.subscribe(speech_listener(Speaker(config.language)))
    if args.events is not None:
        session = Session(config, announcer, resume=not args.new)
        if args.events == "-":
            run_stream(session, sys.stdin)
        else:
            try:
                handle = open(args.events, encoding="utf-8")  # noqa: SIM115
            except OSError as error:
                raise UserError(f"cannot read {args.events}: {error.strerror}") from None
            with handle:
                run_stream(session, handle)
        return 0
    return _live(config, announcer, args)


def _live(config: Config, announcer: Announcer, args: argparse.Namespace) -> int:
    variant = get_variant(config.variant)
    with open_configured_board(config) as board:
        squares = SquareMap(variant, board.squares)
        first = board.poll()
        session = Session(
            config,
            announcer,
            draw=lambda frame: board.show(squares.frame(frame)),
            resume=not args.new,
            now=first.time,
            occupied=squares.occupied(first.occupied),
        )
        board.on_event(lambda event: session.board_event(event.kind))
        with contextlib.suppress(KeyboardInterrupt):
            run_board(session, board, squares)
    return 0
