"""Two things the computer player works out beside its search: its clock, and its answer to
a draw offer once its search has scored the position.

Why apart from host/computer/player.py: neither needs the search's bookkeeping
(what was asked, which answer is stale), only facts about the game; kept
here, they can be read and tested on their own.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from engine.search.api import Analysis
from engine.search.levels import Clock
from engine.search.offers import NO_WIN, OPENING, OPENING_MOVES, answer_draw_offer
from host.session import Session

#: carry-outs of its moves the computer remembers to plan its clock (their median counts)
HANDLING_KEPT = 5

#: the clock of a side: (time left, increment) in milliseconds, or None without one
ClockOf = Callable[[str], tuple[float, float] | None]


def no_clock(side: str) -> tuple[float, float] | None:
    return None


class ComputerClock:
    """The computer's clock as its search needs it: the time left and increment (from
    `clock_of`, set by whoever keeps the game's clocks) and what carrying its moves out
    costs (measured: from its move being lit to that move finished on the board)."""

    def __init__(self) -> None:
        self.clock_of: ClockOf = no_clock
        self._handling: list[float] = []
        self._lit_since: float | None = None

    def for_side(self, side: str) -> Clock | None:
        """The clock for the search about `side`'s move now, None without a clock."""
        clock = self.clock_of(side)
        if clock is None:
            return None
        left, increment = clock
        handling = statistics.median(self._handling) if self._handling else 0.0
        return Clock(max(0.0, left), max(0.0, increment), 1000 * handling)

    def lit(self, now: float) -> None:
        """Its move is lit for the hands from `now`."""
        self._lit_since = now

    def carried_out(self, finished: float) -> None:
        """Its lit move was finished on the board at `finished`."""
        if self._lit_since is not None:
            took = max(0.0, finished - self._lit_since)
            self._handling = [*self._handling, took][-HANDLING_KEPT:]
        self._lit_since = None

    @property
    def waiting(self) -> bool:
        """Whether a lit move of the computer's waits to be carried out."""
        return self._lit_since is not None


def answer_offer(session: Session, computer: str, analysis: Analysis | None,
                 now: float) -> bool:
    """Say the computer's answer to a draw offer, playing `computer`, from its search's
    `analysis` of the position as it stands (scores from the side to move's view), and
    end the game if it accepts; True if it did. Without an analysis (in the opening, or a
    search that failed) it answers by the rules that need none, and declines otherwise."""
    game = session.game
    if analysis is None:
        score = 0
    else:
        score = analysis.score if game.position.turn == computer else -analysis.score
    answer = answer_draw_offer(game, computer, score)
    if analysis is None and answer.reason not in (OPENING, NO_WIN):
        session.announcer.announce("computer-draw-declined")
        return False
    if answer.accept:
        session.announcer.announce("computer-draw-accepted")
        session.agree_draw(now)
        return True
    suffix = {"opening": "-opening", "better": "-better"}.get(answer.reason, "")
    session.announcer.announce(f"computer-draw-declined{suffix}", moves=OPENING_MOVES)
    return False
