"""When a move was finished: the moment the clock stops charging its mover.

A move is finished at its mover's last action that belongs to it before the next
player's first action: the final landing of its piece, or the last of its captured
pieces taken off when that comes later. Not when the board could prove the move
(a settle time, a reply): proof is the board's business, never a player's time.

Read from the switch history alone (`ChangeLog`), after the fact, by one rule:

- the landing is the last time the move's end square was filled before the next
  player's first action; nothing the mover did before it matters. A landing after
  what looked like that first action counts when the board outside the move agrees
  again with the position after it (the piece rested elsewhere on its way, a touch
  was put back);
- after the landing, a captured square emptied is the mover finishing the move,
  until the next player's first action: a change on a square outside the move
  (its origin, the squares its piece passes, its end and its captured pieces) that
  makes the board differ from the position after the move and stays so for a
  settle time. A knock rocked back, a touch put back at once, a forgotten piece of
  an earlier move taken off, a piece held since before the landing put back, a
  piece shoved onto the next square (however long it stands there): none of these
  starts the next player's turn;
- a captured piece forgotten and taken off after the next player started does not
  count: the move was finished without it (one taken off in the same moment, a
  scan, as the next player's first change still does: the switches cannot order them).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Move, Variant
from host.recognition.hand_paths import neighbours, trajectory

#: one switch change: (time, square, put down?)
Change = tuple[float, int, bool]
#: the most changes kept (a board fiddled with for an hour without a move keeps the latest)
LIMIT = 4096


class ChangeLog:
    """The switch changes since the start of the earliest move that can still be read
    (the last move, which may go on, and the one underway), in order."""

    def __init__(self) -> None:
        self.changes: list[Change] = []

    def record(self, now: float, lifted: Iterable[int], placed: Iterable[int]) -> None:
        self.changes.extend((now, square, False) for square in sorted(lifted))
        self.changes.extend((now, square, True) for square in sorted(placed))
        if len(self.changes) > LIMIT:
            del self.changes[: len(self.changes) - LIMIT]

    def forget_before(self, when: float) -> None:
        """Drop the changes before `when` (no move that may still be read began earlier)."""
        keep = next((i for i, c in enumerate(self.changes) if c[0] >= when), len(self.changes))
        del self.changes[:keep]

    def finished(
        self,
        variant: Variant,
        move: Move,
        since: float,
        after: frozenset[int],
        *,
        settle: float,
        together: float,
        slide: float = 0.0,
    ) -> float:
        """When `move`, whose mover's time began at `since`, was finished; `after` is the
        board of the position after it; `settle`: how long a change must stay to be an
        action, `together`: changes this close are one moment, `slide`: a square filled
        this soon after its diagonal neighbour emptied holds that piece, shoved (a knock,
        no action of the next player's). Without a landing seen
        since `since` (the board showed the move's result when the game was resumed),
        the last change on the move's squares, else `since`."""
        own = trajectory(variant, move) | {move.origin, move.destination} | move.captures
        changes = [c for c in self.changes if c[0] >= since]
        landed: float | None = None
        started: float | None = None  # the next player's first action after the landing
        differs: set[int] = set()  # squares outside the move that disagree with `after`
        finish = since
        for index, (t, square, down) in enumerate(changes):
            if square not in own:
                (differs.add if (square in after) != down else differs.discard)(square)
            if square == move.destination and down:
                if started is None or not differs:
                    # The landing (again: what seemed a start was undone, the mover's
                    # piece resting elsewhere on its way, a touch put back).
                    landed = finish = t
                    started = None
            elif landed is None or started is not None:
                continue
            elif square in move.captures and not down:
                finish = t
            elif (
                square not in own
                and _starts(changes, index, after, settle)
                and not _shove(variant, changes, index, slide, together)
            ):
                # The next player's first action; a captured piece taken off at the same
                # moment (one scan) still came off with the move.
                started = t
                finish = max([finish, *(
                    u for u, sq, down in changes[index:]
                    if u <= t + together and sq in move.captures and not down
                )])
        if landed is None:
            return max([since, *(t for t, square, _ in changes if square in own)])
        return finish


def _starts(changes: list[Change], index: int, after: frozenset[int], settle: float) -> bool:
    """Is `changes[index]` (on a square outside the move) the next player's first action:
    it makes the square differ from the position after the move, and is not undone
    within `settle` (a knock rocked back, a touch put back at once)?"""
    t, square, down = changes[index]
    if (square in after) == down:
        return False  # the square agrees with the position again
    undone = next((u for u, sq, _ in changes[index + 1 :] if sq == square), None)
    return undone is None or undone - t >= settle


def _shove(
    variant: Variant, changes: list[Change], index: int, slide: float, together: float
) -> bool:
    """Is `changes[index]` one half of a shove: a square emptied and a diagonal neighbour
    filled within `slide` after it (or `together` before: a switch seen late)?"""
    t, square, down = changes[index]
    near = set(neighbours(variant, square))
    for u, other, other_down in changes:
        if other not in near or other_down == down:
            continue
        lifted, placed = (u, t) if down else (t, u)
        if -together <= placed - lifted <= slide:
            return True
    return False
