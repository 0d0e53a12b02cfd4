"""The board firmware on CPython: its logic on a fake clock, and code.py end to end over a pty."""

from __future__ import annotations

import sys
import types

import pytest
from fakes_circuitpython import FIRMWARE, _load, fake, keyscan, simulator, wait_until

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


class BytesPort(fake.DataPort):
    """The fake usb_cdc.data, plus `take()`: the messages the board sent since last time."""

    def __init__(self) -> None:
        super().__init__()
        self.decoder = wire.Decoder()

    def take(self) -> list[wire.Message]:
        data, self.sent = bytes(self.sent), bytearray()
        return self.decoder.feed(data)


class Settings:
    ROW_PINS = tuple(f"GP{n}" for n in range(2, 10))
    COLUMN_PINS = tuple(f"GP{n}" for n in range(10, 14))
    NEOPIXEL_PIN = "GP16"
    LED_COUNT = 32
    SCAN_INTERVAL = 0.010
    DEBOUNCE_THRESHOLD = 2
    MAX_BRIGHTNESS = 0.2
    SNAPSHOT_INTERVAL = 1.0
    KEEPALIVE_INTERVAL = 1.0
    HOST_TIMEOUT = 5.0
    BOARD_NAME = "test"


#: keypad behaviours the firmware must cope with (see firmware/fake_circuitpython.py)
VERSIONS = [(9, 0, 0), (9, 1, 0), (9, 2, 0), (9, 2, 1), (10, 0, 0)]


class Rig:
    """The firmware's logic and key scanner over fake CircuitPython modules, on a ms clock."""

    def __init__(self, boardlogic, closed=(), version=(10, 0, 0)) -> None:
        self.ms = 1000
        self.matrix = fake.SwitchMatrix(Settings.ROW_PINS, Settings.COLUMN_PINS, closed)
        self.closed = self.matrix.closed
        pico = fake.Board()
        self.keypad = fake.keypad_module(self.matrix, lambda: self.ms, version)
        self.scanner = keyscan.KeyScanner(
            self.keypad,
            fake.digitalio_module(self.matrix),
            [getattr(pico, name) for name in Settings.ROW_PINS],
            [getattr(pico, name) for name in Settings.COLUMN_PINS],
            interval=Settings.SCAN_INTERVAL,
            debounce_threshold=Settings.DEBOUNCE_THRESHOLD,
        )
        self.pixels = fake.NeoPixel(pico.GP16, 32, auto_write=False)
        self.port = BytesPort()
        self.host = wire.Encoder()
        self.watchdog = fake.Watchdog()
        self.logic = boardlogic.BoardLogic(
            self.scanner,
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

    def busy(self, ms: int) -> None:
        """Time passes while the firmware is busy: keypad keeps scanning in the background."""
        for _ in range(ms):
            self.ms += 1
            self.scanner.keys.events  # noqa: B018 - the supervisor tick: scan if due

    def send(self, data: bytes) -> None:
        self.port.incoming += data


def occupancies(messages):
    return [m.pressed() for m in messages if m.kind == wire.OCCUPANCY]


@pytest.mark.parametrize("version", VERSIONS)
def test_boot_says_hello_with_the_full_board_on_every_circuitpython(boardlogic, version):
    # keypad reports keys closed at start only on 9.0; the direct read works on all.
    rig = Rig(boardlogic, closed={0, 5, 31}, version=version)
    first = rig.run(10)
    assert [m.kind for m in first[:2]] == [wire.HELLO, wire.OCCUPANCY]
    hello = first[0]
    assert (hello.rows, hello.columns, hello.leds, hello.board_name) == (8, 4, 32, "test")
    assert occupancies(first) == [[0, 5, 31]]
    assert occupancies(rig.run(3000))[-1] == [0, 5, 31]  # and keypad never contradicts it
    assert rig.watchdog.feeds > 0


def test_circuitpython_9_0_has_no_debounce_threshold_and_still_runs(boardlogic):
    rig = Rig(boardlogic, closed={7}, version=(9, 0, 0))
    assert rig.scanner.debounce_threshold == 1  # fell back after keypad's TypeError
    rig.run(50)
    rig.closed.add(8)
    assert occupancies(rig.run(20)) == [[7, 8]]


@pytest.mark.parametrize("version", [(9, 1, 0), (10, 0, 0)])
def test_a_change_is_reported_after_interval_times_threshold(boardlogic, version):
    rig = Rig(boardlogic, version=version)
    rig.run(100)
    rig.closed.add(3)
    # 10 ms scans, 2 agreeing: the second scan after the change reports it
    assert occupancies(rig.run(10, step=1)) == []
    assert occupancies(rig.run(15, step=1)) == [[3]]


def test_snapshot_on_every_change_and_every_second(boardlogic):
    rig = Rig(boardlogic)
    rig.run(100)
    rig.closed.add(3)
    assert occupancies(rig.run(30)) == [[3]]
    quiet = rig.run(3000)
    assert occupancies(quiet) == [[3]] * 3  # once a second while nothing moves
    rig.closed.discard(3)
    rig.closed.add(4)
    assert occupancies(rig.run(30)) == [[4]]  # one snapshot for a whole batch of events


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


@pytest.mark.parametrize("version", VERSIONS)
def test_event_overflow_rebuilds_occupancy_without_reporting_a_false_board(boardlogic, version):
    rig = Rig(boardlogic, closed={2, 9}, version=version)
    rig.run(100)
    for _ in range(40):  # 80 events while the firmware is busy: the queue holds 64
        rig.closed.add(5)
        rig.busy(25)
        rig.closed.discard(5)
        rig.busy(25)
    assert rig.scanner.keys.events.overflowed
    with pytest.raises(AttributeError):
        rig.scanner.keys.events.overflowed = False  # read-only on the real board too
    rig.closed.add(11)
    out = rig.run(200)
    assert any(m.kind == wire.ERROR and m.code == wire.ERR_OVERFLOW for m in out)
    # after the rescan only true boards are reported, never the empty one in between
    assert occupancies(out) == [[2, 9, 11]]
    assert not rig.scanner.keys.events.overflowed


def test_nothing_is_written_while_no_host_holds_the_port(boardlogic):
    # usb_cdc.data.connected is the host's DTR: writing without it would fill TinyUSB's
    # FIFO and then stall every write for write_timeout.
    rig = Rig(boardlogic, closed={4})
    rig.port.dtr = False
    rig.run(3000)
    assert rig.port.unread == 0 and rig.port.stalls == 0
    rig.port.dtr = True  # a host opens the port and asks
    rig.send(rig.host.query())
    assert [m.kind for m in rig.run(10)][:2] == [wire.HELLO, wire.OCCUPANCY]


# --- a board that cannot start: say so, never a reset loop ---------------------------------


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"ROW_PINS": (*Settings.ROW_PINS[:7], "GP99")}, "ROW_PINS names 'GP99'"),
        ({"NEOPIXEL_PIN": "D5"}, "NEOPIXEL_PIN names 'D5'"),
        ({"COLUMN_PINS": ("GP10", "GP11", "GP12", "GP2")}, "uses GP2, already in ROW_PINS"),
        ({"COLUMN_PINS": ()}, "COLUMN_PINS lists no pins"),
    ],
)
def test_settings_mistakes_are_found_before_any_pin_is_touched(boardlogic, change, said):
    settings = type("S", (Settings,), dict(change))
    problem = boardlogic.check_settings(settings, fake.Board())
    assert problem is not None and said in problem
    assert boardlogic.check_settings(Settings, fake.Board()) is None


