"""Levels 1 to 4, the time each move may take, and the weaker levels' mistakes.

Why levels are built this way: a beginner does not play random moves; he sees
little ahead, misses where a long capture leaves his pieces, and picks a
move that looks about as good as the best. So the lower levels search
shallower (`max_depth`), stop following captures after a few plies
(`quiescence_plies`: the end of a long exchange goes unseen), pay for forced
replies with depth like everything else (no extensions: a combination of
several sacrifices is out of sight) and choose among the moves whose score
is within `margin` centi-men of the best, the better ones more often. They
never pick a move their own search sees losing more than the margin.
Level 4 plays the best move it finds in its time.

Time: every level has a time per move; with a game clock the time is the
smaller of that and a share of the clock left (`think_time`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.search.searcher import MATE_BOUND, THREAT_PLIES, RawMove, RawResult, SearchOptions


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    max_depth: int
    move_time: float  # seconds per move, at most
    quiescence_plies: int | None  # capture plies followed past the horizon; None = all
    margin: int  # centi-men: moves this close to the best may be chosen instead
    # Seeing forced replies for free and looking one ply past a capture threat are what
    # make a search see combinations whole; the weaker levels do without.
    extensions: bool = True
    threat_plies: int = THREAT_PLIES

    def options(self, time_limit: float | None = None, reply_at_once: bool = True
                ) -> SearchOptions:
        return SearchOptions(
            max_depth=self.max_depth,
            time_limit=self.move_time if time_limit is None else time_limit,
            quiescence_plies=self.quiescence_plies,
            reply_at_once=reply_at_once,
            margin=self.margin,
            extensions=self.extensions,
            threat_plies=self.threat_plies,
        )


LEVELS: dict[int, Level] = {
    # Sees its move and the capture it allows, no further: "can he take me there?"
    1: Level(1, "beginner", max_depth=1, move_time=0.5, quiescence_plies=1, margin=60,
             extensions=False, threat_plies=0),
    # Sees a two-for-one, misses combinations of several sacrifices.
    2: Level(2, "casual", max_depth=3, move_time=1.0, quiescence_plies=2, margin=30,
             extensions=False, threat_plies=0),
    3: Level(3, "club", max_depth=8, move_time=1.5, quiescence_plies=None, margin=10),
    4: Level(4, "strongest", max_depth=64, move_time=3.0, quiescence_plies=None, margin=0),
}
HINT = Level(0, "hint", max_depth=64, move_time=2.0, quiescence_plies=None, margin=0)


def get_level(number: int) -> Level:
    try:
        return LEVELS[number]
    except KeyError:
        raise ValueError(f"level {number} does not exist; choose 1 to {len(LEVELS)}") from None


@dataclass(frozen=True)
class Clock:
    """A game clock: seconds left for all the moves to come, plus an increment per move."""

    remaining: float
    increment: float = 0.0
    moves_to_go: int | None = None  # moves until the next time control, if any


def think_time(level: Level, clock: Clock | None = None) -> float:
    """Seconds the level may spend on this move: its own limit, or less on a clock.

    With a clock, a share of what is left (a fixed number of moves to go, or
    an estimate of 25 more moves), plus most of the increment, and never so
    much that less than a tenth of the clock would remain.
    """
    if clock is None:
        return level.move_time
    to_go = clock.moves_to_go or 25
    share = clock.remaining / max(to_go, 1) + 0.8 * clock.increment
    share = min(share, 0.9 * clock.remaining)
    return max(0.01, min(level.move_time, share))


def choose(result: RawResult, level: Level, rng: random.Random) -> RawMove | None:
    """The move the level plays: the best, or one of the near-best by its margin.

    Each move within `margin` of the best score gets a weight that falls
    linearly from 1 (the best) to 1/(margin+1) (the worst still allowed), so a
    weaker level usually plays well and sometimes settles for less. Mates and
    forced results are never traded away: a move is only an alternative when
    neither its score nor the best one is a forced result.
    """
    if result.best is None or level.margin <= 0 or len(result.root_scores) < 2:
        return result.best
    best_score = max(score for _, score in result.root_scores)
    if abs(best_score) > MATE_BOUND:
        return result.best
    allowed = [(move, score) for move, score in result.root_scores
               if best_score - score <= level.margin and abs(score) <= MATE_BOUND]
    if len(allowed) < 2:
        return result.best
    weights = [level.margin + 1 - (best_score - score) for _, score in allowed]
    return rng.choices([move for move, _ in allowed], weights=weights)[0]
