"""Look-alikes for the USB board's tests: the firmware simulator and a scripted board.

`simulator` is firmware/simulator.py (fake CircuitPython modules running the
real code.py behind a pty), `fake` its firmware/fake_circuitpython.py and
`keyscan` firmware/keyscan.py, loaded by path because firmware/ is not a package.
`ScriptedBoard` is a pty whose device side the test writes by hand, for the
cases real firmware never produces (garbage, corruption, silence, other
protocol versions).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import select
import sys
import time
import tty
from pathlib import Path
from types import ModuleType

from hardware import wire

ROOT = Path(__file__).resolve().parents[3]
FIRMWARE = ROOT / "firmware"


def _simulator() -> ModuleType:
    name = "draughtsboard_firmware_simulator"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, FIRMWARE / "simulator.py")
        assert spec is not None and spec.loader is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


simulator = _simulator()
fake = simulator.fake  # firmware/fake_circuitpython.py


def _load(name: str, path: Path) -> ModuleType:
    """Load a firmware file by path once (firmware/ is not a package)."""
    return sys.modules[name] if name in sys.modules else simulator._load(name, path)


keyscan = _load("draughtsboard_firmware_keyscan", FIRMWARE / "keyscan.py")


def wait_until(predicate, timeout: float = 5.0, interval: float = 0.005) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


class ScriptedBoard:
    """The device end of a pty, driven by the test. The host opens `path`."""

    def __init__(self, link: Path) -> None:
        self.link = link
        self.encoder = wire.Encoder()
        self.decoder = wire.Decoder()
        self.received: list[wire.Message] = []
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        os.symlink(os.ttyname(self.slave), link)

    @property
    def path(self) -> str:
        return str(self.link)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.master, view)
            view = view[n:]

    def poll(self, timeout: float = 0.0) -> list[wire.Message]:
        """Read what the host sent so far; return the new messages."""
        new: list[wire.Message] = []
        while select.select([self.master], [], [], timeout)[0]:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                break
            new += self.decoder.feed(data)
            timeout = 0.0
        self.received += new
        return new

    def expect(self, kind: int, timeout: float = 3.0) -> wire.Message:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.poll(0.01):
                if message.kind == kind:
                    return message
        raise AssertionError(f"host sent no {wire.KIND_NAMES[kind]} within {timeout} s")

    def answer_query(self, rows=8, columns=4, leds=32, pressed=(), protocol=None) -> None:
        """Wait for the host's QUERY and answer like the firmware does."""
        self.expect(wire.QUERY)
        payload = wire.hello_payload(rows, columns, leds, (1, 0, 0), "scripted")
        if protocol is not None:
            payload = bytes((protocol,)) + payload[1:]
        self.write(self.encoder.encode(wire.HELLO, payload))
        self.write(self.encoder.occupancy(rows * columns, list(pressed)))

    def close(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
