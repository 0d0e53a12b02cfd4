"""The compiled capture search (engine/capture_search.c), when it was built.

`setup.py` builds it as an optional extension: `pip install` compiles it wherever a
C compiler is found (it includes no Python header) and carries on without it
otherwise. This module finds and loads it with ctypes; `endings` then searches one
piece's longest captures under the majority rule with flying kings, a king's or a
man's, and gives what the Python search would find (`engine.king_captures` for a
king, the walk of `engine.capture_walk` for a man): the number of pieces taken, the
states searched and the endings (landing, pieces taken as compact bits) in the
order of their first paths.

`engine.majority_captures` asks here first, for a caller that reads no path at once, and
searches in Python when `endings` gives None: the library is missing,
`DRAUGHTSBOARD_PURE_PYTHON` is set, or the search outgrew the library's tables.
Paths are always spelt in Python, from a Python search made when they are first
read.

Invariant: with the library or without it, every caller sees the same moves in the
same order (tests/engine/test_native_captures.py compares them board by board).
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager

from engine.rays import Rays

LIBRARY = "engine._capture_search"
CAPACITY = 4096  # endings one call may return; more, and the search is made in Python

_out_land = (ctypes.c_int32 * CAPACITY)()
_out_taken = (ctypes.c_uint64 * CAPACITY)()
_counts = (ctypes.c_int32 * 2)()


def _load() -> ctypes._NamedFuncPointer | None:
    """The library's `longest_captures`, or None where it was not built or is turned off."""
    if os.environ.get("DRAUGHTSBOARD_PURE_PYTHON"):
        return None
    spec = importlib.util.find_spec(LIBRARY)
    if spec is None or spec.origin is None:
        return None
    try:
        # PyDLL holds the GIL through the call: the library's tables are static
        library = ctypes.PyDLL(spec.origin)
    except OSError:
        return None
    function = library.longest_captures
    function.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64,
                         ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                         ctypes.c_void_p]
    function.restype = ctypes.c_int
    return function


_longest_captures = _load()
_ADDRESSES = (ctypes.addressof(_out_land), ctypes.addressof(_out_taken), CAPACITY,
              ctypes.addressof(_counts))


def available() -> bool:
    """Whether the compiled search is in use."""
    return _longest_captures is not None


@contextmanager
def python_only() -> Iterator[None]:
    """Inside, every search is made in Python (the benchmarks time both ways)."""
    global _longest_captures
    kept, _longest_captures = _longest_captures, None
    try:
        yield
    finally:
        _longest_captures = kept


_tables: dict[int, tuple[Rays, ctypes.Array[ctypes.c_int8], int]] = {}


def _neighbours(rays: Rays) -> int:
    """The address of the board's neighbour table as the library reads it: per square *
    4 + direction, the next square along the ray, -1 at the edge. Kept per `Rays`
    object (by identity: hashing one hashes all its tables)."""
    kept = _tables.get(id(rays))
    if kept is None:
        table = (ctypes.c_int8 * len(rays.ray))(*[ray[0] if ray else -1 for ray in rays.ray])
        kept = _tables[id(rays)] = (rays, table, ctypes.addressof(table))
    return kept[2]


def endings(rays: Rays, origin: int, occupied: int, opp: int,
            king: bool = True) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The longest captures of the piece on `origin` (not in `occupied`; a flying king,
    or a man capturing in all four directions) against `opp`: (pieces taken, states
    searched, endings as (landing, pieces taken as compact bits,
    `engine.king_captures.EnemyPieces`) in the order of first paths); None where the
    library cannot say."""
    if _longest_captures is None or len(rays.ray) > 256:
        return None
    address = _neighbours(rays)
    land, taken, capacity, counts = _ADDRESSES
    found = _longest_captures(address, origin, occupied, opp, king, land, taken, capacity,
                              counts)
    if found < 0:
        return None
    return _counts[0], _counts[1], list(zip(_out_land[:found], _out_taken[:found],
                                           strict=True))
