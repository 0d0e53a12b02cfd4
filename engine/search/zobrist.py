"""Zobrist hashing of positions in the engine's inner bit layout.

Why: the transposition table and the repetition check need a key per
position that is cheap to update after a move. A Zobrist key is the XOR of
one random 64-bit number per (piece kind, square) plus one for the side to
move, so a move changes it by XORing the few numbers it touches (origin,
destination, captured pieces) instead of rehashing three bitboards.

The numbers come from a fixed seed: keys are the same in every process, so a
position analysed in a worker process and in the host agree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = range(4)
_SEED = 0x5EED_D4A6  # fixed: keys must be reproducible across runs and processes


@dataclass(frozen=True)
class ZobristKeys:
    """Random keys for one board size: `pieces[kind][bit]` and `black_to_move`."""

    pieces: tuple[tuple[int, ...], ...]
    black_to_move: int

    def hash(self, white: int, black: int, kings: int, white_to_move: bool) -> int:
        """The key of a whole position, computed from scratch (used at the root)."""
        key = 0 if white_to_move else self.black_to_move
        for kind, mask in (
            (WHITE_MAN, white & ~kings),
            (WHITE_KING, white & kings),
            (BLACK_MAN, black & ~kings),
            (BLACK_KING, black & kings),
        ):
            table = self.pieces[kind]
            while mask:
                low = mask & -mask
                key ^= table[low.bit_length() - 1]
                mask ^= low
        return key


@cache
def keys_for(bits: int) -> ZobristKeys:
    """Keys for boards whose bit indices are below `bits` (one table per board size)."""
    rng = random.Random(_SEED + bits)
    pieces = tuple(tuple(rng.getrandbits(64) for _ in range(bits)) for _ in range(4))
    return ZobristKeys(pieces=pieces, black_to_move=rng.getrandbits(64))
