"""The `draughtsboard` command.

Each sub-command lives in its own module under `host/commands/`, which exposes
`register(subparsers)`; this module only assembles them and turns expected
failures into one line on stderr with the exit status their kind has
(host/errors.py: 2 for a mistake to fix, 75 for a board not ready yet), never
a traceback; an unexpected error (a bug) is logged with its traceback and exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import NoReturn

from host.errors import ExitStatus, UserError

# Sub-command modules, in the order `--help` lists them.
COMMAND_MODULES = (
    "host.commands.play",
    "host.commands.perft",
    "host.commands.moves",
    "host.commands.analyse",
    "host.commands.check_game",
    "host.commands.replay",
    "host.commands.run",
    "host.commands.selftest",
    "host.commands.config",
    "host.commands.status",
    "host.commands.service",
    "host.commands.relay",
    "host.commands.pairings",
    "host.commands.broker_config",
)


def version() -> str:
    """The installed package's version (the checkout's pyproject when installed with -e)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as package_version

    try:
        return package_version("draughtsboard")
    except PackageNotFoundError:
        return "unknown (not installed)"


def capture_search() -> str:
    """How captures under the majority rule with flying kings are searched here:
    compiled, or in Python where no C compiler built engine/capture_search.c at install
    (`engine.native_captures`)."""
    from engine import native_captures

    if native_captures.available():
        return "compiled"
    return "Python"  # not built (no C compiler at install), or DRAUGHTSBOARD_PURE_PYTHON set


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line naming the command
    (`draughtsboard run: argument --variant: invalid choice: ...`) and exit status 2,
    like every other error, instead of the usage block of the top-level command."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(ExitStatus.CONFIGURATION, f"{self.prog}: {text} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="draughtsboard",
        description="A draughts board that knows the rules: play, check games, drive the board.",
    )
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {version()} (capture search: {capture_search()})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:  # command not written yet
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # reported by the sub-command that was given them, not by the top level
        _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return int(args.func(args) or 0)
    except UserError as error:
        print(f"draughtsboard: {error}", file=sys.stderr)
        return int(error.exit_status)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return int(ExitStatus.INTERRUPTED)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error for the user.
        sys.stderr.close()
        return int(ExitStatus.OK)
    except Exception as error:  # a bug: its traceback is for whoever fixes it, in the log
        logging.getLogger("draughtsboard").critical(
            "crashed (a bug; exit status %d): %s", ExitStatus.CRASH, error, exc_info=True
        )
        print(
            f"draughtsboard: crashed: {type(error).__name__}: {error} (a bug: please report it "
            "with the log above)",
            file=sys.stderr,
        )
        return int(ExitStatus.CRASH)


def _command_parser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The deepest sub-command parser `args` went through (`draughtsboard service install`)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                return _command_parser(chosen, args)
    return parser


if __name__ == "__main__":
    sys.exit(main())
