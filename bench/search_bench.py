"""The search's speed and the opponent's footprint: nodes per second, latency, memory.

Why these: strength in Python is bought with nodes, so nodes per second is the
search's first figure (per CPU second as well as per wall second, since this
machine is shared and a wall clock counts the others' work too). The
opponent must leave the board loop responsive and fit a 512 MB Raspberry Pi
Zero 2, so the poll loop's lateness is measured idle and while each backend
searches, the cancel latency of each, and the memory of the host and of the
worker process. The first computer move is timed from the request to the
answer, with the worker started at that moment (cold) and started and
prepared with the game (warm, as `run` does), and the worker's memory is
followed across four variants (one table for all of them).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from bench.matches import openings, random_openings
from engine import Game, Position, get_variant
from engine.search import Searcher, SearchOptions, root_from_position
from engine.search.levels import LEVELS, get_level
from host.computer.backends import ProcessBackend
from host.computer.opponent import Opponent

FOUR_VARIANTS = ("brazilian", "international", "russian", "english")

VARIANTS = ("brazilian", "international", "russian", "english", "portuguese")
PI_SLOWDOWN = 10  # a Raspberry Pi Zero 2 core against this machine's, roughly (engine bench)
TICK = 0.010  # host.live.runtime scans the board every scan_period, 10 ms by default


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
                worker = f"{_rss_kib(_worker_pid(opponent)) / 1024:.1f}"
            memory_rows.append(f"| {backend} | {host_before / 1024:.1f} | "
                               f"{_rss_kib() / 1024:.1f} | {worker} |")
    return latency_rows, cancel_rows, memory_rows


def _latency_row(label: str, late: list[float]) -> str:
    return (f"| {label} | {len(late)} | {statistics.median(late):.2f} | "
            f"{_percentile(late, 0.99):.2f} | {max(late):.2f} |")


def first_moves(runs: int) -> list[str]:
    """The first move of a game at each level, from `start` to the answer: a worker
    started at that moment (cold), or started and prepared with the game (warm)."""
    rows = []
    game = Game(get_variant("brazilian"))
    for number in sorted(LEVELS):
        level = get_level(number)
        figures: dict[str, list[tuple[float, int, bool | None]]] = {"cold": [], "warm": []}
        for _ in range(runs):
            for kind in ("cold", "warm"):
                with Opponent("process", seed=1) as opponent:
                    if kind == "warm":
                        opponent.prepare(game.variant)
                        opponent.wait_ready(game.variant, timeout=60)
                    began = time.perf_counter()
                    job = opponent.start(game, number)
                    computer = job.result(timeout=60)
                    assert computer is not None
                    figures[kind].append((time.perf_counter() - began,
                                          computer.analysis.depth, job.warm))
        cells = []
        for kind in ("cold", "warm"):
            seconds = statistics.median(t for t, _, _ in figures[kind])
            depth = statistics.median(d for _, d, _ in figures[kind])
            cells.append(f"{seconds:.2f} | {depth:g}")
        warm = all(w for _, _, w in figures["warm"])
        rows.append(f"| {number} | {level.move_time:g} | {' | '.join(cells)} | "
                    f"{'yes' if warm else 'no'} |")
    return rows


def memory_across_variants() -> list[str]:
    """The worker's resident memory after level-4 searches in one variant after another."""
    rows = []
    with Opponent("process", seed=1) as opponent:
        for name in FOUR_VARIANTS:
            game = Game(get_variant(name))
            for _ in range(2):  # two moves' worth of table entries in each variant
                opponent.start(game, 4).result(timeout=60)
                game.push(game.legal_moves()[0])
            pid = _worker_pid(opponent)
            rows.append(f"| after {name} | {_rss_kib(pid) / 1024:.1f} | "
                        f"{_hwm_kib(pid) / 1024:.1f} |")
    return rows


def _worker_pid(opponent: Opponent) -> int:
    backend = opponent.backend
    assert isinstance(backend, ProcessBackend), "a worker process is measured"
    return backend.pid


def _hwm_kib(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def run(quick: bool = False) -> str:
    seconds = 0.5 if quick else 3.0
    speed = nodes_per_second(seconds)
    latency, cancel, memory = responsiveness(2.0 if quick else 6.0, 3 if quick else 10)
    first = first_moves(1 if quick else 3)
    variants = memory_across_variants()
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
        f"A {TICK * 1000:.0f} ms poll loop (as `host.live.runtime`'s board scan) "
        "doing a legal-move "
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
        "### The first computer move",
        "",
        "Brazilian, from the starting position, each level's first move timed from "
        "`Opponent.start` to its answer (median of "
        f"{1 if quick else 3}), with the worker process started at that moment (cold: "
        "what a computer playing White at power-on meets) and started and prepared with the "
        "game (warm: `ComputerPlayer` prepares it as soon as a game has a computer side). "
        "A move's time runs from the request, so a cold worker's start-up comes out of "
        "its search (less depth), not on top of the level's time. Warm: every first search "
        "reported that it started with its variant's search already built. Before this "
        "change the worker started at the computer's first turn and the move overran: "
        "level 4 took 3.7 s against 3 s, level 3 2.1 s against 1.5 s.",
        "",
        "| level | level's time s | cold s | cold depth | warm s | warm depth | "
        "warm start |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        *first,
        "",
        "### The worker's memory across variants",
        "",
        "One worker, two level-4 moves in each variant in turn (its table fills), resident "
        "and peak memory in MB after each. The worker keeps one table of 2^16 slots, "
        "cleared when the variant changes (before: one table per variant, 21 MB growing "
        "to 47 MB over four variants).",
        "",
        "| worker | resident MB | peak MB |",
        "| --- | ---: | ---: |",
        *variants,
        "",
    ])


if __name__ == "__main__":
    print(run(quick=True))
