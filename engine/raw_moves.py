"""The move generator's plain data: raw moves, moves grouped as `Position.legal_moves()`
lists them, and the list operations every capture search shares (naming squares,
keeping each move's first path, grouping paths by move).

A raw move is (origin, destination, captured mask, king after, path, capture order):
origin, destination and mask are bit indices; path and order are bit indices too
unless written in a caller's names (`named`). Sequences are always in listing order
(the order the engine has always listed paths in), and every operation here keeps it.
"""

from __future__ import annotations

from engine.king_paths import PathsLater, Spelt

RawMove = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]
# (origin, destination, king after, pieces taken, (first path, its capture order,
# every path) or, for a capture found by layers (a flying king's, or any under the
# compiled search), the same spelt when asked)
Grouped = tuple[int, int, bool, frozenset[int], Spelt | PathsLater]
# what `MoveGenerator.captures` lists: every path, one raw move per move with its first
# path, moves as `grouped` lists them, or one raw move per move, those found by layers
# without path or order
PATHS, FIRSTS, GROUPED, UNSPELT = "paths", "firsts", "grouped", "unspelt"
Names = tuple[int, ...]  # bit index -> a number for it (the variant's square numbers)


def named(sequences: list[RawMove], names: Names) -> list[RawMove]:
    """`sequences` with each path and capture order written in `names`."""
    name = names.__getitem__
    return [(origin, destination, captured, king_after, tuple(map(name, path)),
             tuple(map(name, order)))
            for origin, destination, captured, king_after, path, order in sequences]


def wanted(sequences: list[RawMove], want: str) -> list:
    """`sequences` (every path, listing order) in the form `want` asks (see
    `MoveGenerator.captures`)."""
    if want == PATHS:
        return sequences
    if want == GROUPED:
        return grouped(sequences)
    return unique_moves(sequences)


def grouped(sequences: list[RawMove]) -> list[Grouped]:
    """`sequences` grouped by (origin, destination, captured set), in the order each
    group's first path comes (see `MoveGenerator.grouped`)."""
    groups: dict[tuple[int, int, int], list[RawMove]] = {}
    for s in sequences:
        key = (s[0], s[1], s[2])
        group = groups.get(key)
        if group is None:
            groups[key] = [s]
        else:
            group.append(s)
    return [(origin, destination, king_after, frozenset(order),
             (path, order, tuple([s[4] for s in group])))
            for (origin, destination, _, king_after, path, order), group
            in ((group[0], group) for group in groups.values())]


def unique_moves(sequences: list[RawMove]) -> list[RawMove]:
    """Keep the first path of each (origin, destination, captured set)."""
    seen: set[tuple[int, int, int]] = set()
    unique = []
    for s in sequences:
        key = (s[0], s[1], s[2])
        if key not in seen:
            seen.add(key)
            unique.append(s)
    return unique
