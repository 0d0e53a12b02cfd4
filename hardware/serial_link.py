"""The host's side of a board with its own microcontroller on USB serial.

`SerialBackend` opens any pyserial URL (`/dev/ttyACM1`, `socket://host:port`,
`loop://`, a pty path), speaks the protocol in `hardware.wire` (spec:
docs/protocol.md) and turns the board's key numbers and LED indexes into
squares through the host's `Layout`, so the wiring map lives in one place.

What it guarantees, and why:
- `scan()` only ever returns an occupancy the board sent (mapped to squares):
  nothing is guessed, and until the first snapshot arrives the constructor
  does not return. While the link is down it keeps returning the last truth.
- `draw()` sends whole frames; the last one is re-sent whenever the board
  (re)appears, because a board that lost power lost its LEDs too.
- A background thread reads, sends keepalives and notices an unplug (read or
  write error, or silence past `silence_timeout`); it then emits
  "disconnected", reopens the same URL every `retry_interval`, asks for a
  full snapshot (pyserial's open flushes whatever the board said before),
  re-sends the frame and emits "reconnected".
- Device events are delivered on the caller's thread, from `scan()` and
  `draw()`, never from the reader thread, so host listeners need no locks.

pyserial is imported when a backend is created, not when this module is
imported, so the package works on machines without it.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

from hardware import wire
from hardware.base import DARK, Backend, BoardNotReady, BoardUnavailable, Colour, Frame

log = logging.getLogger(__name__)

INSTALL_HINT = "pip install 'draughtsboard[usb]'"


class LayoutLike(Protocol):
    """What this backend needs of `hardware.layout.Layout`."""

    @property
    def squares(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def columns(self) -> int: ...
    @property
    def sensor_squares(self) -> tuple[int, ...]: ...
    @property
    def led_squares(self) -> tuple[int, ...]: ...

    def led_of_square(self, square: int) -> int: ...


class BoardMismatch(BoardNotReady):
    """The board answered, but it is not the board the layout describes
    (another geometry, or another protocol version). Not ready rather than a set-up
    error of this computer: the usual fix is made on the board (its firmware or its
    settings.py, which CircuitPython reloads by itself), and the host finds it mended
    at its next try."""


class BoardFault(BoardMismatch):
    """The board answered that it cannot start as set up (its settings.py, a missing
    library); the message is the board's own sentence."""


def _pyserial() -> ModuleType:
    try:
        import serial
    except ImportError:
        raise BoardUnavailable(
            f"the USB board needs pyserial, which is not installed: {INSTALL_HINT}"
        ) from None
    return serial


