"""SerialBackend against a scripted board: errors, fuzzing, silence, reboots, URLs."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading

import pytest
from fakes_circuitpython import ScriptedBoard, wait_until
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware import wire
from hardware.base import BoardUnavailable
from hardware.layout import load_layout
from hardware.serial_link import BoardMismatch, SerialBackend


@pytest.fixture
def layout():
    return load_layout("standard-8x8")


@pytest.fixture
def scripted(tmp_path):
    board = ScriptedBoard(tmp_path / "ttyBOARD")
    yield board
    board.close()


def connect(board: ScriptedBoard, layout, pressed=(), **kwargs) -> SerialBackend:
    """Open the backend while the scripted board answers its QUERY."""
    answer = threading.Thread(target=board.answer_query, kwargs={"pressed": pressed})
    answer.start()
    try:
        return SerialBackend(board.path, layout, **kwargs)
    finally:
        answer.join()


def test_module_imports_without_pyserial_and_says_what_to_install():
    code = (
        "import sys; sys.modules['serial'] = None\n"
        "import hardware.serial_link as link\n"
        "from hardware.layout import load_layout\n"
        "try:\n"
        "    link.SerialBackend('loop://', load_layout('standard-8x8'))\n"
        "except link.BoardUnavailable as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'draughtsboard[usb]'" in out.stdout
    assert out.stderr == ""


def test_a_missing_port_is_a_clear_error(tmp_path, layout):
    with pytest.raises(BoardUnavailable, match="cannot open .*plugged in"):
        SerialBackend(str(tmp_path / "ttyNOPE"), layout)


def test_a_silent_device_is_a_clear_error(scripted, layout):
    with pytest.raises(BoardUnavailable, match="no answer .*firmware"):
        SerialBackend(scripted.path, layout, connect_timeout=0.3)
    assert scripted.poll(0.05) or scripted.received  # it did ask
    assert all(m.kind == wire.QUERY for m in scripted.received)


def test_another_protocol_version_is_refused(scripted, layout):
    answer = threading.Thread(target=scripted.answer_query, kwargs={"protocol": 9})
    answer.start()
    with pytest.raises(BoardMismatch, match="protocol version 9, this host speaks 1"):
        SerialBackend(scripted.path, layout)
    answer.join()


def test_a_short_led_chain_is_refused(scripted, layout):
    answer = threading.Thread(target=scripted.answer_query, kwargs={"leds": 10})
    answer.start()
    with pytest.raises(BoardMismatch, match="drives 10 LEDs but layout standard-8x8 needs 32"):
        SerialBackend(scripted.path, layout)
    answer.join()


def test_frames_are_whole_and_mapped_through_the_layout(scripted, layout):
    with connect(scripted, layout, pressed=[0]) as host:
        host.brightness = 0.5
        host.draw({1: (1, 2, 3), 5: (4, 5, 6)})
        frame = scripted.expect(wire.FRAME)
        assert frame.brightness == 128
        assert len(frame.colours) == 32
        lit = {i: c for i, c in enumerate(frame.colours) if c != (0, 0, 0)}
        assert lit == {layout.led_of_square(1): (1, 2, 3), layout.led_of_square(5): (4, 5, 6)}
        with pytest.raises(ValueError, match="square 33, outside 1..32"):
            host.draw({33: (1, 1, 1)})
    last = [m for m in scripted.poll(0.1) if m.kind == wire.FRAME][-1]
    assert last.colours == [(0, 0, 0)] * 32  # close() turned the LEDs off


def test_keepalives_flow_and_events_arrive_on_the_callers_thread(scripted, layout):
    with connect(scripted, layout, keepalive_interval=0.05, silence_timeout=0.3) as host:
        scripted.expect(wire.KEEPALIVE, timeout=1)
        seen = []
        host.on_event(lambda e: seen.append((e.kind, threading.current_thread())))
        # the board goes quiet: the host gives up on it, then finds it again
        assert wait_until(lambda: (host.scan(), seen)[1], timeout=3)
        assert seen[0] == ("disconnected", threading.main_thread())
        scripted.answer_query(pressed=[4])
        assert wait_until(lambda: (host.scan(), len(seen) == 2)[1], timeout=3)
        assert seen[1] == ("reconnected", threading.main_thread())
        assert host.scan() == {5}


def test_silence_is_detected_and_the_frame_is_sent_again(scripted, layout):
    events = []
    host = connect(scripted, layout, pressed=[1], silence_timeout=0.5, retry_interval=0.05)
    host.on_event(events.append)
    try:
        host.draw({7: (9, 9, 9)})
        scripted.expect(wire.FRAME)
        assert wait_until(lambda: (host.scan(), events)[1], timeout=2)
        assert events[0].kind == "disconnected" and "no message" in events[0].detail
        scripted.answer_query(pressed=[1, 2])
        again = scripted.expect(wire.FRAME)
        assert again.colours[layout.led_of_square(7)] == (9, 9, 9)
        assert wait_until(lambda: host.connected)
        assert host.scan() == {2, 3}
        assert [e.kind for e in events] == ["disconnected", "reconnected"]
    finally:
        host.close()


def test_a_rebooted_board_gets_the_frame_again(scripted, layout):
    with connect(scripted, layout) as host:
        host.draw({2: (0, 0, 99)})
        scripted.expect(wire.FRAME)
        # a watchdog reset: the board boots and announces itself unasked
        scripted.write(scripted.encoder.hello(8, 4, 32, (1, 0, 0), "rebooted"))
        again = scripted.expect(wire.FRAME)
        assert again.colours[layout.led_of_square(2)] == (0, 0, 99)


def test_board_errors_are_kept_for_the_host(scripted, layout):
    with connect(scripted, layout) as host:
        scripted.write(scripted.encoder.error(wire.ERR_FRAME_SIZE, "frame has 3 LEDs"))
        assert wait_until(lambda: list(host.board_errors))
        assert host.board_errors[0] == "board error 3: frame has 3 LEDs"


def test_socket_urls_work_like_ports(layout):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def board() -> None:
        conn, _ = server.accept()
        enc, dec = wire.Encoder(), wire.Decoder()
        with conn:
            while True:
                data = conn.recv(4096)
                if not data:
                    return
                for message in dec.feed(data):
                    if message.kind == wire.QUERY:
                        conn.sendall(enc.hello(8, 4, 32) + enc.occupancy(32, [10, 11]))

    thread = threading.Thread(target=board, daemon=True)
    thread.start()
    with SerialBackend(f"socket://127.0.0.1:{port}", layout) as host:
        assert host.scan() == {11, 12}
    thread.join(timeout=3)
    server.close()


# --- fuzzing the whole reader: thread, port and decoder -------------------------------

masks = st.integers(0, (1 << 32) - 1)
pieces = st.one_of(
    st.tuples(st.just("intact"), masks),
    st.tuples(st.just("garbage"), st.binary(max_size=30)),
    st.tuples(st.just("truncated"), masks, st.integers(1, 12)),
    st.tuples(st.just("corrupted"), masks, st.integers(0, 12), st.integers(1, 255)),
    st.tuples(st.just("foreign"), st.integers(0, (1 << 50) - 1)),  # a 50-key snapshot
    st.tuples(st.just("duplicated"), masks),
)


def test_host_never_reports_an_occupancy_the_board_did_not_send(scripted, layout):
    host = connect(scripted, layout, pressed=[0], silence_timeout=60)
    sent = {frozenset({1})}
    observed = []
    sentinel = iter(range(10**6))

    def squares(mask: int) -> frozenset[int]:
        return frozenset(layout.square_of_sensor(k) for k in range(32) if mask >> k & 1)

    @settings(
        max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(st.lists(pieces, max_size=12))
    def check(stream):
        enc = scripted.encoder
        data = bytearray()
        for piece in stream:
            if piece[0] == "garbage":
                data += piece[1]
            elif piece[0] == "foreign":
                data += enc.occupancy(50, piece[1])
            else:
                frame = enc.occupancy(32, piece[1])
                if piece[0] == "truncated":
                    data += frame[: piece[2]]
                elif piece[0] == "corrupted":
                    bad = bytearray(frame)
                    bad[piece[2]] ^= piece[3]
                    data += bad
                else:
                    data += frame * (2 if piece[0] == "duplicated" else 1)
                    sent.add(squares(piece[1]))
        # end with a snapshot nobody else sends, and watch the host until it arrives
        final = next(sentinel) | 1 << 31 | 1 << 30
        sent.add(squares(final))
        scripted.write(bytes(data) + enc.occupancy(32, final))
        assert wait_until(
            lambda: (observed.append(host.scan()), observed[-1] == squares(final))[1], timeout=5
        )

    try:
        check()
        assert set(observed) <= sent
        assert host.stats["bad_frames"] > 0  # damage was seen, and survived
        assert host.connected
    finally:
        host.close()


def test_a_port_this_user_may_not_open_names_the_dialout_group(tmp_path, layout, monkeypatch):
    # pyserial 3.5 serialposix.py Serial.open(): os.open() fails with EACCES and becomes
    # SerialException(errno, "could not open port {port}: {OSError}").
    import errno

    import serial

    port = str(tmp_path / "ttyACM1")

    def refuse(url, **kwargs):
        denied = PermissionError(errno.EACCES, "Permission denied", port)
        raise serial.SerialException(denied.errno, f"could not open port {port}: {denied}")

    monkeypatch.setattr(serial, "serial_for_url", refuse)
    with pytest.raises(BoardUnavailable) as caught:
        SerialBackend(port, layout)
    message = str(caught.value)
    assert "Permission denied" in message and "'dialout' group" in message
    assert "\n" not in message
