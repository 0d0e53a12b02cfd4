"""Benchmark of physical play: snapshot-to-LED-frame latency and replay throughput.

Why these two: latency is what a player feels (a lifted piece must light its
destinations at once; target under 5 ms p99), throughput bounds how many
recorded games the soak and bug reports can replay.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from engine import Game, get_variant
from host.recognition.recogniser import Recogniser
from host.streams.replay import replay

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "host"))
from humanise import humanise, random_game  # noqa: E402


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _snapshot_ms(rec: Recogniser, now: float, occupied: frozenset[int] | None) -> float:
    """One snapshot (a change, or None: a deadline with the board as it is) through the
    recogniser to its LED roles, in milliseconds."""
    start = time.perf_counter()
    if occupied is None:
        rec.tick(now)
    else:
        rec.observe(now, occupied)
    _ = rec.hint.roles
    return (time.perf_counter() - start) * 1000


def latency(variant_name: str, games: int = 20) -> tuple[float, float, int]:
    """Time for one snapshot to its hint frame (ms), p50 and p99, over noisy games.

    Time runs as on the board: each change is observed at its time, and before the
    next change the recogniser is ticked at every deadline it names (a settled board:
    maybe a commit and a new turn), never back in time.
    """
    variant = get_variant(variant_name)
    samples: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        played = random_game(variant, rng, max_plies=80)
        events, _ = humanise(variant, list(played.moves), rng)
        rec = Recogniser(Game(variant))
        occupied = rec.expected
        for n, event in enumerate(events):
            square = event.get("lift", event.get("place"))
            occupied = occupied - {square} if "lift" in event else occupied | {square}
            now = int(event["t"]) / 1000
            samples.append(_snapshot_ms(rec, now, occupied))
            upto = int(events[n + 1]["t"]) / 1000 if n + 1 < len(events) else now + 10.0
            while (due := rec.next_deadline()) is not None and now < due < upto:
                now = due
                samples.append(_snapshot_ms(rec, now, None))
    return _percentile(samples, 0.5), _percentile(samples, 0.99), len(samples)


def throughput(variant_name: str, games: int = 20) -> tuple[float, float]:
    """Replayed events per second and committed moves per second (simulated clock)."""
    variant = get_variant(variant_name)
    streams = []
    for seed in range(games):
        rng = random.Random(1000 + seed)
        played = random_game(variant, rng, max_plies=80)
        events, _ = humanise(variant, list(played.moves), rng)
        streams.append([json.dumps(e) for e in events])
    count = moves = 0
    start = time.perf_counter()
    for lines in streams:
        out: list[dict] = []
        replay(variant, lines, out.append)
        count += len(lines)
        moves += sum(1 for r in out if "move" in r)
    elapsed = time.perf_counter() - start
    return count / elapsed, moves / elapsed


def run() -> str:
    rows = []
    for name in ("brazilian", "international", "russian"):
        p50, p99, n = latency(name)
        events_s, moves_s = throughput(name)
        rows.append(
            f"| {name} | {n} | {p50:.3f} | {p99:.3f} | {events_s:,.0f} | {moves_s:,.0f} |"
        )
    return "\n".join(
        [
            "## Physical play: recognition latency and replay throughput",
            "",
            "Command: `make bench` (this section: `bench/play_bench.py`). Latency is one",
            "snapshot through the recogniser to its LED roles (target: p99 under 5 ms),",
            "time running forward as on the board: each change of a noisy game, then each",
            "deadline the recogniser names before the next change; throughput replays noisy",
            "simulated games on the simulated clock (10 ms ticks).",
            "",
            "| variant | snapshots | latency p50 (ms) | latency p99 (ms) | events/s | moves/s |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
