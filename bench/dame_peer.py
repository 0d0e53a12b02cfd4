"""dame-rs, the peer engine: a Rust International draughts engine with a search.

Installed in `.venv-bench` only (`pip install dame-rs`, module `dame`; x86
wheels only), never a dependency of the product. Version used: 0.2.0
(API read from its `dame/_core.pyi`: `Board(fen)`, `board.push(move)`,
`board.legal_moves` with `from_square`, `to_square`, `captured`,
`Engine(hash_mb=...)`, `engine.search(board, depth=..., time=...)` returning
`best_move`). The game is refereed by our `engine.Game`; dame-rs is shown the
same start and every move played, so it sees the repetitions too.
"""

from __future__ import annotations

from types import ModuleType

from bench.matches import Player, legal_move_with
from engine import Game, Move


def load_dame() -> ModuleType | None:
    try:
        import dame  # type: ignore[import-not-found]
    except ImportError:
        return None
    return dame


class DamePlayer(Player):
    """dame-rs searching to a fixed depth, with a time cap per move."""

    def __init__(self, dame: ModuleType, depth: int, seconds: float = 1.0) -> None:
        self.dame = dame
        self.depth = depth
        self.seconds = seconds
        self.engine = dame.Engine(hash_mb=16)
        self.name = f"dame-rs depth {depth}"

    def new_game(self, seed: int) -> None:
        self.engine.clear()

    def move(self, game: Game) -> Move:
        board = self.dame.Board(game.positions[0].fen())
        for move in game.moves:
            key = (move.origin, move.destination, move.captures)
            (theirs,) = [m for m in board.legal_moves
                         if (m.from_square, m.to_square, frozenset(m.captured)) == key]
            board.push(theirs)
        result = self.engine.search(board, depth=self.depth, time=self.seconds)
        best = result.best_move
        if best is None:  # dame-rs thinks the game is over where our rules do not
            return game.legal_moves()[0]
        return legal_move_with(game, (best.from_square, best.to_square, frozenset(best.captured)))
