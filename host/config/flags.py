"""Command-line flags for every setting, generated from the settings table.

Why generated: `run` (and the commands that start a board) must accept every
key a file accepts, spelled the same way (`data_dir` is `--data-dir`), with the
same checks; declaring flags by hand would let the two drift. The flags only
collect text: `flag_values` turns it into TOML-like values and the checking is
done by `load_config`, so a bad flag gets the same one-line error as a bad file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from host.config.kinds import Boolean, Choice, Colours, LayoutRef, PathValue
from host.config.settings import SETTINGS


def add_config_argument(
    parser: Any,
    help: str = "read FILE over the system file instead of yours "
    "(~/.config/draughtsboard/config.toml)",
) -> None:
    """`--config FILE`, the same on every command that reads the settings."""
    parser.add_argument("--config", metavar="FILE", help=help)


def add_setting_flags(parser: Any, *, skip: Iterable[str] = ()) -> None:
    """One flag per setting (`--brightness`, `--speech/--no-speech`, `--colour ROLE=COLOUR`...)."""
    import argparse

    skipped = set(skip)
    for setting in SETTINGS:
        if setting.key in skipped:
            continue
        dest = f"setting_{setting.key}"
        shows_itself = isinstance(setting.kind, Choice | PathValue | LayoutRef)
        help_text = setting.help if shows_itself else f"{setting.help}; {setting.kind.allowed}"
        if isinstance(setting.kind, Boolean):
            parser.add_argument(
                setting.flag, dest=dest, action=argparse.BooleanOptionalAction, help=setting.help
            )
        elif isinstance(setting.kind, Colours):
            parser.add_argument(
                "--colour",
                "--color",
                dest=dest,
                action="append",
                metavar="ROLE=COLOUR",
                help="LED colour for one role, e.g. destination=#0072b2 (repeatable)",
            )
        else:
            parser.add_argument(
                setting.flag, dest=dest, metavar=setting.kind.metavar, help=help_text
            )


def flag_values(args: Any) -> dict[str, Any]:
    """The flags given on the command line, as TOML-like values for `load_config`."""
    out: dict[str, Any] = {}
    for setting in SETTINGS:
        value = getattr(args, f"setting_{setting.key}", None)
        if value is None:
            continue
        if isinstance(setting.kind, Colours):
            table: dict[str, Any] = {}
            for item in value:
                role, _, colour = item.partition("=")
                table[role.strip()] = colour.strip()
            out["colours"] = table
        elif isinstance(value, str):
            out[setting.key] = setting.kind.from_text(value)
        else:
            out[setting.key] = value
    return out
