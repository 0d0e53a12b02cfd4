"""The board's clock with the computer on both sides: does it ever lose on time?

Why beside `blitz_bench`: that section charges the search's own time; this one plays
through everything the board runs (the session with its recogniser and the board's
clock, the computer player and its worker process), and charges each move as the
board does, from the end of the opponent's move to the end of this one, the hands'
time to carry the computer's move out included (a blitz player's measured timings:
reaction, reach, the piece carried, each captured piece taken off; skipped on a
virtual clock, so a game costs only its thinking: tests/host/blitz.py). Target: no
flag at any level in 20 games at 1+1.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from engine.search.levels import LEVELS
from tests.host.blitz import HANDS, BlitzGame, play

GAMES = 20
CONTROL = "1+1"
MAX_PLIES = 160


def _row(level: int, games: list[BlitzGame]) -> str:
    flags = sum(1 for g in games if g.flagged)
    finished = sum(1 for g in games if g.result is not None and not g.flagged)
    least = min(g.least_left_ms for g in games) / 1000
    return (
        f"| {level} | {len(games)} | {flags} | {finished} | "
        f"{statistics.mean(g.plies for g in games):.0f} | {least:.1f} | "
        f"{statistics.median(g.seconds for g in games):.0f} |"
    )


def run(quick: bool = False) -> str:
    games = 2 if quick else GAMES
    max_plies = 40 if quick else MAX_PLIES
    rows = []
    with tempfile.TemporaryDirectory(prefix="clock-bench-") as folder:
        for level in sorted(LEVELS):
            played = []
            for number in range(games):
                game = play(level, CONTROL, seed=1000 * level + number, max_plies=max_plies,
                            backend="process", folder=Path(folder) / f"{level}-{number}")
                played.append(game)
                print(f"[clock] level {level} game {number + 1}: {game.result} ({game.reason}) "
                      f"in {game.plies} plies, least left {game.least_left_ms / 1000:.1f} s",
                      file=sys.stderr, flush=True)
            rows.append(_row(level, played))
    return "\n".join([
        "## The board's clock: the computer against itself through the board",
        "",
        f"Module `bench/clock_bench.py` (this section alone: `python -m bench --only clock`). "
        f"Brazilian, {games} games per level at {CONTROL} on the board's clock: the session, "
        "its recogniser and clock, the computer player with its worker process on both sides; "
        f"simulated hands carry each move out in {HANDS[0]:.2f} to {HANDS[1]:.2f} s, and "
        "each captured piece taken off, at a blitz player's measured pace "
        "(tests/host/hands/timing.py, HUMAN): charged to the mover, as on a real board; the "
        "computer measures it and plans for it. A game ends "
        f"by the rules, a flag, or unfinished after {max_plies} plies. Target: no flag.",
        "",
        "| level | games | flags | finished by the rules | mean plies | least time left s | "
        "median s a game (thinking) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *rows,
        "",
    ])


if __name__ == "__main__":
    print(run(quick=True))
