"""The board firmware on CPython: its logic on a fake clock, and code.py end to end over a pty."""

from __future__ import annotations

import sys
import types

import pytest
from fakes_circuitpython import FIRMWARE, _load, simulator, wait_until

from hardware import wire
from hardware.layout import load_layout
from hardware.serial_link import SerialBackend


@pytest.fixture(scope="module")
def boardlogic() -> types.ModuleType:
    saved = sys.modules.get("wire")
    sys.modules["wire"] = wire  # the board imports the same file as `wire`
    try:
        module = _load("draughtsboard_firmware_boardlogic", FIRMWARE / "boardlogic.py")
    finally:
        if saved is None:
            del sys.modules["wire"]
        else:
            sys.modules["wire"] = saved
    return module


class BytesPort:
    """usb_cdc.data stand-in for logic tests: bytes queued in, bytes captured out."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.decoder = wire.Decoder()
        self.sent: list[wire.Message] = []
        self.connected = True

    @property
    def in_waiting(self) -> int:
        return len(self.incoming)

    def read(self, n: int) -> bytes:
        data, self.incoming = bytes(self.incoming[:n]), self.incoming[n:]
        return data

    def write(self, data: bytes) -> int:
        self.sent += self.decoder.feed(data)
        return len(data)

    def take(self) -> list[wire.Message]:
        sent, self.sent = self.sent, []
        return sent


class Settings:
    ROW_PINS = tuple(range(8))
    COLUMN_PINS = tuple(range(4))
    SCAN_INTERVAL = 0.010
    DEBOUNCE_THRESHOLD = 2
    MAX_BRIGHTNESS = 0.2
    SNAPSHOT_INTERVAL = 1.0
    KEEPALIVE_INTERVAL = 1.0
    HOST_TIMEOUT = 5.0
    BOARD_NAME = "test"


class Rig:
    def __init__(self, boardlogic: types.ModuleType, closed=()) -> None:
        self.ms = 1000
        self.closed = set(closed)
        self.keys = simulator.KeyMatrix(range(8), range(4), closed=self.closed)
        self.pixels = simulator.NeoPixel("GP16", 32, auto_write=False)
        self.port = BytesPort()
        self.host = wire.Encoder()
        self.watchdog = simulator.Watchdog()
        self.logic = boardlogic.BoardLogic(
            self.keys,
            self.pixels,
            self.port,
            Settings,
            clock=lambda: self.ms,
            watchdog=self.watchdog,
        )

    def run(self, ms: int, step: int = 5) -> list[wire.Message]:
        end = self.ms + ms
        while self.ms < end:
            self.logic.step()
            self.ms += step
        return self.port.take()

    def send(self, data: bytes) -> None:
        self.port.incoming += data


def occupancies(messages):
    return [m.pressed() for m in messages if m.kind == wire.OCCUPANCY]


def test_boot_waits_for_the_scanner_then_says_hello_with_the_full_board(boardlogic):
    rig = Rig(boardlogic, closed={0, 5, 31})
    # the scanner reports keys already down a few intervals after boot: until then, silence
    assert rig.run(20) == []
    first = rig.run(40)
    assert [m.kind for m in first[:2]] == [wire.HELLO, wire.OCCUPANCY]
    hello = first[0]
    assert (hello.rows, hello.columns, hello.leds, hello.board_name) == (8, 4, 32, "test")
    assert occupancies(first) == [[0, 5, 31]]
    assert rig.watchdog.feeds > 0


def test_snapshot_on_every_change_and_every_second(boardlogic):
    rig = Rig(boardlogic)
    rig.run(100)
    rig.keys.change(3, True)
    assert occupancies(rig.run(10)) == [[3]]
    quiet = rig.run(3000)
    assert occupancies(quiet) == [[3]] * 3  # once a second while nothing moves
    rig.keys.change(3, False)
    rig.keys.change(4, True)
    assert occupancies(rig.run(10)) == [[4]]  # one snapshot for a whole batch of events


def test_query_gets_hello_then_occupancy(boardlogic):
    rig = Rig(boardlogic, closed={7})
    rig.run(100)
    rig.send(rig.host.query())
    kinds = [m.kind for m in rig.run(10)]
    assert kinds[:2] == [wire.HELLO, wire.OCCUPANCY]


def test_frames_light_led_indexes_with_brightness_capped(boardlogic):
    rig = Rig(boardlogic)
    colours = [(i, 255 - i, 7) for i in range(32)]
    rig.send(rig.host.frame(255, colours))
    rig.run(10)
    assert rig.pixels.shown == colours
    assert rig.pixels.shown_brightness == pytest.approx(0.2)  # settings cap, not 1.0
    rig.send(rig.host.frame(51, [(0, 0, 0)] * 32))
    rig.run(10)
    assert rig.pixels.shown_brightness == pytest.approx(0.2)
    rig.send(rig.host.frame(25, colours))
    rig.run(10)
    assert rig.pixels.shown_brightness == pytest.approx(25 / 255)


def test_a_frame_of_the_wrong_size_is_refused_with_an_error(boardlogic):
    rig = Rig(boardlogic)
    rig.run(100)
    rig.send(rig.host.frame(255, [(9, 9, 9)] * 3))
    errors = [m for m in rig.run(10) if m.kind == wire.ERROR]
    assert errors[0].code == wire.ERR_FRAME_SIZE and "3 LEDs" in errors[0].text
    assert rig.pixels.shown == [(0, 0, 0)] * 32


def test_garbage_from_the_host_is_ignored(boardlogic):
    rig = Rig(boardlogic)
    rig.send(b"\xa5\x00garbage\xa5" + rig.host.frame(10, [(1, 2, 3)] * 32))
    rig.run(20)
    assert rig.pixels.shown == [(1, 2, 3)] * 32


def test_keepalive_when_nothing_else_is_said(boardlogic):
    rig = Rig(boardlogic, closed={1})
    rig.logic.snapshot_ms = 10_000  # stretch snapshots so keepalives show
    rig.run(100)
    kinds = [m.kind for m in rig.run(2500)]
    assert kinds.count(wire.KEEPALIVE) == 2


def test_host_silence_turns_the_leds_off_and_a_returning_host_gets_hello(boardlogic):
    rig = Rig(boardlogic)
    rig.run(100)
    rig.send(rig.host.frame(255, [(50, 0, 0)] * 32))
    rig.run(4000, step=50)
    assert rig.pixels.shown == [(50, 0, 0)] * 32  # host quiet, but not for long yet
    rig.run(1500, step=50)
    assert rig.pixels.shown == [(0, 0, 0)] * 32  # stale hints must not stay lit
    rig.send(rig.host.keepalive())
    assert wire.HELLO in [m.kind for m in rig.run(20)]


def test_event_overflow_rebuilds_occupancy_without_reporting_a_false_board(boardlogic):
    rig = Rig(boardlogic, closed={2, 9})
    rig.run(100)
    for _ in range(70):  # more events than the queue holds: some are lost
        rig.keys.change(5, True)
        rig.keys.change(5, False)
    rig.closed.add(11)
    out = rig.run(200)
    assert any(m.kind == wire.ERROR and m.code == wire.ERR_OVERFLOW for m in out)
    # after the rescan only true boards are reported, never the empty one in between
    assert occupancies(out) == [[2, 9, 11]]


# --- code.py end to end ------------------------------------------------------------


@pytest.fixture
def layout():
    return load_layout("standard-8x8")


@pytest.fixture
def board(tmp_path):
    sim = simulator.SimulatedBoard(tmp_path / "ttyBOARD", closed={0, 1, 2, 29, 30, 31})
    sim.plug()
    yield sim
    sim.unplug()
    assert sim.error is None, sim.error


def test_code_py_builds_the_hardware_from_settings_and_leaves_no_fakes_behind(board):
    assert board.keys is not None and board.pixels is not None
    assert [p.name for p in board.keys.row_pins] == [f"GP{i}" for i in range(2, 10)]
    assert board.pixels.n == 32 and board.pixels.auto_write is False
    assert board.port.timeout == 0 and board.port.write_timeout == 0.05
    assert (board.watchdog.timeout, board.watchdog.mode) == (8.0, "RESET")
    assert wait_until(lambda: board.watchdog.feeds > 5)
    for name in (*simulator.FAKE_MODULES, "wire", "settings", "boardlogic"):
        assert name not in sys.modules


def test_key_press_reaches_the_host_and_frames_reach_the_pixels(board, layout):
    with SerialBackend(board.path, layout) as host:
        assert host.scan() == {1, 2, 3, 30, 31, 32}
        board.place(13)  # key 13 = row 3, column 1
        board.lift(0)
        assert wait_until(lambda: host.scan() == {2, 3, 14, 30, 31, 32})
        host.brightness = 0.1
        host.draw({1: (255, 0, 0), 14: (0, 255, 0), 32: (0, 0, 255)})
        expected = [(0, 0, 0)] * 32
        for square, colour in ((1, (255, 0, 0)), (14, (0, 255, 0)), (32, (0, 0, 255))):
            expected[layout.led_of_square(square)] = colour
        assert board.wait_shown(lambda shown: shown == expected)
        assert board.pixels.shown_brightness == pytest.approx(round(0.1 * 255) / 255)
    assert board.wait_shown(lambda shown: shown == [(0, 0, 0)] * 32)  # close() goes dark


def test_unplug_and_replug_mid_game_loses_nothing(board, layout):
    events = []
    host = SerialBackend(board.path, layout, retry_interval=0.1)
    host.on_event(events.append)
    try:
        frame = {5: (10, 20, 30), 9: (200, 100, 0)}
        host.draw(frame)
        assert board.wait_shown(lambda shown: shown[layout.led_of_square(9)] == (200, 100, 0))
        board.unplug()  # the cable comes out: the board loses power
        assert wait_until(lambda: not host.connected)
        assert host.scan() == {1, 2, 3, 30, 31, 32}  # last truth, nothing invented
        assert [e.kind for e in events] == ["disconnected"]  # delivered by scan()
        board.lift(29)  # the game goes on while the board is unplugged
        board.place(17)
        board.plug()  # fresh boot: LEDs dark, pieces where the hands left them
        assert board.boots == 2
        assert wait_until(lambda: (host.scan(), host.connected)[1])
        assert host.scan() == {1, 2, 3, 18, 31, 32}
        assert [e.kind for e in events] == ["disconnected", "reconnected"]
        assert board.wait_shown(
            lambda shown: all(shown[layout.led_of_square(sq)] == c for sq, c in frame.items())
        )
        board.place(20)  # and the link works as before
        assert wait_until(lambda: 21 in host.scan())
    finally:
        host.close()


def test_a_board_of_another_size_is_refused_clearly(tmp_path, layout):
    with simulator.SimulatedBoard(tmp_path / "ttyBIG", rows=10, columns=5, leds=50) as big:
        with pytest.raises(Exception, match=r"10x5 switch matrix .* expects 8x4") as info:
            SerialBackend(big.path, layout)
        assert type(info.value).__name__ == "BoardMismatch"
        ten = load_layout("standard-10x10")
        with SerialBackend(big.path, ten) as host:
            big.place(49)
            assert wait_until(lambda: host.scan() == {ten.square_of_sensor(49)})
