"""Games for the review's tests, made by the engine itself: sensible moves, and one
blunder the test knows about.

`game_with_blunder(variant, plies, blunder_from, seed)` plays good moves (the best
of a shallow search, a seeded choice among the near-best so games differ), and at the
first ply from `blunder_from` where one exists, the move that gives away the most:
at least `GIVES_AWAY` centi-men worse than the best move by a depth-4 search. The
ply and the side are returned with the game, so a test can check that the review
finds that very blunder, in any variant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import Game, Move, get_variant
from engine.pdn import write_game
from engine.search import Searcher, SearchOptions, root_from_game
from engine.search.api import to_public

#: centi-men a planted blunder loses against the best move (a man and a half)
GIVES_AWAY = 150


@dataclass
class PlantedGame:
    game: Game
    blunder_ply: int  # the ply of the planted blunder
    side: str  # who played it

    def pdn(self, white: str = "Ana", black: str = "Bia", result: str = "*") -> str:
        tags = {"Event": "Review test", "White": white, "Black": black}
        return write_game(self.game.variant, tags, list(self.game.moves), result)


def _scored_moves(game: Game, searcher: Searcher, depth: int) -> list[tuple[Move, int]]:
    """Every legal move with the mover's score after it (a search of each reply)."""
    scored = []
    for move in game.legal_moves():
        game.push(move)
        if game.outcome() is not None:
            score = 0 if game.outcome().winner is None else 30000
        else:
            raw = searcher.search(root_from_game(game), SearchOptions(max_depth=depth - 1))
            score = -raw.score
        game.pop()
        scored.append((move, score))
    return scored


def game_with_blunder(variant_name: str, plies: int, blunder_from: int,
                      seed: int = 1) -> PlantedGame:
    variant = get_variant(variant_name)
    game = Game(variant)
    searcher = Searcher(variant)
    rng = random.Random(seed)
    planted: tuple[int, str] | None = None
    while (game.ply < plies or planted is None) and game.ply < plies + 40 \
            and game.outcome() is None:
        moves = game.legal_moves()
        if planted is None and game.ply >= blunder_from and len(moves) > 1:
            scored = _scored_moves(game, searcher, 4)
            best = max(score for _, score in scored)
            worst_move, worst = min(scored, key=lambda pair: pair[1])
            if best - worst >= GIVES_AWAY and abs(best) < 150:
                planted = (game.ply, game.position.turn)
                game.push(worst_move)
                continue
        raw = searcher.search(root_from_game(game), SearchOptions(max_depth=3, margin=15))
        near = [move for move, score in raw.root_scores if score >= raw.score - 15] or [raw.best]
        game.push(to_public(game.position, rng.choice(near)))
    if planted is None:
        raise AssertionError(f"no blunder found to plant in {variant_name} seed {seed}")
    return PlantedGame(game, *planted)
