"""Board: debounced snapshots, real-time scanning, frames, brightness, factory."""

from __future__ import annotations

import pytest

from hardware.base import BoardEvent, BoardUnavailable
from hardware.board import Board, open_board
from hardware.layout import standard_layout
from hardware.mock import MockBoard


class ManualClock:
    """A clock that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def make(bounce: int = 0, **kwargs) -> tuple[Board, MockBoard, ManualClock]:
    clock = ManualClock()
    mock = MockBoard(bounce_scans=bounce)
    board = Board(mock, standard_layout(8), clock=clock, sleep=clock.sleep, **kwargs)
    return board, mock, clock


def test_poll_returns_debounced_snapshots_stamped_by_the_clock():
    board, mock, clock = make()
    mock.set_occupied({1, 2})
    first = board.poll()
    assert first.occupied == frozenset() and first.time == 100.0
    assert board.poll(now=5.0).occupied == frozenset({1, 2})
    assert board.last_raw == frozenset({1, 2})


def test_bounce_never_reaches_the_host():
    board, mock, _ = make(bounce=3)
    mock.set_occupied({9})
    seen = [board.poll().occupied for _ in range(6)]
    assert frozenset({9}) in seen
    # Once the piece counts it never flickers off, and it was never reported twice.
    assert seen[seen.index(frozenset({9})) :] == [frozenset({9})] * (6 - seen.index(frozenset({9})))
    assert board.debouncer.rejected[9] == 1


def test_slide_transients_shorter_than_the_debounce_are_filtered():
    board, mock, _ = make(agreeing_scans=2)
    mock.set_occupied({1})
    board.poll(), board.poll()
    mock.slide([1, 6, 10, 15])
    states = {board.poll().occupied for _ in range(5)}
    assert frozenset({6}) not in states and frozenset({10}) not in states
    assert board.poll().occupied == frozenset({15})


def test_snapshots_scan_on_a_fixed_period():
    board, mock, clock = make(scan_period=0.02)
    mock.set_occupied({4})
    stream = board.snapshots()
    snaps = [next(stream) for _ in range(4)]
    assert [s.occupied for s in snaps] == [frozenset(), *[frozenset({4})] * 3]
    assert [round(s.time - 100.0, 6) for s in snaps] == [0.0, 0.02, 0.04, 0.06]
    assert clock.sleeps == pytest.approx([0.02, 0.02, 0.02])


def test_slow_consumer_skips_ticks_instead_of_bursting():
    board, _, clock = make(scan_period=0.01)
    stream = board.snapshots()
    next(stream)
    clock.now += 0.5  # the host was busy for half a second
    next(stream)
    next(stream)
    assert clock.sleeps == pytest.approx([0.01])


def test_show_passes_whole_frames_and_validates_them():
    board, mock, _ = make()
    board.show({1: (255, 0, 0), 32: (0, 0, 255)})
    board.show({1: (255, 0, 0), 32: (0, 0, 255)})
    assert mock.frames[-2:] == [{1: (255, 0, 0), 32: (0, 0, 255)}] * 2
    with pytest.raises(ValueError, match="outside 1..32"):
        board.show({33: (1, 1, 1)})
    with pytest.raises(ValueError, match="square 2: colour"):
        board.show({2: (256, 0, 0)})


def test_brightness_is_capped_by_the_layout_and_redraws():
    board, mock, _ = make()
    assert board.brightness == 0.3
    board.show({5: (10, 20, 30)})
    board.brightness = 1.0
    assert board.brightness == standard_layout(8).max_brightness == 0.5
    assert mock.frames[-1] == {5: (10, 20, 30)} and mock.brightnesses[-1] == 0.5
    with pytest.raises(ValueError, match="between 0 and 1"):
        board.brightness = -0.1


def test_close_is_dark_idempotent_and_a_context_manager():
    board, mock, _ = make()
    with board:
        board.show({1: (1, 2, 3)})
    board.close()
    assert mock.frames[-1] == {} and mock.frames.count({}) == 1
    with pytest.raises(RuntimeError, match="closed"):
        board.poll()


def test_events_pass_through_from_the_backend():
    board, mock, _ = make()
    events: list[BoardEvent] = []
    board.on_event(events.append)
    mock.emit("disconnected", "cable")
    assert events == [BoardEvent("disconnected", "cable")]


def test_layout_and_backend_must_agree_on_size():
    with pytest.raises(
        ValueError, match="backend has 32 squares but layout .standard-10x10. has 50"
    ):
        Board(MockBoard(32), standard_layout(10))


def test_open_board_chooses_backends_by_name():
    with open_board("sim") as board:
        assert isinstance(board.backend, MockBoard) and board.squares == 32
    with open_board("mock", standard_layout(10), agreeing_scans=3) as board:
        assert board.squares == 50 and board.debouncer.agreeing_scans == 3
    with pytest.raises(BoardUnavailable, match="choose one of: sim, mock, gpio, serial:URL"):
        open_board("usb")
    with pytest.raises(BoardUnavailable, match="serial:/dev/ttyACM1"):
        open_board("serial:")


def test_open_board_hands_serial_urls_to_the_serial_backend(monkeypatch):
    import sys
    import types

    made: list[tuple[str, object]] = []

    class FakeSerial(MockBoard):
        def __init__(self, url, layout):
            super().__init__(layout.squares)
            made.append((url, layout))

    module = types.ModuleType("hardware.serial_link")
    module.SerialBackend = FakeSerial  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hardware.serial_link", module)
    layout = standard_layout(8)
    with open_board("serial:socket://127.0.0.1:9", layout) as board:
        assert isinstance(board.backend, FakeSerial)
    assert made == [("socket://127.0.0.1:9", layout)]


def test_settle_returns_the_first_debounced_board_not_the_empty_first_scan():
    board, mock, clock = make(agreeing_scans=3, scan_period=0.01)
    mock.set_occupied({1, 2, 3, 30})
    assert board.poll().occupied == frozenset()  # why a resume must not start from poll()
    board2, mock2, clock2 = make(agreeing_scans=3, scan_period=0.01)
    mock2.set_occupied({1, 2, 3, 30})
    snapshot = board2.settle()
    assert snapshot.occupied == {1, 2, 3, 30}
    assert mock2.scans == 3 and clock2.sleeps == pytest.approx([0.01, 0.01])


def test_settle_waits_out_a_bouncing_contact_within_its_timeout():
    board, mock, clock = make(bounce=5, agreeing_scans=2, scan_period=0.01)
    mock.set_occupied({9, 10})
    snapshot = board.settle(timeout=0.5)
    assert snapshot.occupied == {9, 10} == board.last_raw
    assert mock.scans > 2  # it kept scanning while the contacts chattered


def test_settle_gives_up_after_its_timeout_on_a_chattering_switch():
    from hardware.mock import Fault

    board, mock, clock = make(agreeing_scans=2, scan_period=0.01)
    mock.set_occupied({4})
    mock.inject_fault(7, Fault.CHATTERING)
    start = clock.now
    snapshot = board.settle(timeout=0.2)
    assert 4 in snapshot.occupied
    assert clock.now - start == pytest.approx(0.2, abs=0.02)
