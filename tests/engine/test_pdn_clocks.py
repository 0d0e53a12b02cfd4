"""Clock times in PDN: lidraughts' `[%clock w0:04:58 B0:05:00]` written and read, the PGN
supplement's `[%clk h:mm:ss]` read, and check-game reporting a loss on time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Game
from engine.pdn import parse_game
from engine.pdn_clocks import clock_comment, clock_text, read_clocks
from engine.pdn_write import write_game
from host.cli import main

# As lidraughts exports a timed game (its PdnDump and scaladraughts' Move.toString):
# both clocks after each move, the mover's letter lower case.
LIDRAUGHTS = """[Event "Rated Blitz game"]
[Site "https://lidraughts.org/abcdefgh"]
[Result "0-2"]
[GameType "20"]
[TimeControl "180+2"]
[Termination "Time forfeit"]

1. 32-28 {[%clock w0:03:01 B0:03:00]} 19-23 {[%clock W0:03:01 b0:02:58]}
2. 28x19 {[%clock w0:03:00 B0:02:58]} 14x23 {[%clock W0:03:00 b0:02:41]} 0-2
"""

LICHESS_STYLE = """[Event "?"]
[Result "*"]
[GameType "21"]

1. 11-15 {[%clk 0:04:58.5]} 22-18 {a note [%clk 0:04:59]} *
"""


def test_clock_text_rounds_as_lidraughts_does() -> None:
    assert clock_text(298.4) == "0:04:58"
    assert clock_text(298.5) == "0:04:59"
    assert clock_text(3725) == "1:02:05"
    assert clock_text(-1) == "0:00:00"


def test_the_comment_after_each_sides_move() -> None:
    assert clock_comment("W", 298, 300) == "[%clock w0:04:58 B0:05:00]"
    assert clock_comment("B", 298, 299.6) == "[%clock W0:04:58 b0:05:00]"


def test_lidraughts_clocks_are_read_per_ply() -> None:
    game = parse_game(LIDRAUGHTS)
    assert game.error is None and game.ply == 4
    assert game.clocks[0] == {"W": 181.0, "B": 180.0}
    assert game.clocks[3] == {"W": 180.0, "B": 161.0}


def test_clk_gives_the_movers_clock() -> None:
    game = parse_game(LICHESS_STYLE)
    assert game.clocks == [{"B": 298.5}, {"W": 299.0}]  # English: Black moves first


def test_written_clocks_read_back() -> None:
    game = Game("international")
    for text in ("32-28", "19-23", "28x19"):
        game.push_text(text)
    comments = [clock_comment("W", 299, 300), clock_comment("B", 299, 297), None]
    text = write_game(game, {"TimeControl": "300+3"}, comments=comments)
    assert "32-28 {[%clock w0:04:59 B0:05:00]}" in text
    back = parse_game(text)
    assert back.clocks == [{"W": 299.0, "B": 300.0}, {"W": 299.0, "B": 297.0}, {}]
    assert back.tags["TimeControl"] == "300+3"


def test_a_comment_that_would_break_the_file_is_refused() -> None:
    game = Game("international")
    game.push_text("32-28")
    with pytest.raises(ValueError, match="comment"):
        write_game(game, {}, comments=["a } b"])


def test_read_clocks_ignores_other_comments() -> None:
    assert read_clocks("a fine move", "W") == {}
    assert read_clocks("[%clock W1:00:00]", "B") == {"W": 3600.0}


def test_check_game_reports_a_loss_on_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "blitz.pdn"
    path.write_text(LIDRAUGHTS, encoding="utf-8")
    assert main(["check-game", str(path)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "White ran out of time" in line and "agrees" in line  # White to move
    assert main(["check-game", "--json", str(path)]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["flag"] == "W" and row["time_control"] == "180+2" and row["agrees"]
    # The side whose time ran out cannot have won.
    path.write_text(LIDRAUGHTS.replace("0-2", "2-0"), encoding="utf-8")
    main(["check-game", "--json", str(path)])
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["flag"] == "W" and not row["agrees"]
