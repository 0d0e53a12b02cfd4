"""When a search may stop before its budget: the positions where more thought buys nothing.

Why: a level's time per move, or a clock's share, is an allowance, not a
quota. A player answers at once when there is one sensible move, and does
not think for minutes about a dead-drawn ending; the time saved is the
person's waiting and, on a clock, time kept for the moves that need it. Only
searches asked to (`SearchOptions.save_time`: the levels, not analysis) stop
early, and only after a complete iteration, so the move played is always
the best of a finished search. The reasons, checked in this order:

- `only-move`: a single legal move is played unsearched (the searcher's
  `reply_at_once`, before any of this).
- `forced-result`: a win or loss seen to its end (the searcher, for every
  search).
- `far-above`: from depth `FAR_ABOVE_DEPTH`, every other move, searched two
  plies shallower with a null window, scores at least `FAR_ABOVE_MARGIN`
  centi-men (one and a half men) below the best: a capture that wins
  material against ones that lose it, the only move that does not drop a
  piece. Whatever deeper search finds, the choice will not change.
- `dead-draw`: neither side can win by material (`endgame.draw_factor` says
  drawn: a lone king against one or two pieces with flying kings, king
  against king) and two iterations in a row scored within `DRAW_WINDOW` of
  0 from depth `DEAD_DRAW_DEPTH`: the search has checked that no piece is
  lost on the way.
- `stable`: the same best move for the last `STABLE_ITERATIONS` iterations,
  its score moving by at most `STABLE_SCORE`: the next iteration is started
  only if it is expected to end within the budget (it takes about `GROWTH`
  times the last). An unsettled search goes on to its budget, using a better
  move found by the unfinished iteration.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.search.endgame import DRAWN, draw_factor
from engine.variant import Variant

FAR_ABOVE_DEPTH = 6
FAR_ABOVE_MARGIN = 150  # centi-men
DEAD_DRAW_DEPTH = 4
DRAW_WINDOW = 5  # centi-men
STABLE_ITERATIONS = 4
STABLE_SCORE = 25  # centi-men
GROWTH = 2.5  # an iteration takes about this many times the one before

ONLY_MOVE = "only-move"
FORCED_RESULT = "forced-result"
FAR_ABOVE = "far-above"
DEAD_DRAW = "dead-draw"
STABLE = "stable"


def material_draw(variant: Variant, white: int, black: int, kings: int) -> bool:
    """Whether neither side can win with the material on the board (`endgame.py`)."""
    pieces = white | black
    if pieces.bit_count() > 5 or not kings:
        return False
    long_diagonal = variant.geometry.long_diagonal
    wk, bk = (white & kings).bit_count(), (black & kings).bit_count()
    wm, bm = white.bit_count() - wk, black.bit_count() - bk
    flying, size = variant.flying_kings, variant.size
    white_view = draw_factor(flying, size, wk, wm, bk, bm, bool(black & kings & long_diagonal))
    black_view = draw_factor(flying, size, bk, bm, wk, wm, bool(white & kings & long_diagonal))
    if white.bit_count() >= black.bit_count() and white_view != DRAWN:
        return False
    return not (black.bit_count() >= white.bit_count() and black_view != DRAWN)


@dataclass
class TimePlan:
    """The stopping rules above for one search, fed after each complete iteration."""

    budget: float | None  # seconds, None without a time limit
    drawn_material: bool
    bests: list[int] = field(default_factory=list)  # best move index per iteration
    scores: list[int] = field(default_factory=list)

    def settled(self, best: int, score: int, elapsed: float, last_iteration: float) -> str | None:
        """The reason to stop now (`DEAD_DRAW`, `STABLE`), or None to go on."""
        self.bests.append(best)
        self.scores.append(score)
        depth = len(self.bests)
        if (self.drawn_material and depth >= DEAD_DRAW_DEPTH
                and all(abs(s) <= DRAW_WINDOW for s in self.scores[-2:])):
            return DEAD_DRAW
        if self.budget is None or depth < STABLE_ITERATIONS:
            return None
        recent = self.scores[-STABLE_ITERATIONS:]
        stable = (len(set(self.bests[-STABLE_ITERATIONS:])) == 1
                  and max(recent) - min(recent) <= STABLE_SCORE)
        if stable and elapsed + GROWTH * last_iteration > self.budget:
            return STABLE
        return None

    def try_far_above(self, depth: int) -> bool:
        """Whether to check, after iteration `depth`, that one move stands far above."""
        return depth >= FAR_ABOVE_DEPTH
