"""Fixtures: a real mosquitto per test, boards as separate processes, the relay in-process."""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.broadcast.broker import Broker
from tests.paths import REPO
from tests.tools import need, need_tool

BOARDS = ("b1", "b2", "b3", "b4")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    need("mosquitto")
    need_tool("mosquitto", importlib.util.find_spec("paho") is not None,
              "paho-mqtt is not installed (pip install -e '.[dev]')")
    running = Broker(tmp_path / "broker", BOARDS)
    running.start()
    try:
        yield running
    finally:
        running.stop()


class BoardProcess:
    """`draughtsboard run --board sim --events -` with a broker: events fed on stdin."""

    def __init__(self, folder: Path, broker: Broker, board_id: str, variant: str, *,
                 keepalive: int = 15, events: Path | None = None, user: str | None = None,
                 url: str | None = None, ca_file: Path | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        config = folder / "config.toml"
        config.write_text(
            f'variant = "{variant}"\nspeech = false\n'
            f'journal = "journal.jsonl"\ngames_dir = "games"\n\n'
            f'broker = "{url or broker.url}"\nboard_id = "{board_id}"\n'
            f'broker_username = "{user or board_id}"\n'
            f'broker_password_file = "{broker.password_file(user or board_id)}"\n'
            f"broker_keepalive = {keepalive}\n"
            + (f'broker_ca_file = "{ca_file}"\n' if ca_file else ""),
            encoding="utf-8",
        )
        command = [sys.executable, "-m", "host.cli", "run", "--config", str(config),
                   "--board", "sim", "--new", "--events", str(events) if events else "-"]
        self.stderr = open(folder / "stderr.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, cwd=REPO, stdin=None if events else subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=self.stderr,
        )

    def feed(self, lines: list[str] | tuple[str, ...]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(("\n".join(lines) + "\n").encode())
        self.process.stdin.flush()

    def finish(self, timeout: float = 60) -> int:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        code = self.process.wait(timeout=timeout)
        self.stderr.close()
        return code

    def log(self) -> str:
        return (self.folder / "stderr.log").read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        if not self.stderr.closed:
            self.stderr.close()


@pytest.fixture
def boards(tmp_path: Path) -> Iterator[list[BoardProcess]]:
    started: list[BoardProcess] = []
    yield started
    for board in started:
        board.stop()


def wait_until(test, timeout: float = 15.0, what: str = "condition"):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class RelayProcess:
    """`draughtsboard relay` as the organiser runs it (a separate process), on `broker`."""

    def __init__(self, out: Path, broker: Broker, *, listen: int | None = None,
                 delay: float = 0.0, extra: tuple[str, ...] = (),
                 preexec: Callable[[], None] | None = None) -> None:
        self.out = out
        self.listen = listen
        command = [sys.executable, "-m", "host.cli", "relay", "--broker", broker.url,
                   "--out", str(out), "--password-file", str(broker.password_file("relay")),
                   *(("--listen", f"127.0.0.1:{listen}") if listen else ()),
                   *(("--delay", str(delay)) if delay else ()), *extra]
        out.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = out.parent / f"{out.name}-relay.log"
        self._log = open(self.log_path, "ab")  # noqa: SIM115
        self.process = subprocess.Popen(command, cwd=REPO, stdout=self._log,
                                        stderr=subprocess.STDOUT, preexec_fn=preexec)

    def status(self) -> dict[str, Any] | None:
        """The relay's status file (None until it has written one)."""
        try:
            return json.loads((self.out / "relay-status.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        code = self.process.wait(timeout=timeout)
        self._log.close()
        return code


@pytest.fixture
def relays() -> Iterator[list[RelayProcess]]:
    started: list[RelayProcess] = []
    yield started
    for relay in started:
        if relay.process.poll() is None:
            relay.process.kill()
            relay.process.wait()
