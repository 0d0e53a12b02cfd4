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
FAKE_MODULES = (
    "board",
    "digitalio",
    "keypad",
    "neopixel",
    "usb_cdc",
    "microcontroller",
    "watchdog",
)
FIRMWARE_MODULES = ("wire", "settings", "boardlogic", "keyscan", "draughtsboard_firmware_code")
#: The CircuitPython version whose keypad the simulator plays by default.
CIRCUITPY_VERSION = (10, 0, 0)


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


fake = sys.modules.get("draughtsboard_fake_circuitpython") or _load(
    "draughtsboard_fake_circuitpython", FIRMWARE_DIR / "fake_circuitpython.py"
)


def ticks_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class NeoPixel(fake.NeoPixel):
    """The fake NeoPixel, plus a condition tests wait on for the next `show()`."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.changed = threading.Condition()
        super().__init__(*args, **kwargs)

    def show(self) -> None:
        with self.changed:
            super().show()
            self.changed.notify_all()


class PtyPort:
    """usb_cdc.data over the master side of a pty (non-blocking, like timeout=0)."""

    def __init__(self, master_fd: int) -> None:
        self.fd = master_fd
        os.set_blocking(master_fd, False)
        self.timeout: float | None = 0
        self.write_timeout: float | None = None
        self.dtr = True  # the host holds the port open (a pty carries no real DTR)
        self.written = 0
        self.dropped = 0

    @property
    def connected(self) -> bool:
        """usb_cdc's read-only `connected`: the host asserts DTR."""
        return self.dtr

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


def _module(name: str, **attrs: object) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


@contextlib.contextmanager
def _swapped_modules(modules: dict[str, types.ModuleType | None]):
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
        version: tuple[int, int, int] = CIRCUITPY_VERSION,
        missing: Iterable[str] = (),
    ) -> None:
        """`version`: the CircuitPython whose keypad to play; `missing`: libraries
        (such as "neopixel") absent from CIRCUITPY/lib."""
        self.link = Path(link)
        self.rows = rows
        self.columns = columns
        self.leds = leds
        self.version = version
        self.missing = tuple(missing)
        # GP16 drives the LEDs and GP25 is the Pico's own LED: the matrix uses the others
        pins = [f"GP{n}" for n in range(2, 29) if n not in (16, 25)]
        self.matrix = fake.SwitchMatrix(pins[:rows], pins[rows : rows + columns], closed)
        self.closed: set[int] = self.matrix.closed
        self.overrides = dict(settings or {})
        self.keys: fake.KeyMatrix | None = None
        self.pixels: NeoPixel | None = None
        self.port: PtyPort | None = None
        self.watchdog: fake.Watchdog | None = None
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
            self.port.dtr = False
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
        with self._lock:  # the firmware's keypad sees it at its next scan
            (self.closed.add if pressed else self.closed.discard)(key)

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
        self.matrix.claimed.clear()  # power-on: every pin is free again
        self.matrix.levels.clear()
        keypad = fake.keypad_module(self.matrix, ticks_ms, self.version)
        make_keymatrix = keypad.KeyMatrix

        def key_matrix(*args: object, **kwargs: object) -> fake.KeyMatrix:
            self.keys = make_keymatrix(*args, **kwargs)
            return self.keys

        keypad.KeyMatrix = key_matrix

        def neo_pixel(*args: object, **kwargs: object) -> NeoPixel:
            self.pixels = NeoPixel(*args, **kwargs)  # type: ignore[arg-type]
            return self.pixels

        self.watchdog = fake.Watchdog()
        pico = fake.Board()
        fakes = {
            "board": _module("board", **vars(pico)),
            "digitalio": fake.digitalio_module(self.matrix),
            "keypad": keypad,
            "neopixel": _module(
                "neopixel", NeoPixel=neo_pixel, GRB="GRB", RGB="RGB", GRBW="GRBW", RGBW="RGBW"
            ),
            "usb_cdc": _module("usb_cdc", data=port, console=None, enable=lambda **kw: None),
            "microcontroller": _module(
                "microcontroller",
                watchdog=self.watchdog,
                reset=self._reset_requested,
                delay_us=lambda us: None,
            ),
            "watchdog": _module("watchdog", WatchDogMode=fake.WatchDogMode),
        }
        fakes.update(dict.fromkeys(self.missing))  # None in sys.modules: ImportError
        with _swapped_modules(fakes):
            _load("wire", WIRE_PATH)
            settings = _load("settings", FIRMWARE_DIR / "settings.py")
            settings.ROW_PINS = tuple(self.matrix.row_names)
            settings.COLUMN_PINS = tuple(self.matrix.column_names)
            settings.LED_COUNT = self.leds
            for name, value in self.overrides.items():
                setattr(settings, name, value)
            _load("boardlogic", FIRMWARE_DIR / "boardlogic.py")
            _load("keyscan", FIRMWARE_DIR / "keyscan.py")
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
