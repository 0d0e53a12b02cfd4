"""The switch history: one record of what the switches showed and when.

Every scan that changed the board is one `Change` (the squares emptied and
filled, at one moment). The recogniser keeps the log; the stories it explains
carry the times of the changes they use, so no part of recognition has to search
the history. Bounded: only the last KEPT changes are kept.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

#: changes kept (the stories never look further back than their base)
KEPT = 256


@dataclass(frozen=True, slots=True)
class Change:
    time: float
    lifted: frozenset[int]
    placed: frozenset[int]


class ChangeLog:
    """The board as the switches show it, and the changes that made it."""

    def __init__(self, board: frozenset[int], start: float) -> None:
        self.board = board
        #: when the board last changed (or the log began)
        self.last = start
        self.changes: deque[Change] = deque(maxlen=KEPT)

    def record(self, now: float, board: frozenset[int]) -> Change | None:
        """The switches show `board` at `now`: the change, or None if nothing changed."""
        if board == self.board:
            return None
        change = Change(now, self.board - board, board - self.board)
        self.board = board
        self.last = now
        self.changes.append(change)
        return change

    def still_for(self, now: float) -> float:
        """How long the board has stayed as it is."""
        return now - self.last
