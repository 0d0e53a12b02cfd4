"""`draughtsboard run`: play on the board (or the simulator) with hints, speech and a journal.

Settings come from the config file; flags override them for one run. Typed
commands on stdin: takeback, new, resign, draw, quit. `--events FILE` drives
the session from a recorded stream instead of a board (tests, demos, bug
reports) on a simulated clock.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator

from engine import get_variant
from host.announce import Announcer, console_listener, speech_listener
from host.boards import layout_name, open_configured_board
from host.config import Config, add_setting_flags, flag_values, load_config
from host.errors import UserError
from host.logs import RecentProblems, setup_logging
from host.session import Session, run_board, run_stream, variant_to_play
from host.speech import Speaker
from host.squares import SquareMap
from host.status import StatusWriter

log = logging.getLogger(__name__)
#: seconds a board waits at exit for the broker to acknowledge what it published
FLUSH_AT_EXIT = 10.0
#: seconds a recorded replay waits for the broker before it starts
READY_WAIT = 5.0


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
    problems = setup_logging(config)
    explicit = args.setting_variant is not None
    config = variant_to_play(config, explicit=explicit, resume=not args.new)
    announcer = Announcer(config.language)
    announcer.subscribe(console_listener())
    speaker = Speaker(config.language) if config.speech else None
    if speaker is not None:
        announcer.subscribe(speech_listener(speaker))
    try:
        if args.events is not None:
            _stream(config, announcer, args, explicit)
            return 0
        while True:
            session = _live(config, announcer, args, problems, insist_variant=explicit)
            if session.next_variant is None:
                return 0
            # a variant chosen on the board: the board is opened again, laid out for it
            config, explicit = config.with_overrides(variant=session.next_variant), True
    finally:
        if speaker is not None:
            speaker.close()


def _stream(config: Config, announcer: Announcer, args: argparse.Namespace, explicit: bool) -> None:
    session = Session(config, announcer, resume=not args.new, insist_variant=explicit)
    if args.events == "-":
        with _broadcasting(session, config, replay=True):
            run_stream(session, sys.stdin)
        return
    try:
        handle = open(args.events, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise UserError(f"cannot read {args.events}: {error.strerror}") from None
    with handle, _broadcasting(session, config, replay=True):
        run_stream(session, handle)


@contextlib.contextmanager
def _broadcasting(session: Session, config: Config, *, replay: bool = False) -> Iterator[None]:
    """Publish the session's games while the block runs (nothing at all without a broker).
    A recorded replay first waits briefly for the broker and the board's assignment, so
    its game goes out whole and with the players' names."""
    broadcast = config.broadcast
    if broadcast is None:
        yield
        return
    from host.broadcast.board import attach

    publisher = attach(session, broadcast)
    reached = replay and publisher.wait_ready(READY_WAIT)
    if replay and not reached:
        log.warning("broadcast: no broker after %.0f s; replaying anyway "
                    "(moves are kept in the outbox)", READY_WAIT)
    try:
        yield
    finally:
        # a replay whose broker answered waits for it to take everything
        publisher.close(timeout=FLUSH_AT_EXIT, wait_for_broker=reached)


def _live(
    config: Config,
    announcer: Announcer,
    args: argparse.Namespace,
    problems: RecentProblems,
    *,
    insist_variant: bool,
) -> Session:
    variant = get_variant(config.variant)
    status = StatusWriter(
        config.status_file, board=config.board, layout=layout_name(config), problems=problems
    )
    with open_configured_board(config) as board:
        squares = SquareMap(variant, board.squares)
        first = board.settle()  # the first poll() reads an empty board: resume from a settled one
        session = Session(
            config,
            announcer,
            draw=lambda frame: board.show(squares.frame(frame)),
            resume=not args.new,
            insist_variant=insist_variant,
            now=first.time,
            occupied=squares.occupied(first.occupied),
        )
        board.on_event(lambda event: session.board_event(event.kind))
        unsubscribe = announcer.subscribe(status.listener(session, board))
        status.update(session, board=board, force=True)
        log.info("ready: %s board, layout %s, %s", config.board, layout_name(config), variant.name)
        try:
            with _broadcasting(session, config), contextlib.suppress(KeyboardInterrupt):
                run_board(session, board, squares)
        finally:
            unsubscribe()
            status.stopped(session)
    return session
