"""The static evaluation: a score for a quiet position, in centi-men.

Terms (weights per variant in `weights.py`): material with the variant's
king value; tempo (how far the men have advanced, worth more as men come
off); centre; back-row guard and its key squares; runaway men no enemy man
can stop; king mobility, kings on the long diagonal, trapped kings and
blocked men; a trade-down bonus for the side ahead; and the drawn-material
factor of `endgame.py`. Everything is counted with bit masks built once per
variant, because the search calls this tens of thousands of times a second.

`evaluator_for(variant)` returns `evaluate(white, black, kings, white_to_move)`
scoring from the side to move's view, as negamax wants it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engine.search.endgame import draw_factor
from engine.search.weights import Weights, weights_for
from engine.variant import Variant

Evaluate = Callable[[int, int, int, bool], int]


@cache
def evaluator_for(variant: Variant) -> Evaluate:
    return build_evaluator(variant, weights_for(variant.name))


def build_evaluator(variant: Variant, w: Weights) -> Evaluate:
    """An evaluation function for `variant` with weights `w` (separate for tuning)."""
    geometry = variant.geometry
    size = geometry.size
    valid = geometry.valid
    bit = geometry.bit_of

    def mask_of(squares) -> int:
        result = 0
        for file, rank in squares:
            if (file + rank) % 2 == 0:
                result |= 1 << bit(file, rank)
        return result

    rank_mask = [mask_of((f, r) for f in range(size)) for r in range(size)]
    # tempo: a man on rank r is counted once by each of the masks for ranks 1..r
    white_above = tuple(sum(rank_mask[r:], 0) for r in range(1, size))
    black_below = tuple(sum(rank_mask[:size - r], 0) for r in range(1, size))
    low, high = (2, size - 3) if size == 8 else (3, size - 4)
    centre = mask_of((f, r) for f in range(2, size - 2) for r in range(low, high + 1))
    white_back, black_back = rank_mask[0], rank_mask[size - 1]
    white_key = mask_of((f, 0) for f in w.key_back_files)
    black_key = mask_of((size - 1 - f, size - 1) for f in w.key_back_files)
    long_diagonal = geometry.long_diagonal
    up_left, up_right, down_left, down_right = geometry.directions
    directions = geometry.directions
    assert up_left > 0 and up_right > 0 and down_left < 0 and down_right < 0
    flying = variant.flying_kings
    white_promo, black_promo = geometry.top_row, geometry.bottom_row

    # Runaway men: the widened forward cone holds every square from which an enemy
    # man could ever stop or take this man; enemy men outside it never enter it.
    half = size // 2
    white_runner_zone = sum(rank_mask[half - 1:], 0)
    black_runner_zone = sum(rank_mask[:size - half + 1], 0)
    white_cone: dict[int, tuple[int, int]] = {}
    black_cone: dict[int, tuple[int, int]] = {}
    for f in range(size):
        for r in range(size):
            if (f + r) % 2:
                continue
            up = mask_of((g, s) for s in range(r + 1, size) for g in range(size)
                         if abs(g - f) <= s - r + 1)
            down = mask_of((g, s) for s in range(0, r) for g in range(size)
                           if abs(g - f) <= r - s + 1)
            white_cone[bit(f, r)] = (up, size - 1 - r)
            black_cone[bit(f, r)] = (down, r)

    initial_men = 2 * variant.rows_of_men * size // 2
    man, king = 100, w.king

    def runaways(men: int, enemy: int, cones: dict[int, tuple[int, int]]) -> int:
        bonus = 0
        while men:
            low_bit = men & -men
            cone, distance = cones[low_bit.bit_length() - 1]
            if not cone & enemy:
                bonus += w.runaway - 8 * distance
            men ^= low_bit
        return bonus

    up_shifts = tuple(d for d in directions if d > 0)  # towards White's crowning row
    down_shifts = tuple(-d for d in directions if d < 0)

    def king_moves(own_kings: int, empty: int) -> int:
        """Squares the kings can move to, counted with whole-board shifts."""
        total = 0
        for d in up_shifts:
            x = (own_kings << d) & empty
            while x:
                total += x.bit_count()
                x = (x << d) & empty if flying else 0
        for d in down_shifts:
            x = (own_kings >> d) & empty
            while x:
                total += x.bit_count()
                x = (x >> d) & empty if flying else 0
        return total

    def evaluate(white: int, black: int, kings: int, white_to_move: bool) -> int:
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        n_wk, n_bk, n_wm, n_bm = wk.bit_count(), bk.bit_count(), wm.bit_count(), bm.bit_count()
        white_material = man * n_wm + king * n_wk
        black_material = man * n_bm + king * n_bk
        lead = white_material - black_material
        score = lead
        pieces = n_wk + n_bk + n_wm + n_bm
        if lead and pieces:
            score += int(lead * w.trade / (pieces * 10))  # truncated: same for both colours

        men = n_wm + n_bm
        if men:
            tempo = 0
            for m in white_above:
                x = wm & m
                if not x:
                    break
                tempo += x.bit_count()
            for m in black_below:
                x = bm & m
                if not x:
                    break
                tempo -= x.bit_count()
            score += int(tempo * (w.tempo_opening * men + w.tempo_ending * (initial_men - men))
                         / initial_men)
            score += w.centre * ((wm & centre).bit_count() - (bm & centre).bit_count())
            if n_bm:
                score += w.back_guard * (wm & white_back).bit_count() + w.back_key * (
                    wm & white_key).bit_count()
            if n_wm:
                score -= w.back_guard * (bm & black_back).bit_count() + w.back_key * (
                    bm & black_key).bit_count()
            empty = valid & ~(white | black)
            white_free = (empty >> up_left) | (empty >> up_right)  # a square ahead is empty
            black_free = (empty << -down_left) | (empty << -down_right)
            score -= w.blocked_man * ((wm & ~white_free & ~white_promo).bit_count()
                                      - (bm & ~black_free & ~black_promo).bit_count())
            if not bk and wm & white_runner_zone:
                score += runaways(wm & white_runner_zone, black, white_cone)
            if not wk and bm & black_runner_zone:
                score -= runaways(bm & black_runner_zone, white, black_cone)
        if kings:
            empty = valid & ~(white | black)
            score += w.king_mobility * (king_moves(wk, empty) - king_moves(bk, empty))
            if flying:
                score += w.long_diagonal * ((wk & long_diagonal).bit_count()
                                            - (bk & long_diagonal).bit_count())
            free = 0  # squares with an empty neighbour
            for d in up_shifts:
                free |= empty >> d
            for d in down_shifts:
                free |= empty << d
            score -= w.trapped_king * ((wk & ~free).bit_count() - (bk & ~free).bit_count())
            if pieces <= 5:
                if lead > 0:
                    factor = draw_factor(flying, size, n_wk, n_wm, n_bk, n_bm,
                                         bool(bk & long_diagonal))
                else:
                    factor = draw_factor(flying, size, n_bk, n_bm, n_wk, n_wm,
                                         bool(wk & long_diagonal))
                score = int(score * factor)
        return score if white_to_move else -score

    return evaluate
