"""Legal move generation on bitboards.

A raw move is a tuple ``(origin_bit, destination_bit, captured_mask,
king_after, path, order)``: `path` holds the landing bits after the origin
(ending with the destination), `order` the captured bits in the order they
were jumped. Positions are three ints (`own`, `opp`, `kings`) from the mover's
point of view plus who moves, because the men's forward direction depends on
colour. Quiet moves of men are generated for all men at once with shifts; only
captures walk square by square, since they are rare and short. The exception
are captures under the plain majority rule with flying kings (International,
Brazilian), which can run to a dozen pieces in hundreds of orders: each piece is
searched on its own (`engine.majority_captures`), a king by a breadth-first search
(`engine.king_captures`), and kings and men by the compiled search where it is built
(`engine.native_captures`). A caller that shows squares can
ask for paths and orders already written in square numbers (`legal(names=)`).

The rules (mandatory capture, precedence, promotion during a capture, flying
kings) come from the `Variant`; `MoveGenerator` caches what it needs of it.
"""

from __future__ import annotations

from functools import cache

from engine import majority_captures, native_captures
from engine.capture_walk import apply_precedence, capture_walker
from engine.raw_moves import (
    FIRSTS,
    GROUPED,
    PATHS,
    UNSPELT,
    Grouped,
    Names,
    RawMove,
    grouped,
    named,
    unique_moves,
)
from engine.rays import rays_for
from engine.variant import (
    FREE,
    MAJORITY,
    PROMOTE_AT_END,
    Variant,
)

_NOTHING_TAKEN: frozenset[int] = frozenset()


