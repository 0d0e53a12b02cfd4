"""The broker flags shared by `relay` and `pairings` (like `_engine_args` for the engine's).

Kept apart from host/broadcast so that building the command line imports no
MQTT code: a board without a broker never loads it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from host.errors import UserError

if TYPE_CHECKING:
    from host.broadcast.mqtt import BrokerSettings


def add_broker_arguments(parser: argparse.ArgumentParser, user: str) -> None:
    """The broker flags (`user`: the login used when only a password file is given)."""
    parser.add_argument("--broker", metavar="URL", help="mqtt://host:1883 or mqtts://host:8883")
    parser.add_argument(
        "--username", metavar="USER", help=f"broker user (default with a password: {user})"
    )
    parser.add_argument(
        "--password-file", metavar="FILE", help="file holding the broker password"
    )
    parser.add_argument("--ca-file", metavar="FILE", help="CA certificate for mqtts://")


def settings_from_arguments(args: argparse.Namespace, user: str) -> BrokerSettings:
    """`BrokerSettings` from those flags; a bad URL or unreadable password is a UserError."""
    from host.broadcast.mqtt import BrokerSettings

    if not args.broker:
        raise UserError("--broker is required")
    password_file = Path(args.password_file) if args.password_file else None
    settings = BrokerSettings(
        url=args.broker,
        username=args.username or (user if password_file else None),
        password_file=password_file,
        ca_file=Path(args.ca_file) if args.ca_file else None,
    )
    settings.address()
    settings.secret()
    return settings
