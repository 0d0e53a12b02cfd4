"""The draw rules inside the search: repetition, no progress, endgame limits.

Why: the rules end a game as drawn by counters (`engine.game.Game` keeps
them); a search that ignored them would play on for a win the rules have
already taken away, or walk out of a draw it should take. `DrawState` is the
root's counters, read from a `Game` through its public API; `DrawRules`
advances them along a line of the search exactly as `Game` does after a move:
the no-progress count restarts on any capture or man move, an endgame
limit's count starts when the material first matches it and restarts
whenever the material changes (a capture or a crowning).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import ENDGAME_LIMIT, NO_PROGRESS, Game, _matching_limit
from engine.position import Position
from engine.variant import BLACK, WHITE, Variant

NOT_RUNNING = 1 << 30  # plies left on a counter that is not counting


@dataclass(frozen=True)
class DrawState:
    """Counters at the root: plies since progress, plies left on the endgame limit."""

    no_progress: int = 0
    limit_left: int = NOT_RUNNING

    @classmethod
    def from_game(cls, game: Game) -> DrawState:
        counters = game.draw_counters()
        no_progress_left = counters[NO_PROGRESS]
        limit_left = counters[ENDGAME_LIMIT]
        rule = game.variant.no_progress_moves
        return cls(
            no_progress=2 * rule - no_progress_left if no_progress_left is not None else 0,
            limit_left=limit_left if limit_left is not None else NOT_RUNNING,
        )


class DrawRules:
    """The counters' arithmetic for one variant, on bitboards."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.no_progress_limit = 2 * variant.no_progress_moves if variant.no_progress_moves \
            else NOT_RUNNING
        self.has_limits = bool(variant.endgame_limits)
        # The Forcada's count starts only once a king stands on the long diagonal,
        # so it is checked after every ply while no limit is running.
        self.recheck_every_ply = any(limit.long_diagonal for limit in variant.endgame_limits)

    def limit_after(self, white: int, black: int, kings: int, white_to_move: bool,
                    material_changed: bool, limit_left: int) -> int:
        """Plies left on the endgame limit after a move, NOT_RUNNING if none applies."""
        if not self.has_limits:
            return NOT_RUNNING
        if not material_changed:
            if limit_left != NOT_RUNNING:
                return limit_left - 1
            if not self.recheck_every_ply:
                return NOT_RUNNING
        position = Position(self.variant, white, black, kings, WHITE if white_to_move else BLACK)
        limit = _matching_limit(self.variant, position)
        return 2 * limit.moves if limit is not None else NOT_RUNNING
