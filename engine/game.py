"""A game: a position plus history, with every draw rule applied automatically.

`push`/`pop` keep a stack of counters so that undoing a move restores them
exactly. Counting conventions (docs/rules.md): "N moves each" is 2N plies;
the no-progress counter is reset by any capture or man move; an endgame
limit's count starts when the material first matches that limit and restarts
whenever the material changes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.position import IllegalMoveError, Move, Position
from engine.variant import BLACK, WHITE, EndgameLimit, Variant

NO_PIECES = "no-pieces"
NO_MOVES = "no-moves"
REPETITION = "threefold-repetition"
NO_PROGRESS = "no-progress"
ENDGAME_LIMIT = "endgame-limit"


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # "W", "B", or None for a draw
    reason: str

    @property
    def result(self) -> str:
        """The PDN result string from White's side."""
        if self.winner == WHITE:
            return "1-0"
        if self.winner == BLACK:
            return "0-1"
        return "1/2-1/2"


@dataclass(frozen=True)
class _Counters:
    no_progress: int  # plies since the last capture or man move
    limit: EndgameLimit | None  # the endgame limit whose count is running
    limit_material: tuple | None  # material when that count started
    limit_plies: int


class Game:
    """Position, moves played, repetition table and draw counters."""

    def __init__(self, variant: Variant, position: Position | None = None) -> None:
        self.variant = variant
        self.position = position if position is not None else variant.initial_position()
        self.moves: list[Move] = []
        self.positions: list[Position] = [self.position]
        self._repetitions: Counter = Counter({self.position.key: 1})
        self._counters = [self._start_counters(self.position)]

    @property
    def ply(self) -> int:
        return len(self.moves)

    def fen(self) -> str:
        return self.position.fen()

    def legal_moves(self) -> list[Move]:
        return self.position.legal_moves()

    def push(self, move: Move) -> None:
        before = self.position
        if move not in before.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal in {before.fen()}")
        after = before.play(move)
        man_moved = not before.piece_at(move.origin).king  # a legal move's origin holds a piece
        self.moves.append(move)
        self.positions.append(after)
        self.position = after
        self._repetitions[after.key] += 1
        self._counters.append(self._next_counters(self._counters[-1], after,
                                                  move.is_capture or man_moved))

    def pop(self) -> Move:
        if not self.moves:
            raise IndexError("no move to take back")
        move = self.moves.pop()
        undone = self.positions.pop()
        self._repetitions[undone.key] -= 1
        if not self._repetitions[undone.key]:
            del self._repetitions[undone.key]
        self._counters.pop()
        self.position = self.positions[-1]
        return move

    def repetitions(self) -> int:
        """How many times the current position has occurred (same side to move)."""
        return self._repetitions[self.position.key]

    # --------------------------------------------------------------- outcome
    def outcome(self) -> Outcome | None:
        position = self.position
        mover = position.turn
        other = BLACK if mover == WHITE else WHITE
        own, theirs = ((position.white, position.black) if mover == WHITE
                       else (position.black, position.white))
        if not own:
            return Outcome(other, NO_PIECES)
        if not theirs:  # only from a set-up position: play ends when the last piece goes
            return Outcome(mover, NO_PIECES)
        if not position.legal_moves():
            return Outcome(other, NO_MOVES)
        if self.repetitions() >= 3:
            return Outcome(None, REPETITION)
        counters = self._counters[-1]
        # The endgame limit is the more specific rule: name it when both fall due.
        if counters.limit is not None and counters.limit_plies >= 2 * counters.limit.moves:
            return Outcome(None, ENDGAME_LIMIT)
        limit = self.variant.no_progress_moves
        if limit and counters.no_progress >= 2 * limit:
            return Outcome(None, NO_PROGRESS)
        return None

    def draw_counters(self) -> dict[str, int | None]:
        """Plies left before each automatic draw (for display), None when not running."""
        counters = self._counters[-1]
        limit = self.variant.no_progress_moves
        return {
            NO_PROGRESS: 2 * limit - counters.no_progress if limit else None,
            ENDGAME_LIMIT: (2 * counters.limit.moves - counters.limit_plies
                            if counters.limit else None),
        }

    # -------------------------------------------------------------- counters
    def _start_counters(self, position: Position) -> _Counters:
        limit = _matching_limit(self.variant, position)
        return _Counters(0, limit, _material(position) if limit else None, 0)

    def _next_counters(self, previous: _Counters, after: Position, progress: bool) -> _Counters:
        no_progress = 0 if progress else previous.no_progress + 1
        material = _material(after)
        if previous.limit is not None and previous.limit_material == material:
            return _Counters(no_progress, previous.limit, material, previous.limit_plies + 1)
        limit = _matching_limit(self.variant, after)
        return _Counters(no_progress, limit, material if limit else None, 0)


def _material(position: Position) -> tuple[tuple[int, int], tuple[int, int]]:
    return position.count(WHITE), position.count(BLACK)


def _matching_limit(variant: Variant, position: Position) -> EndgameLimit | None:
    white, black = _material(position)
    for limit in variant.endgame_limits:
        if limit.equal_kings:
            total = sum(white) + sum(black)
            if white[0] == black[0] and total in limit.total:
                return limit
            continue
        for strong, weak, strong_colour in ((white, black, WHITE), (black, white, BLACK)):
            if strong in limit.strong and weak in limit.weak:
                if limit.long_diagonal and not _king_on_long_diagonal(position, strong_colour):
                    continue
                return limit
    return None


def _king_on_long_diagonal(position: Position, colour: str) -> bool:
    mask = position.white if colour == WHITE else position.black
    return bool(mask & position.kings & position.variant.geometry.long_diagonal)
