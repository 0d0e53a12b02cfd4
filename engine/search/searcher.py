"""Principal variation search with iterative deepening, on the engine's bitboards.

The search works on raw positions (three ints and the side to move) and raw
moves from `engine.movegen`, the fastest form the engine has, and speaks
public `Move`s only at the edges (`engine.search.api`). Its parts:

- negamax alpha-beta with principal variation search (null windows for all
  but the first move, re-searched when they fail high) and late-move
  reductions for quiet moves far down the ordering;
- iterative deepening: depth 1, 2, ... until the depth or time limit, each
  iteration ordered by the last; stopped mid-iteration at the deadline;
- a transposition table keyed by an incremental Zobrist hash;
- move ordering: the table's move, captures by size, killer moves (two per
  ply) and the history heuristic for quiet moves;
- quiescence: in draughts captures are forced, so a leaf with a capture
  pending is searched on (every capture, no standing pat) until quiet, and a
  quiet leaf where the opponent threatens a capture gets one more ply;
- a position with a single legal move does not use up depth (forced replies
  cost nothing, so combinations are seen whole);
- the draw rules along each line (`draws.py`) and the mate distance.

Stopping: `stop()` and the clock are checked every few nodes (a
`SearchStopped` unwinds the tree); the result of the last complete
iteration, or a better root move already proven in the unfinished one, is
returned. `levels.py` sets the limits and the deliberate mistakes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.search.draws import Limits
from engine.search.options import SearchOptions
from engine.search.timing import (
    FAR_ABOVE,
    FAR_ABOVE_MARGIN,
    FORCED_RESULT,
    ONLY_MOVE,
    TimePlan,
    material_draw,
)
from engine.search.tree import (
    CHECK_EVERY,
    INFINITY,
    MATE,
    MATE_BOUND,
    MAX_PLY,
    THREAT_PLIES,
    RawMove,
    SearchStopped,
    Tree,
    _never,
)

__all__ = ["CHECK_EVERY", "MATE", "MATE_BOUND", "MAX_PLY", "THREAT_PLIES", "RawMove",
           "RawResult", "RootState", "SearchOptions", "SearchStopped", "Searcher"]


@dataclass
class RootState:
    """What the search starts from: the position, the line that led to it, the counters.

    `history` holds the Zobrist keys of the earlier positions of the game that
    can still repeat (since the last capture or man move); plain ints, so a
    `RootState` crosses to a worker process cheaply.
    """

    white: int
    black: int
    kings: int
    white_to_move: bool
    history: tuple[int, ...] = ()
    no_progress: int = 0  # plies since the last capture or man move
    limits: Limits = None  # the endgame-limit counts running (engine.draws), None if none


@dataclass
class RawResult:
    """The outcome of a search, moves still raw (bit indices)."""

    best: RawMove | None
    score: int
    depth: int
    nodes: int
    elapsed: float
    pv: list[RawMove]
    stopped: bool  # the limit or stop() cut the last iteration short
    root_scores: list[tuple[RawMove, int]] = field(default_factory=list)
    # why the search ended before its limits (engine/search/timing.py), None if it did not
    settled: str | None = None


class Searcher(Tree):
    """A search for one variant; keep one per game so the table carries over moves."""

    def root_key(self, root: RootState) -> int:
        return self.keys.hash(root.white, root.black, root.kings, root.white_to_move)

    # ---------------------------------------------------------------- driver
    def search(self, root: RootState, options: SearchOptions,
               stop: Callable[[], bool] | None = None,
               on_iteration: Callable[[RawResult], None] | None = None) -> RawResult:
        """Iterative deepening from `root` within `options`; never raises SearchStopped.

        The search ends at the first of: `max_depth` done, the budget
        (`time_limit` from the start; the first iteration, a few hundred nodes,
        always completes within it so even the shortest budget yields a move that
        has been looked at), the `deadline` (never passed, not even by the first
        iteration: then the first legal move is returned unsearched), the node
        limit, `stop()`, a forced result seen to its end, or, with `save_time`, a
        settled position (engine/search/timing.py; `RawResult.settled` says which).
        """
        options.check()
        started = self.clock()
        hard = options.deadline if options.deadline is not None else float("inf")
        budget_end = started + options.time_limit if options.time_limit else float("inf")
        self.deadline = hard
        self.node_limit = options.node_limit or 1 << 62
        self.stop = stop or _never
        self.nodes = 0
        self.quiescence_floor = (-options.quiescence_plies if options.quiescence_plies is not None
                                 else -MAX_PLY)
        self.reductions = options.reductions
        self.extensions = options.extensions
        threat = options.threat_plies
        self.table.new_search()
        self.killers = [[-1, -1] for _ in range(MAX_PLY + 1)]
        self.history = [h >> 2 for h in self.history]  # older lessons count for less

        white, black, kings, wtm = root.white, root.black, root.kings, root.white_to_move
        own, opp = (white, black) if wtm else (black, white)
        moves = self.legal(own, opp, kings, wtm)
        key = self.root_key(root)
        if not moves:
            return RawResult(None, -MATE, 0, 0, self.clock() - started, [], False)
        result = RawResult(moves[0], 0, 0, 0, 0.0, [moves[0]], False)
        if len(moves) == 1 and options.reply_at_once:
            result.elapsed = self.clock() - started
            result.settled = ONLY_MOVE
            return result
        plan = TimePlan(options.time_limit if options.save_time else None,
                        options.save_time and material_draw(self.variant, white, black, kings))

        scores = {i: 0 for i in range(len(moves))}
        order = list(range(len(moves)))
        for depth in range(1, options.max_depth + 1):
            iteration_started = self.clock()
            if iteration_started >= self.deadline:  # nothing can be finished now
                result.stopped = True
                break
            self._fresh_line(root, key)
            try:
                best_index, score, root_scores = self._root(
                    white, black, kings, wtm, key, moves, order, scores, depth, root,
                    options.margin, threat)
            except SearchStopped as stopped:
                partial = stopped.args[0] if stopped.args else None
                if partial is not None:  # a new best move already proven at this depth
                    best_index, score = partial
                    result.best = moves[best_index]
                    result.score = score
                    result.pv = list(self.pv[0])
                result.stopped = True
                break
            result.best = moves[best_index]
            result.score = score
            result.depth = depth
            result.pv = list(self.pv[0])
            result.root_scores = [(moves[i], s) for i, s in root_scores]
            now = self.clock()
            result.nodes = self.nodes
            result.elapsed = now - started
            self.deadline = min(hard, budget_end)
            if on_iteration is not None:
                on_iteration(result)
            order = sorted(order, key=lambda i: -scores[i])
            order.remove(best_index)
            order.insert(0, best_index)
            if abs(score) > MATE_BOUND and MATE - abs(score) <= depth:
                result.settled = FORCED_RESULT
                break  # a forced win or loss seen to its end: deeper changes nothing
            if not options.save_time or depth == options.max_depth:
                continue
            result.settled = plan.settled(best_index, score, now - started, now - iteration_started)
            if result.settled is None and plan.try_far_above(depth) and self._far_above(
                    white, black, kings, wtm, key, moves, best_index, score, depth, root,
                    threat):
                result.settled = FAR_ABOVE
            if result.settled is not None:
                break
        result.nodes = self.nodes
        result.elapsed = self.clock() - started
        return result

    def _fresh_line(self, root: RootState, key: int) -> None:
        """The positions a line may repeat: the game's earlier ones (the root is added by
        `_root`)."""
        self.seen = {}
        for earlier in root.history:
            self.seen[earlier] = self.seen.get(earlier, 0) + 1

    def _far_above(self, white, black, kings, wtm, key, moves, best_index, score, depth,
                   root, threat) -> bool:
        """Whether every root move but the best scores at least FAR_ABOVE_MARGIN below
        `score`, each searched two plies shallower than `depth` with a null window.
        Cut short by the deadline or stop(): not shown, so False."""
        threshold = score - FAR_ABOVE_MARGIN
        if abs(score) > MATE_BOUND:
            return False
        self._fresh_line(root, key)
        self.seen[key] = 1
        try:
            for index, move in enumerate(moves):
                if index == best_index:
                    continue
                child = self._play(white, black, kings, wtm, key, move, root.no_progress,
                                   root.limits)
                if -self._node(*child, depth - 3, -threshold, -threshold + 1, 1, False,
                               threat) >= threshold:
                    return False
        except SearchStopped:
            return False
        return True

    def _root(self, white, black, kings, wtm, key, moves, order, scores, depth, root,
              margin, threat) -> tuple[int, int, list[tuple[int, int]]]:
        alpha, beta = -INFINITY, INFINITY
        best_index, best_score = order[0], -INFINITY
        root_scores: list[tuple[int, int]] = []
        self.pv[0] = []
        self.seen[key] = self.seen.get(key, 0) + 1
        for number, index in enumerate(order):
            move = moves[index]
            child = self._play(white, black, kings, wtm, key, move, root.no_progress,
                               root.limits)
            floor = best_score - margin - 1 if margin else alpha
            try:
                if number == 0:
                    score = -self._node(*child, depth - 1, -beta, -alpha, 1, True, threat)
                else:
                    window = max(floor, -INFINITY)
                    score = -self._node(*child, depth - 1, -window - 1, -window, 1, False,
                                        threat)
                    if score > window:
                        score = -self._node(*child, depth - 1, -beta, -window, 1, True, threat)
            except SearchStopped:
                if best_score > -INFINITY and best_index != order[0]:
                    raise SearchStopped((best_index, best_score)) from None
                raise SearchStopped() from None
            scores[index] = score
            root_scores.append((index, score))
            if score > best_score:
                best_score, best_index = score, index
                self.pv[0] = [move, *self.pv[1]]
                if score > alpha:
                    alpha = score
        return best_index, best_score, root_scores

    # ----------------------------------------------------------------- tree
