"""The search in the engine's public terms: games, positions and `Move`s in.

`analyse(game_or_position, depth=..., time=...)` returns an `Analysis` (best
move, score in centi-men from the side to move's view, mate distance, depth,
nodes, principal variation). `root_from_game` carries a game's history and
draw counters into the search, so it knows which positions would repeat and
how close the no-progress and endgame-limit draws are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import EngineError
from engine.game import Game
from engine.position import Move, Position
from engine.search.draws import LineDraws
from engine.search.options import MAX_DEPTH, check_depth, check_seconds
from engine.search.searcher import (
    MATE,
    MATE_BOUND,
    RawMove,
    RawResult,
    RootState,
    Searcher,
    SearchOptions,
)
from engine.search.zobrist import keys_for
from engine.variant import WHITE


@dataclass(frozen=True)
class Analysis:
    best: Move | None  # None when the side to move has no legal move (it has lost)
    score: int  # centi-men, side to move's view; +-(MATE - plies) for a forced result
    mate: int | None  # plies to the end of a forced win (> 0) or loss (< 0); 0: lost now
    depth: int  # last complete iteration
    nodes: int
    elapsed: float  # seconds, by the search's own clock
    pv: tuple[Move, ...]
    stopped: bool  # cut short by the time limit or a stop request
    settled: str | None = None  # why it stopped early (engine/search/timing.py), if it did


def root_from_position(position: Position) -> RootState:
    """A position as a game set up there: no history, every endgame count starting."""
    return RootState(position.white, position.black, position.kings, position.turn == WHITE,
                     limits=LineDraws(position.variant).at_position(position))


def root_from_game(game: Game) -> RootState:
    """The game's position with the earlier positions that may still repeat and its counts."""
    position = game.position
    keys = keys_for(max(game.variant.square_to_bit) + 1)
    repeatable: list[int] = []
    for index in range(len(game.moves) - 1, -1, -1):
        move, before = game.moves[index], game.positions[index]
        piece = before.piece_at(move.origin)
        if move.is_capture or piece is None or not piece.king:
            break  # nothing before a capture or a man's move can come back
        repeatable.append(keys.hash(before.white, before.black, before.kings,
                                    before.turn == WHITE))
    no_progress, limits = LineDraws(game.variant).at_start(game)
    return RootState(position.white, position.black, position.kings, position.turn == WHITE,
                     tuple(repeatable), no_progress, limits)


def to_public(position: Position, raw: RawMove) -> Move:
    """The legal `Move` a raw search move stands for in `position`."""
    to_square = position.variant.bit_to_square
    key = (to_square[raw[0]], to_square[raw[1]], _squares(raw[2], to_square))
    for move in position.legal_moves():
        if (move.origin, move.destination, move.captures) == key:
            return move
    raise ValueError(f"{raw!r} is not a legal move in {position.fen()}")


def _squares(mask: int, to_square: tuple[int, ...]) -> frozenset[int]:
    found = set()
    while mask:
        low = mask & -mask
        found.add(to_square[low.bit_length() - 1])
        mask ^= low
    return frozenset(found)


def mate_distance(score: int) -> int | None:
    if score > MATE_BOUND:
        return MATE - score
    if score < -MATE_BOUND:
        return -(MATE - (-score))
    return None


def publish(position: Position, raw: RawResult) -> Analysis:
    """A raw search result with its moves named as the engine's public `Move`s."""
    pv: list[Move] = []
    here = position
    for step in raw.pv:
        try:
            move = to_public(here, step)
        except ValueError:
            break  # a stale tail (left by an unfinished iteration) ends the line
        pv.append(move)
        here = here.play(move)
    best = to_public(position, raw.best) if raw.best is not None else None
    if best is not None and (not pv or pv[0] != best):
        pv = [best]
    return Analysis(best=best, score=raw.score, mate=mate_distance(raw.score), depth=raw.depth,
                    nodes=raw.nodes, elapsed=raw.elapsed, pv=tuple(pv), stopped=raw.stopped,
                    settled=raw.settled)


def analyse(subject: Game | Position, *, depth: int | None = None, time: float | None = None,
            searcher: Searcher | None = None, stop: Callable[[], bool] | None = None,
            options: SearchOptions | None = None) -> Analysis:
    """Search `subject` to `depth` plies and/or for `time` seconds (both None: depth 6).

    `options` instead of `depth` and `time` sets every limit (`SearchOptions`).
    EngineError for a subject that is neither a `Game` nor a `Position`, a depth
    or time out of range (see engine/search/options.py), `options` given with
    `depth` or `time`, or a `searcher` made for another variant.
    """
    if isinstance(subject, Game):
        position, root = subject.position, root_from_game(subject)
    elif isinstance(subject, Position):
        position, root = subject, root_from_position(subject)
    else:
        raise EngineError(f"analyse takes a Game or a Position, not {type(subject).__name__}")
    if options is None:
        if depth is not None:
            check_depth(depth)
        if time is not None:
            time = check_seconds(time)
        options = SearchOptions(max_depth=depth or (MAX_DEPTH if time else 6), time_limit=time)
    elif depth is not None or time is not None:
        raise EngineError("give the limits either as options or as depth and time, not both")
    elif not isinstance(options, SearchOptions):
        raise EngineError(f"options are SearchOptions, not {type(options).__name__}")
    if searcher is None:
        searcher = Searcher(position.variant)
    elif searcher.variant is not position.variant:
        raise EngineError(f"this searcher is for {searcher.variant.name}; the position is "
                          f"{position.variant.name}")
    return publish(position, searcher.search(root, options, stop=stop))
