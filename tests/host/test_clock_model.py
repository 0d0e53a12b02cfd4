"""The clock model (host/clock/): time controls as players write them, and who pays for
what, with time passed in."""

from __future__ import annotations

import pytest

from engine import Game
from host.clock.control import PRESETS, parse_pdn_time_control, parse_time_control
from host.clock.model import Clock
from host.errors import UserError


def control(text: str):
    parsed = parse_time_control(text)
    assert parsed is not None
    return parsed


# -- time controls -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "white", "black", "pdn"),
    [
        ("5+3", (300, 3), (300, 3), "300+3"),
        ("90+30", (5400, 30), (5400, 30), "5400+30"),
        ("0.5+1", (30, 1), (30, 1), "30+1"),
        ("3", (180, 0), (180, 0), "180+0"),
        ("5+3/2+3", (300, 3), (120, 3), "300+3"),
        (" 1 + 1 ", (60, 1), (60, 1), "60+1"),
    ],
)
def test_controls_as_players_write_them(text, white, black, pdn):
    tc = control(text)
    assert (tc.white.main, tc.white.increment) == white
    assert (tc.black.main, tc.black.increment) == black
    assert tc.pdn() == pdn
    assert parse_time_control(tc.text()) == tc  # the text reads back as the same control


@pytest.mark.parametrize("text", ["none", "None", "off", "", None])
def test_no_clock(text):
    assert parse_time_control(text) is None


@pytest.mark.parametrize("text", ["5-3", "abc", "0+3", "-1+2", "5+-1", "5+3/2+3/1+1", "inf+1",
                                  "nan+0", "601+0", "5+601"])
def test_bad_controls_say_what_is_accepted(text):
    with pytest.raises(UserError, match="minutes\\+increment"):
        parse_time_control(text)


def test_pdn_time_control_tags():
    tc = parse_pdn_time_control("300+3")
    assert tc is not None and tc.text() == "5+3"
    assert parse_pdn_time_control("-") is None
    assert parse_pdn_time_control("40/9000") is None  # periods of moves: not this board's


def test_presets_are_controls():
    for preset in PRESETS:
        assert parse_time_control(preset.control) is not None


# -- the model -------------------------------------------------------------------------------


def test_each_side_pays_from_the_opponents_finish_to_its_own():
    clock = Clock(control("1+2"))
    clock.start("W", 10.0)
    assert clock.remaining("W", 15.0) == pytest.approx(55.0)
    assert clock.remaining("B", 15.0) == pytest.approx(60.0)
    lap = clock.moved("W", 17.0)  # finished at 17 (proved later: it does not matter)
    assert lap.took == pytest.approx(7.0)
    assert (lap.white, lap.black) == pytest.approx((55.0, 60.0))  # 60 - 7 + 2
    assert clock.running == "B"
    assert clock.remaining("B", 20.0) == pytest.approx(57.0)  # Black's time from 17
    lap = clock.moved("B", 21.5)
    assert lap.took == pytest.approx(4.5)
    assert lap.black == pytest.approx(57.5)
    assert clock.flag_time() == pytest.approx(21.5 + 55.0)


def test_a_move_that_goes_on_is_charged_to_its_new_finish_only():
    clock = Clock(control("1+0"))
    clock.start("W", 0.0)
    clock.moved("W", 5.0)
    lap = clock.corrected(6.5)  # the piece went on: finished at 6.5 after all
    assert lap is not None and lap.took == pytest.approx(6.5)
    assert clock.remaining("W", 10.0) == pytest.approx(53.5)
    assert clock.remaining("B", 10.0) == pytest.approx(56.5)  # Black's time from 6.5
    assert len(clock.laps) == 1


def test_a_take_back_restores_both_clocks():
    clock = Clock(control("1+5"))
    clock.start("W", 0.0)
    clock.moved("W", 4.0)
    clock.moved("B", 10.0)
    before = (clock.left["W"], clock.left["B"])
    clock.moved("W", 13.0)  # White: 61 - 3 + 5
    clock.take_back(20.0)  # Black had been thinking 7 s: given back
    # As when White's move was finished, before its increment: White had used 3 s.
    assert clock.left["W"] == pytest.approx(before[0] - 3.0)
    assert clock.left["B"] == pytest.approx(before[1])
    assert clock.running == "W" and clock.since == 20.0
    assert len(clock.laps) == 2


def test_a_pause_is_never_charged():
    clock = Clock(control("1+0"))
    clock.start("W", 0.0)
    clock.pause(2.0)
    assert clock.flag_time() is None
    assert clock.remaining("W", 50.0) == pytest.approx(58.0)
    clock.resume(52.0)
    assert clock.flag_time() == pytest.approx(110.0)
    lap = clock.moved("W", 55.0)
    assert lap.took == pytest.approx(5.0)


def test_a_move_finished_before_a_pause_is_charged_to_its_finish():
    """The board proves the move during the arbiter's stop: its mover paid up to the
    finish, the opponent's time starts only when the clock runs again."""
    clock = Clock(control("1+0"))
    clock.start("W", 0.0)
    clock.pause(6.0)
    lap = clock.moved("W", 5.0)  # finished at 5, proved at 6.2 while stopped
    assert lap.took == pytest.approx(5.0)
    assert clock.remaining("B", 30.0) == pytest.approx(59.0)  # only 5..6 ran for Black
    clock.resume(40.0)
    assert clock.remaining("B", 41.0) == pytest.approx(58.0)


def test_a_reread_keeps_the_pause_that_spanned_its_first_finish():
    clock = Clock(control("1+0"))
    clock.start("W", 0.0)
    clock.pause(4.0)
    clock.resume(14.0)
    clock.moved("W", 15.0)
    lap = clock.corrected(16.0)
    assert lap is not None and lap.took == pytest.approx(6.0)  # 16 s less the 10 stopped


def test_the_flag_time():
    clock = Clock(control("0.5+0"))
    assert clock.flag_time() is None  # nothing runs yet
    clock.start("B", 3.0)
    assert clock.flag_time() == pytest.approx(33.0)
    clock.stop(10.0)
    assert clock.flag_time() is None
    assert clock.left["B"] == pytest.approx(23.0)


# -- the rule at a flag fall -------------------------------------------------------------------


def test_out_of_time_loses():
    game = Game("brazilian")
    outcome = game.on_time("W")
    assert (outcome.winner, outcome.reason) == ("B", "time")


def test_out_of_time_in_an_ending_limited_against_a_lone_king_is_a_draw():
    """FMJD regulation draw: three kings against one (International 6.3)."""
    game = Game.from_fen("W:WK46,K47,K48:BK5", "international")
    assert game.on_time("W").winner is None
    assert game.on_time("B").winner is None
    # A lone king against four kings is no such ending: the flag loses.
    game = Game.from_fen("W:WK46,K47,K48,K49:BK5", "international")
    assert game.on_time("B").winner == "W"
    # Brazilian has no endgame limit: a lone king that runs out of time loses.
    game = Game.from_fen("W:WK29,K30,K31:BK1", "brazilian")
    assert game.on_time("B").winner == "W"


def test_many_kings_against_one_are_no_regulation_draw():
    """Russian 7.2.4 limits any number of kings against one; only three or fewer make
    the FMJD's regulation draw."""
    assert Game.from_fen("W:WK29,K30,K31:BK1", "russian").on_time("W").winner is None
    assert Game.from_fen("W:WK29,K30,K31,K32:BK1", "russian").on_time("B").winner == "W"
