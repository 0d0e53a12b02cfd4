"""Hardware latency: sensor change -> debounced snapshot, and frame -> pixels.

Measured on the machine running `make bench`, through the real `Board`,
debouncer, scanner and pixel-mapping code, over the mock backend and over the
GPIO backend with `hardware.fakes` standing in for RPi.GPIO and NeoPixel.
The debounce wait is a configured delay (scans x period), reported apart
from the processing cost so neither hides the other. On a Pi, RPi.GPIO calls
are C and the NeoPixel transfer adds about 30 us per LED on the wire; the
fakes here are Python, so the GPIO figures are an upper bound for the
scanner's own Python work, not a measurement of a Pi.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hardware.board import Board
from hardware.fakes import FakeGPIO, FakeNeoPixel
from hardware.gpio import GpioBackend
from hardware.layout import standard_layout
from hardware.mock import MockBoard

START = frozenset(range(1, 13)) | frozenset(range(21, 33))
FRAME = {14: (0, 255, 0), 15: (0, 255, 0), 18: (0, 255, 0), 22: (255, 160, 0), 9: (255, 0, 0)}


def _percentiles(samples_ns: list[int]) -> tuple[float, float]:
    ordered = sorted(samples_ns)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return p50 / 1000, p99 / 1000


def _sensor_latency(
    board: Board, toggle: Callable[[int, bool], None], iterations: int
) -> tuple[list[int], list[int]]:
    """Per change: total processing until the snapshot shows it, and the cost of one scan."""
    totals: list[int] = []
    scans: list[int] = []
    for _ in range(board.debouncer.agreeing_scans + 1):
        board.poll(now=0.0)
    for i in range(iterations):
        square = 17 + i % 4  # empty rank in the start position
        present = i % 8 < 4  # place on the first pass, lift on the second
        toggle(square, present)
        start = time.perf_counter_ns()
        while True:
            before = time.perf_counter_ns()
            snapshot = board.poll(now=0.0)
            scans.append(time.perf_counter_ns() - before)
            if (square in snapshot.occupied) == present:
                break
        totals.append(time.perf_counter_ns() - start)
    return totals, scans


def _frame_latency(board: Board, iterations: int) -> list[int]:
    samples = []
    for _ in range(iterations):
        start = time.perf_counter_ns()
        board.show(FRAME)
        samples.append(time.perf_counter_ns() - start)
    return samples


def _mock_board() -> tuple[Board, Callable[[int, bool], None]]:
    mock = MockBoard()
    mock.set_occupied(START)
    board = Board(mock, standard_layout(8))

    def toggle(square: int, present: bool) -> None:
        (mock.place if present else mock.lift)(square)

    return board, toggle


def _gpio_board() -> tuple[Board, Callable[[int, bool], None]]:
    layout = standard_layout(8)
    gpio = FakeGPIO(layout)
    gpio.set_squares(START)
    pixels = FakeNeoPixel("D10", layout.led_count, auto_write=False)
    board = Board(GpioBackend(layout, gpio=gpio, pixels=pixels, wait=gpio.wait), layout)

    def toggle(square: int, present: bool) -> None:
        (gpio.close_switch if present else gpio.open_switch)(square)

    return board, toggle


def run(iterations: int = 2000) -> str:
    """Measure and return a Markdown section for docs/BENCHMARKS.md."""
    rows = []
    settle_ms = None
    for name, make in (("mock", _mock_board), ("gpio over fakes", _gpio_board)):
        board, toggle = make()
        settle_ms = board.debouncer.settle_time * 1000
        totals, scans = _sensor_latency(board, toggle, iterations)
        frames = _frame_latency(board, iterations)
        board.close()
        for what, samples in (
            ("one scan + debounce update", scans),
            (f"change -> snapshot, processing ({board.debouncer.agreeing_scans} scans)", totals),
            ("frame -> pixels (`Board.show`, 5 lit squares)", frames),
        ):
            p50, p99 = _percentiles(samples)
            rows.append(f"| {name} | {what} | {p50:.1f} | {p99:.1f} |")
    lines = [
        "## Hardware layer latency",
        "",
        "Command: `make bench` (module `bench/hardware_bench.py`), "
        f"{iterations} changes and {iterations} frames per backend, 8x8 start position.",
        "",
        "| backend | path | p50 (us) | p99 (us) |",
        "| --- | --- | ---: | ---: |",
        *rows,
        "",
        f"Debounce wait, by configuration and not included above: {settle_ms:.0f} ms "
        "(2 agreeing scans, 10 ms apart) after the first scan that sees the change, plus up to "
        "one scan period (10 ms) until that scan: 10-20 ms from magnet to snapshot.",
        "The GPIO rows run the real scanner and pixel mapping over Python fakes of RPi.GPIO and "
        "NeoPixel; on a Pi the GPIO calls are C, and a WS2812 frame adds about 30 us per LED "
        "on the wire (about 1 ms for 32 LEDs).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
