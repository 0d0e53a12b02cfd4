"""`draughtsboard config`: which files are read, what is in force, and `--check`.

`--check` is what `run` does before it starts and what `service install`
runs (as the service's user) before it writes the unit: it lists every
error in one pass, one per line, each naming the file, the key, the value and
what is wrong (bad values, then the checks across settings, then the folders
and files the settings name, for the user running it), and exits with status
2 if there is any, so a board is never started half-configured. A key an
earlier version read and that does nothing now is no error: it is named, with
why it is ignored, and the check still passes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from host.config import (
    SETTINGS,
    Config,
    add_config_argument,
    check_files,
    config_files,
    default_config_path,
    ignored_settings,
    load_config,
    system_config_path,
)
from host.errors import ExitStatus


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "config",
        help="show the settings in force, or check a config file (--check)",
        description="Without options: the files read (lowest layer first) and the settings "
        "in force. --check [FILE]: report every error in FILE (or in the files that apply), "
        "the folders and files it names included, checked for the user running it; exit "
        "status 2 if there is any. Keys: docs/config.md.",
    )
    parser.add_argument(
        "--check", nargs="?", const="", metavar="FILE", help="check FILE (default: every file read)"
    )
    add_config_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.check is not None:
        return check(Path(args.check) if args.check else None, args.config)
    return show(args.config)


def check(file: Path | None, config: str | None) -> int:
    paths = [file] if file is not None else config_files(config)
    if not paths:
        print("No config file: the defaults are in force.")
        return 0
    for note in ignored_settings(paths):
        print(str(note), file=sys.stderr)
    errors = check_files(paths)
    for error in errors:
        print(str(error), file=sys.stderr)
    if errors:
        noun = "error" if len(errors) == 1 else "errors"
        print(f"{len(errors)} {noun}; the keys are described in docs/config.md", file=sys.stderr)
        return ExitStatus.CONFIGURATION
    for path in paths:
        print(f"{path}: ok")
    return 0


def show(config_path: str | None) -> int:
    files = config_files(config_path)
    print("# files read, lowest layer first:")
    print(
        f"#   {system_config_path()} (system){'' if system_config_path() in files else ': absent'}"
    )
    user = Path(config_path) if config_path else default_config_path()
    print(f"#   {user}{'' if user in files else ': absent'}")
    print(to_toml(load_config(config_path)))
    return 0


def to_toml(config: Config) -> str:
    """The settings in force, as a config file would say them."""
    lines: list[str] = []
    for setting in SETTINGS:
        if setting.key == "colours":
            continue
        value = getattr(config, setting.key)
        if value is None:
            text = '""'
        elif isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int | float):
            text = str(value)
        elif isinstance(value, tuple):  # a list of numbers (clock_warnings)
            text = "[" + ", ".join(f"{v:g}" for v in value) + "]"
        else:
            text = '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines.append(f"{setting.key} = {text}")
    lines.append("[colours]")
    for role, (r, g, b) in config.colours.items():
        lines.append(f'{role} = "#{r:02x}{g:02x}{b:02x}"')
    return "\n".join(lines)