def test_a_setup_fault_repeats_its_sentence_answers_the_host_and_blinks(boardlogic):
    ms = [0]
    port = fake.DataPort()
    matrix = fake.SwitchMatrix([], [])
    led = fake.DigitalInOut(fake.Board().LED, matrix)
    led.switch_to_output(False)
    said = []
    fault = boardlogic.SetupFault("settings.py: ROW_PINS names 'GP99'", port, led,
                                  clock=lambda: ms[0], say=said.append)  # fmt: skip
    lit = []
    for _ in range(500):  # 5 s
        fault.step()
        lit.append(led.value)
        ms[0] += 10
    assert len(said) == 3 and "GP99" in said[0]
    errors = [m for m in wire.Decoder().feed(bytes(port.sent)) if m.kind == wire.ERROR]
    assert len(errors) == 3 and errors[0].code == wire.ERR_SETUP
    port.incoming += wire.Encoder().query()
    fault.step()
    assert wire.Decoder().feed(bytes(port.sent))[-1].code == wire.ERR_SETUP  # answered at once
    blinks = sum(1 for a, b in zip(lit, lit[1:], strict=False) if b and not a)
    assert 6 <= blinks <= 8  # three blinks every 2 s


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
    for name in (*simulator.FAKE_MODULES, "wire", "settings", "boardlogic", "keyscan"):
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


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"settings": {"COLUMN_PINS": ("GP10", "GP11", "GP99")}}, "COLUMN_PINS names 'GP99'"),
        ({"missing": ("neopixel",)}, "lib/neopixel.mpy is missing"),
    ],
)
def test_a_board_that_cannot_start_tells_the_host_why_and_does_not_reset(
    tmp_path, layout, options, said
):
    sim = simulator.SimulatedBoard(tmp_path / "ttyBAD", **options)
    with sim:
        with pytest.raises(Exception, match=said) as info:
            SerialBackend(sim.path, layout, connect_timeout=3.0)
        assert type(info.value).__name__ == "BoardFault"
        assert "cannot start" in str(info.value) and "\n" not in str(info.value)
        seen = set()  # the Pico's LED (GP25) blinks
        assert wait_until(lambda: seen.add(sim.matrix.levels.get("GP25")) or {True, False} <= seen)
    assert sim.error is None and sim.boots == 1  # no reset loop


@pytest.mark.parametrize("version", [(9, 0, 0), (9, 1, 0), (9, 2, 1)])
def test_code_py_runs_end_to_end_on_older_circuitpython(tmp_path, layout, version):
    sim = simulator.SimulatedBoard(tmp_path / "ttyOLD", closed={0, 31}, version=version)
    with sim, SerialBackend(sim.path, layout) as host:
        assert host.scan() == {1, 32}
        sim.place(13)
        assert wait_until(lambda: host.scan() == {1, 14, 32})
    assert sim.error is None
