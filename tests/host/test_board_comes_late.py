"""A USB board plugged in after start-up: `run` waits for it, says so, and plays when it comes.

The real `draughtsboard run --board serial:PATH` in a child process is started
before PATH exists (a Pi switched on before its board is plugged in). It must keep
running, say that it waits (console, log, status file, `draughtsboard status`),
and once the firmware simulator (firmware/simulator.py: the board's real firmware
behind a pty, the path a symlink as udev makes /dev/serial/by-id/...) is plugged
in, set the game going on what the board reads: a move played on its switches is
announced and journalled. No one touches the process in between.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from engine import get_variant
from hardware.layout import load_layout
from host.squares import SquareMap
from tests.hardware.fakes_circuitpython import simulator

ROOT = Path(__file__).resolve().parents[2]


class Output:
    """The lines a child writes on one stream, collected as they come."""

    def __init__(self, stream) -> None:  # type: ignore[no-untyped-def]
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:  # type: ignore[no-untyped-def]
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def keys(squares: list[int]) -> list[int]:
    """The switch matrix keys under these Brazilian squares (standard 8x8 wiring)."""
    layout = load_layout("standard-8x8")
    hardware = SquareMap(get_variant("brazilian"), 32).hardware_squares(squares)
    return sorted(layout.sensor_squares.index(square) for square in hardware)


def test_a_board_plugged_in_after_start_up_plays_without_anyone_touching_the_pi(
    tmp_path: Path,
) -> None:
    link = tmp_path / "ttyBOARD"  # does not exist yet
    data = tmp_path / "data"
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{data}"\nboard = "serial:{link}"\n')
    env = {**os.environ, "DRAUGHTSBOARD_SYSTEM_CONFIG": str(tmp_path / "none.toml")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "run", "--config", str(config), "--new",
         "--listen", "off", "--no-speech", "--language", "en"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    out, err = Output(proc.stdout), Output(proc.stderr)
    board = simulator.SimulatedBoard(link, closed=keys([*range(1, 13), *range(21, 33)]))
    try:
        wait_for(lambda: err.has("waiting for the board"), "the waiting warning")
        assert err.has(f"waiting for the board: cannot open {link}: No such file or directory")
        assert out.has("Waiting for the board: plug it in. Play starts when it is ready.")
        wait_for(lambda: (data / "status.json").exists(), "the status file")
        status = json.loads((data / "status.json").read_text())
        assert status["state"] == "running" and "No such file" in status["waiting"]
        said = subprocess.run(
            [sys.executable, "-m", "host.cli", "status", "--config", str(config)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert "WAITING for the board (play starts when it is ready)" in said.stdout
        time.sleep(2.5)  # a few tries at opening it go by
        assert proc.poll() is None

        board.plug()  # the cable goes in
        wait_for(lambda: out.has("The board is ready. Play on."), "the board to be found")
        assert err.has("the board is ready after")
        wait_for(lambda: json.loads((data / "status.json").read_text())["waiting"] is None,
                 "the status file to stop waiting")  # fmt: skip
        (lifted,), (placed,) = keys([22]), keys([17])
        board.lift(lifted)
        time.sleep(0.4)
        board.place(placed)
        wait_for(lambda: out.has("White played c3-b4."), "the move on the board")
        # the LEDs now show it: the last move's squares are lit on the board's own LEDs
        assert board.wait_shown(lambda shown: any(any(led) for led in shown), timeout=5)
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)
        board.unplug()
    assert code == 0, "\n".join(err.lines)
    journal = [json.loads(line) for line in (data / "journal.jsonl").read_text().splitlines()]
    assert [(r["from"], r["to"]) for r in journal if r["type"] == "move"] == [(22, 17)]
    assert not any("Traceback" in line for line in err.lines + out.lines)