class SerialBackend(Backend):
    """A draughtsboard whose microcontroller speaks `hardware.wire` over serial."""

    def __init__(
        self,
        url: str,
        layout: LayoutLike,
        *,
        connect_timeout: float = 3.0,
        silence_timeout: float = 3.0,
        keepalive_interval: float = 1.0,
        retry_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.url = url
        self.layout = layout
        self.squares = layout.squares
        self.connect_timeout = connect_timeout
        self.silence_timeout = silence_timeout
        self.keepalive_interval = keepalive_interval
        self.retry_interval = retry_interval
        self._clock = clock
        self._serial = _pyserial()
        self._lock = threading.RLock()
        self._encoder = wire.Encoder()
        self._decoder = wire.Decoder()
        self._events: collections.deque[tuple[str, str]] = collections.deque()
        self._port: Any = None
        self._occupied: frozenset[int] = frozenset()
        self._frame: bytes | None = None  # payload of the last FRAME drawn
        self._write_failure: str | None = None
        self._last_rx = self._last_tx = clock()
        self._closing = threading.Event()
        self._closed = False
        self._mismatch_reported: str | None = None
        self.hello: wire.Hello | None = None
        self.board_errors: collections.deque[str] = collections.deque(maxlen=20)
        self.disconnects = 0
        self.snapshots = 0

        port = self._open()
        try:
            hello, occupancy, decoder = self._handshake(port)
        except BaseException:
            self._close_quietly(port)
            raise
        self._install(port, hello, occupancy, decoder)
        self._thread = threading.Thread(target=self._run, name=f"serial-board {url}", daemon=True)
        self._thread.start()

    # --- Backend ----------------------------------------------------------------

    def scan(self) -> frozenset[int]:
        """The squares in the board's latest full snapshot (the last known while unplugged)."""
        self._deliver_events()
        return self._occupied

    def draw(self, frame: Frame) -> None:
        """Send `frame` as one whole FRAME message; remembered and re-sent after a reconnect."""
        self._deliver_events()
        payload = wire.frame_payload(round(self.brightness * 255), self._colours(frame))
        with self._lock:
            self._frame = payload
            if self._port is not None:
                self._send(wire.FRAME, payload)

    def close(self) -> None:
        """LEDs off, reader stopped, port released. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self.draw({})
        self._closing.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(Exception):
                port.flush()
            self._close_quietly(port)

    def __enter__(self) -> SerialBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- state for the host and for tests -----------------------------------------

    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def stats(self) -> dict[str, int]:
        d = self._decoder
        return {
            "messages": d.messages,
            "snapshots": self.snapshots,
            "bad_frames": d.bad_frames,
            "rejected": d.rejected,
            "dropped_bytes": d.dropped_bytes,
            "lost": d.lost,
            "disconnects": self.disconnects,
        }

    # --- mapping -------------------------------------------------------------------

    def _colours(self, frame: Frame) -> list[Colour]:
        count = self.hello.leds if self.hello is not None else len(self.layout.led_squares)
        colours: list[Colour] = [DARK] * count
        for square, colour in frame.items():
            try:
                led = self.layout.led_of_square(square)
            except (IndexError, KeyError):
                raise ValueError(
                    f"frame names square {square!r}, outside 1..{self.squares}"
                ) from None
            colours[led] = colour
        return colours

    def _squares(self, occupancy: wire.Occupancy) -> frozenset[int]:
        sensors = self.layout.sensor_squares
        return frozenset(sensors[k] for k in occupancy.pressed() if k < len(sensors) and sensors[k])

    def _check(self, hello: wire.Hello) -> None:
        """Refuse a board that is not the one the layout describes, saying how to fix it."""
        layout = self.layout
        name = getattr(layout, "name", "in use")
        if hello.protocol != wire.PROTOCOL_VERSION:
            raise BoardMismatch(
                f"the board on {self.url} speaks protocol version {hello.protocol}, this host "
                f"speaks {wire.PROTOCOL_VERSION}: copy firmware/ and hardware/wire.py from this "
                "version of draughtsboard onto the board (see firmware/README.md)"
            )
        if (hello.rows, hello.columns) != (layout.rows, layout.columns):
            raise BoardMismatch(
                f"the board on {self.url} has a {hello.rows}x{hello.columns} switch matrix "
                f"({hello.keys} switches) but layout {name} expects "
                f"{layout.rows}x{layout.columns} ({layout.squares} squares): choose the layout "
                "that matches the board, or fix ROW_PINS/COLUMN_PINS in the board's settings.py"
            )
        if hello.leds < len(layout.led_squares):
            raise BoardMismatch(
                f"the board on {self.url} drives {hello.leds} LEDs but layout {name} needs "
                f"{len(layout.led_squares)}: fix LED_COUNT in the board's settings.py"
            )

    # --- connecting ----------------------------------------------------------------

    def _open(self) -> Any:
        serial = self._serial
        try:
            return serial.serial_for_url(self.url, baudrate=115200, timeout=0.02, write_timeout=1.0)
        except ValueError as exc:  # pyserial: a URL it cannot read (a set-up mistake)
            raise BoardUnavailable(f"cannot open {self.url}: {exc}") from None
        except (serial.SerialException, OSError) as exc:  # absent, busy, no permission yet
            hint = "is the board plugged in, and is this its data port (usually the second one)?"
            if "ermission" in str(exc):
                hint = "add your user to the 'dialout' group, then log in again"
            number = getattr(exc, "errno", None)  # pyserial repeats the path and errno twice
            said = os.strerror(number) if isinstance(number, int) else str(exc)
            raise BoardNotReady(f"cannot open {self.url}: {said}; {hint}") from None

    def _handshake(self, port: Any) -> tuple[wire.Hello, wire.Occupancy, wire.Decoder]:
        """QUERY until the board answers HELLO, then wait for a full OCCUPANCY after it."""
        serial = self._serial
        decoder = wire.Decoder()
        start = self._clock()
        deadline = start + self.connect_timeout
        hello: wire.Hello | None = None
        next_query = start
        try:
            while True:
                now = self._clock()
                if now >= deadline:
                    break
                if hello is None and now >= next_query:
                    with self._lock:  # the encoder's sequence is shared with draw()
                        query = self._encoder.query()
                    port.write(query)
                    self._last_tx = now
                    next_query = now + 0.5  # the board may still be booting
                data = port.read(max(1, port.in_waiting))
                for message in decoder.feed(data, self._clock()):
                    if message.kind == wire.HELLO:
                        self._check(message)
                        hello = message
                    elif message.kind == wire.OCCUPANCY and hello is not None:
                        if message.keys == hello.keys:
                            return hello, message, decoder
                    elif message.kind == wire.ERROR:
                        self._board_error(message)
                        if message.code == wire.ERR_SETUP:
                            raise BoardFault(
                                f"the board on {self.url} cannot start: {message.text}; "
                                "fix it on the board's CIRCUITPY drive (firmware/README.md)"
                            )
        except (serial.SerialException, OSError) as exc:
            raise BoardNotReady(f"lost {self.url} while connecting: {exc}") from None
        raise BoardNotReady(
            f"no answer from a draughtsboard on {self.url} within {self.connect_timeout:g} s: "
            "is the draughtsboard firmware on it (firmware/README.md), and is this its data "
            "port (usually the second /dev/ttyACM*)?"
        )

    def _install(
        self,
        port: Any,
        hello: wire.Hello,
        occupancy: wire.Occupancy,
        decoder: wire.Decoder,
        announce: bool = False,
    ) -> None:
        """Make a freshly handshaken port the live one and bring the board up to date.

        Order matters to readers on other threads: snapshot first, then the
        "reconnected" event, then the port goes live; so whoever sees the event
        or `connected` also sees the board's current occupancy.
        """
        now = self._clock()
        with self._lock:
            self.hello = hello
            self._decoder = decoder
            self._occupied = self._squares(occupancy)
            self.snapshots += 1
            self._write_failure = None
            self._last_rx = now
            if self._frame is not None:
                self._send(wire.FRAME, self._frame, port)
            if announce:
                self._events.append(("reconnected", f"{self.url}: {hello.describe()}"))
            self._port = port
        log.info("board on %s: %s", self.url, hello.describe())

    # --- the reader thread -------------------------------------------------------------

    def _run(self) -> None:
        serial = self._serial
        while not self._closing.is_set():
            port = self._port
            if port is None:
                self._reconnect()
                continue
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                self._lost(f"read failed: {exc}")
                continue
            now = self._clock()
            for message in self._decoder.feed(data, now):
                if self._port is not port:
                    break  # the link was dropped while handling an earlier message
                self._handle(message, now)
            if self._write_failure is not None:
                self._lost(self._write_failure)
            elif now - self._last_rx > self.silence_timeout:
                self._lost(f"no message from the board for {self.silence_timeout:g} s")
            elif now - self._last_tx >= self.keepalive_interval:
                with self._lock:
                    self._send(wire.KEEPALIVE)

    def _handle(self, message: wire.Message, now: float) -> None:
        self._last_rx = now
        kind = message.kind
        if kind == wire.OCCUPANCY:
            assert isinstance(message, wire.Occupancy)
            if self.hello is not None and message.keys == self.hello.keys:
                self._occupied = self._squares(message)
                self.snapshots += 1
        elif kind == wire.HELLO:
            assert isinstance(message, wire.Hello)
            # The board rebooted (watchdog) or saw us come back: it forgot its LEDs.
            try:
                self._check(message)
            except BoardMismatch as exc:
                self._lost(str(exc))
                return
            with self._lock:
                self.hello = message
                if self._frame is not None:
                    self._send(wire.FRAME, self._frame)
        elif kind == wire.ERROR:
            assert isinstance(message, wire.Error)
            self._board_error(message)

    def _board_error(self, message: wire.Error) -> None:
        text = f"board error {message.code}: {message.text}"
        self.board_errors.append(text)
        log.warning("%s on %s", text, self.url)

    def _send(self, kind: int, payload: bytes = b"", port: Any = None) -> None:
        """Write one message; call with the lock held. A failure is handled by the reader."""
        port = port if port is not None else self._port
        if port is None:
            return
        try:
            port.write(self._encoder.encode(kind, payload))
            self._last_tx = self._clock()
        except Exception as exc:  # noqa: BLE001 - any failure means the link is gone
            self._write_failure = f"write failed: {exc}"

    def _lost(self, reason: str) -> None:
        with self._lock:
            # queued before `connected` turns False, so whoever sees one sees the other
            self._events.append(("disconnected", f"{self.url}: {reason}"))
            self.disconnects += 1
            port, self._port = self._port, None
            self._write_failure = None
        if port is not None:
            self._close_quietly(port)
        log.warning("board on %s disconnected: %s", self.url, reason)

    def _reconnect(self) -> None:
        if self._closing.wait(self.retry_interval):
            return
        try:
            port = self._open()
        except BoardUnavailable:
            return
        try:
            hello, occupancy, decoder = self._handshake(port)
        except BoardMismatch as exc:
            self._close_quietly(port)
            if str(exc) != self._mismatch_reported:  # say it once, not every second
                self._mismatch_reported = str(exc)
                self._events.append(("error", str(exc)))
            return
        except Exception:  # noqa: BLE001 - unplugged again mid-handshake: retry later
            self._close_quietly(port)
            return
        if self._closing.is_set():
            self._close_quietly(port)
            return
        self._mismatch_reported = None
        self._install(port, hello, occupancy, decoder, announce=True)

    def _deliver_events(self) -> None:
        while self._events:
            kind, detail = self._events.popleft()
            self.emit(kind, detail)

    @staticmethod
    def _close_quietly(port: Any) -> None:
        with contextlib.suppress(Exception):
            port.close()
