"""Moves that go on (issue 7): with touch_move off (home play) a committed move is
read again while the same piece goes on before the opponent acts; with it on (club
play) a released piece has moved. The setting in config, on `run` and `replay`, and
the corrected move in the journal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from replaykit import fens, frame_at, moves, notices, role, run

from engine import get_variant
from host.cli import main
from host.config import Config, load_config
from host.errors import UserError
from host.recognition.costs import GRACE
from host.records.journal import Journal
from host.session import Session
from host.streams.events import run_stream
from host.voice.announce import Announcer

GOES_ON = [
    {"t": 100, "lift": 22},
    {"t": 400, "place": 17},  # released on a legal square: committed after 250 ms
    {"t": 1400, "lift": 17},
    {"t": 1700, "place": 18},  # ... and moved on before Black did anything
]


def test_touch_move_off_rereads_a_move_that_goes_on() -> None:
    out = run("brazilian", GOES_ON)
    start = get_variant("brazilian").initial_position().fen()
    assert [m["move"] for m in moves(out)] == ["c3-b4"]
    corrected = [r for r in out if "move-corrected" in r]
    after = fens("brazilian", start, "22-18")[0]
    assert corrected == [{"t": 1950, "move-corrected": "c3-d4", "was": "c3-b4", "fen": after}]
    assert role(frame_at(out, 1500), "destination") == {17, 18}  # the piece in the hand
    assert role(frame_at(out, 2000), "last-move") == {18, 22}
    assert notices(out, "illegal-board") == []


def test_a_king_carried_back_across_its_own_square_is_read_again() -> None:
    # The king rests on 2 (committed), then slides back down its diagonal through 7,
    # its own square 11 and 16 to 20. Passing home is no takeback and does not close
    # the move: it is read again as 11-20, with no alarm (found by make soak, held-wrong).
    fen = "W:WK11,29:B1,3"
    events = [
        {"t": 100, "lift": 11},
        {"t": 500, "place": 2},
        {"t": 1400, "lift": 2},
        {"t": 1480, "place": 7},
        {"t": 1560, "lift": 7},
        {"t": 1640, "place": 11},
        {"t": 1690, "lift": 11},
        {"t": 1740, "place": 16},
        {"t": 1765, "lift": 16},
        {"t": 1830, "place": 20},
    ]
    out = run("brazilian", events, fen)
    assert [m["move"] for m in moves(out)] == ["f6-d8"]
    corrected = [r["move-corrected"] for r in out if "move-corrected" in r]
    assert corrected == ["f6-h4"]
    assert [r for r in out if "fen" in r][-1]["fen"] == fens("brazilian", fen, "11-20")[0]
    assert notices(out, "illegal-board") == []
    # Left on its own square, the same king is a takeback, as before.
    out = run("brazilian", events[:6], fen)
    assert [r for r in out if "takeback" in r] and not [r for r in out if "move-corrected" in r]


def test_a_king_capture_crossing_its_own_square_after_a_pause_is_read_again() -> None:
    # Pool, a flying king's long capture: it rests on 21 with six pieces off (a legal
    # end, committed after 0.65 s), then goes on through 30, its own square 23 and 9 to
    # 2 and takes off 6. Touching down on its own square mid-capture does not close the
    # move: it is read again as the whole capture (found by make soak, goes-on).
    fen = "W:WK23:B5,K6,8,10,11,16,18,25,K26,K31"
    lands = [(615, "lift", 23), (966, "place", 12), (1366, "lift", 12), (1765, "place", 3)]
    lands += [(2080, "lift", 3), (2383, "place", 21)]
    lands += [(t, "lift", sq) for t, sq in ((2673, 8), (2843, 10), (2952, 16), (3182, 18))]
    lands += [(3412, "lift", 25), (3678, "lift", 26), (4513, "lift", 21), (4731, "place", 30)]
    lands += [(4961, "lift", 30), (5336, "place", 23), (5615, "lift", 23), (5808, "place", 9)]
    lands += [(6111, "lift", 9), (6559, "place", 2), (6874, "lift", 6)]
    out = run("pool", [{"t": t, what: sq} for t, what, sq in lands], fen)
    assert [m["move"] for m in moves(out)] == ["23x21"]
    final = [r for r in out if "fen" in r][-1]
    assert "move-corrected" in final
    assert final["fen"] == "B:WK2:B5,11,K31"
    assert notices(out, "illegal-board") == []


def test_touch_move_on_keeps_the_first_square_and_guides_the_piece_back() -> None:
    out = run("brazilian", GOES_ON, touch_move=True)
    assert [m["move"] for m in moves(out)] == ["c3-b4"]
    assert not [r for r in out if "move-corrected" in r]
    notice = notices(out, "illegal-board")[0]
    assert notice["t"] == 1700 + int(GRACE * 1000)
    assert role(frame_at(out, notice["t"]), "wrong") == {17, 18}


def test_replay_touch_move_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in GOES_ON))
    for flags, corrected in (([], 1), (["--touch-move"], 0)):
        assert main(["replay", "--variant", "brazilian", "--events", str(path), *flags]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len([r for r in records if "move-corrected" in r]) == corrected


def test_touch_move_setting_in_config_and_on_run(tmp_path: Path) -> None:
    assert Config().touch_move is False
    file = tmp_path / "config.toml"
    file.write_text("touch_move = true\n")
    assert load_config(file).touch_move is True
    file.write_text('touch_move = "yes"\n')
    with pytest.raises(UserError, match="touch_move"):
        load_config(file)
    from argparse import ArgumentParser

    from host.commands.run import register, settings

    parser = ArgumentParser()
    register(parser.add_subparsers())
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    args = parser.parse_args(["run", "--touch-move", "--config", str(empty)])
    assert settings(args).touch_move is True
    args = parser.parse_args(["run", "--config", str(empty)])
    assert settings(args).touch_move is False
    file.write_text("touch_move = true\n")
    args = parser.parse_args(["run", "--no-touch-move", "--config", str(file)])
    assert settings(args).touch_move is False


def test_a_corrected_move_is_journaled_announced_and_saved(tmp_path: Path) -> None:
    cfg = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "games", speech=False)
    announcer = Announcer("en")
    session = Session(cfg, announcer)
    run_stream(session, [json.dumps(e) for e in GOES_ON])
    record = Journal(cfg.journal).read()
    assert [m["move"] for m in record.moves] == ["22-18"] or [m["to"] for m in record.moves] == [18]
    kinds = [a.kind for a in announcer.history]
    assert kinds == ["move", "move-corrected"]
    assert "c3-d4" in announcer.history[-1].text
    session.command(5.0, "resign")
    pdn = next((tmp_path / "games").glob("*.pdn")).read_text()
    assert "c3-d4" in pdn and "c3-b4" not in pdn


RUSSIAN_LONG = "W:WK5,K23:B1,6,8,10,K11,K18,19,24,25,26,K29"
# From the goes-on family (seed 124049 in Russian, a scan every 1 to 3 ms). The king
# rests on 20 (a shorter capture's end: committed), goes on to 31 and the last
# captured pieces come off (read again). Then Black lifts 25, which a capture one
# piece longer would also take (free choice in Russian), and lands it on 30.
RUSSIAN_LONG_EVENTS = [
    {"t": 317, "lift": 23},
    {"t": 708, "place": 12},
    {"t": 919, "lift": 12},
    {"t": 1282, "place": 3},
    {"t": 1635, "lift": 3},
    {"t": 2039, "place": 14},
    {"t": 2291, "lift": 14},
    {"t": 2606, "place": 27},
    {"t": 2999, "lift": 27},
    {"t": 3373, "place": 20},
    {"t": 3573, "lift": 6},
    {"t": 3845, "lift": 11},
    {"t": 4109, "lift": 18},
    {"t": 4310, "lift": 19},
    {"t": 4521, "lift": 24},
    {"t": 4523, "place": 24},
    {"t": 4526, "lift": 24},
    {"t": 6233, "lift": 20},
    {"t": 6509, "place": 2},
    {"t": 6771, "lift": 2},
    {"t": 6774, "place": 2},
    {"t": 6779, "lift": 2},
    {"t": 6979, "place": 13},
    {"t": 6982, "lift": 13},
    {"t": 6984, "place": 13},
    {"t": 7147, "lift": 13},
    {"t": 7447, "place": 31},
    {"t": 7922, "lift": 8},
    {"t": 8287, "lift": 10},
    {"t": 8684, "lift": 26},
    {"t": 10035, "lift": 25},
    {"t": 10632, "place": 30},
]


def test_a_captured_piece_that_is_also_the_next_players_start_waits() -> None:
    # "One more captured piece taken off" and "Black's 25-30 starting" fit the same
    # lift: the re-read waits, and the landing shows it was Black's move.
    out = run("russian", RUSSIAN_LONG_EVENTS, RUSSIAN_LONG)
    read = [r["fen"] for r in out if "move" in r or "move-corrected" in r]
    # The king's capture is read (again, if its shorter capture counted first), never as
    # the capture that takes 25 as well.
    assert read[-2] == "B:WK5,K31:B1,25,K29"
    assert "B:WK5,K31:B1,K29" not in read
    assert moves(out)[-1]["fen"] == "W:WK5,K31:B1,K29,K30"
    assert not notices(out, "illegal-board")


def test_one_more_captured_piece_left_off_is_still_read_again() -> None:
    # The other way: the same lift of 25, and nothing lands. The capture went on to
    # take 25 as well; it is read again once the board has stayed so for GRACE.
    events = [e for e in RUSSIAN_LONG_EVENTS if e["t"] <= 10035]
    out = run("russian", events, RUSSIAN_LONG)
    corrected = [r for r in out if "move-corrected" in r]
    assert corrected[-1]["fen"] == "B:WK5,K31:B1,K29"
    assert corrected[-1]["t"] >= 10035 + GRACE * 1000
    assert not notices(out, "illegal-board")
