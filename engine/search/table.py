"""The transposition table: what earlier searches learned about a position.

A fixed number of slots (a power of two), indexed by the low bits of the
Zobrist key, so its memory is bounded on a 512 MB Raspberry Pi whatever the
length of the search: 2^16 slots hold about 7 MB when full. Each slot is one
tuple `(key, depth, bound, score, move_index, generation)`; `move_index` is the
best move's index in the position's generated move list (generation is
deterministic, so an index is a compact, exact way to name it again).

Replacement keeps the deeper result of the current search and always
overwrites results left by an earlier search (`new_search` ages them).
"""

from __future__ import annotations

from engine.errors import EngineError

EXACT, LOWER, UPPER = 0, 1, 2  # score is exact / at least / at most


class TranspositionTable:
    __slots__ = ("slots", "mask", "generation")

    def __init__(self, bits: int = 16) -> None:
        if isinstance(bits, bool) or not isinstance(bits, int) or not 8 <= bits <= 24:
            raise EngineError("a transposition table has between 2^8 and 2^24 slots: "
                              f"bits from 8 to 24, not {bits!r:.20}")
        self.slots: list[tuple | None] = [None] * (1 << bits)
        self.mask = (1 << bits) - 1
        self.generation = 0

    def new_search(self) -> None:
        """Mark every stored entry as old, so the next search may overwrite it freely."""
        self.generation = (self.generation + 1) & 0xFFFF

    def clear(self) -> None:
        self.slots = [None] * len(self.slots)

    def probe(self, key: int) -> tuple | None:
        entry = self.slots[key & self.mask]
        if entry is not None and entry[0] == key:
            return entry
        return None

    def store(self, key: int, depth: int, bound: int, score: int, move_index: int) -> None:
        index = key & self.mask
        old = self.slots[index]
        if (old is None or old[5] != self.generation or old[0] == key or depth >= old[1]):
            self.slots[index] = (key, depth, bound, score, move_index, self.generation)

    def filled(self) -> float:
        """Share of slots in use (for the bench's memory figures)."""
        return sum(1 for s in self.slots if s is not None) / len(self.slots)
