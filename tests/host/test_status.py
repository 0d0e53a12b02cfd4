"""The status file the running board writes, and `draughtsboard status` reading it."""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
from pathlib import Path

from hardware.board import Board
from hardware.layout import standard_layout
from hardware.mock import Fault, MockBoard
from host.appliance.logs import RecentProblems
from host.appliance.status import CHATTER_PER_MINUTE, StatusWriter
from host.appliance.systemd import UNIT
from host.commands import status as status_command
from host.config import Config
from host.session import Session
from host.streams.events import run_stream
from host.voice.announce import Announcer


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def session(tmp_path: Path) -> Session:
    cfg = Config(
        journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", data_dir=tmp_path, speech=False
    )
    return Session(cfg, Announcer("en"), resume=False)


def test_the_status_file_says_board_game_and_turn_and_is_replaced_whole(tmp_path: Path) -> None:
    s = session(tmp_path)
    clock = Clock()
    problems = RecentProblems()
    writer = StatusWriter(
        s.config.status_file, board="gpio", layout="standard-8x8", problems=problems, clock=clock
    )
    assert writer.update(s)
    data = json.loads(s.config.status_file.read_text())
    assert (data["state"], data["board"], data["layout"]) == ("running", "gpio", "standard-8x8")
    assert data["game"]["variant"] == "brazilian" and data["game"]["turn"] == "W"
    assert data["game"]["moves"] == 0 and data["game"]["result"] is None
    assert list(tmp_path.glob("*.tmp")) == []
    # nothing changed, within a second: not rewritten
    clock.now += 0.5
    assert not writer.update(s)
    # a move: rewritten at once
    run_stream(s, [json.dumps({"t": 100, "lift": 22}), json.dumps({"t": 500, "place": 17})])
    assert writer.update(s)
    data = json.loads(s.config.status_file.read_text())
    assert data["game"]["moves"] == 1 and data["game"]["turn"] == "B"
    assert data["pieces"] == {str(sq): p for sq, p in s.pieces().items()}
    assert data["pieces"]["17"] == "W" and "22" not in data["pieces"]
    # a piece lifted (the board changes, the game does not): written within a second,
    # with the piece gone from `pieces`
    run_stream(s, [json.dumps({"t": 2000, "lift": 9})])
    clock.now += 0.5
    assert not writer.update(s)
    clock.now += 0.6
    assert writer.update(s)
    assert "9" not in json.loads(s.config.status_file.read_text())["pieces"]
    # problems logged while running are in the file
    logger = logging.getLogger("host.test.status")
    logger.addHandler(problems)
    logger.warning("board disconnected")
    logger.removeHandler(problems)
    clock.now += 2
    writer.update(s)
    assert (
        json.loads(s.config.status_file.read_text())["problems"][-1]["message"]
        == "board disconnected"
    )
    writer.stopped(s)
    assert json.loads(s.config.status_file.read_text())["state"] == "stopped"


def test_a_chattering_switch_is_reported_and_a_normal_board_is_not(tmp_path: Path) -> None:
    s = session(tmp_path)
    mock = MockBoard(32)
    mock.set_occupied(range(1, 13))
    board = Board(mock, standard_layout(8))
    clock = Clock()
    writer = StatusWriter(tmp_path / "status.json", board="sim", layout="x", clock=clock)
    for second in range(70):
        for tick in range(100):
            board.poll(now=second + tick / 100)
        clock.now += 1
        writer.update(s, board=board)
    assert json.loads((tmp_path / "status.json").read_text())["chatter"] == {}
    mock.inject_fault(20, Fault.CHATTERING)
    for second in range(30):
        for tick in range(100):
            board.poll(now=second + tick / 100)
        clock.now += 1
        writer.update(s, board=board)
    chatter = json.loads((tmp_path / "status.json").read_text())["chatter"]
    assert list(chatter) == ["20"] and chatter["20"] >= CHATTER_PER_MINUTE


def test_an_unwritable_status_file_is_one_warning(tmp_path: Path, caplog) -> None:
    (tmp_path / "file").write_text("")
    writer = StatusWriter(tmp_path / "file" / "status.json", board="sim", layout="x")
    s = session(tmp_path)
    with caplog.at_level(logging.WARNING):
        writer.update(s, force=True)
        writer.update(s, force=True)
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1
    assert messages[0].startswith(
        f"cannot write the status file {tmp_path / 'file' / 'status.json'}"
    )


def fake_systemctl(active: str, enabled: str):
    def runner(args):
        out = {"is-active": active, "is-enabled": enabled}[args[1]]
        return subprocess.CompletedProcess(args, 0, out + "\n", "")

    return runner


def status_of(tmp_path: Path, capsys, runner) -> tuple[int, str]:
    config = tmp_path / "c.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n')
    code = status_command.run(argparse.Namespace(config=str(config), json=False), runner=runner)
    return code, capsys.readouterr().out


def test_status_tells_service_board_game_problems_and_chatter(tmp_path: Path, capsys) -> None:
    s = session(tmp_path)
    s.set_players(0.0, {"W": "human", "B": "computer:3"})
    writer = StatusWriter(s.config.status_file, board="gpio", layout="standard-8x8")
    writer.update(s)
    data = json.loads(s.config.status_file.read_text())
    assert data["players"] == {"W": "human", "B": "computer:3"}
    data["chatter"] = {"20": 300}
    data["problems"] = [
        {"time": "2025-01-01T10:00:00", "level": "warning", "message": "board disconnected"}
    ]
    s.config.status_file.write_text(json.dumps(data))
    code, out = status_of(tmp_path, capsys, fake_systemctl("active", "enabled"))
    assert code == 0
    assert f"service: active (enabled) - {UNIT}" in out
    assert "board: running since" in out and "board type: gpio, layout standard-8x8" in out
    assert "game: Brazilian draughts (8x8), 0 moves, White to move" in out
    assert "warning: board disconnected" in out
    assert "square 20 (300 flickers)" in out
    assert "computer plays: Black computer:3" in out
    data["game"]["moves"] = 1
    s.config.status_file.write_text(json.dumps(data))
    assert "game: Brazilian draughts (8x8), 1 move, " in status_of(
        tmp_path, capsys, fake_systemctl("active", "enabled"))[1]


def test_status_after_a_crash_and_before_any_run(tmp_path: Path, capsys) -> None:
    code, out = status_of(tmp_path, capsys, fake_systemctl("inactive", "not-found"))
    assert code == 3 and "not installed" in out and "no status file" in out
    s = session(tmp_path)
    StatusWriter(s.config.status_file, board="gpio", layout="standard-8x8").update(s)
    data = json.loads(s.config.status_file.read_text())
    data["pid"] = 2**22 + 12345  # no such process
    s.config.status_file.write_text(json.dumps(data))
    code, out = status_of(tmp_path, capsys, fake_systemctl("failed", "enabled"))
    assert code == 3 and "NOT running" in out and "service: failed (enabled)" in out
