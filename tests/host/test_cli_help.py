"""`--help` of every command and sub-command, as a newcomer reads it at a terminal: it
works (status 0, no traceback), and says what the command does before its options, in
lines an 80-column terminal shows whole."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from host.cli import build_parser
from tests.paths import REPO


def commands() -> list[list[str]]:
    """Every command line that takes --help: each command, and each action of one."""
    found: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append([*path, name])
                    walk(sub, [*path, name])

    walk(build_parser(), [])
    return found


def test_every_command_is_walked() -> None:
    walked = {" ".join(c) for c in commands()}
    assert {"run", "play", "service", "service install", "service leds-off"} <= walked


@pytest.mark.parametrize("command", commands(), ids=" ".join)
def test_help_says_what_the_command_does_in_lines_a_terminal_shows_whole(
    command: list[str],
) -> None:
    done = subprocess.run([sys.executable, "-m", "host.cli", *command, "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=60,
                          env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and not done.stderr, done.stderr
    text = done.stdout
    assert text.startswith(f"usage: draughtsboard {' '.join(command)}")
    before_options = text.split("\noptions:")[0]
    prose = before_options.split("\n\n")[1:]  # after the usage
    assert prose and prose[0].strip(), f"no description:\n{text}"
    too_long = [line for block in prose for line in block.splitlines() if len(line) > 80]
    assert not too_long, too_long
