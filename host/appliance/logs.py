"""Logging for a board that runs with no one watching: stderr for the journal, a file if asked.

Under systemd, stderr goes to the journal, which stamps every line with the
time and the unit; so the lines written there carry no time of their own,
only a `<N>` level prefix (sd-daemon(3): `<3>` error, `<4>` warning, `<6>`
info, `<7>` debug) that the journal turns into the line's priority
(`journalctl -p warning`). On a terminal the lines read `WARNING: ...`.
`log_file` adds a rotating file (1 MB, 3 kept) with times, for a board
without the journal. The last warnings and errors are kept in memory for the
status file (`draughtsboard status`).

Logging never stops the board nor prints a traceback: a log file that cannot
be written (a full disk, its folder gone or read-only) is said once on the
other handlers (stderr, which systemd keeps; the status file), tried again at
every record, and said once more when it is written again.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
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
    """`<4>host.voice.speech: message`: the priority prefix, no time (the journal adds it)."""

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


class LogFile(logging.handlers.RotatingFileHandler):
    """The rotating log file; a write (or rotation) that fails is reported to `others`
    once, not printed with a traceback, and the file is opened afresh at the next record.

    Invariant: `trouble` is None exactly when the last record was written."""

    def __init__(self, path: Path, others: list[logging.Handler]) -> None:
        super().__init__(path, maxBytes=FILE_BYTES, backupCount=FILE_BACKUPS, encoding="utf-8")
        self.others = others
        self.trouble: str | None = None
        self._failed = False

    def emit(self, record: logging.LogRecord) -> None:
        self._failed = False
        super().emit(record)  # a failure comes back through handleError
        if not self._failed and self.trouble is not None:
            self.trouble = None
            self._tell(logging.INFO, f"the log file {self.baseFilename} is written again")

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        self._failed = True
        error = sys.exc_info()[1]
        why = (error.strerror if isinstance(error, OSError) else None) or str(error)
        if self.stream is not None:  # what it holds may never be written: start afresh
            with contextlib.suppress(Exception):
                self.stream.close()
            self.stream = None
        if why != self.trouble:
            self.trouble = why
            self._tell(
                logging.WARNING,
                f"cannot write the log file {self.baseFilename}: {why}; "
                "logging goes on to stderr (the system journal)",
            )

    def _tell(self, level: int, message: str) -> None:
        note = logging.LogRecord("host.appliance.logs", level, __file__, 0, message, None, None)
        for handler in self.others:
            if level >= handler.level:
                handler.handle(note)


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

    recent = RecentProblems()
    problem: str | None = None
    if config.log_file is not None:
        try:
            config.log_file.parent.mkdir(parents=True, exist_ok=True)
            file = LogFile(config.log_file, others=[console, recent])
        except OSError as error:
            problem = f"cannot write the log file {config.log_file}: {error.strerror}"
        else:
            file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
            handlers.append(file)
    handlers.append(recent)
    for handler in handlers:
        setattr(handler, _OURS, True)
        root.addHandler(handler)
    if problem is not None:
        logging.getLogger("host.appliance.logs").warning(problem)
    return recent
