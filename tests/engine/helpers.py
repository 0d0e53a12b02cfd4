"""Small helpers shared by the engine tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Game, Move, Position, get_variant


def legal_texts(variant_name: str, fen: str) -> set[str]:
    """The legal moves of a position, written in the variant's notation."""
    position = Position.from_fen(fen, get_variant(variant_name))
    return {position.move_text(m) for m in position.legal_moves()}


def quiet_walk(game: Game, plies: int, seed: int = 0,
               allowed: Callable[[Game, Move], bool] | None = None, budget: int = 5000) -> None:
    """Push up to `plies` non-capturing moves that give the opponent no capture
    and never make a position occur a third time, stopping if the game ends.

    Draw rules are then exercised without captures or repetitions getting in
    the way. `allowed(game, move)`, asked before each push, narrows the
    choice further (only king moves, the lone king kept on the long
    diagonal...). A depth-first search with backtracking, so a lone king is
    never walked into a corner; fails if no such line exists or none is found
    within `budget` positions (a badly chosen test, not a slow one).
    """
    rng = random.Random(seed)
    visited = 0

    def safe_moves() -> list:
        candidates = []
        for move in game.legal_moves():
            if move.is_capture or (allowed is not None and not allowed(game, move)):
                continue
            game.push(move)
            if game.repetitions() < 3 and not any(m.is_capture for m in game.legal_moves()):
                candidates.append(move)
            game.pop()
        rng.shuffle(candidates)
        return candidates

    def search(remaining: int) -> bool:
        nonlocal visited
        visited += 1
        assert visited <= budget, f"no quiet line of {plies} plies found within {budget} positions"
        if remaining == 0 or game.outcome() is not None:
            return True
        for move in safe_moves():
            game.push(move)
            if search(remaining - 1):
                return True
            game.pop()
        return False

    assert search(plies), f"no quiet line of {plies} plies from {game.fen()}"


def random_game(variant_name: str, rng: random.Random, max_plies: int = 200) -> Game:
    game = Game(get_variant(variant_name))
    while game.ply < max_plies and game.outcome() is None:
        game.push(rng.choice(game.legal_moves()))
    return game
