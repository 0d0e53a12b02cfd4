"""Logging for a board that runs with no one watching: stderr for the journal, a file if asked.

Under systemd, stderr goes to the journal, which stamps every line with the
time and the unit; so the lines written there carry no time of their own,
only a `<N>` level prefix (sd-daemon(3): `<3>` error, `<4>` warning, `<6>`
info, `<7>` debug) that the journal turns into the line's priority
(`journalctl -p warning`). On a terminal the lines read `WARNING: ...`.
`log_file` adds a rotating file (1 MB, 3 kept) with times, for a board
without the journal. The last warnings and errors are kept in memory for the
status file (`draughtsboard status`).
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from collections import deque
from dataclasses import dataclass
from typing import TextIO

from host.config import Config

#: sd-daemon(3) priorities by logging level
PRIORITIES = {
    logging.DEBUG: 7,
    logging.INFO: 6,
    logging.WARNING: 4,
    logging.ERROR: 3,
    logging.CRITICAL: 2,
}
FILE_BYTES = 1_000_000
FILE_BACKUPS = 3
RECENT = 10
_OURS = "_draughtsboard"  # marks the handlers this module installed


def to_journal(stream: TextIO) -> bool:
    """Is `stream` the systemd journal? systemd sets JOURNAL_STREAM to its device:inode."""
    marker = os.environ.get("JOURNAL_STREAM", "")
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return marker == f"{info.st_dev}:{info.st_ino}"


class JournalFormatter(logging.Formatter):
    """`<4>host.speech: message`: the priority prefix, no time (the journal adds it)."""

    def format(self, record: logging.LogRecord) -> str:
        priority = PRIORITIES.get(record.levelno, 6)
        text = super().format(record)
        # A multi-line message (a traceback) keeps its priority on every line.
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines())


@dataclass(frozen=True)
class LogEntry:
    time: float
    level: str
    message: str


class RecentProblems(logging.Handler):
    """Keeps the last warnings and errors for the status file."""

    def __init__(self, size: int = RECENT) -> None:
        super().__init__(logging.WARNING)
        self.entries: deque[LogEntry] = deque(maxlen=size)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string must not break logging
            message = str(record.msg)
        self.entries.append(LogEntry(record.created, record.levelname.lower(), message))


def setup_logging(config: Config, *, stream: TextIO | None = None) -> RecentProblems:
    """Install the handlers for `config` on the root logger (again: replaces ours).
    Returns the keeper of recent problems for the status writer."""
    stream = stream or sys.stderr
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _OURS, False)]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(getattr(logging, config.log_level.upper()))

    console = logging.StreamHandler(stream)
    if to_journal(stream):
        console.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        console.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    handlers: list[logging.Handler] = [console]

    problem: str | None = None
    if config.log_file is not None:
        try:
            config.log_file.parent.mkdir(parents=True, exist_ok=True)
            file = logging.handlers.RotatingFileHandler(
                config.log_file, maxBytes=FILE_BYTES, backupCount=FILE_BACKUPS, encoding="utf-8"
            )
        except OSError as error:
            problem = f"cannot write the log file {config.log_file}: {error.strerror}"
        else:
            file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
            handlers.append(file)

    recent = RecentProblems()
    handlers.append(recent)
    for handler in handlers:
        setattr(handler, _OURS, True)
        root.addHandler(handler)
    if problem is not None:
        logging.getLogger("host.logs").warning(problem)
    return recent
