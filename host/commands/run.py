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
from pathlib import Path

from engine import get_variant
from host.announce import Announcer, console_listener, speech_listener
from host.config import HINT_LEVELS, LANGUAGES, Config, load_config
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
    parser.add_argument("--config", help="config file (default: ~/.config/draughtsboard/...)")
    parser.add_argument("--variant", help="rules variant (overrides the config)")
    parser.add_argument("--language", choices=LANGUAGES)
    parser.add_argument("--hints", choices=HINT_LEVELS)
    parser.add_argument("--board", help="board: sim, gpio or serial:URL")
    parser.add_argument("--layout", help="wiring layout name or file")
    parser.add_argument("--journal", help="journal file")
    parser.add_argument("--games-dir", help="folder for finished games (PDN)")
    parser.add_argument("--no-speech", action="store_true", help="console only")
    parser.add_argument(
        "--touch-move",
        action="store_true",
        default=None,
        help="club play: a piece released on a legal square has moved (config touch_move)",
    )
    parser.add_argument("--new", action="store_true", help="start a new game, do not resume")
    parser.add_argument("--events", help="drive from a recorded event stream (file or -)")
    parser.set_defaults(func=run)


def settings(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    if args.variant is not None:
        from engine import VARIANTS

        if args.variant.lower() not in VARIANTS:
            names = ", ".join(VARIANTS)
            raise UserError(f"unknown variant {args.variant!r}; choose one of {names}")
    return config.with_overrides(
        variant=args.variant.lower() if args.variant else None,
        language=args.language,
        hints=args.hints,
        board=args.board,
        layout=args.layout,
        journal=Path(args.journal) if args.journal else None,
        games_dir=Path(args.games_dir) if args.games_dir else None,
        speech=False if args.no_speech else None,
        touch_move=args.touch_move,
    )


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
    from hardware.base import BoardUnavailable
    from hardware.board import open_board
    from hardware.layout import LayoutError, load_layout

    variant = get_variant(config.variant)
    try:
        layout = load_layout(config.layout or f"standard-{variant.size}x{variant.size}")
        if variant.mirrored:
            layout = layout.rotated(1)
        board = open_board(config.board, layout)
    except (BoardUnavailable, LayoutError, ValueError) as error:
        raise UserError(str(error)) from None
    with board:
        board.brightness = config.brightness
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
