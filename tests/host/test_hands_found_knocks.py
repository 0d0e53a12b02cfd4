"""Hands the long soak found (issue 7) where a knock or a touch looks like a move or a
reply: a piece slid or pushed a moment after another square was left, a piece lifted
and put back, the opponent touching a piece one capture route takes. Each stream is
the one `python -m hands` generated for the family, variant and seed named in the
test, cut to the moves that matter (test_hands_found_replies.py: replies that seem to
prove a move; test_hands_found_captures.py: captures and kings on the way).
"""

from __future__ import annotations

import pytest
from replaykit import fens, moves, notices, run

pytestmark = pytest.mark.usefixtures("each_recogniser")


def test_a_knocked_piece_on_the_moves_square_is_no_move_for_a_reply_to_prove() -> None:
    # From the knocked family (seed 3030 in Brazilian): White plays 22-18 while its
    # neighbour 23 is knocked onto 17 and pushed back, and Black touches 14. The square
    # 18 filled before the knocked piece reached 17, so Black's "reply" read there is
    # White's own landing: c3-b4 (22-17) must not be committed.
    start = "W:W21,22,23,24,25,26,28,29,30,31,32:B1,2,3,4,6,7,8,11,12,14,15"
    events = [
        {"t": 5931, "lift": 22},
        {"t": 6174, "lift": 14},
        {"t": 6174, "place": 18},
        {"t": 6174, "lift": 23},
        {"t": 6187, "place": 17},
        {"t": 6268, "lift": 17},
        {"t": 6268, "place": 23},
        {"t": 6282, "place": 14},
    ]
    out = run("brazilian", events, start)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", start, "22-18")


ENGLISH = "W:W18,20,22,25,26,27,28,29,32:B1,4,6,8,9,12,13,14,19"


def test_a_touch_on_a_piece_one_route_takes_does_not_pick_the_route() -> None:
    # From the opponent-touch family (seed 5012 in English). After 22-17, Black's man
    # on 14 can take 18 and 26 (via 23) or 17 and 25 (via 21), both ending on 30.
    # Black goes via 23 while White touches its man on 17; once 30 is reached the board
    # reads as "via 21, 17 taken". White's 18 lifted then is a captured piece taken off
    # (via 23) as much as White's next move starting (via 21): neither is proved until
    # 17 comes back and the board shows 14x23x30.
    events = [
        {"t": 89, "lift": 22},
        {"t": 708, "lift": 13},
        {"t": 1197, "place": 13},
        {"t": 1392, "place": 17},
        {"t": 2273, "lift": 14},
        {"t": 2533, "lift": 17},
        {"t": 2615, "place": 23},
        {"t": 2762, "lift": 23},
        {"t": 3055, "place": 30},
        {"t": 3479, "lift": 18},
        {"t": 3870, "lift": 26},
        {"t": 4017, "place": 17},
        {"t": 5467, "lift": 17},
        {"t": 6185, "place": 14},
    ]
    out = run("english", events, ENGLISH)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("english", ENGLISH, "22-17", "14x23x30", "17-14")
    assert not notices(out, "illegal-board")


RUSSIAN_TOUCH = "B:W22,28,29,30,31:B1,3,4,5,6,7,8,9,10,12,20,K32"


def test_a_reply_lifted_before_the_king_first_came_down_answers_nothing() -> None:
    # From the opponent-touch family (seed 3126 in Russian). Black's king g1-d4
    # brushes e3 (53 ms) on the way while White touches c3 (22) and puts it back
    # later. "g1-e3, then White's c3-d4" fits the switches, but White's man was
    # lifted before the king reached e3: a touch, not a reply to a move that had
    # not yet happened.
    events = [
        {"t": 15202, "lift": 32},
        {"t": 15612, "lift": 22},
        {"t": 15666, "place": 23},
        {"t": 15719, "lift": 23},
        {"t": 15755, "place": 18},
        {"t": 16451, "place": 22},
    ]
    out = run("russian", events, RUSSIAN_TOUCH)
    assert [m["fen"] for m in moves(out)] == fens("russian", RUSSIAN_TOUCH, "g1-d4")
    assert not notices(out, "illegal-board")


