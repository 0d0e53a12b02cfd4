"""`draughtsboard run` after a power cut: the resumed game starts from a settled board.

The debouncer starts from an empty board, so the first scan of any backend
reads empty; a resume built on it saw every piece as lifted, flashed the whole
board "wrong" and then said "the board is right again" instead of "game
resumed". This drives the real `run` command on a mock board holding the
pieces of a journalled game.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import hardware.board
from engine import get_variant
from hardware.board import Board
from hardware.layout import standard_layout
from hardware.mock import MockBoard
from host.announce import Announcer
from host.cli import main
from host.config import Config
from host.session import Session, run_stream
from host.squares import SquareMap


class PoweredUpBoard(MockBoard):
    """A mock board that ends the session (Ctrl-C) after `scans` scans."""

    def __init__(self, occupied: frozenset[int], scans: int) -> None:
        super().__init__(32)
        self.set_occupied(occupied)
        self.scans_left = scans

    def scan(self) -> frozenset[int]:
        self.scans_left -= 1
        if self.scans_left < 0:
            raise KeyboardInterrupt
        return super().scan()


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
    frames = mock.frames
    board = Board(mock, standard_layout(8))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no typed commands
    monkeypatch.setattr(hardware.board, "open_board", lambda spec, layout=None, **kw: board)
    settings = tmp_path / "config.toml"
    settings.write_text("")
    argv = ["run", "--config", str(settings), "--journal", str(journal), "--language", "en"]
    code = main([*argv, "--games-dir", str(tmp_path / "games"), "--no-speech", "--board", "sim"])
    assert code == 0
    said = capsys.readouterr().out
    assert "Game resumed." in said
    assert "right again" not in said
    assert all(len(frame) < 10 for frame in frames)  # never the whole board flashing
