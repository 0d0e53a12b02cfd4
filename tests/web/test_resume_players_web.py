"""A game against the computer survives a power cut with its players.

The real `draughtsboard run` on the simulated board, in a child process: players chosen
in the page's new-game dialog (or with the board's level square), a move by hand, then
SIGKILL (a power cut: nothing flushed beyond the fsync'd journal). Started again with a
config that names no computer, the board resumes the game with its own players: the
computer thinks and lights its move again, `draughtsboard status` and the saved PDN name
it at the level it was chosen at.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine import get_variant
from host.gestures.commands import start_menu
from tests.web.conftest import ROOT, BoardServer

HUMAN_VS_LEVEL_3 = {"W": "human", "B": "computer:3"}


def choose_in_the_dialog(board: BoardServer) -> None:
    status, body = board.control(command="new", players=HUMAN_VS_LEVEL_3)
    assert status == 200, body


def choose_with_the_level_square(board: BoardServer) -> None:
    """The spare piece held on the start menu's level square: one level up per hold."""
    (level_square,) = [sq for sq, o in start_menu(get_variant("brazilian")).items()
                       if o == "level"]
    assert board.hands(place=level_square, piece="W")[0] == 200
    board.wait_for(lambda s: s["players"] == HUMAN_VS_LEVEL_3, timeout=10)
    assert board.hands(lift=level_square)[0] == 200


def status_lines(folder: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "status", "--config", str(folder / "config.toml")],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    return done.returncode, done.stdout


@pytest.mark.parametrize("choose", [choose_in_the_dialog, choose_with_the_level_square])
def test_a_power_cut_resumes_the_game_with_its_players(tmp_path: Path, choose) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "board"
    board = BoardServer(folder, "--board", "sim", "--new")
    # the level goes up one a hold: a second each, so a test on a loaded machine stops at 3
    board.config.write_text(board.config.read_text() + "gesture_hold = 1.0\n")
    board.start()
    try:
        choose(board)
        assert board.hands(lift=22)[0] == 200  # c3-d4 by hand
        assert board.hands(place=18)[0] == 200
        board.wait_for(lambda s: s["moves"] == ["c3-d4"])
    finally:
        board.stop(check=False, sig=signal.SIGKILL)  # the power cut
    code, text = status_lines(folder)
    assert code == 3 and "NOT running" in text  # the status file's pid is dead
    assert "computer plays: Black computer:3" in text

    again = BoardServer(folder, "--board", "sim").start()  # the config names no computer
    try:
        state = again.wait_for(lambda s: (s["computer"] or {}).get("move") is not None,
                               timeout=30)
        assert state["moves"] == ["c3-d4"] and state["turn"] == "B"
        assert state["players"] == HUMAN_VS_LEVEL_3
        assert state["computer"]["sides"] == {"B": 3}
        move = state["computer"]["move"]
        assert state["leds"][str(move["from"])] == "move-from"
        assert state["leds"][str(move["to"])] == "destination"
        said = again.read_output(0.3)
        assert "Game resumed. Black to move." in said
        assert f"The computer plays {move['text']} for Black." in said
        code, text = status_lines(folder)
        assert code == 0 and "computer plays: Black computer:3" in text
        status, pdn = again.request("GET", "/api/pdn")
        assert status == 200 and '[Black "Computer (level 3)"]' in pdn
        assert '[White "Computer' not in pdn
        # the computer's move carried out by hand, then a new game between two people:
        # the resumed game is saved under its own players
        assert again.hands(lift=move["from"])[0] == 200
        for square in move["captures"]:
            assert again.hands(lift=square)[0] == 200
        assert again.hands(place=move["to"])[0] == 200
        again.wait_for(lambda s: len(s["moves"]) == 2)
        status, body = again.control(command="new", players={"W": "human", "B": "human"})
        assert status == 200, body
        again.wait_for(lambda s: s["players"] == {"W": "human", "B": "human"} and not s["moves"])
    finally:
        again.stop()
    (saved,) = (folder / "games").glob("*.pdn")
    text = saved.read_text()
    assert '[Black "Computer (level 3)"]' in text and f"1. c3-d4 {move['text']} *" in text
