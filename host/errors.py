"""What can go wrong, as the command line reports it: the error types and their exit statuses.

This module is the one place that says what an exit status means; every command,
the systemd unit's restart policy (host/appliance/systemd.py), `run --help` and the docs
(docs/service.md) read it from here:

- `CONFIGURATION` (2): a mistake a person must fix (the command line, a config
  file, a folder the board cannot write, a missing library). Starting again
  changes nothing, so the service is not restarted.
- `DEVICE_NOT_READY` (75, sysexits' EX_TEMPFAIL): the board is missing or not
  ready yet (unplugged, its device not created yet, a permission udev has not
  applied yet, SPI off). `run` waits for it instead (`--wait-for-board`); other
  commands exit with it at once. Trying again later may work: the service
  restarts after it.
- `CRASH` (1): an error nobody expected, a bug: its traceback goes to the log,
  and the service restarts. A command that checks something (`selftest`,
  `check-game`) also exits 1 (`FOUND_PROBLEMS`) when what it checked has
  problems, as `diff` and `grep` do; `run` never does.

Anything a player or builder can get wrong is raised as `UserError` with a
sentence meant for them; `host.cli.main` prints it on one line and exits with
the error's `exit_status`.
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """The exit statuses of `draughtsboard` and what each one means."""

    OK = 0
    CRASH = 1
    #: a check (selftest, check-game) found problems in what it checked; never from `run`
    FOUND_PROBLEMS = 1
    CONFIGURATION = 2
    #: `status` and `service status`: the board is not running (as `systemctl status` says)
    NOT_RUNNING = 3
    DEVICE_NOT_READY = 75
    #: stopped with Ctrl-C at a terminal
    INTERRUPTED = 130


#: what each status tells a Pi owner, in the order `run --help` and docs/service.md list them
MEANINGS: tuple[tuple[ExitStatus, str], ...] = (
    (ExitStatus.OK, "stopped when asked (systemctl stop, Ctrl-C, or quit typed)"),
    (
        ExitStatus.CONFIGURATION,
        "a configuration error: a bad option or setting, a folder it cannot write, a missing "
        "library; fix it and start again (the service is not restarted)",
    ),
    (
        ExitStatus.DEVICE_NOT_READY,
        "the board is missing or not ready (unplugged, SPI off, no permission yet); run waits "
        "for it unless --wait-for-board says how long (the service restarts)",
    ),
    (ExitStatus.CRASH, "a crash, a bug: the log has the traceback (the service restarts)"),
)


def exit_status_table() -> str:
    """The exit statuses as docs/service.md shows them (a test keeps the two equal):

        python -c 'from host.errors import exit_status_table; print(exit_status_table())'
    """
    rows = ["| status | what it means |", "|---|---|"]
    rows += [f"| {int(status)} | {meaning} |" for status, meaning in MEANINGS]
    return "\n".join(rows)


def exit_status_help() -> str:
    """The exit statuses as `run --help` shows them."""
    lines = ["exit status:"]
    lines += [f"  {int(status):<3} {meaning}" for status, meaning in MEANINGS]
    return "\n".join(lines)


class UserError(Exception):
    """A mistake in input or set-up, reported to the user without a traceback."""

    exit_status = ExitStatus.CONFIGURATION


class DeviceNotReady(UserError):
    """The board is missing or not ready yet; trying again later may work."""

    exit_status = ExitStatus.DEVICE_NOT_READY
