"""`draughtsboard broker-config`: mosquitto's config, passwords and ACL for a club's boards.

See host/broadcast/broker_config.py for what the ACL allows, docs/broadcast.md
for setting up the evening.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from host.errors import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "broker-config",
        help="generate mosquitto's config, password file and ACL for N boards",
        description="Write mosquitto.conf, passwd, acl, secrets/ (passwords, kept between "
        "runs) and boards/<id>/ (each board's settings and password file) into --out.",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--boards", type=int, metavar="N", help="boards b1 .. bN")
    which.add_argument("--board-ids", metavar="ID,ID,...", help="the boards' ids")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    parser.add_argument("--host", default="broker.local",
                        help="the broker's address as boards reach it (for boards/<id>/)")
    parser.add_argument("--port", type=int, default=1883, help="MQTT port (default 1883)")
    parser.add_argument("--bind", help="listen on this address only (default: all); with "
                        "--tls-port the plain port is this machine's only (127.0.0.1)")
    parser.add_argument("--websockets", type=int, metavar="PORT",
                        help="also listen for spectators' screens (MQTT over WebSockets, "
                        "the spectator account; wss with --tls-port)")
    parser.add_argument("--tls-port", type=int, metavar="PORT", help="mqtts listener (e.g. 8883)")
    parser.add_argument("--certfile", metavar="FILE",
                        help="the broker's certificate (with --tls-port)")
    parser.add_argument("--keyfile", metavar="FILE",
                        help="the broker's private key (with --tls-port)")
    parser.add_argument("--data-dir", metavar="DIR", help="where mosquitto keeps retained messages "
                        "(default: OUT/data)")
    parser.add_argument("--user", help="account mosquitto runs as when started as root "
                        "(default: mosquitto's own, 'mosquitto')")
    parser.add_argument("--relays", type=int, default=1, metavar="N",
                        help="relay accounts: relay, relay-2 ... (one relay per account)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from host.broadcast.broker_config import RELAY_USER, BrokerPlan, generate, key_problem

    if args.boards is not None:
        if not 1 <= args.boards <= 1000:
            raise UserError("--boards must be 1 to 1000")
        ids = tuple(f"b{n}" for n in range(1, args.boards + 1))
    else:
        ids = tuple(part.strip() for part in args.board_ids.split(",") if part.strip())
        if len(set(ids)) != len(ids) or not ids:
            raise UserError("--board-ids must list distinct ids")
    if args.tls_port is not None and not (args.certfile and args.keyfile):
        raise UserError("--tls-port needs --certfile and --keyfile")
    for port in (args.port, args.websockets, args.tls_port):
        if port is not None and not 1 <= port <= 65535:
            raise UserError(f"port {port} is not 1..65535")
    if not 1 <= args.relays <= 9:
        raise UserError("--relays must be 1 to 9")
    relays = (RELAY_USER, *(f"{RELAY_USER}-{n}" for n in range(2, args.relays + 1)))
    try:
        plan = BrokerPlan(
            board_ids=ids, port=args.port, bind=args.bind, websockets=args.websockets,
            tls_port=args.tls_port,
            certfile=Path(args.certfile).resolve() if args.certfile else None,
            keyfile=Path(args.keyfile).resolve() if args.keyfile else None,
            data_dir=Path(args.data_dir) if args.data_dir else None, public_host=args.host,
            run_as=args.user, relay_users=relays,
        )
        written = generate(plan, Path(args.out))
    except ValueError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot write {error.filename}: {error.strerror}") from None
    out = Path(args.out)
    print(f"wrote {len(written)} files to {out} for {len(ids)} boards")
    print(f"start the broker:  mosquitto -c {out.resolve() / 'mosquitto.conf'}")
    print(f"each board:        copy {out / 'boards'}/<id>/ beside its config file and add "
          "config.toml's lines to it")
    print(f"relay, organiser:  --password-file {out / 'secrets'}/relay.password "
          "(or organiser.password)")
    problem = key_problem(plan)
    if problem:
        print(f"warning: {problem}")
    return 0
