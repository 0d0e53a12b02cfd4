"""The search tree: negamax alpha-beta over raw positions, with its table and ordering.

`Tree` holds what a search learns and walks (transposition table, killer
moves, history, principal variation, the positions along the line) and the
recursive node functions; `Searcher` (searcher.py) drives it by iterative
deepening. Raw positions are three ints and the side to move; raw moves come
from `engine.movegen`. A node looks at the clock and `stop()` every
`CHECK_EVERY` nodes and raises `SearchStopped` to unwind the whole tree.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.movegen import generator_for
from engine.search.draws import Limits, LineDraws
from engine.search.evaluate import Evaluate, evaluator_for
from engine.search.options import THREAT_PLIES
from engine.search.table import EXACT, LOWER, UPPER, TranspositionTable
from engine.search.zobrist import keys_for
from engine.variant import Variant, get_variant

MATE = 30000  # a win now; a win in n plies scores MATE - n
MATE_BOUND = MATE - 1000  # scores beyond this are mates
INFINITY = 32000
MAX_PLY = 128
CHECK_EVERY = 8  # nodes between two looks at the clock and the stop flag (a power of two)

RawMove = tuple  # (origin_bit, destination_bit, captured_mask, king_after, path, order)


class SearchStopped(Exception):
    """Raised inside the tree when the deadline passes or `stop()` says so."""

class Tree:
    """The tree search's state and nodes for one variant (driven by `Searcher`)."""

    def __init__(self, variant: Variant | str, table_bits: int = 16,
                 evaluate: Evaluate | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 table: TranspositionTable | None = None) -> None:
        """`evaluate` and `clock` are replaceable for tests (a material-only evaluation,
        a clock that advances per call); the defaults are what play uses. `table`: a
        table to use instead of a new one of 2^`table_bits` slots (the worker keeps one
        for every variant; it must be cleared when the variant changes)."""
        variant = get_variant(variant)  # a name too; UnknownVariantError otherwise
        self.variant = variant
        self.clock = clock
        generator = generator_for(variant)
        # the search reads a raw move's origin, destination, captured mask and king after
        # only: no path of a flying king's capture is spelt for it
        self.legal = generator.moves_only
        self.has_capture = generator.has_capture
        self.evaluate = evaluate or evaluator_for(variant)
        self.keys = keys_for(max(variant.square_to_bit) + 1)
        self.table = table if table is not None else TranspositionTable(table_bits)
        self.draws = LineDraws(variant)
        self.has_limits = self.draws.has_limits
        self.limit_pieces = self.draws.most_pieces
        self.limits_need_a_king = self.draws.needs_a_king
        self.history = [0] * (64 * 64)
        self.killers: list[list[int]] = [[-1, -1] for _ in range(MAX_PLY + 1)]
        self.pv: list[list[RawMove]] = [[] for _ in range(MAX_PLY + 2)]
        self.seen: dict[int, int] = {}
        self.nodes = 0
        self.deadline = float("inf")
        self.node_limit = 1 << 62
        self.stop: Callable[[], bool] = _never
        self.quiescence_floor = -MAX_PLY
        self.reductions = True
        self.extensions = True

    def new_game(self) -> None:
        self.table.clear()
        self.history = [0] * (64 * 64)

    def _play(self, white, black, kings, wtm, key, move, no_progress, limits
              ) -> tuple[int, int, int, bool, int, int, Limits]:
        """The child position's arguments for `_node` after `move`."""
        origin, destination, captured, king_after = move[0], move[1], move[2], move[3]
        pieces = self.keys.pieces
        was_king = kings >> origin & 1
        before = (white, black, kings, wtm)
        shift = (1 << origin) ^ (1 << destination)  # 0 when a king's capture ends at home
        if wtm:
            own_man, own_king, opp_man, opp_king = pieces
            white ^= shift
            black &= ~captured
        else:
            opp_man, opp_king, own_man, own_king = pieces
            black ^= shift
            white &= ~captured
        key ^= self.keys.black_to_move
        key ^= own_king[origin] if was_king else own_man[origin]
        key ^= own_king[destination] if king_after else own_man[destination]
        rest = captured
        while rest:
            low = rest & -rest
            bit = low.bit_length() - 1
            key ^= opp_king[bit] if kings & low else opp_man[bit]
            rest ^= low
        new_kings = kings & ~(captured | 1 << origin)
        if king_after:
            new_kings |= 1 << destination
        progress = bool(captured) or not was_king
        no_progress = 0 if progress else no_progress + 1
        if self.has_limits and (limits is not None or (
                (new_kings or not self.limits_need_a_king)
                and (white | black).bit_count() <= self.limit_pieces)):
            limits = self.draws.after(limits, before, (white, black, new_kings, not wtm),
                                      progress)
        return white, black, new_kings, not wtm, key, no_progress, limits

    def _node(self, white, black, kings, wtm, key, no_progress, limits, depth, alpha, beta,
              ply, pv_node, threat=THREAT_PLIES) -> int:
        self.nodes += 1
        if not self.nodes & (CHECK_EVERY - 1) and (
                self.clock() >= self.deadline or self.stop()
                or self.nodes >= self.node_limit):
            raise SearchStopped()
        if pv_node:
            self.pv[ply] = []
        seen = self.seen
        if key in seen:
            return 0  # the line repeats a position: the repetition draw
        own, opp = (white, black) if wtm else (black, white)
        moves = self.legal(own, opp, kings, wtm)
        if not moves:
            return ply - MATE
        if no_progress >= self.draws.no_progress_limit or (
                limits is not None and self.draws.due(limits, white, black, kings, wtm)):
            return 0  # the no-progress or an endgame-limit draw
        if ply >= MAX_PLY:
            return self.evaluate(white, black, kings, wtm)
        capture = moves[0][2] != 0
        if depth <= 0:
            if not capture:
                if threat and self.has_capture(opp, own, kings, not wtm):
                    return self._threat_node(white, black, kings, wtm, key, no_progress,
                                             limits, moves, alpha, beta, ply, threat - 1)
                return self.evaluate(white, black, kings, wtm)
            if depth <= self.quiescence_floor:
                return self.evaluate(white, black, kings, wtm)
            return self._capture_node(white, black, kings, wtm, key, no_progress, limits,
                                      moves, depth, alpha, beta, ply, threat)

        # Transposition table.
        table = self.table
        entry = table.slots[key & table.mask]
        tt_index = -1
        if entry is not None and entry[0] == key:
            tt_index = entry[4]
            if entry[1] >= depth and not pv_node:
                score = entry[3]
                if score > MATE_BOUND:
                    score -= ply
                elif score < -MATE_BOUND:
                    score += ply
                bound = entry[2]
                if bound == EXACT or (bound == LOWER and score >= beta) or (
                        bound == UPPER and score <= alpha):
                    return score

        count = len(moves)
        new_depth = depth if count == 1 and self.extensions else depth - 1
        order = self._order(moves, count, capture, tt_index, ply, kings)

        seen[key] = 1
        original_alpha = alpha
        best_score = -INFINITY
        best_index = order[0]
        play = self._play
        node = self._node
        killers = self.killers[ply]
        try:
            for number, index in enumerate(order):
                move = moves[index]
                child = play(white, black, kings, wtm, key, move, no_progress, limits)
                if number == 0:
                    score = -node(*child, new_depth, -beta, -alpha, ply + 1, pv_node, threat)
                else:
                    reduce = 0
                    if (self.reductions and not capture and number >= 3 and depth >= 3
                            and (move[0] << 6 | move[1]) not in killers
                            and not (move[3] and not kings >> move[0] & 1)):
                        reduce = 1
                    score = -node(*child, new_depth - reduce, -alpha - 1, -alpha, ply + 1,
                                  False, threat)
                    if score > alpha and (reduce or (pv_node and score < beta)):
                        score = -node(*child, new_depth, -beta, -alpha, ply + 1, pv_node,
                                      threat)
                if score > best_score:
                    best_score, best_index = score, index
                    if score > alpha:
                        alpha = score
                        if pv_node:
                            self.pv[ply] = [move, *self.pv[ply + 1]]
                        if score >= beta:
                            if not capture:
                                quiet = move[0] << 6 | move[1]
                                if killers[0] != quiet:
                                    killers[1] = killers[0]
                                    killers[0] = quiet
                                self.history[quiet] += depth * depth
                            break
        finally:
            del seen[key]

        bound = LOWER if best_score >= beta else (EXACT if best_score > original_alpha
                                                  else UPPER)
        stored = best_score
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        table.store(key, depth, bound, stored, best_index)
        return best_score

    def _order(self, moves, count, capture, tt_index, ply, kings) -> list[int]:
        """Indices of `moves`, most promising first."""
        if count == 1:
            return [0]
        if capture:
            # bigger captures first (free-choice variants offer small and big ones)
            order = sorted(range(count), key=lambda i: -moves[i][2].bit_count())
        else:
            history = self.history
            killer_a, killer_b = self.killers[ply]
            keys = []
            for move in moves:
                quiet = move[0] << 6 | move[1]
                value = history[quiet]
                if quiet == killer_a:
                    value += 1 << 40
                elif quiet == killer_b:
                    value += 1 << 39
                if move[3] and not kings >> move[0] & 1:
                    value += 1 << 41  # a crowning: look early
                keys.append(value)
            order = sorted(range(count), key=keys.__getitem__, reverse=True)
        if 0 <= tt_index < count and order[0] != tt_index:
            order.remove(tt_index)
            order.insert(0, tt_index)
        return order

    def _capture_node(self, white, black, kings, wtm, key, no_progress, limits, moves,
                      depth, alpha, beta, ply, threat) -> int:
        """Beyond the horizon with a capture pending: every capture is searched (forced),
        the biggest first."""
        order = (sorted(range(len(moves)), key=lambda i: -moves[i][2].bit_count())
                 if len(moves) > 1 else (0,))
        return self._every_move(white, black, kings, wtm, key, no_progress, limits,
                                [moves[i] for i in order], depth - 1, alpha, beta, ply, threat)

    def _threat_node(self, white, black, kings, wtm, key, no_progress, limits, moves,
                     alpha, beta, ply, threat) -> int:
        """A quiet leaf whose opponent threatens a capture: one more ply of every move.

        The static evaluation cannot see the piece about to be lost, nor the shot
        the threat may hide, so the side to move tries each move (no standing pat:
        draughts has no passing) and the capture is resolved in the replies."""
        return self._every_move(white, black, kings, wtm, key, no_progress, limits, moves,
                                0, alpha, beta, ply, threat)

    def _every_move(self, white, black, kings, wtm, key, no_progress, limits, moves,
                    child_depth, alpha, beta, ply, threat) -> int:
        """Plain alpha-beta over `moves` in the given order (no table, no reductions)."""
        best_score = -INFINITY
        play = self._play
        node = self._node
        seen = self.seen
        seen[key] = 1
        try:
            for move in moves:
                child = play(white, black, kings, wtm, key, move, no_progress, limits)
                score = -node(*child, child_depth, -beta, -alpha, ply + 1, False, threat)
                if score > best_score:
                    best_score = score
                    if score > alpha:
                        alpha = score
                        if score >= beta:
                            break
        finally:
            del seen[key]
        return best_score


def _never() -> bool:
    return False
