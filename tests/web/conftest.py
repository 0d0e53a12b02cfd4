"""What the page's tests share: a real `draughtsboard run` and a real Chromium.

The server is the installed command line started as a separate process, as
`make run` and systemd start it (standard input not a terminal), on a free
port; the tests talk to it over HTTP and WebSocket like any browser would.

Chromium is Debian's (`/usr/bin/chromium`) driven by Playwright for Python;
Playwright's own browser download is never used. Without chromium (or the
playwright package) the browser tests skip, unless DRAUGHTSBOARD_REQUIRE names
chromium (CI sets it after installing chromium with apt): then they fail.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.voice.messages import CONSOLE
from tests.tools import need_tool

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("DRAUGHTSBOARD_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: how the server's start-up line naming the page begins, in each language
PAGE_LINES = tuple(lines["page"].split("{")[0] for lines in CONSOLE.values())
#: set by `make screenshots`: the folder the README's screenshots are written to
SCREENSHOTS = os.environ.get("DRAUGHTSBOARD_SCREENSHOTS")


def run_async(coroutine):  # type: ignore[no-untyped-def]
    """Run a coroutine to completion on its own loop in its own thread (Playwright's sync
    API keeps an event loop running in the main thread once a browser test has run)."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as error:  # handed back to the test's thread
            errors.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


class BoardServer:
    """`draughtsboard run` in a child process, with its own journal and games folder."""

    def __init__(self, folder: Path, *args: str, language: str = "en") -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.config = folder / "config.toml"
        if not self.config.exists():
            self.config.write_text(
                f'language = "{language}"\nspeech = false\n'
                f'journal = "{folder / "journal.jsonl"}"\n'
                f'games_dir = "{folder / "games"}"\n'
                f'data_dir = "{folder}"\n'  # the status file too: never the tester's home
            )
        self.args = args
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self, *extra: str, listen: str = "127.0.0.1:0") -> BoardServer:
        command = [sys.executable, "-m", "host.cli", "run", "--config", str(self.config),
                   "--listen", listen, *self.args, *extra]
        self.proc = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1,
        )
        # Read everything it prints as it comes (as the journal would): a full pipe
        # would block the server.
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(self.proc,), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            if line is None:
                break
            if line.startswith(PAGE_LINES):  # in the board's language
                self.url = line.split(": ", 1)[1].strip()
                return self
        self.stop(check=False)
        raise AssertionError("the server did not start:\n" + "".join(self.output))

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.output.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def read_output(self, seconds: float = 0.2) -> str:
        """Whatever the server printed so far (announcements, warnings)."""
        time.sleep(seconds)
        return "".join(self.output)

    @property
    def base(self) -> str:
        return self.url.split("?")[0].rstrip("/")

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def stop(self, *, check: bool = True, sig: int = signal.SIGTERM) -> int:
        """Stop it as systemd would; returns the exit status (0 expected)."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            status = self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            status = self.proc.wait()
        self._reader.join(timeout=5)
        self.proc = None
        if check:
            printed = "".join(self.output)
            assert status == 0, printed
            assert "Traceback" not in printed, printed  # never a traceback, even to a log
        return status

    # -- HTTP -----------------------------------------------------------------------

    def request(
        self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
        headers: dict[str, str] | None = None, base: str | None = None,
    ) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(
            (base or self.base) + path, data=data, method=method, headers=headers or {}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text.decode("utf-8", "replace")

    def state(self) -> dict[str, Any]:
        status, state = self.request("GET", "/api/state")
        assert status == 200, state
        return state

    def hands(self, **action: Any) -> tuple[int, Any]:
        return self.request("POST", "/api/hands", action)

    def control(self, **body: Any) -> tuple[int, Any]:
        return self.request("POST", "/api/control", body)

    def wait_for(self, check, timeout: float = 10.0) -> dict[str, Any]:  # type: ignore[no-untyped-def]
        """Poll the state until `check(state)` holds (settle timers run in real time)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"state never matched; last: {json.dumps(state)[:2000]}")
            time.sleep(0.05)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[BoardServer]:
    board = BoardServer(tmp_path / "board", "--board", "sim", "--new").start()
    yield board
    board.stop()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BoardServer]:
    """One simulator for a whole test module: each test starts its own game on it with
    `fresh` (a new game is how a player starts over, too)."""
    board = BoardServer(tmp_path_factory.mktemp("shared") / "board", "--board", "sim",
                        "--new").start()
    yield board
    board.stop()


def fresh(board: BoardServer, **control: Any) -> dict[str, Any]:
    """A new game on `board` (`players`, `variant`, `fen` as the page's new-game control
    takes them; two people by default), once the board stands as it does."""
    control.setdefault("players", {"W": "human", "B": "human"})
    status, answer = board.control(command="new", **control)
    assert status == 200, answer
    return board.wait_for(lambda s: not s["moves"] and not s["correcting"])


def journal_with(folder: Path, variant: str, fen: str) -> None:
    """An unfinished game in the journal, as a power cut would leave it: the board
    resumes it (and the simulator sets its pieces up as the game stands)."""
    folder.mkdir(parents=True, exist_ok=True)
    header = {"type": "game", "variant": variant, "fen": fen, "started": "2025-01-01T10:00:00"}
    (folder / "journal.jsonl").write_text(json.dumps(header) + "\n")


# -- the browser ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        need_tool(
            "chromium", False, "the playwright package is not installed (pip install -e '.[dev]')"
        )
        return
    need_tool("chromium", CHROMIUM.exists(), f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


def screenshot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Save a README screenshot when `make screenshots` asks for them."""
    if SCREENSHOTS:
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(300)  # let the last state's glow be drawn
        # Blinking stopped in its lit phase, so a blinking LED shows in the picture.
        page.screenshot(path=str(folder / f"{name}.png"), animations="disabled")
