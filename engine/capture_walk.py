"""The square-by-square capture walk (men, and kings outside `engine.king_captures`)
and the precedence rules that choose among the sequences it finds; used by
`engine.movegen.MoveGenerator`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.variant import (
    ITALIAN,
    MAJORITY,
    MAJORITY_THEN_KINGS,
    PROMOTE_AT_END,
    PROMOTE_CONTINUE,
    PROMOTE_STOP,
)

if TYPE_CHECKING:
    from engine.movegen import MoveGenerator
    from engine.raw_moves import RawMove


def capture_walker(generator: MoveGenerator, opp: int, kings: int, promo: int,
                   men_jumps: dict[int, tuple[tuple[int, int], ...]]) -> Callable[..., bool]:
    """A recursive walker appending every complete capture sequence to `out`.

    Captured pieces stay in `occupied` until the move ends, so they block
    and cannot be jumped twice; the origin is not in `occupied` (the piece
    is in the hand), so a king may pass over or land on it.
    """
    ray_table = generator.ray_table
    king_jumps = generator.king_jumps
    men_targets = opp if generator.men_capture_kings else opp & ~kings
    flying = generator.flying
    men_capture_kings = generator.men_capture_kings
    promotion = generator.promotion

    def extend(square: int, king: bool, captured: int, path: tuple, order: tuple,
               out: list, occupied: int) -> bool:
        jumped = False
        if king and flying:
            for ray, ray_mask, ascending, index_of in ray_table[square]:
                # the first piece along the ray, found with one bit operation
                hit = ray_mask & occupied
                if not hit:
                    continue
                over = (hit & -hit).bit_length() - 1 if ascending else hit.bit_length() - 1
                if not opp >> over & 1 or captured >> over & 1:
                    continue
                landings = []
                for land in ray[index_of[over] + 1:]:
                    if occupied >> land & 1:
                        break
                    landings.append(land)
                if not landings:
                    continue
                jumped = True
                now_captured = captured | 1 << over
                now_order = order + (over,)
                # A king must land where it can go on capturing, if it can.
                continuing: list = []
                stopping: list = []
                for land in landings:
                    branch: list = []
                    if extend(land, True, now_captured, path + (land,), now_order, branch,
                              occupied):
                        continuing.extend(branch)
                    else:
                        stopping.extend(branch)
                out.extend(continuing or stopping)
        else:
            # `jumpable`: enemy pieces not yet jumped (and, in Italian, not kings for men)
            jumpable = (opp if king or men_capture_kings else men_targets) & ~captured
            for over, land in king_jumps[square] if king else men_jumps[square]:
                if not jumpable >> over & 1 or occupied >> land & 1:
                    continue
                jumped = True
                now_captured = captured | 1 << over
                now_path = path + (land,)
                now_order = order + (over,)
                if not king and promo >> land & 1:
                    if promotion == PROMOTE_STOP:
                        out.append((land, now_captured, now_path, now_order, True))
                        continue
                    if promotion == PROMOTE_CONTINUE:
                        extend(land, True, now_captured, now_path, now_order, out, occupied)
                        continue
                extend(land, king, now_captured, now_path, now_order, out, occupied)
        if not jumped and path:
            crowned = king or (promotion == PROMOTE_AT_END and bool(promo >> square & 1))
            out.append((square, captured, path, order, crowned))
        return jumped

    return extend

def apply_precedence(rule: str, sequences: list[RawMove], kings: int) -> list[RawMove]:
    """The sequences the precedence rule `rule` (not FREE) keeps."""
    if rule == MAJORITY:
        best = max(s[2].bit_count() for s in sequences)
        return [s for s in sequences if s[2].bit_count() == best]

    def key(s: RawMove):
        count = s[2].bit_count()
        kings_taken = (s[2] & kings).bit_count()
        if rule == MAJORITY_THEN_KINGS:
            return (count, kings_taken)
        assert rule == ITALIAN
        with_king = bool(kings >> s[0] & 1)
        # earlier king captures rank higher: compare negated positions
        earliest = tuple(-i for i, bit in enumerate(s[5]) if kings >> bit & 1)
        return (count, with_king, kings_taken, earliest)

    keys = [key(s) for s in sequences]
    best_key = max(keys)
    return [s for s, k in zip(sequences, keys, strict=True) if k == best_key]
