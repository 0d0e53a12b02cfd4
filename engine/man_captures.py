"""A man's longest captures under the majority rule with flying kings (International,
Brazilian), listed by the compiled search (`engine.native_captures`).

A man there captures in all four directions and may take a dozen pieces in
hundreds of orders; the square-by-square walk (`engine.capture_walk`) spells every
one of them. The compiled search finds the same moves, one per (destination, pieces
taken), in the order of their first paths, without spelling a path: a man is a
piece that lands right behind the piece it jumps and sees only the squares next to
it, and otherwise searched as a flying king is (`engine.king_captures`). Its paths
are spelt by the walk when first read (`PathsLater`), for all its moves at once.

Only a caller that reads no path at once is given one (`MoveGenerator.captures`
with UNSPELT or GROUPED, and counting moves); the others walk, as without the
library.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import native_captures
from engine.king_captures import EnemyPieces
from engine.king_paths import EveryPath, PathsLater, Spelt
from engine.raw_moves import RawMove
from engine.rays import Rays


class ManCaptures:
    """One man's longest captures, as the compiled search found them.

    Invariants: `longest` is how many pieces its longest capture takes; ``_endings``
    lists every (destination, pieces taken) of its longest captures once, in the order
    of their first paths (what grouping the walk's longest captures gives); a move
    crowns where it ends on the crowning row (`crowning`), as it does when the man
    only crowns at the end of its move.
    """

    __slots__ = ("origin", "longest", "_endings", "_pieces", "_names", "_crowning", "_spell")

    def __init__(self, origin: int, longest: int, endings: list[tuple[int, int]],
                 pieces: EnemyPieces, names: tuple[int, ...], crowning: int,
                 spell: Callable[[], list[Spelt]]) -> None:
        """`spell`: every path of the longest captures, grouped by move in the order of
        `endings` (the walk's, `engine.majority_captures`)."""
        self.origin, self.longest, self._endings = origin, longest, endings
        self._pieces, self._names, self._crowning = pieces, names, crowning
        self._spell = spell

    @classmethod
    def search(cls, rays: Rays, origin: int, occupied: int, opp: int, pieces: EnemyPieces,
               names: tuple[int, ...], crowning: int,
               spell: Callable[[int], list[Spelt]]) -> ManCaptures | None:
        """The man on `origin` (not in `occupied`) capturing `opp`, searched by the
        compiled search; None where it cannot say (the caller walks instead). `spell`
        is given the longest and spells as `__init__` says."""
        found = native_captures.endings(rays, origin, occupied, opp, king=False)
        if found is None:
            return None
        longest, _, endings = found
        return cls(origin, longest, endings, pieces, names, crowning, lambda: spell(longest))

    def unspelt(self, out: list[RawMove]) -> None:
        """Append every longest capture once per (destination, pieces taken), in the order
        of first paths, as raw moves without a path or capture order (empty tuples)."""
        origin, mask, crowning = self.origin, self._pieces.mask, self._crowning
        for destination, taken in self._endings:
            out.append((origin, destination, mask(taken), bool(crowning >> destination & 1),
                        (), ()))

    def moves(self, out: list) -> None:
        """Append every longest capture once per (destination, pieces taken), in the order
        of first paths, as `MoveGenerator.grouped` lists moves, its paths a `PathsLater`
        spelt when first read."""
        origin, crowning, names = self.origin, self._crowning, self._names
        every, named = EveryPath(self._spell), self._pieces.named
        for index, (destination, taken) in enumerate(self._endings):
            out.append((origin, destination, bool(crowning >> destination & 1),
                        named(taken, names), PathsLater(every, index)))

    def move_count(self) -> int:
        return len(self._endings)
