"""The draw rules inside the search: the endgame-limit counts along each line.

Why: the rules end a game as drawn by counts (`engine.draws`, kept by
`engine.game.Game`); a search that ignored them would play on for a win the
rules have already taken away, or walk out of a draw it should take. The
counts are advanced here with the engine's own `engine.draws` functions, so
the search and the referee never disagree about when a limit falls due.
Repetition and the no-progress count are cheaper and kept by the searcher
itself (a set of keys, a ply counter).

`LineDraws.after` is called for every move searched, so it is kept cheap:
while no count runs and the board holds more pieces than any limit of the
variant concerns, or no king at all, nothing is computed and the state stays
None.
"""

from __future__ import annotations

from engine import draws
from engine.game import Game
from engine.position import Position
from engine.variant import BLACK, WHITE, Variant

# The state carried along a line: None while no endgame count runs, else the
# engine's own `draws.DrawState` (its no-progress field is not read here).
Limits = draws.DrawState | None


class LineDraws:
    """The endgame-limit arithmetic of one variant, on the search's bitboards."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.no_progress_limit = (2 * variant.no_progress_moves if variant.no_progress_moves
                                  else 1 << 30)
        self.has_limits = bool(variant.endgame_limits)
        self.idle = draws.DrawState(0, (None,) * len(variant.endgame_limits))
        # No count can start with more pieces on the board than this, nor (for every
        # limit the variants have) without a king on the board.
        self.most_pieces = max((_most_pieces(limit) for limit in variant.endgame_limits),
                               default=0)
        self.needs_a_king = all(_needs_a_king(limit) for limit in variant.endgame_limits)

    # ---------------------------------------------------------------- roots
    def at_start(self, game: Game) -> tuple[int, Limits]:
        """(plies since progress, endgame counts) of the game as it stands, replayed
        from its start with the engine's own rules."""
        state = draws.start(self.variant, game.positions[0])
        for before, move, after in zip(game.positions[:-1], game.moves, game.positions[1:],
                                       strict=True):
            piece = before.piece_at(move.origin)
            progress = move.is_capture or piece is None or not piece.king
            state = draws.after_move(self.variant, state, before, after, progress)
        return state.no_progress, self._running(state)

    def at_position(self, position: Position) -> Limits:
        """The counts of a game set up at `position` (a set-up position starts them)."""
        if not self.has_limits:
            return None
        return self._running(draws.start(self.variant, position))

    # ----------------------------------------------------------------- moves
    def after(self, limits: Limits, before: tuple[int, int, int, bool],
              after: tuple[int, int, int, bool], progress: bool) -> Limits:
        """The counts once a move has led from `before` to `after` (bitboards and
        White to move), None while none runs."""
        if limits is None and (not after[2] and self.needs_a_king
                               or (after[0] | after[1]).bit_count() > self.most_pieces):
            return None
        state = draws.after_move(self.variant, limits or self.idle, self._position(*before),
                                 self._position(*after), progress)
        return self._running(state)

    def due(self, limits: Limits, white: int, black: int, kings: int,
            white_to_move: bool) -> bool:
        """Whether an endgame limit has fallen due: the game is drawn here."""
        return limits is not None and draws.limit_due(
            self.variant, limits, self._position(white, black, kings, white_to_move)) is not None

    def _position(self, white: int, black: int, kings: int, white_to_move: bool) -> Position:
        return Position(self.variant, white, black, kings, WHITE if white_to_move else BLACK)

    @staticmethod
    def _running(state: draws.DrawState) -> Limits:
        return state if any(count is not None for count in state.limits) else None


def _most_pieces(limit) -> int:  # engine.variant.EndgameLimit
    if limit.both_kings_total:
        return max(limit.both_kings_total)
    return max(map(sum, limit.strong), default=0) + max(map(sum, limit.weak), default=0)


def _needs_a_king(limit) -> bool:
    """Whether the limit's material always includes a king on one side or the other."""
    if limit.both_kings_total:
        return True
    return all(kings for kings, _ in limit.weak) or all(kings for kings, _ in limit.strong)
