"""A full disk or an unwritable data folder mid-game: the board says so and plays on.

The journal (host/records/journal.py) keeps what the disk refuses in memory, in order, and
writes it when the disk takes writes again; the saved games too; the log file says
its trouble once and goes on. Nothing raises, nothing prints a traceback, and the
file left on disk resumes the same game.

How the disk is made to refuse, each named in the test's id:
- `tmpfs`: a real 256 kB tmpfs filled by a filler file (the kernel's ENOSPC);
- `read-only`: the data folder bind-mounted onto itself and remounted read-only
  (the kernel's EROFS, which root cannot override, unlike chmod);
- `file-in-the-way`: the data folder moved away and a file put where it was
  (ENOTDIR/EEXIST), which needs no privilege;
- `fake-enospc`: without the right to mount, the journal's `open` is replaced by
  one whose writes raise OSError(ENOSPC) as write(2) does on a full file system
  (Linux: -1 with errno ENOSPC; CPython raises OSError(28, "No space left on
  device")), opening still working as it does on a full tmpfs.
The first two need root with CAP_SYS_ADMIN (tests/mounts.py); the others always run.
"""

from __future__ import annotations

import builtins
import errno
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

import host.records.journal
from engine import Game
from host.appliance.logs import LogFile, setup_logging
from host.config import Config
from host.records.journal import Journal
from host.session import Session
from host.voice.announce import Announcer
from tests.mounts import read_only_folder, small_disk

ROOT = Path(__file__).resolve().parents[2]


# -- ways of making the data folder refuse writes ---------------------------------------


class Trouble:
    """`fail()` makes writes in `folder` fail, `mend()` makes them work again."""

    folder: Path
    what: str  # the system's words in the report

    def fail(self) -> None:
        raise NotImplementedError

    def mend(self) -> None:
        raise NotImplementedError


class FileInTheWay(Trouble):
    what = "not a folder"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.away = folder.with_name(folder.name + ".away")

    def fail(self) -> None:
        self.folder.rename(self.away)
        self.folder.write_text("a file where the data folder was\n")

    def mend(self) -> None:
        self.folder.unlink()
        self.away.rename(self.folder)


class FakeFullDisk(Trouble):
    """host.records.journal's `open`, whose files in `folder` refuse writes while full."""

    what = "No space left on device"

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.full = False
        real_open = builtins.open
        disk = self

        class Refusing:
            def __init__(self, handle: Any) -> None:
                self._handle = handle

            def write(self, data: Any) -> int:
                if disk.full:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                return int(self._handle.write(data))

            def __getattr__(self, name: str) -> Any:
                return getattr(self._handle, name)

            def __enter__(self) -> Refusing:
                return self

            def __exit__(self, *exc: object) -> None:
                self._handle.close()

        def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            handle = real_open(file, mode, *args, **kwargs)
            inside = Path(file).resolve().is_relative_to(folder.resolve())
            return Refusing(handle) if inside and mode != "r" else handle

        monkeypatch.setattr(host.records.journal, "open", fake_open, raising=False)

    def fail(self) -> None:
        self.full = True

    def mend(self) -> None:
        self.full = False


class Tmpfs(Trouble):
    what = "No space left on device"

    def __init__(self, folder: Path, stack: ExitStack) -> None:
        self.folder = folder
        self.disk = stack.enter_context(small_disk(folder))

    def fail(self) -> None:
        self.disk.fill()

    def mend(self) -> None:
        self.disk.free()


class ReadOnly(Trouble):
    what = "Read-only file system"

    def __init__(self, folder: Path, stack: ExitStack) -> None:
        self.folder = folder
        self.mount = stack.enter_context(read_only_folder(folder))

    def fail(self) -> None:
        self.mount.freeze()

    def mend(self) -> None:
        self.mount.thaw()


KINDS = ["tmpfs", "read-only", "file-in-the-way", "fake-enospc"]


@pytest.fixture(params=KINDS)
def trouble(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Trouble]:
    folder = tmp_path / "data"
    with ExitStack() as stack:
        if request.param == "tmpfs":
            yield Tmpfs(folder, stack)
        elif request.param == "read-only":
            yield ReadOnly(folder, stack)
        elif request.param == "file-in-the-way":
            yield FileInTheWay(folder)
        else:
            yield FakeFullDisk(folder, monkeypatch)


# -- a game on the simulated clock ----------------------------------------------------------


