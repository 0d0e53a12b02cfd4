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

Time: every level has a time per move, and stops sooner in a settled
position (engine/search/timing.py: one sensible move, a dead-drawn ending, a
best move that no longer changes). On a game clock the time is the smaller
of that and a share of the clock (`time_for_move`, `hard_limit`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.errors import EngineError
from engine.search.options import THREAT_PLIES, SearchOptions
from engine.search.searcher import MATE_BOUND, RawMove, RawResult


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

    def options(self, time_limit: float | None = None, reply_at_once: bool = True,
                deadline: float | None = None, save_time: bool = True) -> SearchOptions:
        """The search this level makes: its depth and weaknesses, `time_limit` seconds
        (default its own `move_time`), stopping early in settled positions unless
        `save_time` is False, never past `deadline` (a time on the searcher's clock)."""
        return SearchOptions(
            max_depth=self.max_depth,
            time_limit=self.move_time if time_limit is None else time_limit,
            quiescence_plies=self.quiescence_plies,
            reply_at_once=reply_at_once,
            margin=self.margin,
            extensions=self.extensions,
            threat_plies=self.threat_plies,
            deadline=deadline,
            save_time=save_time,
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
    """Level `number` (1-4); EngineError for anything else."""
    if isinstance(number, bool) or not isinstance(number, int) or number not in LEVELS:
        shown = number if isinstance(number, int) and -1000 < number < 1000 else "that"
        raise EngineError(f"level {shown} does not exist; choose 1 to {len(LEVELS)}")
    return LEVELS[number]


# -- a game clock -------------------------------------------------------------------------
#
# How the time per move follows a clock (docs/play.md, "The computer on a clock"):
# the time left, less a reserve, is shared over the moves still expected, plus
# most of the increment, less what carrying the move out costs (the hands on a
# real board). The reserve keeps several increments in hand, so when the clock
# runs low each move spends less than its increment and the clock climbs back
# instead of running out. A level never thinks longer than its own time per
# move, so a strong level stays itself and a weak one stays quick.
EXPECTED_MOVES = 45  # moves a side plays in a game, for planning
MIN_MOVES_TO_GO = 15  # however long the game has gone, plan for at least these
INCREMENT_SHARE = 0.75  # of the increment, spent on the move it comes with
RESERVE_SHARE = 0.1  # of the time left, never planned for
RESERVE_INCREMENTS = 2  # nor less than this many increments
RESERVE_SECONDS = 1.0  # nor less than this
MOST_OF_LEFT = 0.25  # one move never takes more of what is left than this
HARD_SHARE = 0.5  # the hard stop: at most this share of what is left
MIN_THINK = 0.01  # seconds: a move is always looked at (the search's first iteration)
MIN_SECONDS = 0.001  # the least time a search is given (a time limit is above 0)


@dataclass(frozen=True)
class Clock:
    """The computer's clock as its turn begins: time left and increment in milliseconds,
    and what carrying a move out costs beyond the search (`overhead_ms`: on a real
    board, the person playing the computer's move while its clock runs)."""

    time_left_ms: float
    increment_ms: float = 0.0
    overhead_ms: float = 0.0

    def __post_init__(self) -> None:
        for name in ("time_left_ms", "increment_ms", "overhead_ms"):
            _milliseconds(getattr(self, name), name)


def _milliseconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            0 <= value < 10**10):  # NaN fails the comparison too
        raise EngineError(f"{what} is a number of milliseconds from 0, not {value!r:.40}")
    return float(value)


def time_for_move(time_left_ms: float, increment_ms: float, plies_played: int,
                  level: int | Level, overhead_ms: float = 0.0) -> float:
    """Seconds the computer at `level` may think about its move with `time_left_ms` on its
    clock, `increment_ms` added after each move and `plies_played` plies in the game.

    Never more than the level's own time per move, a quarter of what is left,
    or `hard_limit` (the search's hard stop); never less than a token look
    (`MIN_THINK`, or less when even that would not fit). EngineError for a time
    that is negative or not a number, a ply count that is not a whole number
    from 0, a level that does not exist.
    """
    left = _milliseconds(time_left_ms, "time_left_ms") / 1000
    increment = _milliseconds(increment_ms, "increment_ms") / 1000
    overhead = _milliseconds(overhead_ms, "overhead_ms") / 1000
    if isinstance(plies_played, bool) or not isinstance(plies_played, int) or plies_played < 0:
        raise EngineError(f"plies_played is a whole number from 0, not {plies_played!r:.40}")
    chosen = level if isinstance(level, Level) else get_level(level)
    available = left - overhead  # what is left once the move is carried out
    if available <= 0:  # the clock is (nearly) gone: play the first move looked at
        return max(MIN_SECONDS, min(MIN_THINK, left * MOST_OF_LEFT))
    to_go = max(MIN_MOVES_TO_GO, EXPECTED_MOVES - plies_played // 2)
    reserve = max(RESERVE_SHARE * left, RESERVE_INCREMENTS * increment, RESERVE_SECONDS)
    share = max(0.0, left - reserve) / to_go + INCREMENT_SHARE * increment - overhead
    share = min(share, chosen.move_time, MOST_OF_LEFT * available)
    if share < MIN_THINK:
        share = min(MIN_THINK, MOST_OF_LEFT * available)
    return max(MIN_SECONDS, share)


def hard_limit(time_left_ms: float, overhead_ms: float = 0.0) -> float:
    """Seconds after which the search stops whatever it is doing (its first iteration
    included): half of what is left once the move is carried out."""
    left = _milliseconds(time_left_ms, "time_left_ms") / 1000
    overhead = _milliseconds(overhead_ms, "overhead_ms") / 1000
    return max(0.0, HARD_SHARE * (left - overhead))


def think_time(level: Level, clock: Clock | None = None, plies_played: int = 0) -> float:
    """Seconds the level may spend on this move: its own time, or `time_for_move` on a
    clock."""
    if clock is None:
        return level.move_time
    return time_for_move(clock.time_left_ms, clock.increment_ms, plies_played, level,
                         clock.overhead_ms)


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
