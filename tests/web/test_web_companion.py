"""Companion mode: a real board (here a board on USB, faked at the socket) behind the page.

The fake speaks the wire protocol (hardware/wire.py, docs/protocol.md) as the
firmware does (firmware/boardlogic.py): HELLO and a full OCCUPANCY in answer to
QUERY, KEEPALIVE back, a KEEPALIVE of its own whenever it has sent nothing for
KEEPALIVE_INTERVAL (so a host busy sending frames, blinking LEDs, still hears it),
a new OCCUPANCY whenever its switches change; it records every FRAME.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import BoardServer

from engine import get_variant
from firmware.settings import KEEPALIVE_INTERVAL
from hardware import wire
from host.recognition.costs import CARRY

#: a hand's pace between lifting a piece and putting it down: far longer than a push
#: (the recogniser reads a landing surely within CARRY of the lift as a knock, never a
#: move)
HAND = 3 * CARRY

pytest.importorskip("serial", reason="pyserial is in the dev extra")


class FakeUsbBoard:
    """A 32-square board on a TCP socket (pyserial's socket:// URL)."""

    def __init__(self, pressed: set[int]) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.pressed = set(pressed)  # key numbers 0..31
        self.frames: list[list[tuple[int, int, int]]] = []
        self.encoder = wire.Encoder()
        self.conn: socket.socket | None = None
        self.lock = threading.Lock()
        self.last_sent = time.monotonic()
        #: set once the host has closed its end and every byte it sent has been read
        self.closed = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()
        threading.Thread(target=self._keep_alive, daemon=True).start()

    def _keep_alive(self) -> None:
        while True:
            time.sleep(KEEPALIVE_INTERVAL / 5)
            if time.monotonic() - self.last_sent >= KEEPALIVE_INTERVAL:
                try:
                    self._send(self.encoder.keepalive)
                except OSError:  # the host has gone: so has the board's reason to talk
                    return

    def _serve(self) -> None:
        try:
            self._talk()
        finally:
            self.closed.set()

    def _talk(self) -> None:
        conn, _ = self.listener.accept()
        self.conn = conn
        decoder = wire.Decoder()
        with conn:
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                for message in decoder.feed(data):
                    if message.kind == wire.QUERY:
                        self._send(lambda: self.encoder.hello(8, 4, 32) + self._occupancy())
                    elif message.kind == wire.KEEPALIVE:
                        self._send(self.encoder.keepalive)
                    elif message.kind == wire.FRAME:
                        self.frames.append(message.colours)

    def _occupancy(self) -> bytes:
        return self.encoder.occupancy(32, sorted(self.pressed))

    def _send(self, message: Callable[[], bytes]) -> None:
        """Encode (numbering it) and send under one lock: three threads send."""
        with self.lock:
            if self.conn is not None:
                self.conn.sendall(message())
                self.last_sent = time.monotonic()

    def set_pressed(self, keys: set[int]) -> None:
        self.pressed = set(keys)
        self._send(self._occupancy)

    def lit(self) -> int | None:
        """How many LEDs the host's last frame lights (None before its first frame)."""
        frames = self.frames
        return sum(1 for c in frames[-1] if c != (0, 0, 0)) if frames else None

    def wait_for_lit(self, count: int, timeout: float = 10.0) -> None:
        """Until the host's last frame lights `count` LEDs (frames come from its loop)."""
        deadline = time.monotonic() + timeout
        while self.lit() != count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.lit() == count, self.frames[-3:]


def test_the_page_shows_the_real_switches_and_refuses_simulated_hands(tmp_path: Path) -> None:
    variant = get_variant("brazilian")
    # Standard wiring: key k sits under reading-order square k + 1.
    keys = {variant.square_to_reading_order(sq) - 1 for sq in variant.initial_position().occupied()}
    fake = FakeUsbBoard(keys)
    board = BoardServer(tmp_path / "b", "--board", f"serial:socket://127.0.0.1:{fake.port}",
                        "--new").start()
    try:
        # (the page may answer before the board's first reading is in: wait for it)
        state = board.wait_for(
            lambda s: s["occupied"] == sorted(variant.initial_position().occupied()))
        assert state["mode"] == "companion"
        status, answer = board.hands(lift=22)
        assert status == 409 and "real board" in answer["error"]
        status, answer = board.hands(drop=22)  # a page's hand letting go: refused too
        assert status == 409 and "real board" in answer["error"]
        playable = {v["name"] for v in state["variants"] if v["playable"]}
        assert "international" not in playable and "portuguese" in playable
        status, answer = board.control(command="new", variant="international")
        assert status == 409 and "10x10" in answer["error"]
        assert (answer["code"], answer["params"]) == (
            "board-size", {"size": 8, "variant": "international", "needs": 10})
        # A hand lifts c3 on the real board: the page sees it and the LEDs light.
        fake.set_pressed(keys - {variant.square_to_reading_order(22) - 1})
        board.wait_for(lambda s: 22 not in s["occupied"]
                       and s["leds"] == {"17": "destination", "18": "destination"})
        fake.wait_for_lit(2)  # two LEDs on the board
        time.sleep(HAND)  # the hand carries the piece to d4
        fake.set_pressed(keys - {variant.square_to_reading_order(22) - 1}
                         | {variant.square_to_reading_order(18) - 1})
        state = board.wait_for(lambda s: s["moves"] == ["c3-d4"])
    finally:
        board.stop()
    # Dark on exit: the host's last frame, read once its end of the line has closed.
    assert fake.closed.wait(10.0)
    assert fake.lit() == 0
