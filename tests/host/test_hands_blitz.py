"""Blitz hands (issue 7) that the soak found: the evidence that fits two moves.

The stream is the one `python -m hands --family blitz` generated (seed 3002 in
Russian), cut to the moves that matter and shifted in time.
"""

from __future__ import annotations

from replaykit import fens, moves, notices, run

RUSSIAN = "W:WK3,21,23,24,25,26,27,28,30,31:B1,2,4,8,15,16,20"


def test_a_king_resting_then_captured_is_not_read_as_going_on() -> None:
    # White's king 3x6 (taking 8, 15, 16) rests on 6. In one scan Black lifts the
    # king to capture it while White takes off 8, Black's man from 1 is lifted and a
    # piece lands on 10. "The king went on to 10 (Black holding the man from 1)" and
    # "3x6, then Black 1x10" fit the same switches: nothing may be committed then.
    # White's 24 lifted does not tell them apart either (a touch, or White's next
    # move); the board standing still with 24 lifted, and 24-19 landing, only fit
    # 3x6, 1x10, 24-19.
    events = [
        {"t": 19, "lift": 16},
        {"t": 97, "lift": 3},
        {"t": 623, "place": 16},
        {"t": 643, "lift": 16},
        {"t": 818, "place": 6},
        {"t": 994, "lift": 15},
        {"t": 1150, "lift": 6},
        {"t": 1150, "lift": 8},
        {"t": 1189, "lift": 1},
        {"t": 1656, "place": 10},
        {"t": 1715, "lift": 24},
        {"t": 2143, "place": 19},
    ]
    out = run("russian", events, RUSSIAN)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("russian", RUSSIAN, "3x6", "1x10", "24-19")
    # Nothing committed while both readings fit (the landing on 10 and White's lift).
    assert all(m["t"] > 1715 + 200 for m in moves(out))
    assert not notices(out, "illegal-board")
