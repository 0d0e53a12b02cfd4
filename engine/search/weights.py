"""Evaluation weights per variant family, in centi-men (a man is worth 100).

Why per family: what a piece is worth follows from the rules. A flying king
sweeps the board and is worth about three men; a short king (English,
Italian) one and a half at most. Men that capture only forwards (Portuguese,
Spanish, Italian, English) cannot turn back to fight, so the back rank and
the kings count for more there. The numbers are set from draughts practice
and checked by self-play matches (`make bench`), not fitted to test positions.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Weights:
    king: int  # a king, against 100 for a man
    tempo_opening: int  # per rank a man has advanced, with most men still on the board
    tempo_ending: int  # the same once most men are gone: men racing to be crowned
    centre: int  # per man on the central squares
    back_guard: int  # per man still on its own back row while the enemy has men
    back_key: int  # extra for the back-row squares that guard best (see `key_back_files`)
    runaway: int  # a man no enemy man can stop, while the enemy has no king
    king_mobility: int  # per square a king can move to
    long_diagonal: int  # a flying king on the long diagonal (the "main road")
    trapped_king: int  # a king with no square to move to
    blocked_man: int  # a man with no forward square free
    trade: int  # when ahead, the lead grows as pieces come off: lead * trade / pieces
    # Back-row files (inner coordinates, White's side; Black's are turned 180 degrees)
    # whose men stop enemy men from being crowned: the "bridge" in English draughts.
    key_back_files: tuple[int, ...] = ()


_FLYING = dict(tempo_opening=2, tempo_ending=7, centre=6, back_guard=6, back_key=6, runaway=90,
               king_mobility=2, long_diagonal=20, trapped_king=40, blocked_man=4, trade=60)

WEIGHTS: dict[str, Weights] = {
    "brazilian": Weights(king=300, key_back_files=(2, 4), **_FLYING),
    "russian": Weights(king=290, key_back_files=(2, 4), **_FLYING),
    "pool": Weights(king=290, key_back_files=(2, 4), **_FLYING),
    "international": Weights(king=320, **{**_FLYING, "tempo_opening": 1, "tempo_ending": 5,
                                          "back_guard": 4, "long_diagonal": 15}),
    # Men capture forwards only: kings dominate, and an unguarded back row falls fast.
    "portuguese": Weights(king=330, key_back_files=(2, 4),
                          **{**_FLYING, "back_guard": 9, "back_key": 8}),
    "spanish": Weights(king=330, key_back_files=(2, 4),
                       **{**_FLYING, "back_guard": 9, "back_key": 8}),
    # Short kings: worth a man and a half; the bridge (c1 and g1 for White) holds
    # the back row in English draughts.
    "english": Weights(king=150, tempo_opening=1, tempo_ending=4, centre=5, back_guard=6,
                       back_key=10, runaway=30, king_mobility=3, long_diagonal=0,
                       trapped_king=25, blocked_man=3, trade=50, key_back_files=(2, 6)),
    # Italian men may not capture kings: a king is safer, hence worth a little more.
    "italian": Weights(king=165, tempo_opening=1, tempo_ending=4, centre=5, back_guard=6,
                       back_key=8, runaway=35, king_mobility=3, long_diagonal=0,
                       trapped_king=25, blocked_man=3, trade=50, key_back_files=(2, 6)),
}


def weights_for(variant_name: str) -> Weights:
    return WEIGHTS[variant_name]
