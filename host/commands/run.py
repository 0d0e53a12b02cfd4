"""`draughtsboard run`: play on the board (or the simulator) with hints, speech and a journal.

Settings come from the config file; flags override them for one run. The
live game runs in `host.live` with the board's page served alongside
(`--listen`, docs/web.md); typed commands (takeback, new, resign, draw, quit)
are read only when standard input is a terminal, so a service keeps running.
`--events FILE` drives the session from a recorded stream instead of a board
(tests, demos, bug reports) on a simulated clock.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from engine import FenError, Position, get_variant
from host.announce import Announcer, console_listener, speech_listener
from host.bus import Update
from host.config import HINT_LEVELS, LANGUAGES, Config, load_config
from host.errors import UserError
from host.session import Session, resumable_game
from host.speech import VOICES, Speaker
from host.stream import run_stream

if TYPE_CHECKING:
    from host.live import Runtime
    from host.web.address import Listen


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
    parser.add_argument("--new", action="store_true", help="start a new game, do not resume")
    parser.add_argument("--fen", help="start a new game from this position (PDN FEN)")
    parser.add_argument("--events", help="drive from a recorded event stream (file or -)")
    parser.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="serve the board's page here (default 127.0.0.1:8080; 0.0.0.0:8080 for the LAN, "
        "which needs a token for controls; off for no page)",
    )
    parser.add_argument("--token", help="the token controls need (default: a fresh one on a LAN)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
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
    )


def run(args: argparse.Namespace) -> int:
    config = settings(args)
    announcer = Announcer(config.language)
    announcer.subscribe(console_listener())
    speaker = Speaker(config.language) if config.speech else None
    if speaker is not None:
        announcer.subscribe(speech_listener(speaker))
    start = _start_position(config, args.fen)
    if args.events is not None:
        session = Session(config, announcer, resume=not args.new, start=start)
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
    return asyncio.run(_live(config, announcer, args, speaker, start))


def _start_position(config: Config, fen: str | None) -> Position | None:
    if fen is None:
        return None
    try:
        return Position.from_fen(fen, get_variant(config.variant))
    except FenError as error:
        raise UserError(f"bad --fen: {error}") from None


async def _live(
    config: Config,
    announcer: Announcer,
    args: argparse.Namespace,
    speaker: Speaker | None,
    start: Position | None,
) -> int:
    from host.live import Runtime
    from host.live_board import LiveBoard
    from host.web.address import choose_token, parse_listen

    listen = parse_listen(args.listen or config.listen)
    token = choose_token(listen, args.token or config.token) if listen else None
    resumed = None if args.new or start else resumable_game(config)
    variant = resumed.variant if resumed else get_variant(config.variant)
    board = LiveBoard(config.board, variant, layout=config.layout, brightness=config.brightness)
    try:
        if board.simulated:  # the pieces stand ready: as the game stands, or set up
            position = start or (resumed.position if resumed else variant.initial_position())
            occupied = board.set_up(position.occupied())
        else:
            _, occupied = board.poll()
        session = Session(
            config,
            announcer,
            resume=not args.new,
            now=time.monotonic(),
            occupied=occupied,
            start=start,
        )
        if speaker is not None:
            session.subscribe(_voice_follows_language(speaker))
        runtime = Runtime(session, board)
        if listen is not None:
            await _serve_page(runtime, listen, token, open_page=args.open)
        if sys.stdin is not None and sys.stdin.isatty():
            print("Commands: takeback, new, resign, draw, quit", flush=True)
        await runtime.run()
    finally:
        board.close()
    return 0


async def _serve_page(
    runtime: Runtime, listen: Listen, token: str | None, *, open_page: bool
) -> None:
    try:
        from host.web.server import WebServer
    except ModuleNotFoundError as error:
        raise UserError(
            f"the board's page needs {error.name} (pip install draughtsboard); "
            "or run with --listen off"
        ) from None
    from host.web.address import open_browser, page_url, print_address

    server = WebServer(runtime, host=listen.host, port=listen.port, token=token)
    _, port = await server.start()
    runtime.add_service(server.stop)
    url = page_url(listen, port, token)
    print_address(url, token)
    if open_page:
        open_browser(url)


def _voice_follows_language(speaker: Speaker) -> Callable[[Update], None]:
    """Speech changes voice when the page changes the language."""

    def follow(update: Update) -> None:
        if update.kind == "settings":
            speaker.voice = VOICES.get(str(update.data["language"]), "en")

    return follow
