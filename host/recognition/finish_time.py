"""When a move was finished: the moment the clock stops charging its mover.

A move is finished at its mover's last action that belongs to it before the next
player's first action: the final landing of its piece, or the last of its captured
pieces taken off when that comes later. Not when the board could prove the move
(a settle time, a reply): proof is the board's business, never a player's time.

Read from the switch history alone (`ChangeLog`), after the fact, by one rule:
after its first landing, an action of the move (its piece put down on its end square
again, one of its captured pieces taken off) still belongs to it while nothing else
on the board is out of place, that is while every square outside the move (its
origin, the squares its piece passes, its end, its captured pieces) agrees with the
position after the move, except for:

- a change made at the same moment (within a scan or two: the switches cannot order
  the two hands' changes);
- a knock: a piece rocked off its switch and back within a settle time, or pushed to
  a neighbouring square (it left one as it came down on the other, faster than any
  hand carries a piece), whoever puts it back later. The move's own piece knocked off
  its end square and pushed back is no landing either.

Each captured piece comes off once: its square emptied again later is another piece
leaving it (a knocked one, the reply's). A piece of the next player's lifted or put
down after the landing, the mover's piece
resting on a square off its way: the board is out of place (a piece the next player
already held while the move's piece was in the air is no start after it), and what
the mover does meanwhile is not the move's. Once everything is back (a touch put
back, the piece going on to its end square) the move's actions count again. Before
the first landing nothing matters but the landing. So a captured piece forgotten and
taken off after the next player started does not count: the move was finished
without it.

A man crowned by the move: the piece lifted off its square and put down again, with
nothing else changed meanwhile, is the crowning, which the rules give to the opponent
("it is recommended that the opponent crowns it", the FMJD's rules as the Brazilian
federation writes them, 3.6): not the mover's time.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Move, Variant
from host.recognition.hand_paths import trajectory

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

    def last_change(self, squares: set[int], since: float) -> float:
        """The last change on `squares` since `since` (`since` if none)."""
        times = (t for t, square, _ in self.changes if t >= since and square in squares)
        return max([since, *times])

    def finished(
        self,
        variant: Variant,
        move: Move,
        since: float,
        after: frozenset[int],
        *,
        settle: float,
        together: float,
        slide: float,
    ) -> float | None:
        """When `move`, whose mover's time began at `since`, was finished; `after` is the
        board of the position after it; `settle`: how long a change must stay to be an
        action, `together`: changes this close are one moment, `slide`: a piece put down
        this soon after another left a neighbouring square was pushed there. None without
        a landing seen since `since` (the board showed the move's result already:
        resumed, or a ring capture's captured pieces taken off before its king set out)."""
        own = trajectory(variant, move) | {move.origin, move.destination} | move.captures
        changes = [c for c in self.changes if c[0] >= since]
        board = _Board(variant, changes, after, settle, together, slide)
        landed: float | None = None
        finish = since
        taken: set[int] = set()  # captured squares emptied since it set out: each once
        for index, (t, square, down) in enumerate(changes):
            if square not in own:
                board.change(index)
                continue
            if square == move.origin and not down and landed is None:
                taken.clear()  # the move's piece sets out: what came off before was a touch
            if square == move.destination and down:
                if landed is None:
                    landed = finish = t  # the first landing counts, whatever else is up
                elif (
                    not _crowning(move, changes, index)
                    and not _pushed_back(variant, changes, index, settle, slide)
                    and board.in_place(t, landed)
                ):
                    landed = finish = t  # down again: adjusted, or gone on and back
            elif square in move.captures and not down:
                if landed is not None and square not in taken and board.in_place(t, landed):
                    finish = t
                taken.add(square)  # (emptied again later: another piece leaving it)
        return None if landed is None else finish


def _crowning(move: Move, changes: list[Change], index: int) -> bool:
    """Is the end square filled at `changes[index]` a crowning: the move made a king and
    nothing else changed since its square was emptied (the man lifted and a king put
    down, or one stacked)?"""
    return move.promotes and index > 0 and changes[index - 1][1] == changes[index][1]


def _pushed_back(
    variant: Variant, changes: list[Change], index: int, settle: float, slide: float
) -> bool:
    """Is the end square filled at `changes[index]` its piece knocked back onto it: the
    piece had stood there (a settle time at least) when it left, and it comes back from
    a neighbouring square emptied within `slide` before (a push, not a hand's landing;
    a piece that only brushed the square on its way is still travelling)?"""
    t, square, _ = changes[index]
    left = next(
        (i for i in range(index - 1, -1, -1) if changes[i][1] == square and not changes[i][2]),
        None,
    )
    if left is None:
        return False
    stood = next(
        (changes[i][0] for i in range(left - 1, -1, -1)
         if changes[i][1] == square and changes[i][2]),
        None,
    )
    if stood is None or changes[left][0] - stood < settle:
        return False
    x, y = variant.square_coords(square)
    for u, other, down in reversed(changes[:index]):
        if t - u > slide:
            return False
        if not down:
            ox, oy = variant.square_coords(other)
            if abs(ox - x) == 1 and abs(oy - y) == 1:
                return True
    return False


class _Board:
    """The squares outside a move that disagree with the position after it, as the
    changes come, and whether all of them are knocks or the moment's own changes."""

    def __init__(
        self,
        variant: Variant,
        changes: list[Change],
        after: frozenset[int],
        settle: float,
        together: float,
        slide: float,
    ) -> None:
        self.variant = variant
        self.changes = changes
        self.after = after
        self.settle, self.together, self.slide = settle, together, slide
        #: square -> the index of the change that put it out of place
        self.out: dict[int, int] = {}

    def change(self, index: int) -> None:
        _, square, down = self.changes[index]
        if (square in self.after) != down:
            self.out[square] = index
        else:
            self.out.pop(square, None)  # back as the game has it

    def in_place(self, now: float, landed: float) -> bool:
        """Is every square out of place at `now` out since before the move's piece `landed`
        (a piece the next player held while it was in the air: no start after it), a
        knock, or a change of this moment?"""
        return all(
            self.changes[index][0] < landed
            or self._moment(index, now)
            or self._rocked(index)
            or self._pushed(index)
            for index in self.out.values()
        )

    def _moment(self, index: int, now: float) -> bool:
        return self.changes[index][0] >= now - self.together

    def _rocked(self, index: int) -> bool:
        """Put back within a settle time (a knock rocked back, a touch let go at once)."""
        t, square, _ = self.changes[index]
        undone = next((u for u, sq, _ in self.changes[index + 1 :] if sq == square), None)
        return undone is not None and undone - t < self.settle

    def _pushed(self, index: int) -> bool:
        """Half of a push: a neighbouring square changed the other way within `slide`,
        its square filled while no hand held a piece (a piece left one square and came
        down on the other). It stays a knock while a hand puts the pushed piece back:
        what the push left out of place is nobody's start."""
        t, square, down = self.changes[index]
        x, y = self.variant.square_coords(square)
        for other, (u, sq, placed) in enumerate(self.changes):
            if placed == down or abs(u - t) > self.slide:
                continue
            ox, oy = self.variant.square_coords(sq)
            if abs(ox - x) == 1 and abs(oy - y) == 1:
                return not self._held(other if placed else index)
        return False

    def _held(self, fill: int) -> bool:
        """Did a hand hold a piece when `changes[fill]` filled its square: one lifted a
        moment before (a settle time at most, in an earlier scan) and not put down since?
        Then that piece came down there, carried, not pushed."""
        t = self.changes[fill][0]
        for u, _, down in reversed(self.changes[:fill]):
            if t - u > self.settle or down:
                return False
            if u < t:
                return True
        return False
