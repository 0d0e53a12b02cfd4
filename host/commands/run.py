"""`draughtsboard run`: play on the board (or the simulator) with hints, speech and a journal.

Settings come from the config files; flags override them for one run
(docs/config.md). The live game runs in `host.live.runtime` with the board's page
served alongside (`--listen`, docs/web.md); typed commands (takeback, new,
resign, draw, quit, or their Portuguese words) are read only when standard
input is a terminal, so a service keeps running. `--events FILE` drives the
session from a recorded stream instead of a board (tests, demos, bug
reports) on a simulated clock. With a club's broker set (`broker`,
docs/broadcast.md) either one publishes its game as it goes.

Before anything starts, the settings are checked as `config --check` checks
them, every folder and file they name included (host/config/places.py), and
every problem is reported at once (exit status 2). A
real board that is missing or not ready is waited for (host/live/runtime.py), as long
as `--wait-for-board` allows; the exit statuses are host/errors.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

from engine import FenError, Position, get_variant
from host.appliance.logs import RecentProblems, setup_logging
from host.config import (
    Config,
    add_config_argument,
    add_setting_flags,
    check_files,
    config_files,
    flag_values,
    ignored_settings,
    load_config,
)
from host.errors import UserError, exit_status_help
from host.live.bus import Update
from host.records.games import resumable_game, variant_to_play
from host.session import COMANDOS, COMMANDS, Session
from host.streams.events import run_stream
from host.voice.announce import Announcer, console_listener, speech_listener
from host.voice.messages import console_line
from host.voice.speech import VOICES, Speaker

if TYPE_CHECKING:
    from host.broadcast.board import HandOver
    from host.live.runtime import Runtime
    from host.web.address import Listen

log = logging.getLogger(__name__)
#: seconds between status-file refreshes while nothing happens (chatter still counts)
STATUS_EVERY = 1.0
#: seconds a board waits at exit for the broker to acknowledge what it published
FLUSH_AT_EXIT = 10.0
#: seconds a recorded replay waits for the broker before it starts
READY_WAIT = 5.0
#: seconds between tries at writing what a full or read-only disk refused (host/records/journal.py)
WRITE_RETRY = 5.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="play on the board, or on the simulated one in a web page (make run)",
        # raw, for the epilog's table; the description is wrapped here as argparse would
        description=textwrap.fill(
            "Follow a game on the board (--board; the simulated one by default), "
            "with its page in a browser (--listen). Each flag overrides the config files for "
            "this run; `draughtsboard config` shows the settings in force. "
            f"Commands on a terminal: {', '.join(COMMANDS)} ({', '.join(COMANDOS)}). "
            "A board that is not plugged in or not ready yet is waited for: run says so "
            "(console, log, voice, page, draughtsboard status) and play starts when it comes.",
            width=79,
        ),
        epilog=exit_status_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_argument(parser)
    add_setting_flags(parser)
    parser.add_argument("--new", action="store_true", help="start a new game, do not resume")
    parser.add_argument("--fen", help="start a new game from this position (PDN FEN)")
    parser.add_argument("--events", help="drive from a recorded event stream (file or -)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    parser.add_argument(
        "--new-token", action="store_true",
        help="make a new token for the page's controls (the kept one stops working: every "
        "phone must scan the new QR code)",
    )
    parser.add_argument(
        "--wait-for-board",
        type=_seconds,
        metavar="SECONDS",
        help="how long to wait for a board that is missing or not ready before giving up "
        "with exit status 75 (default: as long as it takes; 0: not at all)",
    )
    parser.set_defaults(func=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, not {text!r}")
    return value


def settings(args: argparse.Namespace) -> Config:
    """The config files, then the flags (docs/config.md)."""
    return load_config(args.config, flag_values(args))


def run(args: argparse.Namespace) -> int:
    check_everything(args)
    config = settings(args)
    held = hold_journal(config.journal)
    try:
        return _run(args, config)
    finally:
        if held is not None:
            os.close(held)


def _run(args: argparse.Namespace, config: Config) -> int:
    problems = setup_logging(config)
    for note in ignored_settings(config_files(args.config)):
        log.warning("config: %s", note)
    explicit = args.setting_variant is not None
    config = variant_to_play(config, explicit=explicit, resume=not args.new)
    start = _start_position(config, args.fen)
    announcer = Announcer(config.language)
    announcer.subscribe(console_listener())
    speaker = Speaker(config.language) if config.speech else None
    if speaker is not None:
        announcer.subscribe(speech_listener(speaker))
    try:
        if args.events is not None:
            session = Session(
                config, announcer, resume=not args.new, insist_variant=explicit, start=start
            )
            _players_from_flags(session, config, args, 0.0)
            _stream(session, config, args.events)
            return 0
        return asyncio.run(_live(config, announcer, args, speaker, start, problems, explicit))
    finally:
        if speaker is not None:
            speaker.close()


def hold_journal(journal: Path) -> int | None:
    """One `run` per journal. A second one (`make run` twice, or `run` beside the
    service) would resume the same game and write the same journal; it is refused,
    before it reads or says anything. The lock is an exclusive `flock` on the journal's
    folder (the journal itself is replaced by renames), held by the returned descriptor
    for the life of the process: the kernel drops it when the process ends, even by a
    crash. Nothing is written and no file is kept open for writing, so a full card or one
    turned read-only is met as before. None, and nothing guarded, where no lock can be
    had (no `fcntl`, a folder not there yet, a file system without locks)."""
    try:
        import fcntl
    except ModuleNotFoundError:
        return None
    try:
        folder = os.open(journal.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(folder)
        raise UserError(
            f"another draughtsboard run is playing the game in {journal} "
            "(draughtsboard status says which): stop it first, or give this one its own "
            "--data-dir"
        ) from None
    except OSError:
        os.close(folder)
        return None
    return folder


def check_everything(args: argparse.Namespace) -> None:
    """The settings as `config --check` checks them (every bad value, the checks across
    settings, every folder and file they name), before anything starts: all the problems
    at once, in plain words, or nothing."""
    errors = check_files(config_files(args.config), flag_values(args))
    if len(errors) == 1:
        raise UserError(f"cannot start: {errors[0]}")
    if errors:
        lines = "\n".join(f"  {error}" for error in errors)
        raise UserError(
            f"cannot start: {len(errors)} problems with its settings and the folders and "
            f"files they name:\n{lines}"
        )


def _players_from_flags(
    session: Session, config: Config, args: argparse.Namespace, now: float
) -> None:
    """`--white`/`--black` on this command line win over a resumed game's own players.

    A resumed game keeps the players its journal recorded (a config file's
    players are only the default for new games), but a side named on the
    command line is what the person starting the board asked for now: the
    game goes on with it, and the change is journaled as one made mid-game.
    """
    asked = {
        side: getattr(config, key)
        for side, key in (("W", "white"), ("B", "black"))
        if getattr(args, f"setting_{key}", None) is not None
    }
    if asked:
        session.set_players(now, {**session.players, **asked})


def _stream(session: Session, config: Config, events: str) -> None:
    """Drive the session from a recorded stream (a file, or `-` for standard input), and
    publish its game to the club's broker if one is set."""
    if events == "-":
        source: contextlib.AbstractContextManager[IO[str]] = contextlib.nullcontext(sys.stdin)
    else:
        try:
            source = open(events, encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise UserError(f"cannot read {events}: {error.strerror}") from None
    with source as lines, _broadcasting(session, config, replay=True):
        run_stream(session, lines)


def _start_position(config: Config, fen: str | None) -> Position | None:
    if fen is None:
        return None
    try:
        return Position.from_fen(fen, get_variant(config.variant))
    except FenError as error:
        raise UserError(f"bad --fen: {error}") from None


@contextlib.contextmanager
def _broadcasting(
    session: Session, config: Config, *, replay: bool = False, hand_over: HandOver | None = None
) -> Iterator[None]:
    """Publish the session's games while the block runs (nothing at all without a broker).
    A recorded replay first waits briefly for the broker and the board's assignment, so
    its game goes out whole and with the players' names. `hand_over`: how the publisher's
    thread reaches the session's (the live runtime's loop)."""
    broadcast = config.broadcast
    if broadcast is None:
        yield
        return
    from host.broadcast.board import attach

    publisher = attach(session, broadcast, hand_over=hand_over)
    reached = replay and publisher.wait_ready(READY_WAIT)
    if replay and not reached:
        log.warning("broadcast: no broker after %.0f s; replaying anyway "
                    "(moves are kept in the outbox)", READY_WAIT)
    try:
        yield
    finally:
        # a replay whose broker answered waits for it to take everything
        publisher.close(timeout=FLUSH_AT_EXIT, wait_for_broker=reached)


async def _live(
    config: Config,
    announcer: Announcer,
    args: argparse.Namespace,
    speaker: Speaker | None,
    start: Position | None,
    problems: RecentProblems,
    explicit: bool,
) -> int:
    from host.appliance.status import StatusWriter
    from host.live.board import LiveBoard
    from host.live.runtime import Runtime
    from host.web.address import choose_token, parse_listen

    listen = parse_listen(config.listen)
    token = (
        choose_token(listen, config.token, config.data_dir, rotate=args.new_token)
        if listen else None
    )
    resumed = None if args.new or start else resumable_game(config)
    variant = get_variant(config.variant)
    wait = args.wait_for_board
    board = LiveBoard(
        config.board,
        variant,
        layout=config.layout,
        brightness=config.brightness,
        wait=wait is None or wait > 0,
    )
    status = StatusWriter(
        config.status_file, board=config.board, layout=board.layout_name, problems=problems
    )
    session: Session | None = None
    occupied: frozenset[int] | None
    try:
        if board.simulated:  # the pieces stand ready: as the game stands, or set up
            position = start or (resumed.position if resumed else variant.initial_position())
            occupied = board.set_up(position.occupied())
        elif board.ready:  # the first poll() reads an empty board: resume from a settled one
            _, occupied = board.settle()
        else:  # the runtime waits for it: the game starts as it stands, the board's reading
            occupied = None  # shown to the session once the board comes
        session = Session(
            config,
            announcer,
            resume=not args.new,
            insist_variant=explicit,
            now=time.monotonic(),
            occupied=occupied,
            start=start,
        )
        _players_from_flags(session, config, args, time.monotonic())
        if speaker is not None:
            session.subscribe(_voice_follows_language(speaker))
        runtime = Runtime(session, board, wait_for_board=wait)
        runtime.subscribe(status.listener(session, board))
        def refresh_status() -> None:
            status.update(session, board=board)

        runtime.every(STATUS_EVERY, refresh_status)
        runtime.every(WRITE_RETRY, session.journal.flush)
        status.update(session, board=board, force=True)
        # The club's broker, if set, follows the game on the bus; the publisher stops
        # once the runtime has (LEDs already dark), waiting briefly for the broker.
        hand_over = asyncio.get_running_loop().call_soon_threadsafe
        with _broadcasting(session, config, hand_over=hand_over):
            if listen is not None:
                await _serve_page(runtime, listen, token, open_page=args.open)
            log.info(
                "ready: %s board, layout %s, %s", config.board, board.layout_name, variant.name
            )
            if sys.stdin is not None and sys.stdin.isatty():
                print(_commands_line(config.language), flush=True)
            await runtime.run()
    finally:
        board.close()
        if session is not None:
            status.stopped(session)
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
    print_address(url, token, language=runtime.session.language)
    if open_page:
        open_browser(url)


def _commands_line(language: str) -> str:
    """The typed commands, in the board's language first (both are understood)."""
    ours, other = (COMANDOS, COMMANDS) if language == "pt-BR" else (COMMANDS, COMANDOS)
    return console_line(language, "commands", words=", ".join(ours), other=", ".join(other))


def _voice_follows_language(speaker: Speaker) -> Callable[[Update], None]:
    """Speech changes voice when the page changes the language."""

    def follow(update: Update) -> None:
        if update.kind == "settings":
            speaker.voice = VOICES.get(str(update.data["language"]), "en")

    return follow
