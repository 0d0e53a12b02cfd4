"""`draughtsboard run` as systemd runs it: no terminal, stopped by SIGTERM, logs to the journal.

The real command in a child process, on the simulated board with no page
(`--listen off`): with standard input closed or not a terminal it keeps
running; SIGTERM stops it with status 0, the LEDs put out, the status file
saying "stopped", the journal untouched and the game still resumable; its
log lines carry the sd-daemon priority prefix when stderr is the journal
(systemd says so with JOURNAL_STREAM). Typed commands are read only from a
terminal (a pseudo-terminal here), in English or Portuguese.
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """No system file, no home config: only the flags count."""
    return {
        **os.environ,
        "DRAUGHTSBOARD_SYSTEM_CONFIG": str(tmp_path / "no-system.toml"),
        "XDG_CONFIG_HOME": str(tmp_path / "home-config"),
        **extra,
    }


def command(tmp_path: Path, *args: str) -> list[str]:
    return [
        sys.executable, "-m", "host.cli", "run", "--board", "sim", "--listen", "off",
        "--no-speech", "--language", "en", "--data-dir", str(tmp_path / "data"), *args,
    ]  # fmt: skip


def play_one_move(tmp_path: Path) -> None:
    """White's first move, made through `run --events` (the board's switch events)."""
    done = subprocess.run(
        command(tmp_path, "--new", "--events", "-"),
        input='{"t": 100, "lift": 22}\n{"t": 500, "place": 17}\n',
        capture_output=True, text=True, cwd=ROOT, env=environment(tmp_path), timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "White played c3-b4." in done.stdout


def wait_for(check, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("stdin", "sig"),
    [("devnull", signal.SIGTERM), ("closed-pipe", signal.SIGTERM), ("devnull", signal.SIGINT)],
)
def test_a_service_keeps_running_and_stops_cleanly_on_a_signal(
    tmp_path: Path, stdin: str, sig: int
) -> None:
    play_one_move(tmp_path)
    data = tmp_path / "data"
    journal = data / "journal.jsonl"
    before = journal.read_bytes()
    err_path = tmp_path / "stderr.log"
    with err_path.open("w") as err:
        info = os.fstat(err.fileno())
        # what systemd sets when stderr is connected to the journal
        env = environment(tmp_path, JOURNAL_STREAM=f"{info.st_dev}:{info.st_ino}")
        proc = subprocess.Popen(
            command(tmp_path),
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL if stdin == "devnull" else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
        if stdin == "closed-pipe":
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            wait_for(lambda: "ready:" in err_path.read_text() or proc.poll() is not None)
            status = json.loads((data / "status.json").read_text())
            assert status["state"] == "running" and status["pid"] == proc.pid
            assert (status["board"], status["layout"]) == ("sim", "standard-8x8")
            assert status["game"]["moves"] == 1 and status["game"]["turn"] == "B"
            time.sleep(1.5)
            assert proc.poll() is None  # no terminal, no page: still running
            proc.send_signal(sig)  # systemd's stop, or Ctrl-C
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.stdout is not None
    out = proc.stdout.read()
    log = err_path.read_text().splitlines()
    assert "Game resumed. Black to move." in out  # the sim set the pieces up as it stands
    # journal-readable: every line has its priority, no time of its own (the journal adds it)
    assert log and all(line[:3] in ("<6>", "<4>", "<3>", "<7>") for line in log), log
    assert "<6>host.commands.run: ready: sim board, layout standard-8x8, brazilian" in log
    assert log[-1] == "<6>host.live.runtime: stopped: LEDs off; every move is in the journal"
    assert not any("Traceback" in line for line in log + out.splitlines())
    # the journal is whole and untouched, the status file says it stopped
    assert journal.read_bytes() == before
    status = json.loads((data / "status.json").read_text())
    assert status["state"] == "stopped" and status["game"]["moves"] == 1
    # and the game goes on where it stopped
    again = subprocess.run(
        command(tmp_path, "--events", "-"), input="", capture_output=True, text=True,
        cwd=ROOT, env=environment(tmp_path), timeout=60,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "An unfinished game of Brazilian draughts was found (1 move)" in again.stdout
    assert "Game resumed. Black to move." in again.stdout


def test_a_second_run_on_the_same_journal_is_refused_before_it_says_anything(
    tmp_path: Path,
) -> None:
    """`make run` twice, or `run` beside the service: the second would resume and write the
    same game. It is refused, naming the first; the first plays on; once it has stopped,
    the journal is free again."""
    play_one_move(tmp_path)
    journal = tmp_path / "data" / "journal.jsonl"
    before = journal.read_bytes()
    first = subprocess.Popen(command(tmp_path), cwd=ROOT, env=environment(tmp_path),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert first.stderr is not None
        for line in first.stderr:  # the first one is playing
            if "ready:" in line:
                break
        second = subprocess.run(command(tmp_path), cwd=ROOT, env=environment(tmp_path),
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 2
        assert second.stdout == ""  # no "unfinished game found", no "resumed"
        assert second.stderr == (
            f"draughtsboard: another draughtsboard run is playing the game in {journal} "
            "(draughtsboard status says which): stop it first, or give this one its own "
            "--data-dir\n")
        assert first.poll() is None and journal.read_bytes() == before
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=15) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    after = subprocess.run(command(tmp_path, "--events", "-"), input="", capture_output=True,
                           text=True, cwd=ROOT, env=environment(tmp_path), timeout=60)
    assert after.returncode == 0, after.stderr
    assert "Game resumed. Black to move." in after.stdout


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (("resign", "quit"), "White resigns."),
        (("desistir", "sair"), "White resigns."),
        (("nova", "empate", "sair"), "Draw agreed."),
    ],
)
def test_typed_commands_are_read_from_a_terminal_in_either_language(
    tmp_path: Path, words: tuple[str, ...], said: str
) -> None:
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        command(tmp_path, "--new"), cwd=ROOT, env=environment(tmp_path), stdin=terminal,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    os.close(terminal)
    try:
        wait_for(lambda: (tmp_path / "data" / "status.json").exists())
        time.sleep(0.5)
        for word in words:
            os.write(controller, word.encode() + b"\n")
            time.sleep(0.5)
        out, _ = proc.communicate(timeout=15)
    finally:
        os.close(controller)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "Commands: takeback, new, resign, draw, quit (in Portuguese: desfazer, nova" in out
    assert said in out and "unknown command" not in out
    if "nova" in words:
        assert "New Brazilian draughts game. White to move." in out
