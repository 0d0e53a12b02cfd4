"""USB serial link: how long a piece takes to reach the host, and a frame to reach the LEDs.

Runs the real firmware (firmware/code.py with look-alike CircuitPython
modules, see firmware/simulator.py) behind a real pseudo-terminal and the real
`SerialBackend` on the host side, so the figures cover the firmware loop, the
codec on both sides, the tty layer and the host's reader thread. They leave
out what only hardware adds: the key scanner's debounce (SCAN_INTERVAL x
DEBOUNCE_THRESHOLD = 20 ms with the shipped settings) and USB full-speed
polling (1 ms frames).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from hardware import wire
from hardware.layout import load_layout
from hardware.serial_link import SerialBackend

ROOT = Path(__file__).resolve().parent.parent
ITERATIONS = 300


def _simulator() -> ModuleType:
    name = "draughtsboard_firmware_simulator"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "firmware" / "simulator.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return p50 * 1000, p99 * 1000


def _key_latency(board, host, layout, n: int) -> list[float]:
    samples = []
    key = 13
    square = layout.square_of_sensor(key)
    for i in range(n):
        down = i % 2 == 0
        start = time.perf_counter()
        (board.place if down else board.lift)(key)
        while (square in host.scan()) != down:
            if time.perf_counter() - start > 2:
                raise RuntimeError("occupancy never reached the host")
            time.sleep(0.0001)  # poll without starving the firmware and reader threads
        samples.append(time.perf_counter() - start)
    return samples


def _draw_latency(board, host, layout, n: int) -> list[float]:
    samples = []
    led = layout.led_of_square(14)
    for i in range(n):
        colour = (i % 256, 255 - i % 256, 7)
        start = time.perf_counter()
        host.draw({14: colour})
        if not board.wait_shown(lambda shown, c=colour: shown[led] == c, timeout=2):
            raise RuntimeError("frame never reached the pixels")
        samples.append(time.perf_counter() - start)
    return samples


def _codec(n: int = 2000) -> tuple[float, float, float]:
    """Encode and decode rates in messages/s, and decode rate in MB/s, for a typical mix."""
    enc = wire.Encoder()
    colours = [(i, 2 * i, 3 * i) for i in range(32)]
    start = time.perf_counter()
    chunks = []
    for i in range(n):
        chunks.append(enc.occupancy(32, i * 2654435761 & 0xFFFFFFFF))
        chunks.append(enc.frame(80, colours))
    encode_time = time.perf_counter() - start
    data = b"".join(chunks)
    dec = wire.Decoder()
    start = time.perf_counter()
    got = 0
    for i in range(0, len(data), 512):
        got += len(dec.feed(data[i : i + 512]))
    decode_time = time.perf_counter() - start
    assert got == 2 * n
    return 2 * n / encode_time, 2 * n / decode_time, len(data) / decode_time / 1e6


def run() -> str:
    """Measure, and return a Markdown section for docs/BENCHMARKS.md."""
    sim = _simulator()
    layout = load_layout("standard-8x8")
    with tempfile.TemporaryDirectory() as tmp:
        board = sim.SimulatedBoard(Path(tmp) / "ttyBENCH", closed=range(12))
        board.plug()
        try:
            with SerialBackend(board.path, layout) as host:
                key = _key_latency(board, host, layout, ITERATIONS)
                draw = _draw_latency(board, host, layout, ITERATIONS)
        finally:
            board.unplug()
    enc_rate, dec_rate, dec_mb = _codec()
    k50, k99 = _percentiles(key)
    d50, d99 = _percentiles(draw)
    return "\n".join(
        [
            "## USB serial link (firmware on a pty)",
            "",
            "Command: `make bench`. The unmodified firmware/code.py runs on CPython with",
            "look-alike CircuitPython modules behind a real pseudo-terminal; the host side is",
            "the real `SerialBackend`. A real board adds its key debounce (20 ms with the",
            "shipped settings) and USB polling (about 1 ms).",
            "",
            "| Measure | p50 | p99 | Samples |",
            "|---|---|---|---|",
            f"| Key change on the board -> occupancy from `scan()` | {k50:.2f} ms "
            f"| {k99:.2f} ms | {len(key)} |",
            f"| `draw()` on the host -> pixels shown | {d50:.2f} ms | {d99:.2f} ms | {len(draw)} |",
            "",
            "| Codec (hardware/wire.py, CPython) | Rate |",
            "|---|---|",
            f"| Encode (OCCUPANCY + 32-LED FRAME mix) | {enc_rate:,.0f} messages/s |",
            f"| Decode, 512-byte chunks | {dec_rate:,.0f} messages/s ({dec_mb:.2f} MB/s) |",
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
