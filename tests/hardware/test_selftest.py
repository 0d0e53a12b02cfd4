"""`draughtsboard selftest` driven by a mock board and a scripted clock."""

from __future__ import annotations

import argparse
import io
import re

import pytest

from hardware.board import Board
from hardware.layout import standard_layout
from hardware.mock import Fault, MockBoard
from host.cli import COMMAND_MODULES
from host.commands import selftest
from host.commands.selftest import OCCUPIED_COLOUR, board_map, run_selftest
from host.errors import UserError


class ScriptedHands:
    """A clock that moves only when the self-test sleeps, and hands acting at set times."""

    def __init__(self, actions: list[tuple[float, object]]) -> None:
        self.now = 0.0
        self.actions = sorted(actions, key=lambda a: a[0])

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        while self.actions and self.actions[0][0] <= self.now:
            self.actions.pop(0)[1]()


def run(mock: MockBoard, actions, seconds: float = 3.0):
    hands = ScriptedHands(actions)
    board = Board(mock, standard_layout(8), clock=hands, sleep=hands.sleep)
    out = io.StringIO()
    report = run_selftest(board, out, seconds=seconds, clock=hands, sleep=hands.sleep)
    return report, out.getvalue()


def test_leds_walk_then_every_colour_then_follow_the_pieces():
    mock = MockBoard()
    mock.set_occupied({1})
    start = 32 * 0.05 + 4 * 0.6
    report, text = run(mock, [(start + 0.5, lambda: mock.place(6))], seconds=1.0)
    walk = mock.frames[:32]
    assert walk == [{sq: (255, 255, 255)} for sq in range(1, 33)]
    colours = [set(frame.values()) for frame in mock.frames[32:36]]
    assert colours == [{(255, 0, 0)}, {(0, 255, 0)}, {(0, 0, 255)}, {(255, 255, 255)}]
    assert all(len(frame) == 32 for frame in mock.frames[32:36])
    assert mock.frames[37] == {1: OCCUPIED_COLOUR}  # live phase lights what the switches see
    assert mock.frames[-1] == {1: OCCUPIED_COLOUR, 6: OCCUPIED_COLOUR}
    assert "Piece placed on square 6: switch row 1 column 1 (GPIO17 x GPIO24), LED 6." in text
    assert "|    [ 1]      2       3       4 |" in text
    assert report.never_changed == tuple(sq for sq in range(1, 33) if sq != 6)


def test_reports_dead_and_chattering_switches():
    mock = MockBoard(bounce_scans=2)
    mock.inject_fault(7, Fault.STUCK_OPEN)
    mock.inject_fault(12, Fault.CHATTERING)
    healthy = [sq for sq in range(1, 33) if sq not in (7, 12)]
    t0 = 32 * 0.05 + 4 * 0.6 + 0.1
    actions = []
    for i, sq in enumerate([*healthy, 7]):
        actions.append((t0 + 0.1 * i, lambda sq=sq: mock.place(sq)))
        actions.append((t0 + 0.1 * i + 0.05, lambda sq=sq: mock.lift(sq)))
    report, text = run(mock, actions, seconds=5.0)
    assert report.never_changed == (7,)
    assert list(report.chattering) == [12] and report.chattering[12] > 100
    assert not report.ok
    assert "Switches that never changed: 7 (check the magnet" in text
    assert "Switches that chatter: 12 (" in text


def test_a_healthy_board_passes_and_ctrl_c_ends_the_watch_cleanly():
    mock = MockBoard()
    t0 = 32 * 0.05 + 4 * 0.6 + 0.1
    actions = [(t0 + 0.05 * i, lambda sq=sq: mock.place(sq)) for i, sq in enumerate(range(1, 33))]

    def interrupt():
        raise KeyboardInterrupt

    actions.append((t0 + 3.0, interrupt))
    report, text = run(mock, actions, seconds=60.0)
    assert report.ok and report.interrupted
    assert text.endswith("All 32 switches changed; none chattered.\n")


def test_map_of_a_10x10_board_is_drawn_from_whites_seat():
    lines = board_map(standard_layout(10), frozenset({1, 46}))
    assert lines[1] == "|    [ 1]      2       3       4       5 |"
    assert lines[10] == "|[46]     47      48      49      50     |"


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="draughtsboard")
    selftest.register(parser.add_subparsers())
    return parser.parse_args(["selftest", *argv])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--board", "usb"], "unknown board 'usb'; choose one of: sim, mock, gpio, serial:URL"),
        (["--board", "sim", "--layout", "nope"], "no layout named 'nope'"),
        (["--board", "sim", "--seconds", "-1"], "--seconds cannot be negative"),
    ],
)
def test_command_line_mistakes_are_user_errors(argv, message):
    args = parse(*argv)
    with pytest.raises(UserError, match=re.escape(message)):
        args.func(args)


def test_the_cli_lists_this_command():
    assert "host.commands.selftest" in COMMAND_MODULES


def test_command_line_runs_the_led_checks_on_the_simulated_board(monkeypatch, capsys):
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    args = parse("--board", "sim", "--seconds", "0")
    assert args.func(args) == 0
    assert "LEDs: whole board white." in capsys.readouterr().out


def test_command_line_accepts_a_layout(monkeypatch, capsys):
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    args = parse("--board", "mock", "--layout", "standard-10x10", "--seconds", "0")
    assert args.func(args) == 0
    assert "squares 1..50" in capsys.readouterr().out


def test_a_pi_that_is_not_set_up_gets_one_sentence_not_a_traceback(monkeypatch):
    from hardware.base import BoardUnavailable

    def refuse(spec, layout=None, **kwargs):
        raise BoardUnavailable("SPI is off, so the LEDs on GPIO10 cannot be driven: enable it.")

    monkeypatch.setattr(selftest, "open_board", refuse)
    args = parse("--board", "gpio")
    with pytest.raises(UserError, match="^SPI is off, so the LEDs on GPIO10 cannot be driven"):
        args.func(args)


def test_ctrl_c_during_the_led_checks_ends_quietly_with_the_leds_dark(monkeypatch, capsys):
    mock = MockBoard()
    board = Board(mock, standard_layout(8))
    monkeypatch.setattr(selftest, "open_board", lambda spec, layout=None, **kw: board)

    def interrupt(seconds):
        raise KeyboardInterrupt

    monkeypatch.setattr("time.sleep", interrupt)
    args = parse("--board", "sim")
    assert args.func(args) == 130
    assert "Self-test stopped." in capsys.readouterr().err
    assert mock.frames[-1] == {}  # closed: dark
