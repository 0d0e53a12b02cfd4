"""The search's speed and the opponent's footprint: nodes per second, latency, memory.

Why these: strength in Python is bought with nodes, so nodes per second is the
search's first figure (per CPU second as well as per wall second, since this
machine is shared and a wall clock counts the others' work too). The
opponent must leave the board loop responsive and fit a 512 MB Raspberry Pi
Zero 2, so the poll loop's lateness is measured idle and while each backend
searches, the cancel latency of each, and the memory of the host and of the
worker process.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from bench.matches import openings, random_openings
from engine import Game, Position, get_variant
from engine.search import Searcher, SearchOptions, root_from_position
from host.opponent import Opponent

VARIANTS = ("brazilian", "international", "russian", "english", "portuguese")
PI_SLOWDOWN = 10  # a Raspberry Pi Zero 2 core against this machine's, roughly (engine bench)
TICK = 0.010  # host.live scans the board every scan_period, 10 ms by default


def _positions(variant_name: str) -> list[tuple[str, Position]]:
    variant = get_variant(variant_name)
    if variant_name in ("brazilian", "russian"):
        middle = openings(variant_name, 1, seed=5)[0]
    else:
        middle = random_openings(variant_name, 1, 8, seed=5)[0]
    return [("start", variant.initial_position()), (f"after {middle[0]}", middle[1])]


def nodes_per_second(seconds: float) -> list[str]:
    rows = []
    for name in VARIANTS:
        for label, position in _positions(name):
            searcher = Searcher(position.variant)
            cpu = time.process_time()
            result = searcher.search(root_from_position(position),
                                     SearchOptions(time_limit=seconds))
            cpu = time.process_time() - cpu
            wall_rate = result.nodes / result.elapsed
            cpu_rate = result.nodes / cpu if cpu else 0.0
            rows.append(f"| {name} | {label} | {result.depth} | {result.nodes:,} | "
                        f"{result.elapsed:.2f} | {cpu:.2f} | {wall_rate:,.0f} | {cpu_rate:,.0f} | "
                        f"{cpu_rate / PI_SLOWDOWN:,.0f} |")
    return rows


def _rss_kib(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _lateness(seconds: float) -> list[float]:
    """A stand-in for the board loop: sleep one tick, do a little rules work, note how
    late each wake-up was (ms)."""
    variant = get_variant("brazilian")
    position = variant.initial_position()
    late: list[float] = []
    end = time.perf_counter() + seconds
    expected = time.perf_counter() + TICK
    while expected < end:
        time.sleep(max(0.0, expected - time.perf_counter()))
        late.append((time.perf_counter() - expected) * 1000)
        Position(variant, position.white, position.black, position.kings, "W").legal_moves()
        expected += TICK
    return late


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def responsiveness(seconds: float, cancels: int) -> tuple[list[str], list[str], list[str]]:
    game = Game(get_variant("brazilian"))
    latency_rows = []
    idle = _lateness(seconds)
    latency_rows.append(_latency_row("no search", idle))
    cancel_rows = []
    memory_rows = []
    for backend in ("thread", "process"):
        host_before = _rss_kib()
        started = time.perf_counter()
        with Opponent(backend, seed=1) as opponent:
            job = opponent.start(game, 4)
            job.wait_started(60)
            ready = time.perf_counter() - started
            late = _lateness(seconds)  # here, while the search runs in its thread or process
            job.result(timeout=60)
            latency_rows.append(_latency_row(f"{backend} backend searching (level 4)", late))
            delays = []
            for _ in range(cancels):
                job = opponent.start(game, 4)
                job.wait_started(60)
                time.sleep(0.1)
                began = time.perf_counter()
                job.cancel()
                job.wait_stopped(5)
                delays.append((time.perf_counter() - began) * 1000)
            cancel_rows.append(f"| {backend} | {cancels} | {statistics.median(delays):.1f} | "
                               f"{max(delays):.1f} | {ready:.2f} |")
            worker = "-"
            if backend == "process":
                for variant_name in ("brazilian", "international"):
                    opponent.start(Game(get_variant(variant_name)), 4).result(timeout=60)
                worker = f"{_rss_kib(opponent.backend.pid) / 1024:.1f}"
            memory_rows.append(f"| {backend} | {host_before / 1024:.1f} | "
                               f"{_rss_kib() / 1024:.1f} | {worker} |")
    return latency_rows, cancel_rows, memory_rows


def _latency_row(label: str, late: list[float]) -> str:
    return (f"| {label} | {len(late)} | {statistics.median(late):.2f} | "
            f"{_percentile(late, 0.99):.2f} | {max(late):.2f} |")


def run(quick: bool = False) -> str:
    seconds = 0.5 if quick else 3.0
    speed = nodes_per_second(seconds)
    latency, cancel, memory = responsiveness(2.0 if quick else 6.0, 3 if quick else 10)
    return "\n".join([
        "## Search: speed and the opponent's footprint",
        "",
        "Module `bench/search_bench.py`. The machine is shared: wall-clock rates count other "
        "people's work, so nodes per CPU second (`time.process_time`) are given too, and the "
        "Pi Zero 2 column divides those by "
        f"{PI_SLOWDOWN} (see the engine section's estimate).",
        "",
        f"### Nodes per second ({seconds:g} s per position, `Searcher.search`)",
        "",
        "| variant | position | depth | nodes | wall s | CPU s | nodes/s (wall) | "
        "nodes/CPU s | Pi Zero 2 estimate |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *speed,
        "",
        "### Board loop while the opponent thinks",
        "",
        f"A {TICK * 1000:.0f} ms poll loop (as `host.live`'s board scan) doing a legal-move "
        "call per tick; lateness of each wake-up in ms. The thread backend shares the "
        "interpreter lock with the loop; the process backend does not.",
        "",
        "| while | ticks | p50 | p99 | max |",
        "| --- | ---: | ---: | ---: | ---: |",
        *latency,
        "",
        "Cancel: from `job.cancel()` until the worker has let go of the search (the job "
        "itself resolves at once); ready: from `Opponent()` to the first search begun "
        "(the process starts an interpreter and imports the engine).",
        "",
        "| backend | cancels | median ms | max ms | ready s |",
        "| --- | ---: | ---: | ---: | ---: |",
        *cancel,
        "",
        "Memory (resident MB): this process before the opponent starts and after its "
        "searches, and the worker process after level-4 searches in Brazilian and "
        "International (its table: 2^16 slots).",
        "",
        "| backend | host before | host after | worker |",
        "| --- | ---: | ---: | ---: |",
        *memory,
        "",
    ])


if __name__ == "__main__":
    print(run(quick=True))
