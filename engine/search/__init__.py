"""The computer opponent's search: principal variation search over the rules engine.

    from engine.search import analyse
    analysis = analyse(game, time=2.0)      # or a Position, or depth=8
    analysis.best, analysis.score, analysis.pv

Modules, one job each: `zobrist` (position keys), `table` (transposition
table), `weights` and `evaluate` (the evaluation per variant family),
`endgame` (material that cannot win), `draws` (the draw rules along a line),
`searcher` (the search itself), `levels` (levels 1-4, time control and the
weaker levels' human-looking mistakes), `api` (public moves in and out).
"""

from engine.search.api import Analysis, analyse, root_from_game, root_from_position
from engine.search.searcher import MATE, RootState, Searcher, SearchOptions

__all__ = [
    "MATE",
    "Analysis",
    "RootState",
    "SearchOptions",
    "Searcher",
    "analyse",
    "root_from_game",
    "root_from_position",
]
