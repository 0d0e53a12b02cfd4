"""When the computer accepts a draw offer, and why it declines one.

Why rules and not "always" or "never": a person who offers a draw to a
computer expects what a fair opponent does: take the draw when it stands
worse or when nothing is left to play for, and play on otherwise. The
rules, in this order (docs/play.md, "Draw offers"):

1. In the opening, the first `OPENING_MOVES` moves of each side
   (`2 * OPENING_MOVES` plies) of a game begun from the variant's starting
   position, it declines: the game has hardly begun, opening theory still
   runs, and a draw then would end every game before it is played. A game
   set up from another position (a problem, an ending to practise) has no
   opening.
2. It accepts when neither side can win by material (`timing.material_draw`:
   king against king, a lone king against two pieces with flying kings).
3. It accepts when its search says it stands worse by `WORSE_BY` centi-men
   or more (a man down, or a position worth as little), or is lost.
4. It accepts a dead-level ending: at most a quarter of the pieces a game
   of the variant begins with are left (6 on an 8x8 board, 10 on 10x10) and its search scores
   the position within `LEVEL_WITHIN` centi-men of equal.
5. Otherwise it declines: it stands better (by `WORSE_BY` or more), or
   the position is not worse for it and there is still a game to play.

`score` is the computer's search score from its own side (centi-men; a forced
result is +-(MATE - plies)), made by the caller, as the computer's worker
searches off the board's loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.game import Game
from engine.search.timing import material_draw
from engine.variant import BLACK, WHITE

OPENING_MOVES = 15
WORSE_BY = 100  # centi-men: one man
LEVEL_WITHIN = 20  # centi-men
ENDING_SHARE = 4  # an ending: at most 1/ENDING_SHARE of the pieces the game began with

# the reasons, as the host's messages name them
OPENING = "opening"
NO_WIN = "no-win"
WORSE = "worse"
DEAD_LEVEL = "dead-level"
BETTER = "better"
NOT_WORSE = "not-worse"


@dataclass(frozen=True)
class DrawAnswer:
    accept: bool
    reason: str  # one of the reasons above


def in_opening(game: Game) -> bool:
    """Whether `game` is still in its opening (rule 1)."""
    return game.ply < 2 * OPENING_MOVES and game.positions[0] == game.variant.initial_position()


def answer_draw_offer(game: Game, computer: str, score: int) -> DrawAnswer:
    """Whether the computer, playing `computer` ("W" or "B") in `game` and scoring the
    position `score` from its side, accepts a draw offered now, and why."""
    if computer not in (WHITE, BLACK):
        raise EngineError(f"the computer plays W or B, not {computer!r:.20}")
    if isinstance(score, bool) or not isinstance(score, int):
        raise EngineError(f"a score is a whole number of centi-men, not {score!r:.20}")
    position = game.position
    full = game.variant.initial_position()
    if in_opening(game):
        return DrawAnswer(False, OPENING)
    if material_draw(game.variant, position.white, position.black, position.kings):
        return DrawAnswer(True, NO_WIN)
    if score <= -WORSE_BY:
        return DrawAnswer(True, WORSE)
    pieces = (position.white | position.black).bit_count()
    if (pieces * ENDING_SHARE <= (full.white | full.black).bit_count()
            and abs(score) <= LEVEL_WITHIN):
        return DrawAnswer(True, DEAD_LEVEL)
    return DrawAnswer(False, BETTER if score >= WORSE_BY else NOT_WORSE)
