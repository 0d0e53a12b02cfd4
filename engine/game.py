"""A game: a position plus history, with every draw rule applied automatically.

`push`/`pop` keep one `DrawState` per ply (engine/draws.py), so undoing a
move restores the counts exactly. The rules and their counting conventions
are in docs/rules.md, "How a game ends".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine import draws
from engine.errors import EngineError, IllegalMoveError, NothingToTakeBack
from engine.position import Move, Position
from engine.variant import BLACK, WHITE, Variant, get_variant

NO_PIECES = "no-pieces"
NO_MOVES = "no-moves"
REPETITION = "threefold-repetition"
NO_PROGRESS = "no-progress"
ENDGAME_LIMIT = "endgame-limit"
#: a flag fall: the side to move ran out of time (decided by `Game.on_time`)
TIME = "time"


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # "W", "B", or None for a draw
    reason: str
    rule: str | None = None  # for an endgame limit, its article ("7.2.7", "6.3", "Forcada")

    @property
    def result(self) -> str:
        """The PDN result string from White's side."""
        if self.winner == WHITE:
            return "1-0"
        if self.winner == BLACK:
            return "0-1"
        return "1/2-1/2"


class Game:
    """Position, moves played, repetition table and draw counts.

    `variant` is a `Variant` or its name; `position` (the start, by default
    the variant's initial position) must be of that variant. `Game.from_fen`
    builds one from a FEN, naming the variant once.
    """

    def __init__(self, variant: Variant | str, position: Position | None = None) -> None:
        variant = get_variant(variant)
        if position is None:
            position = variant.initial_position()
        elif not isinstance(position, Position):
            hint = " (for a FEN: Game.from_fen(fen, variant))" if isinstance(position, str) else ""
            raise EngineError(f"a game starts from a Position, not {type(position).__name__}"
                              + hint)
        elif position.variant != variant:
            raise EngineError(f"the position is a {position.variant.name} position; "
                              f"this game is {variant.name}")
        if not position.white | position.black:
            raise EngineError("the board is empty: a game needs pieces")
        self.variant = variant
        self.position = position
        self.moves: list[Move] = []
        self.positions: list[Position] = [position]
        self._repetitions: Counter = Counter({position.key: 1})
        self._draws = [draws.start(variant, position)]

    @classmethod
    def from_fen(cls, fen: str, variant: Variant | str) -> Game:
        """A game starting from `fen`; FenError if it cannot be read."""
        return cls(variant, Position.from_fen(fen, variant))

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} ply {self.ply} {self.fen()!r}>"

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def turn(self) -> str:
        """"W" or "B": who moves now."""
        return self.position.turn

    def fen(self) -> str:
        return self.position.fen()

    def legal_moves(self) -> list[Move]:
        return self.position.legal_moves()

    # ------------------------------------------------------------ move text
    def parse(self, text: str) -> Move:
        """The legal move `text` names (`c3-d4`, `22-18`, `10x19x26`, `cd4`);
        IllegalMoveError saying why for a player when there is none or several."""
        return self.position.parse_move(text)

    def push_text(self, text: str) -> Move:
        """Play the move `text` names and return it (see `parse`)."""
        move = self.parse(text)
        self.push(move)
        return move

    def move_text(self, move: Move) -> str:
        """`move`, legal now, as the variant's books write it."""
        return self.position.move_text(move)

    # ---------------------------------------------------------- push / pop
    def push(self, move: Move) -> None:
        before = self.position
        if move not in before.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal in {before.fen()}")
        after = before.play(move)
        piece = before.piece_at(move.origin)  # a legal move's origin holds a piece
        man_moved = piece is None or not piece.king
        self.moves.append(move)
        self.positions.append(after)
        self.position = after
        self._repetitions[after.key] += 1
        self._draws.append(draws.after_move(self.variant, self._draws[-1], before, after,
                                            move.is_capture or man_moved))

    def pop(self) -> Move:
        """Take the last move back and return it; NothingToTakeBack at the start."""
        if not self.moves:
            raise NothingToTakeBack("no move to take back")
        move = self.moves.pop()
        undone = self.positions.pop()
        self._repetitions[undone.key] -= 1
        if not self._repetitions[undone.key]:
            del self._repetitions[undone.key]
        self._draws.pop()
        self.position = self.positions[-1]
        return move

    def repetitions(self) -> int:
        """How many times the current position has occurred (same side to move)."""
        return self._repetitions[self.position.key]

    # --------------------------------------------------------------- outcome
    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """How the game has ended, None while it goes on.

        Precedence (docs/rules.md): a win (no pieces, no move) first, then
        repetition, then the endgame limits in the variant's order, then the
        no-progress count.
        """
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
        state = self._draws[-1]
        limit = draws.limit_due(self.variant, state, position)
        if limit is not None:
            return Outcome(None, ENDGAME_LIMIT, limit.rule)
        moves = self.variant.no_progress_moves
        if moves and state.no_progress >= 2 * moves:
            return Outcome(None, NO_PROGRESS)
        return None

    def on_time(self, flagged: str) -> Outcome:
        """The result when `flagged` runs out of time (docs/rules.md "Out of time"): the
        opponent wins, unless the material is an ending the variant's rules limit against
        a lone king (FMJD competition rules, regulation draw: three kings, two kings and a
        man, a king and two men, or less, against one king), where the opponent could not
        win but by the clock: a draw."""
        winner = BLACK if flagged == WHITE else WHITE
        if draws.lone_king_ending(self.variant, self.position):
            return Outcome(None, TIME)
        return Outcome(winner, TIME)

    def draw_counters(self) -> dict[str, int | None]:
        """Plies left before each automatic draw (for display), None when not running."""
        state = self._draws[-1]
        moves = self.variant.no_progress_moves
        return {
            NO_PROGRESS: 2 * moves - state.no_progress if moves else None,
            ENDGAME_LIMIT: draws.limit_plies_left(self.variant, state, self.position),
        }
