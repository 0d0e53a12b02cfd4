"""Captures under the majority rule with flying kings (International, Brazilian): only
the longest count, so each piece that may capture is searched on its own, and the
moves are those of the pieces whose longest capture is the longest.

Per piece (`searched`): a king's search (`engine.king_captures`), and a man's walk
(`engine.capture_walk`); for a caller that reads no path at once, the compiled
search (`engine.native_captures`) answers first, for kings and men alike (a man's
as `ManCaptures`). `listed` and `counted` then give what `MoveGenerator.captures`
and `MoveGenerator.count` return, each search in the form asked.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from engine.capture_walk import capture_walker
from engine.jump_graph import SHARED_BOARD, SHARED_FROM, JumpGraph
from engine.king_captures import EnemyPieces, KingCaptures
from engine.king_paths import Spelt
from engine.man_captures import ManCaptures
from engine.raw_moves import FIRSTS, PATHS, UNSPELT, Names, RawMove, grouped, named, wanted

if TYPE_CHECKING:
    from engine.movegen import MoveGenerator

# one piece's captures: walked (every path, as raw moves) or searched
Searched = list[RawMove] | KingCaptures | ManCaptures


def searched(generator: MoveGenerator, starters: int, occupied_all: int, opp: int,
             kings: int, white: bool, names: Names | None,
             compiled: bool) -> tuple[list[Searched], int]:
    """Per piece of `starters` (those that may capture), by origin, its captures: a
    king's search (paths to be spelt in `names`), a man's walk; with `compiled`, for a
    caller that reads no path now, the compiled search answers first. And how many
    pieces the longest capture takes."""
    crowning = generator.top_row if white else generator.bottom_row
    extend = (capture_walker(generator, opp, kings, crowning, generator.men_jumps[white])
              if starters & ~kings else None)  # only made when a man can capture
    rays = generator.king_rays
    found: list[Searched] = []
    longest = 0
    names = generator.bit_names if names is None else names
    pieces = EnemyPieces(opp, len(generator.bit_names))
    capturing = starters & kings  # several kings explore one board's jumps together
    graph = (JumpGraph(rays, occupied_all, opp, pieces.bit, names, capturing)
             if capturing.bit_count() >= SHARED_FROM and generator.variant.size >= SHARED_BOARD
             else None)
    rest = starters
    while rest:
        low = rest & -rest
        rest ^= low
        origin = low.bit_length() - 1
        occupied = occupied_all & ~low
        if kings & low:
            search = KingCaptures(rays, origin, occupied, opp, pieces, names, graph, compiled)
            longest = max(longest, search.longest)
            found.append(search)
            continue
        assert extend is not None  # a man that may capture
        if compiled:
            man = ManCaptures.search(rays, origin, occupied, opp, pieces, names, crowning,
                                     partial(_spell_walk, extend, origin, occupied, names))
            if man is not None:
                longest = max(longest, man.longest)
                found.append(man)
                continue
        walked: list = []
        extend(origin, False, 0, (), (), walked, occupied)
        sequences = [(origin, final, captured, king_end, path, order)
                     for final, captured, path, order, king_end in walked]
        longest = max(longest, max((s[2].bit_count() for s in sequences), default=0))
        found.append(sequences)
    return found, longest


def listed(found: list[Searched], longest: int, names: Names | None, want: str) -> list:
    """The longest captures of `found`, as `MoveGenerator.captures` lists them for
    `want` (a `ManCaptures` is only made for UNSPELT and GROUPED)."""
    result: list = []
    for here in found:
        if isinstance(here, KingCaptures):
            if here.longest == longest:
                if want == PATHS:
                    here.paths(result)
                elif want == FIRSTS:
                    here.firsts(result)
                elif want == UNSPELT:
                    here.unspelt(result)
                else:
                    here.moves(result)
        elif isinstance(here, ManCaptures):
            if here.longest == longest:
                if want == UNSPELT:
                    here.unspelt(result)
                else:
                    here.moves(result)
        else:
            longest_here = [s for s in here if s[2].bit_count() == longest]
            if names is not None:
                longest_here = named(longest_here, names)
            result.extend(wanted(longest_here, want))
    return result


def counted(found: list[Searched], longest: int, paths: bool) -> int:
    """How many moves (or with `paths`, paths) `listed` would give, no path spelt (a
    `ManCaptures` is only made when counting moves)."""
    count = 0
    for here in found:
        if isinstance(here, KingCaptures):
            if here.longest == longest:
                count += here.path_count() if paths else here.move_count()
        elif isinstance(here, ManCaptures):
            if here.longest == longest:
                count += here.move_count()
        else:
            longest_here = [s for s in here if s[2].bit_count() == longest]
            count += len(longest_here if paths else {(s[0], s[1], s[2]) for s in longest_here})
    return count


def _spell_walk(extend: Callable[..., bool], origin: int, occupied: int, names: Names,
                longest: int) -> list[Spelt]:
    """Every path of the man on `origin` that takes `longest` pieces, walked, grouped by
    move (first path, its capture order, every path) in the order of first paths."""
    walked: list = []
    extend(origin, False, 0, (), (), walked, occupied)
    sequences = [(origin, final, captured, king_end, path, order)
                 for final, captured, path, order, king_end in walked
                 if captured.bit_count() == longest]
    return [cast(Spelt, group[4]) for group in grouped(named(sequences, names))]