class Board:
    """A session fed by hand, as the runtime feeds it, on a clock of its own."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.now = 0.0
        self.occupied = set(session.sensed)

    def wait(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now += 0.01
            self.session.observe(self.now, frozenset(self.occupied))

    def set_up(self) -> None:
        """Put the pieces as the game stands (after a new game)."""
        self.occupied = set(self.session.game.position.occupied())
        self.wait(1.0)

    def play(self, text: str) -> None:
        """The side to move plays `text` by hand: lift, put down, take the captured off."""
        game = Game(self.session.variant, self.session.game.position)
        move = game.push_text(text)
        before = len(self.session.game.moves)
        self.occupied.discard(move.origin)
        self.wait(0.3)
        self.occupied.add(move.destination)
        self.occupied -= set(move.captures)
        self.wait(2.5)
        assert len(self.session.game.moves) == before + 1, f"{text} was not read"


def session_in(folder: Path, said: list[str]) -> Session:
    config = Config(data_dir=folder, journal=folder / "journal.jsonl",
                    games_dir=folder / "games", speech=False)  # fmt: skip
    announcer = Announcer("en")
    announcer.subscribe(lambda item: said.append(item.kind))
    return Session(config, announcer, occupied=None)


def test_a_game_goes_on_in_memory_while_the_disk_refuses_and_is_written_after(
    trouble: Trouble, caplog: pytest.LogCaptureFixture
) -> None:
    """The first game's move is on disk; then the disk refuses: a new game begins (its
    journal must be written whole, the abandoned game saved: a full disk refuses a new
    file first, even while the journal's last page still has room) and three moves are
    played, one a capture; then the disk takes writes again and one more move is played."""
    said: list[str] = []
    session = session_in(trouble.folder, said)
    board = Board(session)
    board.play("c3-d4")
    trouble.fail()
    with caplog.at_level(logging.INFO, logger="host.records.journal"):
        session.command(board.now, "new")
        board.set_up()
        board.play("c3-d4")
        board.play("f6-e5")
        board.play("d4xf6")  # a capture, journalled in memory too
        assert session.journal.trouble is not None and trouble.what in session.journal.trouble
        assert said.count("storage-failed") == 1 and "storage-ok" not in said
        assert [m["move"] for m in session.journal.read().moves] == ["c3-d4", "f6-e5", "d4xf6"]
        session.journal.flush()  # the runtime's retry: still refused, said only once
        assert said.count("storage-failed") == 1
        trouble.mend()
        board.play("g7xe5")
    assert said.count("storage-ok") == 1 and session.journal.trouble is None
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    # each reason said once (the abandoned game's PDN, then the journal), never repeated
    assert len(warnings) == len(set(warnings)) <= 2 and any("journal" in w for w in warnings)
    assert all(trouble.what in w and "the game goes on in memory" in w for w in warnings)
    # the file alone, as a board after a power cut reads it, holds the whole game
    resumed = Journal(trouble.folder / "journal.jsonl").read()
    assert resumed is not None
    assert [m["move"] for m in resumed.moves] == ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]
    (abandoned,) = (trouble.folder / "games").glob("*.pdn")
    assert "1. c3-d4 *" in abandoned.read_text()


def test_a_game_that_ends_while_the_disk_refuses_is_saved_once_it_takes_writes(
    trouble: Trouble,
) -> None:
    said: list[str] = []
    session = session_in(trouble.folder, said)
    board = Board(session)
    board.play("c3-d4")
    trouble.fail()
    session.command(board.now, "resign")  # Black to move resigns: the game ends
    assert session.recogniser.outcome is not None
    session.command(board.now, "new")  # and the next one begins: the journal is replaced
    games = trouble.folder / "games"
    assert not (games.is_dir() and list(games.iterdir()))  # not even an empty file
    trouble.mend()
    session.journal.flush()
    (saved,) = (trouble.folder / "games").glob("*.pdn")
    assert "1. c3-d4" in saved.read_text() and '[Result "1-0"]' in saved.read_text()
    fresh = Journal(trouble.folder / "journal.jsonl").read()
    assert fresh is not None and fresh.moves == [] and not fresh.finished


def test_a_torn_last_line_does_not_swallow_the_next_record(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    journal = Journal(path)
    journal.start("brazilian", Game("brazilian").fen())
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"type": "move", "ply": 1, "mo')  # power lost mid-write
    again = Journal(path)
    game = Game("brazilian")
    move = game.push_text("c3-d4")
    again.move(1, "c3-d4", move.origin, move.destination, [], game.fen())
    record = Journal(path).read()
    assert record is not None and [m["move"] for m in record.moves] == ["c3-d4"]


# -- the log file ---------------------------------------------------------------------------


class RefusingStream:
    """A log file's stream on a full disk: every write raises ENOSPC as write(2) does."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None:
        pass

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0  # the rotating handler asks where the file ends

    def tell(self) -> int:
        return 0

    def close(self) -> None:
        pass


