"""Switch bounce in recorded streams (host/streams/bounce.py): dropped as the board's
debouncer would, and nothing else."""

from __future__ import annotations

import json

import pytest
from replaykit import fens, moves, run

from engine import get_variant
from host.errors import UserError
from host.streams.bounce import BOUNCE_MS, without_bounce
from host.streams.replay import parse_events

BRAZILIAN = get_variant("brazilian")


def _filtered(events: list[dict]) -> list[dict]:
    lines = [json.dumps(e) for e in events]
    return [
        {"t": e.t, e.kind: min(e.squares)} for e in without_bounce(parse_events(lines, BRAZILIAN))
    ]


def test_a_change_undone_and_made_again_at_once_is_one_change_at_its_own_time() -> None:
    events = [
        {"t": 100, "lift": 22},
        {"t": 400, "place": 18},
        {"t": 403, "lift": 18},
        {"t": 409, "place": 18},
        {"t": 900, "lift": 11},
    ]
    assert _filtered(events) == [{"t": 100, "lift": 22}, {"t": 400, "place": 18}, events[-1]]


def test_a_landing_taken_off_at_once_is_no_bounce() -> None:
    # The next player's hand removing a piece 7 ms after it landed: fast, but it stays off.
    events = [{"t": 400, "place": 17}, {"t": 407, "lift": 17}, {"t": 900, "place": 21}]
    assert _filtered(events) == events


def test_slower_changes_and_other_squares_stay() -> None:
    slow = [
        {"t": 100, "place": 18},
        {"t": 100 + BOUNCE_MS + 1, "lift": 18},
        {"t": 110 + 2 * BOUNCE_MS, "place": 18},
    ]
    assert _filtered(slow) == slow
    neighbours = [{"t": 100, "place": 18}, {"t": 103, "lift": 14}, {"t": 106, "place": 14}]
    assert _filtered(neighbours) == neighbours


def test_a_malformed_line_still_lets_the_changes_before_it_through() -> None:
    lines = [json.dumps({"t": 100, "lift": 22}), json.dumps({"t": 102, "place": 22}), "{oops"]
    seen = []
    with pytest.raises(UserError, match="events line 3"):
        for event in without_bounce(parse_events(lines, BRAZILIAN)):
            seen.append(event.t)
    assert seen == [100, 102]


def test_a_piece_that_goes_on_is_re_read_through_bounce() -> None:
    # Touch-move off: 11-15 is committed, then the piece goes on to 16; both the lift
    # and the second landing bounce. Without the filter the bouncing landing read as
    # another piece put down by nobody, and 11-16 was never read.
    start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    events = [
        {"t": 100, "lift": 11},
        {"t": 600, "place": 15},
        {"t": 1500, "lift": 15},
        {"t": 1503, "place": 15},
        {"t": 1505, "lift": 15},
        {"t": 1900, "place": 16},
        {"t": 1903, "lift": 16},
        {"t": 1905, "place": 16},
    ]
    out = run("brazilian", events, start)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", start, "11-15")
    corrected = [r for r in out if "move-corrected" in r]
    assert [r["fen"] for r in corrected] == fens("brazilian", start, "11-16")


def test_run_events_drops_bounce_too_and_keeps_commands_in_order(tmp_path) -> None:
    from host.config import Config
    from host.session import Session
    from host.streams.events import run_stream
    from host.voice.announce import Announcer

    config = Config(
        journal=tmp_path / "journal.jsonl", games_dir=tmp_path / "games", speech=False
    )
    session = Session(config, Announcer("en"))
    start = session.game.fen()
    events = [
        {"t": 100, "lift": 22},
        {"t": 600, "place": 18},
        {"t": 1500, "lift": 18},
        {"t": 1503, "place": 18},
        {"t": 1505, "lift": 18},
        {"t": 1900, "place": 17},
        {"t": 1903, "lift": 17},
        {"t": 1905, "place": 17},
        {"t": 4000, "command": "takeback"},
    ]
    run_stream(session, [json.dumps(e) for e in events])
    # 22-18 went on to 17 (re-read through the bounce), then the typed takeback undid it.
    assert session.game.fen() == start
    history = [a.kind for a in session.announcer.history]
    assert "move-corrected" in history and history[-1] == "takeback"
