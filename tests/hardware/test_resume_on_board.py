"""`draughtsboard run` after a power cut: the resumed game starts from a settled board.

The debouncer starts from an empty board, so the first scan of any backend
reads empty; a resume built on it saw every piece as lifted, flashed the whole
board "wrong" and then said "the board is right again" instead of "game
resumed". This drives the real `run` command (the live runtime) on a board
holding the pieces of a journalled game: a mock behind `--board gpio`, so the
runtime takes it for a real board (the simulator is set up, never read cold).
"""

from __future__ import annotations

import io
import json
import os
import signal
from pathlib import Path

import pytest

import host.live.board
from engine import get_variant
from hardware.base import Frame
from hardware.board import Board
from hardware.layout import standard_layout
from hardware.mock import MockBoard
from host.cli import main
from host.config import Config
from host.session import Session
from host.squares import SquareMap
from host.streams.events import run_stream
from host.voice.announce import Announcer


class PoweredUpBoard(MockBoard):
    """A mock board whose service is stopped (SIGTERM) after `scans` scans; it keeps every
    frame drawn (the runtime keeps only a simulator's latest)."""

    def __init__(self, occupied: frozenset[int], scans: int) -> None:
        super().__init__(32)
        self.set_occupied(occupied)
        self.scans_left = scans
        self.drawn: list[dict[int, tuple[int, int, int]]] = []

    def scan(self) -> frozenset[int]:
        self.scans_left -= 1
        if self.scans_left == 0:
            os.kill(os.getpid(), signal.SIGTERM)  # the runtime stops at its next await
        return super().scan()

    def draw(self, frame: Frame) -> None:
        self.drawn.append(dict(frame))
        super().draw(frame)


def test_resume_after_a_power_cut_says_game_resumed_and_lights_nothing_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.jsonl"
    config = Config(journal=journal, games_dir=tmp_path / "games", speech=False)
    before = Session(config, Announcer("en"))
    moves = [{"t": 100, "lift": 22}, {"t": 500, "place": 17}]
    run_stream(before, [json.dumps(m) for m in moves])
    assert len(before.game.moves) == 1  # the power goes off here
    variant = get_variant("brazilian")
    squares = SquareMap(variant, 32)
    on_board = frozenset(squares.hardware_squares(before.game.position.occupied()))
    mock = PoweredUpBoard(on_board, scans=20)
    board = Board(mock, standard_layout(8))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no typed commands
    monkeypatch.setattr(host.live.board, "open_board", lambda spec, layout=None, **kw: board)
    settings = tmp_path / "config.toml"
    settings.write_text("")
    argv = ["run", "--config", str(settings), "--journal", str(journal), "--language", "en",
            "--data-dir", str(tmp_path), "--listen", "off"]
    code = main([*argv, "--games-dir", str(tmp_path / "games"), "--no-speech", "--board", "gpio"])
    assert code == 0
    said = capsys.readouterr().out
    assert "Game resumed." in said
    assert "right again" not in said
    assert mock.drawn  # the LEDs were lit...
    assert all(len(frame) < 10 for frame in mock.drawn)  # ...never the whole board flashing
