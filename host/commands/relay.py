"""`draughtsboard relay`: every board of the club in, a live PDN per round out.

See docs/broadcast.md. Runs until interrupted (Ctrl-C or the service manager);
its exit status says why it stopped (host/broadcast/relay_exit.py).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import threading
from pathlib import Path

from host.commands._broker_args import add_broker_arguments, settings_from_arguments
from host.errors import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "relay",
        help="follow every board on the broker; write each round's live PDN; serve spectators",
        description="Subscribe to every board on the broker and write, per round, games.pdn "
        "(fixed board order) and one file per game. With --listen, serve a spectator page. "
        "Exit status: 0 stopped on request; 2 a configuration mistake (the command line, "
        "the password file, credentials the broker refused: do not restart); 75 it could "
        "not write (a full disk, a folder it may no longer write: restart later); 1 a "
        "crash (a bug, its traceback in the log: restart).",
    )
    add_broker_arguments(parser, "relay")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the round files")
    parser.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                        help="show games this many seconds late (anti-cheating)")
    parser.add_argument("--listen", metavar="HOST:PORT", help="serve the spectator page here")
    parser.add_argument("--trace", help=argparse.SUPPRESS)  # bench: one line per game written
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from host.broadcast.relay import Relay
    from host.broadcast.relay_exit import STOPPED
    from host.broadcast.spectators import SpectatorServer, parse_listen

    if args.delay < 0:
        raise UserError("--delay must be 0 or more seconds")
    listen = parse_listen(args.listen) if args.listen else None
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create {out}: {error.strerror}") from None
    settings = settings_from_arguments(args, "relay")
    relay = Relay(settings, out, delay=args.delay, trace=Path(args.trace) if args.trace else None)
    server = SpectatorServer(relay, out, *listen) if listen else None
    where = f"http://{listen[0]}:" if listen else ""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    relay.start()
    if server is not None and listen is not None:
        server.start()
        print(f"spectators: {where}{server.port}/", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        while not stop.wait(0.2) and not relay.failed.is_set():
            pass
    if server is not None:
        server.stop()
    relay.stop()
    if relay.failure is not None:
        return int(relay.failure[0])
    return int(STOPPED)
