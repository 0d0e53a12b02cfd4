"""MockBoard: hands, transients, bounce, faults and recorded frames."""

from __future__ import annotations

import pytest

from hardware.mock import Fault, MockBoard

START = frozenset(range(1, 13)) | frozenset(range(21, 33))


def test_scans_report_what_hands_did():
    board = MockBoard()
    board.set_occupied(START)
    assert board.scan() == START
    board.lift(22)
    assert board.scan() == START - {22}
    board.place(17)
    assert board.scan() == START - {22} | {17}
    assert board.scans == 3


def test_hands_cannot_do_the_impossible():
    board = MockBoard()
    board.set_occupied({1})
    with pytest.raises(ValueError, match="no piece on square 2"):
        board.lift(2)
    with pytest.raises(ValueError, match="already holds"):
        board.place(1)
    with pytest.raises(ValueError, match="outside 1..32"):
        board.place(33)
    with pytest.raises(ValueError, match="32 .8x8. or 50"):
        MockBoard(squares=64)


def test_slide_brushes_the_squares_on_the_way():
    board = MockBoard()
    board.set_occupied({1, 32})
    board.slide([1, 6, 10, 15])
    assert [board.scan() for _ in range(3)] == [
        frozenset({6, 32}),
        frozenset({10, 32}),
        frozenset({15, 32}),
    ]
    assert board.occupied == frozenset({15, 32})


def test_knock_moves_a_piece_or_removes_it():
    board = MockBoard()
    board.set_occupied({9, 10})
    board.knock(9, onto=13)
    board.knock(10)
    assert board.scan() == frozenset({13})


def test_bounce_chatters_new_old_new_then_rests():
    board = MockBoard(bounce_scans=3)
    board.place(5)
    readings = [5 in board.scan() for _ in range(5)]
    assert readings == [True, False, True, True, True]


def test_faults():
    board = MockBoard()
    board.set_occupied({1, 2})
    board.inject_fault(1, Fault.STUCK_OPEN)
    board.inject_fault(3, Fault.STUCK_CLOSED)
    board.inject_fault(4, Fault.CHATTERING)
    readings = [board.scan() for _ in range(4)]
    assert all(1 not in r and 3 in r and 2 in r for r in readings)
    assert [4 in r for r in readings] == [True, False, True, False]
    board.clear_faults()
    assert board.scan() == frozenset({1, 2})


def test_frames_are_recorded_and_close_is_dark_once():
    board = MockBoard()
    board.draw({3: (255, 0, 0)})
    board.close()
    board.close()
    assert board.frames == [{3: (255, 0, 0)}, {}]


def test_a_long_running_simulator_keeps_only_its_latest_frames():
    board = MockBoard()
    board.history = 3
    for n in range(10):
        board.draw({1: (n, 0, 0)})
    assert board.frames == [{1: (7, 0, 0)}, {1: (8, 0, 0)}, {1: (9, 0, 0)}]
    assert len(board.brightnesses) == 3
