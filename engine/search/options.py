"""What a search is asked to do, checked before it starts: depth, time, nodes, weaknesses.

Why checked here: a limit that makes no sense (a NaN time, a depth of 0 or
-1 or 1.5, an infinite time) used to search forever, silently to another
depth, or not at all. Every entry to the search (`analyse`, `Searcher.search`,
the levels, the command line) goes through `SearchOptions`, so one place
refuses them, with an `EngineError` saying which limit and what is allowed.

Limits: a depth is a whole number from 1 to `MAX_DEPTH`; a time is a finite
number of seconds above 0 and at most `MAX_SECONDS` (an hour: more is no
limit at all for a game, and pure Python gains little from it); a node
limit is a whole number from 1. `deadline` is a moment on the searcher's
clock (for the computer's worker, `time.monotonic()`) that the search never
passes, whatever its budget says: a game clock's hard stop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import EngineError

MAX_DEPTH = 64  # plies; the line may go deeper through captures and forced moves
MAX_SECONDS = 3600.0
THREAT_PLIES = 1  # extra plies a quiet leaf under a capture threat may get, per line


def check_depth(value: object, what: str = "a search depth") -> int:
    """`value` as a depth from 1 to MAX_DEPTH; EngineError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(f"{what} is a whole number of plies from 1 to {MAX_DEPTH}, "
                          f"not {_what(value)}")
    if not 1 <= value <= MAX_DEPTH:
        shown = value if -10**6 < value < 10**6 else "that large"
        raise EngineError(f"{what} runs from 1 to {MAX_DEPTH} plies, not {shown}")
    return value


def check_seconds(value: object, what: str = "a search time") -> float:
    """`value` as a time in seconds, above 0 and at most MAX_SECONDS; EngineError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EngineError(f"{what} is a number of seconds, not {_what(value)}")
    if isinstance(value, int) and not -10**6 < value < 10**6:
        raise EngineError(f"{what} must be above 0 and at most {MAX_SECONDS:g} seconds, "
                          "not that large")
    seconds = float(value)
    if math.isnan(seconds):
        raise EngineError(f"{what} must be a number of seconds, not NaN")
    if not 0 < seconds <= MAX_SECONDS:
        raise EngineError(f"{what} must be above 0 and at most {MAX_SECONDS:g} seconds, "
                          f"not {_number(seconds)}")
    return seconds


def _what(value: object) -> str:
    """How a message names a value of the wrong kind: text quoted, else its type."""
    return repr(value[:20]) if isinstance(value, str) else type(value).__name__


def _number(seconds: float) -> str:
    return "infinite" if math.isinf(seconds) else f"{seconds:g}"


def _whole(value: object, what: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise EngineError(f"{what} is a whole number from {least}, not {value!r:.40}")


@dataclass
class SearchOptions:
    """Limits and deliberate weaknesses (see `levels.py`); None = no limit.

    Checked when made and again when a search starts (the fields may be set
    in between): `EngineError` for a limit outside the ranges above.
    """

    max_depth: int = MAX_DEPTH
    time_limit: float | None = None  # seconds from the search's start: its budget
    node_limit: int | None = None
    quiescence_plies: int | None = None  # captures seen beyond the horizon; None = all
    reductions: bool = True  # late-move reductions
    reply_at_once: bool = False  # a single legal move at the root is returned unsearched
    margin: int = 0  # score every root move within `margin` of the best (for levels)
    # Selective parts, switched off only by the tests that compare the search with a
    # plain minimax: forced (single) moves cost no depth; a quiet leaf under a capture
    # threat gets `threat_plies` more plies.
    extensions: bool = True
    threat_plies: int = THREAT_PLIES
    # A moment on the searcher's clock never passed, not even by the first iteration
    # (which the budget lets finish): a game clock's hard stop. None: no such moment.
    deadline: float | None = None
    # Stop before the budget in a settled position (engine/search/timing.py): what a
    # player does with his clock; off for analysis, which is asked for a time.
    save_time: bool = False

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """EngineError naming the first limit out of range."""
        check_depth(self.max_depth, "max_depth")
        if self.time_limit is not None:
            self.time_limit = check_seconds(self.time_limit, "time_limit")
        if self.node_limit is not None:
            _whole(self.node_limit, "node_limit", 1)
        if self.quiescence_plies is not None:
            _whole(self.quiescence_plies, "quiescence_plies", 0)
        _whole(self.margin, "margin", 0)
        _whole(self.threat_plies, "threat_plies", 0)
        if self.deadline is not None and (
                isinstance(self.deadline, bool) or not isinstance(self.deadline, int | float)
                or not math.isfinite(self.deadline)):
            raise EngineError(f"deadline is a finite time on the search's clock, "
                              f"not {self.deadline!r:.40}")