def _bits(mask: int):
    """Yield the indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class MoveGenerator:
    """Move generation for one variant."""

    def __init__(self, variant: Variant) -> None:
        geometry = variant.geometry
        self.variant = variant
        self.valid = geometry.valid
        self.rays = geometry.rays
        self.jumps = geometry.jumps
        up_left, up_right, down_left, down_right = geometry.directions
        self.up = (up_left, up_right)
        self.down = (down_left, down_right)
        self.all_directions = geometry.directions
        self.top_row = geometry.top_row
        self.bottom_row = geometry.bottom_row
        self.flying = variant.flying_kings
        self.men_backwards = variant.men_capture_backwards
        self.men_capture_kings = variant.men_capture_kings
        self.promotion = variant.promotion
        self.capture_rule = variant.capture_rule
        # direction indices (into geometry.directions) men may capture along
        self.men_jump_dirs_white = (0, 1, 2, 3) if self.men_backwards else (0, 1)
        self.men_jump_dirs_black = (0, 1, 2, 3) if self.men_backwards else (2, 3)
        # square -> ((over, landing), ...) along the directions each may jump
        self.king_jumps = self._jump_table((0, 1, 2, 3))
        self.ray_table = self._ray_table()
        self.men_jumps = {True: self._jump_table(self.men_jump_dirs_white),
                          False: self._jump_table(self.men_jump_dirs_black)}
        self.king_rays = rays_for(geometry.size)
        self.bit_names = tuple(range(self.valid.bit_length()))  # bits named by themselves
        # Under the plain majority rule only the longest captures count, and a
        # flying king's are the largest searches: they are searched by layers.
        self.kings_by_layers = (self.capture_rule == MAJORITY and self.flying
                                and self.promotion == PROMOTE_AT_END)

    def _ray_table(self) -> dict[int, tuple]:
        """square -> per direction (ray squares, ray bitmask, ascending bits?, square -> index)."""
        return {
            square: tuple(
                (ray, sum(1 << b for b in ray), self.all_directions[d] > 0,
                 {b: i for i, b in enumerate(ray)})
                for d, ray in enumerate(rays)
            )
            for square, rays in self.rays.items()
        }

    def _jump_table(self, directions: tuple[int, ...]) -> dict[int, tuple[tuple[int, int], ...]]:
        """square -> ((jumped square, landing square), ...) along `directions`."""
        return {
            square: tuple((over, land) for d, over, land in jumps if d in directions)
            for square, jumps in self.jumps.items()
        }

    # ------------------------------------------------------------------ quiet
    def quiet_moves(self, own: int, opp: int, kings: int, white: bool) -> list[RawMove]:
        empty = self.valid & ~(own | opp)
        men = own & ~kings
        moves: list[RawMove] = []
        append = moves.append
        if white:
            promo = self.top_row
            for d in self.up:
                for to in _bits((men << d) & empty):
                    append((to - d, to, 0, bool(promo >> to & 1), (to,), ()))
        else:
            promo = self.bottom_row
            for d in self.down:
                for to in _bits((men >> -d) & empty):
                    append((to - d, to, 0, bool(promo >> to & 1), (to,), ()))
        own_kings = own & kings
        if own_kings:
            rays = self.rays
            flying = self.flying
            for origin in _bits(own_kings):
                for ray in rays[origin]:
                    for to in ray:
                        if not empty >> to & 1:
                            break
                        append((origin, to, 0, True, (to,), ()))
                        if not flying:
                            break
        return moves

    def count_quiet(self, own: int, opp: int, kings: int, white: bool) -> int:
        """Number of quiet moves, by shifting whole bitboards (bulk counting)."""
        empty = self.valid & ~(own | opp)
        men = own & ~kings
        if white:
            up_left, up_right = self.up
            total = ((men << up_left) & empty).bit_count() + ((men << up_right) & empty).bit_count()
        else:
            down_left, down_right = self.down
            total = ((men >> -down_left) & empty).bit_count() + (
                (men >> -down_right) & empty
            ).bit_count()
        own_kings = own & kings
        if own_kings:
            for d in self.all_directions:
                x = (own_kings << d if d > 0 else own_kings >> -d) & empty
                if self.flying:
                    while x:
                        total += x.bit_count()
                        x = (x << d if d > 0 else x >> -d) & empty
                else:
                    total += x.bit_count()
        return total

    # --------------------------------------------------------------- captures
    def has_capture(self, own: int, opp: int, kings: int, white: bool) -> bool:
        """Whether the side to move has any capture (cheap, for bulk counting)."""
        empty = self.valid & ~(own | opp)
        men = own & ~kings
        targets = opp if self.men_capture_kings else opp & ~kings
        directions = self.all_directions
        men_dirs = self.men_jump_dirs_white if white else self.men_jump_dirs_black
        for i in men_dirs:
            d = directions[i]
            if d > 0:
                if (((men << d) & targets) << d) & empty:
                    return True
            elif (((men >> -d) & targets) >> -d) & empty:
                return True
        own_kings = own & kings
        if own_kings:
            for d in directions:
                if d > 0:
                    x = own_kings << d
                    while x:
                        if ((x & opp) << d) & empty:
                            return True
                        if not self.flying:
                            break
                        x = (x & empty) << d
                else:
                    x = own_kings >> -d
                    while x:
                        if ((x & opp) >> -d) & empty:
                            return True
                        if not self.flying:
                            break
                        x = (x & empty) >> -d
        return False

    def captures(self, own: int, opp: int, kings: int, white: bool, names: Names | None = None,
                 want: str = PATHS) -> list:
        """The complete capture sequences allowed by the precedence rule, paths and
        capture orders written in `names` when given (see `legal`): with `want` PATHS
        one raw move per path; FIRSTS one per (origin, destination, captured set), with
        its first path; UNSPELT the same, a flying king's without path or order; GROUPED
        the moves `grouped` gives."""
        # Only walk the pieces that can start a capture: men with an enemy next to them
        # and an empty square beyond (found for all men at once), and every king.
        # (`_starters` inlined, as the walk below: this runs at every node of perft and
        # of the computer's search, where a call more shows.)
        occupied_all = own | opp
        empty = self.valid & ~occupied_all
        targets = opp if self.men_capture_kings else opp & ~kings
        starters = own & kings
        for i in self.men_jump_dirs_white if white else self.men_jump_dirs_black:
            d = self.all_directions[i]
            if d > 0:
                starters |= (((empty >> d) & targets) >> d) & own
            else:
                starters |= (((empty << -d) & targets) << -d) & own
        # Searched piece by piece where a king may capture, or where the compiled search
        # lists men's captures (paths not wanted now: the Python search and the walk
        # spell them, the compiled search would not); men walked together otherwise.
        compiled = want in (UNSPELT, GROUPED)
        if self.kings_by_layers and (starters & kings or compiled
                                     and native_captures.available()):
            found, longest = majority_captures.searched(
                self, starters, occupied_all, opp, kings, white, names, compiled)
            return majority_captures.listed(found, longest, names, want)
        sequences: list[RawMove] = []
        promo = self.top_row if white else self.bottom_row
        extend = capture_walker(self, opp, kings, promo, self.men_jumps[white])
        for origin in _bits(starters):
            occupied = occupied_all & ~(1 << origin)
            walked: list = []
            extend(origin, bool(kings >> origin & 1), 0, (), (), walked, occupied)
            for final, captured, path, order, king_end in walked:
                sequences.append((origin, final, captured, king_end, path, order))
        if len(sequences) > 1 and self.capture_rule != FREE:
            sequences = apply_precedence(self.capture_rule, sequences, kings)
        if names is not None:
            sequences = named(sequences, names)
        if want == PATHS:
            return sequences
        return grouped(sequences) if want == GROUPED else unique_moves(sequences)

    def _king_capture_count(self, own: int, opp: int, kings: int, white: bool,
                            paths: bool) -> int:
        """How many capture moves (or with `paths`, paths) `captures` would list when
        flying kings are searched by layers: theirs counted without spelling a path
        (`KingCaptures.move_count`, `path_count`; a man's by `ManCaptures.move_count`
        when not counting paths)."""
        found, longest = majority_captures.searched(
            self, self._starters(own, opp, kings, white), own | opp, opp, kings, white, None,
            compiled=not paths)
        return majority_captures.counted(found, longest, paths)

    def _starters(self, own: int, opp: int, kings: int, white: bool) -> int:
        """The pieces that may start a capture (as `captures` finds them)."""
        empty = self.valid & ~(own | opp)
        targets = opp if self.men_capture_kings else opp & ~kings
        starters = own & kings
        for i in self.men_jump_dirs_white if white else self.men_jump_dirs_black:
            d = self.all_directions[i]
            if d > 0:
                starters |= (((empty >> d) & targets) >> d) & own
            else:
                starters |= (((empty << -d) & targets) << -d) & own
        return starters

    # ----------------------------------------------------------------- legal
    def legal(self, own: int, opp: int, kings: int, white: bool, paths: bool = False,
              names: Names | None = None) -> list[RawMove]:
        """Legal moves: every path when `paths`, else one per (origin, destination,
        captures) with its first path (a flying king's other paths are never spelt).

        With `names` (bit index -> number), capture paths and capture orders are
        written as ``names[bit]`` instead of bit indices, so a caller that shows
        squares need not convert every path (origin, destination, captured mask
        and quiet moves' paths stay bits). The computer's search, which never reads a
        path, calls `moves_only` instead.
        """
        if self.has_capture(own, opp, kings, white):
            return self.captures(own, opp, kings, white, names, PATHS if paths else FIRSTS)
        return self.quiet_moves(own, opp, kings, white)

    def moves_only(self, own: int, opp: int, kings: int, white: bool) -> list[RawMove]:
        """The moves `legal` lists, in the same order, for a caller that reads only a raw
        move's origin, destination, captured mask and king after (the computer's
        search): a flying king's captures under the majority rule, and a man's where the
        compiled search lists them, carry an empty path and capture order, so none of
        their paths is spelt (any other move is as `legal` gives it)."""
        if self.has_capture(own, opp, kings, white):
            return self.captures(own, opp, kings, white, None, UNSPELT)
        return self.quiet_moves(own, opp, kings, white)

    def grouped(self, own: int, opp: int, kings: int, white: bool, names: Names) -> list[Grouped]:
        """Legal moves as `Position.legal_moves()` lists them: one per (origin, destination,
        captured set), in the order of their first paths, as (origin, destination, king
        after, pieces taken, (first path, its capture order, every path)), pieces, paths
        and orders of captures written in `names` (a quiet move's one path stays bits).
        A flying king's capture (and a man's, where the compiled search lists it) has a
        `PathsLater` for the last: its paths are spelt when asked, for all that
        piece's moves at once."""
        if self.has_capture(own, opp, kings, white):
            return self.captures(own, opp, kings, white, names, GROUPED)
        return [(origin, destination, king_after, _NOTHING_TAKEN, (path, (), (path,)))
                for origin, destination, _, king_after, path, _ in
                self.quiet_moves(own, opp, kings, white)]

    def count(self, own: int, opp: int, kings: int, white: bool, paths: bool = False) -> int:
        """How many legal moves (`legal` without paths) or, with `paths`, legal paths;
        a flying king's paths are counted, not spelt."""
        if self.has_capture(own, opp, kings, white):
            if self.kings_by_layers and own & kings:  # every own king starts a capture
                return self._king_capture_count(own, opp, kings, white, paths)
            sequences = self.captures(own, opp, kings, white)
            return len(sequences) if paths else len({(s[0], s[1], s[2]) for s in sequences})
        return self.count_quiet(own, opp, kings, white)


@cache
def generator_for(variant: Variant) -> MoveGenerator:
    return MoveGenerator(variant)
