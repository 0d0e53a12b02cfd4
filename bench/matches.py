"""Games between players, for the strength table: levels, a random mover, dame-rs.

Why here and not in the product: a match is a measurement. Every game is
played under the engine's own rules (`engine.Game`: captures, draws by
repetition, no progress and endgame limits); a game still going after
`MAX_PLIES` is adjudicated on material (a lead of `DECISIVE` centi-men or
more wins, less is a draw), and so is a game where one side has led by that
much for `LEAD_PLIES` plies running, since such games are won and playing
them out only costs time. Both rules are printed with the table.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import Game, Move, Position, get_variant
from engine.search import Searcher
from engine.search.api import root_from_game, to_public
from engine.search.levels import Level, choose
from engine.search.weights import weights_for

SHARED = Path(__file__).resolve().parents[2] / "shared"
MAX_PLIES = 200
DECISIVE = 300  # centi-men: three men, or a king and a man
LEAD_PLIES = 12


class Player:
    name = "player"

    def new_game(self, seed: int) -> None:
        """Called before each game."""

    def move(self, game: Game) -> Move:
        raise NotImplementedError


class RandomPlayer(Player):
    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def new_game(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def move(self, game: Game) -> Move:
        return self.rng.choice(game.legal_moves())


class LevelPlayer(Player):
    """One of the product's levels, searching in this process with its own table."""

    def __init__(self, level: Level, seconds: float | None = None) -> None:
        self.level = level
        self.seconds = seconds if seconds is not None else level.move_time
        self.name = f"level {level.number}"
        self.searchers: dict[str, Searcher] = {}
        self.rng = random.Random(0)
        self.nodes = 0
        self.elapsed = 0.0

    def new_game(self, seed: int) -> None:
        self.rng = random.Random(seed)
        for searcher in self.searchers.values():
            searcher.new_game()

    def move(self, game: Game) -> Move:
        searcher = self.searchers.get(game.variant.name)
        if searcher is None:
            searcher = self.searchers[game.variant.name] = Searcher(game.variant)
        result = searcher.search(root_from_game(game), self.level.options(self.seconds))
        self.nodes += result.nodes
        self.elapsed += result.elapsed
        chosen = choose(result, self.level, self.rng)
        assert chosen is not None
        return to_public(game.position, chosen)


@dataclass
class Score:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    plies: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def percent(self) -> float:
        return 100.0 * self.points / self.games if self.games else 0.0


def material(position: Position) -> int:
    """White's material lead in centi-men, kings at the variant's value."""
    king = weights_for(position.variant.name).king
    (white_kings, white_men), (black_kings, black_men) = (position.count("W"),
                                                          position.count("B"))
    return 100 * (white_men - black_men) + king * (white_kings - black_kings)


def play_game(start: Position, white: Player, black: Player, seed: int
              ) -> tuple[str | None, int, bool]:
    """(winner "W"/"B"/None, plies, adjudicated) of one game from `start`."""
    game = Game(start.variant, start)
    white.new_game(seed)
    black.new_game(seed + 1)
    leader, lead_run = None, 0
    while True:
        outcome = game.outcome()
        if outcome is not None:
            return outcome.winner, game.ply, False
        lead = material(game.position)
        side = "W" if lead >= DECISIVE else "B" if lead <= -DECISIVE else None
        lead_run = lead_run + 1 if side is not None and side == leader else int(side is not None)
        leader = side
        if (side is not None and lead_run >= LEAD_PLIES) or game.ply >= MAX_PLIES:
            return side, game.ply, True
        player = white if game.position.turn == "W" else black
        game.push(player.move(game))


def openings(variant_name: str, count: int, seed: int) -> list[tuple[str, Position]]:
    """`count` named positions from the shared opening book (Brazilian or Russian lines),
    drawn without replacement with a fixed seed: varied, and the same in every run."""
    book_name = "russian" if variant_name == "russian" else "brazilian"
    book = json.loads((SHARED / "corpus" / "openings" / f"{book_name}.json").read_text(
        encoding="utf-8"))["all"]
    variant = get_variant(variant_name)
    names = sorted(book)
    chosen = random.Random(seed).sample(names, count)
    found = []
    for name in chosen:
        position = Position.from_fen(book[name], variant)
        if position.legal_moves() and Game(variant, position).outcome() is None:
            found.append((name, position))
    return found


def random_openings(variant_name: str, count: int, plies: int, seed: int
                    ) -> list[tuple[str, Position]]:
    """Starts for variants without a book here: `plies` random moves from the start."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = Game(variant)
        for _ in range(plies):
            game.push(rng.choice(game.legal_moves()))
        if game.outcome() is None:
            texts = []
            replay = Game(variant)
            for move in game.moves:
                texts.append(replay.position.move_text(move))
                replay.push(move)
            found.append((" ".join(texts), game.position))
    return found


def match(starts: list[tuple[str, Position]], first: Player, second: Player, seed: int = 0,
          progress: Callable[[str], None] | None = None) -> Score:
    """Each start played twice, colours swapped; the score is `first`'s."""
    score = Score()
    for index, (name, start) in enumerate(starts):
        for first_is_white in (True, False):
            white, black = (first, second) if first_is_white else (second, first)
            winner, plies, adjudicated = play_game(start, white, black,
                                                   seed + 2 * index + first_is_white)
            first_colour = "W" if first_is_white else "B"
            if winner is None:
                score.draws += 1
            elif winner == first_colour:
                score.wins += 1
            else:
                score.losses += 1
            score.adjudicated += adjudicated
            score.plies.append(plies)
            if progress is not None:
                progress(f"{first.name} v {second.name}, {name} "
                         f"({'W' if first_is_white else 'B'}): "
                         f"{winner or 'draw'} in {plies}{' (adj.)' if adjudicated else ''}")
    return score


def legal_move_with(game: Game, squares: tuple[int, int, frozenset[int]]) -> Move:
    """The legal move with these (origin, destination, captured squares) in `game`."""
    for move in game.legal_moves():
        if (move.origin, move.destination, move.captures) == squares:
            return move
    raise ValueError(f"{squares} is not legal in {game.fen()}")