PORTUGUESE_KNOCK = "B:W2,3,4,9,K13:BK1,8,21,24,26,32"


def test_a_piece_knocked_onto_a_square_in_the_very_scan_is_no_reply() -> None:
    # From the knocked family (seed 10145 in Portuguese). Black's king 1-10 touches 5
    # on the way; in the scan it lands on 10, White's king 13 is knocked onto 18 and
    # then pushed back. "1-5, then White 13-10 (and Black lifting 5)" fits the switches,
    # but 13 left and 10 filled in the same scan: no hand carried a piece there, however
    # long it then stands.
    events = [
        {"t": 2234, "lift": 1},
        {"t": 2619, "place": 5},
        {"t": 2673, "lift": 5},
        {"t": 2747, "place": 10},
        {"t": 2747, "lift": 13},
        {"t": 2747, "place": 18},
        {"t": 2820, "lift": 18},
        {"t": 2838, "place": 13},
    ]
    out = run("portuguese", events, PORTUGUESE_KNOCK)
    assert [m["fen"] for m in moves(out)] == fens("portuguese", PORTUGUESE_KNOCK, "1-10")


POOL_KNOCK = "B:W17,18,20,22,25,26,28,29,31:B6,8,9,13"


def test_a_knocked_piece_sliding_about_is_not_the_movers_piece_going_on() -> None:
    # From the mixed family (seed 3096 in Pool). Black plays 9-14; White takes the man
    # off 70 ms later, knocks Black's 13 onto 9 and pushes it back, then captures
    # 17x10x1 (taking 14 and 6). The pieces put down on 9 and 13 left another square a
    # moment before (a slide, a push): they are no sign that Black's man went on.
    events = [
        {"t": 2283, "lift": 9},
        {"t": 2654, "place": 14},
        {"t": 2724, "lift": 14},
        {"t": 3142, "lift": 13},
        {"t": 3165, "place": 9},
        {"t": 3200, "lift": 9},
        {"t": 3223, "place": 13},
        {"t": 3235, "lift": 17},
        {"t": 3955, "place": 10},
        {"t": 4094, "lift": 10},
        {"t": 4466, "place": 1},
        {"t": 5058, "lift": 6},
    ]
    out = run("pool", events, POOL_KNOCK)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("pool", POOL_KNOCK, "9-14", "17x10x1")
    assert not notices(out, "illegal-board")


BRAZILIAN_TWO_KNOCKS = "W:W25,27,29,30,31:B1,2,3,4,6,9,10,15,20,21"


def test_a_piece_slid_onto_a_legal_square_is_no_move_a_knock_can_prove() -> None:
    # From the mixed family at 1-3 ms (seed 83028 in Brazilian; bounce included). White
    # knocks its man on 30 onto 26 (32 ms: a slide, though c1-d2 is a legal move) and
    # Black's 21 onto 17 a moment later; both are pushed back, then White plays 25-22.
    # Black's knocked piece is no reply, and a piece that slid is no move to prove.
    events = [
        {"t": 8886, "lift": 30},
        {"t": 8888, "place": 30},
        {"t": 8890, "lift": 30},
        {"t": 8918, "place": 26},
        {"t": 8922, "lift": 21},
        {"t": 8969, "place": 17},
        {"t": 9123, "lift": 26},
        {"t": 9133, "place": 30},
        {"t": 9141, "lift": 17},
        {"t": 9169, "place": 21},
        {"t": 9171, "lift": 25},
        {"t": 9900, "place": 22},
        {"t": 9904, "lift": 22},
        {"t": 9908, "place": 22},
    ]
    out = run("brazilian", events, BRAZILIAN_TWO_KNOCKS)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("brazilian", BRAZILIAN_TWO_KNOCKS, "25-22")
    assert not [r for r in out if "move-corrected" in r or "takeback" in r]


SPANISH_TOUCH = "W:W1,2,3,4,6,7,8,11,12:B14,20,21,24,25,27,29,30,31,32"


