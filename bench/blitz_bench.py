"""The computer on a clock: blitz games of every level against itself, and whether it flags.

Why: with a game clock (issue 24) the computer must never lose on time, at
any level, down to one minute and a one-second increment. Each side is a real
`host.computer.opponent.Opponent` (a worker process, as in play) given its clock
(`engine.search.levels.Clock`) at every turn; the clock is charged the wall
time from `start()` to the answer in this process (worker, pipes and all),
then credited the increment, as the board's clock charges a move. A game
ends by the rules, by a flag (time left at or below zero: the failure this
measures), or unfinished after `MAX_PLIES` (then only the clocks count).
Nothing is spent carrying moves out (overhead 0): the hands' time is the
clock's to charge, and the computer plans for it when told (`overhead_ms`).
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field

from engine import Game, get_variant
from engine.search.levels import LEVELS, Clock
from host.computer.opponent import Opponent

MAX_PLIES = 160
GAMES = 20
CONTROL = (60_000, 1_000)  # 1+1: one minute, one second a move


@dataclass
class BlitzGame:
    level: int
    plies: int = 0
    flagged: str | None = None  # the side whose time ran out
    result: str = "*"
    least_left_ms: float = float("inf")  # the lowest either clock fell to after a move
    thinks: list[float] = field(default_factory=list)  # seconds per move, both sides


def play(level: int, control: tuple[float, float] = CONTROL, *, variant: str = "brazilian",
         seed: int = 1, max_plies: int = MAX_PLIES, backend: str = "process") -> BlitzGame:
    """One game of `level` against itself on a `control` (ms, ms) clock."""
    base, increment = control
    game = Game(get_variant(variant))
    left = {"W": float(base), "B": float(base)}
    record = BlitzGame(level)
    with Opponent(backend, seed=seed) as white, Opponent(backend, seed=seed + 1) as black:
        players = {"W": white, "B": black}
        for opponent in players.values():
            opponent.prepare(game.variant)
            opponent.wait_ready(game.variant, timeout=60)
        while game.outcome() is None and game.ply < max_plies:
            side = game.turn
            asked = time.monotonic()
            job = players[side].start(game, level, clock=Clock(left[side], increment))
            computer = job.result(timeout=120)
            spent = time.monotonic() - asked
            assert computer is not None
            record.thinks.append(spent)
            left[side] -= 1000 * spent
            if left[side] <= 0:
                record.flagged = side
                break
            left[side] += increment
            record.least_left_ms = min(record.least_left_ms, left[side])
            game.push(computer.move)
    record.plies = game.ply
    outcome = game.outcome()
    if record.flagged is not None:
        record.result = "0-1" if record.flagged == "W" else "1-0"
    elif outcome is not None:
        record.result = outcome.result
    return record


def _row(level: int, games: list[BlitzGame]) -> str:
    thinks = [t for g in games for t in g.thinks]
    flags = sum(1 for g in games if g.flagged)
    finished = sum(1 for g in games if g.result != "*" and not g.flagged)
    least = min(g.least_left_ms for g in games) / 1000
    return (f"| {level} | {len(games)} | {flags} | {finished} | "
            f"{statistics.mean(g.plies for g in games):.0f} | {statistics.median(thinks):.2f} | "
            f"{max(thinks):.2f} | {least:.1f} |")


def run(quick: bool = False) -> str:
    games = 2 if quick else GAMES
    control = (15_000, 250) if quick else CONTROL
    rows = []
    for level in sorted(LEVELS):
        played = []
        for number in range(games):
            played.append(play(level, control, seed=1000 * level + number))
            print(f"[blitz] level {level} game {number + 1}: {played[-1].result} "
                  f"in {played[-1].plies} plies, flag {played[-1].flagged}",
                  file=sys.stderr, flush=True)
        rows.append(_row(level, played))
    minutes, seconds = control[0] / 60_000, control[1] / 1000
    return "\n".join([
        "## The computer on a clock: blitz against itself",
        "",
        f"Module `bench/blitz_bench.py` (this section alone: `python -m bench --only blitz`). "
        f"Brazilian, {games} games per level at {minutes:g}+{seconds:g} ({minutes:g} min, "
        f"{seconds:g} s increment), each side a real worker process given its clock every "
        "turn (`engine.search.levels.time_for_move`); a move is charged the wall time from "
        "`Opponent.start` to its answer. Games stop by the rules, a flag, or unfinished after "
        f"{MAX_PLIES} plies. Target: no flag, at any level.",
        "",
        "| level | games | flags | finished by the rules | mean plies | median s/move | "
        "longest move s | least time left s |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *rows,
        "",
    ])


if __name__ == "__main__":
    print(run(quick=True))
