"""The engine's view of every position of a game: score, best move and line.

Every position is searched on its own to a fixed *node* budget, not a time: the
same game gives the same analysis on a Pi and on a laptop, loaded or idle, and a
search that was paused (host/review/service.py) is not cut short by the time it
spent waiting. The positions are taken in chunks of `CHUNK`: within a chunk the
searcher's table carries over from one position to the next (as a player's
thoughts do: about half a ply deeper for the same nodes), and each chunk starts
from a fresh table, so a position's evaluation depends only on the game and on
where its chunk starts, never on which process searched the chunk or when. Each
position is searched with the game's history up to it, so repetitions and the draw
counts are seen.

Scores are in centi-men (a man is 100) from **White's** point of view, so a
graph of them reads the same whichever side moved; a forced result is
+-(MATE - plies) as the search gives it, with `mate` the plies to it (> 0: White
wins). A position where the game is over scores its result (a draw 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import Game, Move, Position, Variant
from engine.search import MATE, Searcher, SearchOptions, root_from_game
from engine.search.api import publish
from engine.variant import WHITE

#: nodes searched per position: depth 5 to 9 in the middle game; about 0.2 s of one
#: core on a laptop (docs/BENCHMARKS.md has a 60-move game's review time)
NODES = 12_000
#: positions searched from one fresh table (a chunk starts at a multiple of this ply)
CHUNK = 16
#: the expected line is cut to this many moves
PV_MOVES = 6
#: the analysis's format and budget: an analysis made with others is made again
VERSION = 2

MoveKey = tuple[int, int, tuple[int, ...]]  # origin, destination, sorted captures


@dataclass(frozen=True)
class PositionEval:
    """What the search says about the position before move `ply` (0: the start)."""

    ply: int
    score: int  # centi-men, White's view; +-(MATE - plies) for a forced result
    mate: int | None  # plies to a forced end, > 0 White wins, < 0 Black wins
    best: dict[str, Any] | None  # the best move (`move_data`), None when the game is over
    pv: tuple[str, ...]  # the expected line, as the variant writes moves
    depth: int
    nodes: int
    legal: int  # how many legal moves there are (1: the move is forced)

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "score": self.score, "mate": self.mate, "best": self.best,
                "pv": list(self.pv), "depth": self.depth, "nodes": self.nodes,
                "legal": self.legal}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PositionEval:
        return cls(int(data["ply"]), int(data["score"]),
                   None if data.get("mate") is None else int(data["mate"]),
                   data.get("best"), tuple(data.get("pv", ())), int(data.get("depth", 0)),
                   int(data.get("nodes", 0)), int(data.get("legal", 0)))


def move_data(position: Position, move: Move) -> dict[str, Any]:
    """A move as the page draws it: its text, squares, landings and captures."""
    return {"text": position.move_text(move), "from": move.origin, "to": move.destination,
            "path": list(move.path), "captures": sorted(move.captures)}


def move_key(move: Move) -> MoveKey:
    return (move.origin, move.destination, tuple(sorted(move.captures)))


def replay(variant: Variant, start_fen: str, keys: Sequence[Sequence[Any]]) -> Game:
    """The game from `start_fen` with moves given as (origin, destination, captures);
    ValueError naming the first one that is not legal."""
    game = Game(variant, Position.from_fen(start_fen, variant))
    for number, key in enumerate(keys):
        origin, destination, captures = int(key[0]), int(key[1]), frozenset(key[2])
        found = [m for m in game.legal_moves()
                 if (m.origin, m.destination, m.captures) == (origin, destination, captures)]
        if len(found) != 1:
            raise ValueError(f"move {number + 1} ({origin}-{destination}) is not legal")
        game.push(found[0])
    return game


def evaluate_positions(
    game: Game,
    plies: Iterable[int] | None = None,
    *,
    nodes: int = NODES,
    searcher: Searcher | None = None,
    stop: Callable[[], bool] | None = None,
) -> Iterator[PositionEval]:
    """The evaluation of each position of `game` named in `plies` (default: every one,
    the start and the position after each move), in increasing order; the table is
    cleared at the start of each chunk (see the module), so asking for whole chunks gives
    the same evaluations however the game is split. `stop` is the search's stop hook,
    called every few nodes (the service pauses inside it)."""
    wanted = sorted(set(range(len(game.moves) + 1) if plies is None else plies))
    searcher = searcher or Searcher(game.variant, table_bits=16)
    prefix = Game(game.variant, game.positions[0])
    options = SearchOptions(max_depth=64, node_limit=nodes)
    for ply in wanted:
        if not 0 <= ply <= len(game.moves):
            raise ValueError(f"ply {ply} is not a position of this game")
        while prefix.ply < ply:
            prefix.push(game.moves[prefix.ply])
        if ply % CHUNK == 0:
            searcher.new_game()
        yield _evaluate(prefix, ply, searcher, options, stop)


def _evaluate(game: Game, ply: int, searcher: Searcher, options: SearchOptions,
              stop: Callable[[], bool] | None) -> PositionEval:
    position = game.position
    sign = 1 if position.turn == WHITE else -1
    legal = len(position.legal_moves())
    outcome = game.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return PositionEval(ply, 0, None, None, (), 0, 0, legal)
        won = 1 if outcome.winner == WHITE else -1
        return PositionEval(ply, won * MATE, 0, None, (), 0, 0, legal)
    analysis = publish(position, searcher.search(root_from_game(game), options, stop=stop))
    texts = []
    here = position
    for move in analysis.pv[:PV_MOVES]:
        texts.append(here.move_text(move))
        here = here.play(move)
    best = move_data(position, analysis.best) if analysis.best is not None else None
    mate = None if analysis.mate is None else sign * analysis.mate
    return PositionEval(ply, sign * analysis.score, mate, best, tuple(texts), analysis.depth,
                        analysis.nodes, legal)