@pytest.mark.parametrize("kind", ["tmpfs", "fake-enospc"])
def test_a_full_disk_under_the_log_file_is_one_warning_and_no_traceback(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file open for writing keeps its folder from being remounted read-only, and an
    open file moved away is still written: a full disk is what a log file meets."""
    folder = tmp_path / "logs"
    root = logging.getLogger()
    before = list(root.handlers)
    err = tmp_path / "stderr.txt"
    with ExitStack() as stack:
        if kind == "tmpfs":
            disk = stack.enter_context(small_disk(folder))
            fail, mend = disk.fill, disk.free
        else:
            folder.mkdir()
            full = {"now": False}
            real_open = LogFile._open
            monkeypatch.setattr(LogFile, "_open", lambda self: RefusingStream() if full["now"]
                                else real_open(self))  # fmt: skip

            def fail() -> None:
                full["now"] = True
                for handler in root.handlers:
                    if isinstance(handler, LogFile):
                        handler.stream.close()
                        handler.stream = RefusingStream()  # type: ignore[assignment]

            def mend() -> None:
                full["now"] = False

        try:
            with open(err, "w+", encoding="utf-8") as stream:
                setup_logging(Config(log_file=folder / "board.log"), stream=stream)
                logging.getLogger("host.test").info("before")
                fail()
                for n in range(50):
                    logging.getLogger("host.test").info("during %d %s", n, "x" * 200)
                mend()
                logging.getLogger("host.test").info("after")
                stream.seek(0)
                lines = stream.read().splitlines()
        finally:
            for handler in [h for h in root.handlers if h not in before]:
                root.removeHandler(handler)
                handler.close()
        problems = [line for line in lines if "cannot write the log file" in line]
        assert len(problems) == 1 and problems[0].startswith("WARNING: "), lines
        assert "No space left on device" in problems[0]
        assert any("is written again" in line for line in lines)
        assert not any("Traceback" in line or "Logging error" in line for line in lines)
        assert (folder / "board.log").read_text().splitlines()[-1].endswith("after")


# -- the real `run`, as a service runs it ---------------------------------------------------


class Output:
    def __init__(self, stream: Any) -> None:
        self.lines: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def reading(t: int, *moves: str) -> str:
    """The whole board after `moves`, as a stream line at `t` ms."""
    game = Game("brazilian")
    for text in moves:
        game.push_text(text)
    return json.dumps({"t": t, "occupied": sorted(game.position.occupied())})


@pytest.mark.parametrize("kind", ["tmpfs", "read-only", "file-in-the-way"])
def test_run_plays_on_through_a_disk_that_refuses_mid_game(tmp_path: Path, kind: str) -> None:
    """`run --events -` fed move by move through a pipe: the data folder stops taking
    writes after the first move and takes them again a move later. The tmpfs is full
    from the start instead: a full disk refuses new files (the new game's journal) but
    lets a file grow into the room left in its last page, as the kernel does."""
    folder = tmp_path / "data"
    with ExitStack() as stack:
        made: Trouble = (
            Tmpfs(folder, stack) if kind == "tmpfs"
            else ReadOnly(folder, stack) if kind == "read-only"
            else FileInTheWay(folder)
        )  # fmt: skip
        full_from_the_start = kind == "tmpfs"
        if full_from_the_start:
            made.fail()
        env = {**os.environ, "DRAUGHTSBOARD_SYSTEM_CONFIG": str(tmp_path / "none.toml")}
        proc = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "run", "--board", "sim", "--listen", "off",
             "--no-speech", "--language", "en", "--data-dir", str(folder), "--new",
             "--events", "-"],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert proc.stdin is not None
        out, err = Output(proc.stdout), Output(proc.stderr)

        def send(*lines: str) -> None:
            assert proc.stdin is not None
            proc.stdin.write("".join(line + "\n" for line in lines))
            proc.stdin.flush()

        try:
            # each move ends with a reading of the whole board, which lets the stream's
            # clock run on to it (lifts and places are held back a moment for bounce)
            send('{"t": 100, "lift": 22}', '{"t": 500, "place": 17}', reading(3000, "c3-b4"))
            wait_for(lambda: out.has("White played c3-b4."), "the first move")
            if not full_from_the_start:
                made.fail()
            send('{"t": 3100, "lift": 9}', '{"t": 3500, "place": 13}',
                 reading(6000, "c3-b4", "b6-a5"))  # fmt: skip
            wait_for(lambda: out.has("Black played b6-a5."), "the second move")
            assert out.has("Cannot write the game to the card. Play goes on in memory")
            assert err.has("WARNING: cannot write the journal")
            made.mend()
            send('{"t": 6100, "lift": 24}', '{"t": 6500, "place": 20}',
                 reading(9000, "c3-b4", "b6-a5", "g3-h4"))  # fmt: skip
            wait_for(lambda: out.has("White played g3-h4."), "the third move")
            wait_for(lambda: out.has("The game is written to the card again."), "the mend")
            proc.stdin.close()
            assert proc.wait(timeout=30) == 0, "\n".join(err.lines)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert not any("Traceback" in line for line in err.lines + out.lines)
        record = Journal(folder / "journal.jsonl").read()
        assert record is not None and len(record.moves) == 3
    if kind == "file-in-the-way":
        shutil.rmtree(folder.with_name("data.away"), ignore_errors=True)