def test_a_touch_put_back_is_not_the_movers_piece_going_on() -> None:
    # From the mixed family at 1-3 ms (seed 83109 in Spanish; bounce included). White
    # captures 11x18 and takes the man off 14 52 ms later; Black takes 18 off at once,
    # touches 25 and puts it back, then captures 21x14. The man on 25 put back on its
    # own square is no sign that White's piece went on from 18.
    events = [
        {"t": 29200, "lift": 11},
        {"t": 29399, "place": 18},
        {"t": 29403, "lift": 18},
        {"t": 29408, "place": 18},
        {"t": 29451, "lift": 14},
        {"t": 29454, "place": 14},
        {"t": 29457, "lift": 14},
        {"t": 29488, "lift": 18},
        {"t": 29490, "place": 18},
        {"t": 29491, "lift": 18},
        {"t": 29775, "lift": 25},
        {"t": 29778, "place": 25},
        {"t": 29780, "lift": 25},
        {"t": 29904, "place": 25},
        {"t": 29907, "lift": 21},
        {"t": 30442, "place": 14},
    ]
    out = run("spanish", events, SPANISH_TOUCH)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("spanish", SPANISH_TOUCH, "11x18", "21x14")
    assert not notices(out, "illegal-board")


ENGLISH_KING = "W:WK2,18,20,21,25,28,29,30,32:B4,5,7,12,15,16"


def test_men_knocked_while_the_king_is_in_the_air_are_not_the_king_put_down() -> None:
    # From `python -m hands --family knocked --scan 1 3` (seed 291099 in English).
    # White's king 2x11 takes 7. While it is in the air, 15 (slid to 19 and pushed
    # back) and 16 (rocked) are knocked: men another capture could take. The king
    # then lands on 11 and 7 comes off. The men put back on their own squares are
    # those men, so the piece on 11 may be the king: 2x11 counts.
    events = [
        {"t": 97, "lift": 2},
        {"t": 521, "lift": 15},
        {"t": 524, "lift": 16},
        {"t": 527, "place": 15},
        {"t": 530, "lift": 15},
        {"t": 549, "place": 19},
        {"t": 617, "place": 15},
        {"t": 617, "lift": 19},
        {"t": 644, "place": 16},
        {"t": 717, "place": 11},
        {"t": 1071, "lift": 7},
        {"t": 1074, "place": 7},
        {"t": 1077, "lift": 7},
    ]
    out = run("english", events, ENGLISH_KING)
    assert [m["fen"] for m in moves(out)] == ["B:WK11,18,20,21,25,28,29,30,32:B4,5,12,15,16"]
    assert not notices(out, "illegal-board")



INTERNATIONAL_KNOCK_IN_THE_AIR = (
    "B:W29,32,35,36,37,39,40,41,42,43,44,45,46,49,50:B1,2,3,4,6,7,9,10,13,15,20,22"
)


def test_a_piece_knocked_onto_a_legal_square_while_the_mover_holds_on_is_no_move() -> None:
    # From `python -m hands --family mixed --timing human` (seed 5009 in International;
    # a knocked ply). Black carries 22 towards 28; the hand shoves White's 32 onto 27
    # (39 ms from leaving 32 to reaching 27), holds on 1.4 s, pushes it back and lands
    # on 28. "22-27, White's 32 lifted 39 ms before it landed and held as the reply"
    # fits the switches, but a reply prepared before the landing is carried at once:
    # held that long it proves nothing, and the board waits. One move, 22-28.
    events = [
        {"t": 19676, "lift": 22},
        {"t": 19908, "lift": 32},
        {"t": 19947, "place": 27},
        {"t": 21321, "lift": 27},
        {"t": 21340, "place": 32},
        {"t": 21495, "place": 28},
    ]
    out = run("international", events, INTERNATIONAL_KNOCK_IN_THE_AIR)
    assert [m["fen"] for m in moves(out)] == fens(
        "international", INTERNATIONAL_KNOCK_IN_THE_AIR, "22-28"
    )
    assert not [r for r in out if "move-corrected" in r or "takeback" in r]
    assert not notices(out, "illegal-board")
