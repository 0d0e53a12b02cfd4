"""Run the board's firmware on a computer, behind a real pseudo-terminal.

Not copied to the board. It executes the unmodified firmware/code.py on
CPython with look-alike `board`, `keypad`, `neopixel`, `usb_cdc`,
`microcontroller` and `watchdog` modules, and wires `usb_cdc.data` to the
master side of a pty. The host opens the slave side (through a stable symlink,
like /dev/serial/by-id/...) with pyserial exactly as it would open
/dev/ttyACM1. Tests, the serial benchmark and builders without hardware all
use it:

    python firmware/simulator.py /tmp/ttyDRAUGHTS   # then point the host at it

Pulling the plug (`unplug`) powers the firmware off like a USB cable would;
`plug` boots a fresh copy, while the pieces on the board (`place`, `lift`)
stay where they are.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import importlib.util
import os
import signal
import struct
import sys
import termios
import threading
import time
import tty
import types
from collections.abc import Callable, Iterable
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parent
WIRE_PATH = FIRMWARE_DIR.parent / "hardware" / "wire.py"
FAKE_MODULES = ("board", "keypad", "neopixel", "usb_cdc", "microcontroller", "watchdog")
FIRMWARE_MODULES = ("wire", "settings", "boardlogic", "draughtsboard_firmware_code")


# --- look-alikes of the CircuitPython modules ---------------------------------------


class Pin:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"board.{self.name}"


class KeyEvent:
    def __init__(self, key_number: int, pressed: bool) -> None:
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed


class EventQueue:
    """keypad.EventQueue: bounded; sets `overflowed` instead of growing."""

    def __init__(self, max_events: int) -> None:
        self._events: collections.deque[KeyEvent] = collections.deque()
        self._lock = threading.Lock()
        self.max_events = max_events
        self.overflowed = False

    def put(self, event: KeyEvent) -> None:
        with self._lock:
            if len(self._events) >= self.max_events:
                self.overflowed = True
            else:
                self._events.append(event)

    def get(self) -> KeyEvent | None:
        with self._lock:
            return self._events.popleft() if self._events else None

    def clear(self) -> None:
        with self._lock:
            self._events.clear()

    def __len__(self) -> int:
        return len(self._events)


class KeyMatrix:
    """keypad.KeyMatrix over a simulated matrix: the set of closed key numbers.

    Like the real scanner it starts by assuming every key is open, so keys
    already closed at boot are reported as presses; `reset()` does the same.
    Changes arrive as events at once (a real board adds interval x threshold).
    """

    def __init__(
        self,
        row_pins: Iterable[Pin],
        column_pins: Iterable[Pin],
        columns_to_anodes: bool = True,
        interval: float = 0.02,
        max_events: int = 64,
        debounce_threshold: int = 1,
        *,
        closed: set[int],
    ) -> None:
        self.row_pins = tuple(row_pins)
        self.column_pins = tuple(column_pins)
        self.key_count = len(self.row_pins) * len(self.column_pins)
        self.events = EventQueue(max_events)
        self._closed = closed
        self.reset()

    def reset(self) -> None:
        for key in sorted(self._closed):
            self.events.put(KeyEvent(key, True))

    def change(self, key: int, pressed: bool) -> None:
        self.events.put(KeyEvent(key, pressed))

    def deinit(self) -> None:
        pass


class NeoPixel:
    """neopixel.NeoPixel that records what `show()` put on the wire."""

    def __init__(
        self,
        pin: Pin,
        n: int,
        *,
        brightness: float = 1.0,
        auto_write: bool = True,
        pixel_order: str = "GRB",
    ) -> None:
        self.pin = pin
        self.n = n
        self.brightness = brightness
        self.auto_write = auto_write
        self.pixel_order = pixel_order
        self._buffer = [(0, 0, 0)] * n
        self.shown: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.shown_brightness = 0.0
        self.shows = 0
        self.changed = threading.Condition()

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self._buffer[index] = tuple(colour)  # type: ignore[assignment]
        if self.auto_write:
            self.show()

    def __getitem__(self, index: int) -> tuple[int, int, int]:
        return self._buffer[index]

    def fill(self, colour: tuple[int, int, int]) -> None:
        self._buffer = [tuple(colour)] * self.n  # type: ignore[list-item]
        if self.auto_write:
            self.show()

    def show(self) -> None:
        with self.changed:
            self.shown = list(self._buffer)
            self.shown_brightness = self.brightness
            self.shows += 1
            self.changed.notify_all()


class PtyPort:
    """usb_cdc.data over the master side of a pty (non-blocking, like timeout=0)."""

    def __init__(self, master_fd: int) -> None:
        self.fd = master_fd
        os.set_blocking(master_fd, False)
        self.timeout: float | None = 0
        self.write_timeout: float | None = None
        self.connected = True
        self.written = 0
        self.dropped = 0

    @property
    def in_waiting(self) -> int:
        try:
            raw = fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return 0
        return struct.unpack("i", raw)[0]

    def read(self, n: int = 1) -> bytes:
        try:
            return os.read(self.fd, n)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data: bytes) -> int:
        try:
            count = os.write(self.fd, data)
        except OSError:  # full (nobody reading) or gone: drop, as write_timeout would
            count = 0
        self.written += count
        self.dropped += len(data) - count
        return count


class Watchdog:
    def __init__(self) -> None:
        self.timeout = 0.0
        self.mode = None
        self.feeds = 0

    def feed(self) -> None:
        self.feeds += 1


def _module(name: str, **attrs: object) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _swapped_modules(modules: dict[str, types.ModuleType]):
    """Install `modules` in sys.modules for the duration, then restore the originals."""
    names = set(modules) | set(FIRMWARE_MODULES)
    saved = {name: sys.modules[name] for name in names if name in sys.modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


# --- the simulated board ---------------------------------------------------------------


class SimulatedBoard:
    """One USB board: firmware thread, pty, switch matrix and LED chain.

    `link` is the path the host opens; it is re-pointed at each new pty, the
    way udev keeps /dev/serial/by-id/... stable across replugs.
    """

    def __init__(
        self,
        link: str | os.PathLike[str],
        *,
        rows: int = 8,
        columns: int = 4,
        leds: int = 32,
        closed: Iterable[int] = (),
        settings: dict[str, object] | None = None,
    ) -> None:
        self.link = Path(link)
        self.rows = rows
        self.columns = columns
        self.leds = leds
        self.closed: set[int] = set(closed)
        self.overrides = dict(settings or {})
        self.keys: KeyMatrix | None = None
        self.pixels: NeoPixel | None = None
        self.port: PtyPort | None = None
        self.watchdog: Watchdog | None = None
        self.boots = 0
        self.error: BaseException | None = None
        self._fds: tuple[int, int] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def path(self) -> str:
        return str(self.link)

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    # -- cable --------------------------------------------------------------------

    def plug(self) -> None:
        """Connect the cable: new pty, fresh firmware boot, link re-pointed."""
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        self._fds = (master, slave)
        self.port = PtyPort(master)
        code = self._boot(self.port)
        tmp = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.link)
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(code, self._stop), name="simulated-firmware", daemon=True
        )
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the firmware loses power and the port disappears."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(timeout=5)
        self._thread = None
        if self.port is not None:
            self.port.connected = False
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        if self._fds is not None:
            for fd in self._fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._fds = None

    close = unplug

    def __enter__(self) -> SimulatedBoard:
        self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    # -- pieces -------------------------------------------------------------------

    def place(self, key: int) -> None:
        """Put a piece on key `key` (a magnet closes the reed switch)."""
        self._set(key, True)

    def lift(self, key: int) -> None:
        self._set(key, False)

    def _set(self, key: int, pressed: bool) -> None:
        if not 0 <= key < self.rows * self.columns:
            raise ValueError(f"key {key} outside the {self.rows}x{self.columns} matrix")
        with self._lock:
            if (key in self.closed) == pressed:
                return
            (self.closed.add if pressed else self.closed.discard)(key)
            if self.keys is not None and self.plugged:
                self.keys.change(key, pressed)

    # -- LEDs ---------------------------------------------------------------------

    def shown(self) -> list[tuple[int, int, int]]:
        """The colours last sent down the LED chain (before brightness)."""
        assert self.pixels is not None, "board was never plugged in"
        return list(self.pixels.shown)

    def wait_shown(
        self, predicate: Callable[[list[tuple[int, int, int]]], bool], timeout: float = 5.0
    ) -> bool:
        """Block until `predicate(shown colours)` holds; False on timeout."""
        assert self.pixels is not None, "board was never plugged in"
        with self.pixels.changed:
            return self.pixels.changed.wait_for(lambda: predicate(self.pixels.shown), timeout)

    # -- firmware -----------------------------------------------------------------

    def _boot(self, port: PtyPort) -> types.ModuleType:
        self.boots += 1
        closed = self.closed

        def key_matrix(*args: object, **kwargs: object) -> KeyMatrix:
            self.keys = KeyMatrix(*args, closed=closed, **kwargs)  # type: ignore[arg-type]
            return self.keys

        def neo_pixel(*args: object, **kwargs: object) -> NeoPixel:
            self.pixels = NeoPixel(*args, **kwargs)  # type: ignore[arg-type]
            return self.pixels

        self.watchdog = Watchdog()
        fakes = {
            "board": _module("board", __getattr__=Pin),
            "keypad": _module("keypad", KeyMatrix=key_matrix, Event=KeyEvent),
            "neopixel": _module(
                "neopixel", NeoPixel=neo_pixel, GRB="GRB", RGB="RGB", GRBW="GRBW", RGBW="RGBW"
            ),
            "usb_cdc": _module("usb_cdc", data=port, console=None, enable=lambda **kw: None),
            "microcontroller": _module(
                "microcontroller", watchdog=self.watchdog, reset=self._reset_requested
            ),
            "watchdog": _module(
                "watchdog",
                WatchDogMode=types.SimpleNamespace(RAISE="RAISE", RESET="RESET"),
            ),
        }
        with _swapped_modules(fakes):
            _load("wire", WIRE_PATH)
            settings = _load("settings", FIRMWARE_DIR / "settings.py")
            settings.ROW_PINS = tuple(f"GP{2 + i}" for i in range(self.rows))
            settings.COLUMN_PINS = tuple(f"GP{2 + self.rows + i}" for i in range(self.columns))
            settings.LED_COUNT = self.leds
            for name, value in self.overrides.items():
                setattr(settings, name, value)
            _load("boardlogic", FIRMWARE_DIR / "boardlogic.py")
            return _load("draughtsboard_firmware_code", FIRMWARE_DIR / "code.py")

    def _reset_requested(self) -> None:
        raise SystemExit("microcontroller.reset()")

    def _run(self, code: types.ModuleType, stop: threading.Event) -> None:
        try:
            code.main(stop.is_set)
        except BaseException as exc:  # surfaced to tests through .error
            self.error = exc


def main(argv: list[str] | None = None) -> int:
    """Serve a simulated 8x8 board set up for a new game until Ctrl-C."""
    args = sys.argv[1:] if argv is None else argv
    link = args[0] if args else "/tmp/ttyDRAUGHTS"
    start = list(range(12)) + list(range(20, 32))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # unplug (and unlink) on kill too
    with SimulatedBoard(link, closed=start) as board:
        print(f"simulated board on {board.path}; Ctrl-C to stop")
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
