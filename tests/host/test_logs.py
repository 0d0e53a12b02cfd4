"""Logging: journal priorities without times, a terminal's plain lines, a rotating file."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from host.appliance.logs import FILE_BACKUPS, setup_logging
from host.config import Config


@pytest.fixture(autouse=True)
def restore_root_logger():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_journal_lines_carry_the_priority_and_no_time(tmp_path: Path, monkeypatch) -> None:
    with open(tmp_path / "journal", "w+", encoding="utf-8") as stream:
        info = os.fstat(stream.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{info.st_dev}:{info.st_ino}")
        setup_logging(Config(log_level="debug"), stream=stream)
        logging.getLogger("host.test").warning("board %s", "disconnected")
        logging.getLogger("host.test").debug("scan")
        logging.getLogger("host.test").error("two\nlines")
        stream.seek(0)
        assert stream.read().splitlines() == [
            "<4>host.test: board disconnected",
            "<7>host.test: scan",
            "<3>host.test: two",
            "<3>lines",
        ]


def test_a_terminal_gets_plain_lines_at_the_configured_level(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "0:0")  # another stream is the journal
    with open(tmp_path / "err", "w+", encoding="utf-8") as stream:
        setup_logging(Config(log_level="warning"), stream=stream)
        logging.getLogger("host.test").info("not shown")
        logging.getLogger("host.test").warning("shown")
        stream.seek(0)
        assert stream.read() == "WARNING: shown\n"


def test_the_log_file_rotates_and_keeps_times(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("host.appliance.logs.FILE_BYTES", 2000)
    log_file = tmp_path / "logs" / "board.log"
    with open(tmp_path / "err", "w", encoding="utf-8") as stream:
        setup_logging(Config(log_file=log_file), stream=stream)
        for n in range(200):
            logging.getLogger("host.test").info("line %d %s", n, "x" * 40)
    files = sorted(p.name for p in log_file.parent.iterdir())
    assert files == ["board.log"] + [f"board.log.{n}" for n in range(1, FILE_BACKUPS + 1)]
    last = log_file.read_text().splitlines()[-1]
    assert last.endswith("INFO host.test: line 199 " + "x" * 40)
    assert last[:4].isdigit()  # starts with the date


def test_an_unwritable_log_file_is_one_warning_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with open(tmp_path / "err", "w+", encoding="utf-8") as stream:
        setup_logging(Config(log_file=tmp_path / "file" / "board.log"), stream=stream)
        stream.seek(0)
        assert "cannot write the log file" in stream.read()


def test_recent_problems_keep_the_last_ten(tmp_path: Path) -> None:
    with open(tmp_path / "err", "w", encoding="utf-8") as stream:
        recent = setup_logging(Config(), stream=stream)
        for n in range(12):
            logging.getLogger("host.test").warning("problem %d", n)
        logging.getLogger("host.test").info("fine")
    assert [e.message for e in recent.entries] == [f"problem {n}" for n in range(2, 12)]
    assert recent.entries[-1].level == "warning"


def test_setting_up_twice_replaces_the_handlers(tmp_path: Path) -> None:
    with open(tmp_path / "err", "w+", encoding="utf-8") as stream:
        setup_logging(Config(), stream=stream)
        setup_logging(Config(), stream=stream)
        logging.getLogger("host.test").warning("once")
        stream.seek(0)
        assert stream.read().count("once") == 1
