"""The levels' strength, measured: matches between levels, against a random mover and dame-rs.

Why matches: a level is only as strong as the games it wins. Each level plays
the one below it and a random mover, from named opening positions of the
shared books (`shared/corpus/openings/brazilian.json`, `russian.json`), each
start twice with colours swapped; level 4 plays level 1 over 40 Brazilian
games (the issue asks for a wide margin there). The peer is dame-rs, a Rust
engine for International draughts: level 4 at one second a move against it
at fixed depths (with the same second as a cap), to find the depth at which
dame-rs scores about as much as level 4.

Levels play with their own settings and time per move (wall clock), so on a
busy machine they see less than on an idle one: the figures are a floor.
`--quick` plays a handful of games at a tenth of the time, for smoke runs.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from bench.dame_peer import DamePlayer, load_dame
from bench.matches import (
    DECISIVE,
    LEAD_PLIES,
    MAX_PLIES,
    LevelPlayer,
    Player,
    RandomPlayer,
    Score,
    match,
    openings,
    random_openings,
)
from engine.search.levels import LEVELS, get_level

DAME_DEPTHS = (1, 2, 4, 6, 8)


@dataclass(frozen=True)
class Pairing:
    variant: str
    first: int  # level number
    second: int | None  # level number, None for the random mover
    starts: int  # each played with both colours


FULL = (
    Pairing("brazilian", 4, 1, 20),
    Pairing("brazilian", 2, 1, 6),
    Pairing("brazilian", 3, 2, 6),
    Pairing("brazilian", 4, 3, 5),
    Pairing("brazilian", 1, None, 4),
    Pairing("brazilian", 2, None, 4),
    Pairing("brazilian", 3, None, 3),
    Pairing("brazilian", 4, None, 3),
    Pairing("russian", 2, 1, 4),
    Pairing("russian", 3, 2, 4),
    Pairing("russian", 4, 3, 3),
    Pairing("russian", 1, None, 3),
    Pairing("russian", 4, None, 2),
)
QUICK = (
    Pairing("brazilian", 4, 1, 1),
    Pairing("brazilian", 2, 1, 1),
    Pairing("brazilian", 1, None, 1),
    Pairing("russian", 3, 2, 1),
)


def _progress(line: str) -> None:
    print(f"[strength] {line}", file=sys.stderr, flush=True)


def _player(number: int | None, time_scale: float) -> Player:
    if number is None:
        return RandomPlayer()
    level = get_level(number)
    return LevelPlayer(level, level.move_time * time_scale)


def _row(label: str, variant: str, score: Score) -> str:
    plies = sum(score.plies) / len(score.plies) if score.plies else 0
    return (f"| {label} | {variant} | {score.games} | {score.wins} | {score.draws} | "
            f"{score.losses} | {score.percent():.0f}% | {score.adjudicated} | {plies:.0f} |")


def level_matches(pairings: tuple[Pairing, ...], time_scale: float) -> tuple[list[str], str]:
    rows = []
    level4_nodes = level4_seconds = 0.0
    for index, pairing in enumerate(pairings):
        starts = openings(pairing.variant, pairing.starts, seed=100 + index)
        first = _player(pairing.first, time_scale)
        second = _player(pairing.second, time_scale)
        begun = time.perf_counter()
        score = match(starts, first, second, seed=1000 * index, progress=_progress)
        _progress(f"{first.name} v {second.name} ({pairing.variant}): {score.wins}-"
                  f"{score.draws}-{score.losses} in {time.perf_counter() - begun:.0f} s")
        rows.append(_row(f"{first.name} v {second.name}", pairing.variant, score))
        for player in (first, second):
            if isinstance(player, LevelPlayer) and player.level.number == 4:
                level4_nodes += player.nodes
                level4_seconds += player.elapsed
    rate = (f"Level 4 searched {level4_nodes:,.0f} nodes in {level4_seconds:,.0f} s of its "
            f"moves in these games: {level4_nodes / level4_seconds:,.0f} nodes/s (wall clock)."
            if level4_seconds else "")
    return rows, rate


def dame_matches(starts_count: int, seconds: float, depths: tuple[int, ...]
                 ) -> tuple[list[str], str]:
    dame = load_dame()
    if dame is None:
        return [], ("dame-rs is not installed in this environment (`make bench` installs it "
                    "in `.venv-bench`): no peer games.")
    starts = random_openings("international", starts_count, 4, seed=7)
    rows = []
    level4 = get_level(4)
    scores: list[tuple[int, float]] = []
    for depth in depths:
        ours = LevelPlayer(level4, seconds)
        theirs = DamePlayer(dame, depth, seconds)
        score = match(starts, ours, theirs, seed=depth, progress=_progress)
        scores.append((depth, score.percent()))
        rows.append(_row(f"level 4 ({seconds:g} s/move) v dame-rs depth {depth}",
                         "international", score))
    return rows, _equal_depth(scores, dame.__version__)


def _equal_depth(scores: list[tuple[int, float]], version: str) -> str:
    """The dame-rs depth at which level 4 scores about half the points."""
    text = f"dame-rs {version}. "
    for (low, low_score), (high, high_score) in zip(scores, scores[1:], strict=False):
        if low_score >= 50 >= high_score:
            return text + (f"Level 4 scores {low_score:.0f}% against depth {low} and "
                           f"{high_score:.0f}% against depth {high}: dame-rs scores about as "
                           f"much as level 4 between depths {low} and {high}.")
    if scores and scores[0][1] < 50:
        return text + f"Level 4 scores under half even against depth {scores[0][0]}."
    if scores:
        return text + (f"Level 4 scores at least half against every depth tried "
                       f"(up to {scores[-1][0]}).")
    return text


def run(quick: bool = False) -> str:
    scale = 0.1 if quick else 1.0
    rows, rate = level_matches(QUICK if quick else FULL, scale)
    dame_rows, dame_text = dame_matches(1 if quick else 3, 0.1 if quick else 1.0,
                                        (1, 2) if quick else DAME_DEPTHS)
    levels = ", ".join(
        f"{n} ({level.name}: depth {level.max_depth if level.max_depth < 64 else 'any'}, "
        f"{level.move_time * scale:g} s/move, margin {level.margin})"
        for n, level in LEVELS.items())
    return "\n".join([
        "## Strength of the levels",
        "",
        "Module `bench/strength_bench.py`. Scores are the first player's, in wins, draws "
        "and losses; every opening position is played twice, colours swapped. Openings: "
        "named positions drawn with a fixed seed from `shared/corpus/openings/` "
        "(Brazilian book for Brazilian, Russian book for Russian); for the dame-rs games, "
        "four random plies from the International start. Adjudication: a game still on at "
        f"{MAX_PLIES} plies, or where one side has led by {DECISIVE} centi-men or more for "
        f"{LEAD_PLIES} plies running, goes to the side ahead on material (a draw if neither "
        "leads by that much); the rest end by the rules.",
        "",
        f"Levels: {levels}.",
        "",
        "| pairing | variant | games | W | D | L | score | adjudicated | mean plies |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *rows,
        *dame_rows,
        "",
        rate,
        "",
        dame_text,
        "",
    ])


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
