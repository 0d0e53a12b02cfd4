"""Hands the long soak found (issue 7) where the mover's piece was still travelling
when the next player's hand seemed to answer it: a piece of theirs touched or
taken off while the mover's piece was in the air, and a landing that then looked
like their reply. Each stream is the one `python -m hands` generated for the
family, variant and seed named in the test, cut to the moves that matter.
"""

from __future__ import annotations

from replaykit import fens, moves, notices, run

RUSSIAN_KINGS = "W:WK12,K21:B3,5,9,10,11,17,22,23,24,K30,K32"


def test_a_piece_taken_off_while_the_king_rests_on_its_way_is_no_reply() -> None:
    # From `python -m hands --family long-king` (seed 143108 in Russian). White's king
    # 21x13 takes 17, 9, 23, 24 and 11. It rests on 14 (c5, where the capture a3xc5
    # that loops back there also ends) while White takes 9 off, then touches down on
    # 18 for 34 ms on its way to 27. "The loop, then Black's 9x18 taking the king"
    # fits those switches, but the lift of 9 was read as White's capture underway (a
    # piece the longer route takes): it is no start of Black's, so the touch-down
    # proves nothing. The king goes on; only 21x13 is committed.
    events = [
        {"t": 467, "lift": 17},
        {"t": 586, "lift": 21},
        {"t": 824, "place": 17},
        {"t": 858, "lift": 17},
        {"t": 926, "place": 14},
        {"t": 1453, "lift": 9},
        {"t": 1487, "lift": 14},
        {"t": 1861, "place": 18},
        {"t": 1895, "lift": 18},
        {"t": 1997, "place": 27},
        {"t": 2557, "lift": 23},
        {"t": 2574, "lift": 27},
        {"t": 2863, "place": 20},
        {"t": 3288, "lift": 20},
        {"t": 3543, "place": 16},
        {"t": 3594, "lift": 16},
        {"t": 3696, "place": 2},
        {"t": 4172, "lift": 2},
        {"t": 4426, "place": 6},
        {"t": 4443, "lift": 6},
        {"t": 4494, "place": 9},
        {"t": 4562, "lift": 9},
        {"t": 4630, "place": 13},
        {"t": 5123, "lift": 24},
        {"t": 5667, "lift": 11},
    ]
    out = run("russian", events, RUSSIAN_KINGS)
    assert [m["fen"] for m in moves(out)] == ["B:WK12,K13:B3,5,10,22,K30,K32"]
    assert not notices(out, "illegal-board")


INTERNATIONAL_LOOP = (
    "W:W30,33,34,35,36,37,40,41,42,43,44,45,46,47,50:"
    "B1,2,3,4,5,6,7,9,12,13,15,20,22,23,32"
)


def test_a_loop_going_on_past_its_end_square_is_no_move_a_touch_can_answer() -> None:
    # From `python -m hands --family opponent-touch` (seed 263138 in International).
    # White's man 37x28 takes five pieces on a loop that passes 28 twice. Black
    # touches the man on 2 while White's man is in the air; the man touches down on
    # 28, goes on to 19 and then 8. "37x28 finished, then Black's 2-8" fit the switches
    # at that moment, but the man came down on 19 after leaving 28, a square Black's
    # 2-8 never passes: it was still travelling. Black puts 2 back and plays 9-14.
    events = [
        {"t": 16, "lift": 12},
        {"t": 553, "lift": 32},
        {"t": 916, "lift": 37},
        {"t": 1642, "lift": 2},
        {"t": 1689, "place": 32},
        {"t": 1752, "lift": 32},
        {"t": 1831, "place": 28},
        {"t": 2241, "lift": 28},
        {"t": 2510, "place": 19},
        {"t": 2857, "lift": 19},
        {"t": 3299, "place": 8},
        {"t": 3756, "lift": 8},
        {"t": 4025, "place": 17},
        {"t": 4245, "lift": 17},
        {"t": 4435, "place": 28},
        {"t": 4829, "lift": 23},
        {"t": 5082, "lift": 13},
        {"t": 5650, "lift": 22},
        {"t": 6092, "place": 2},
        {"t": 7512, "lift": 9},
        {"t": 8270, "lift": 47},
        {"t": 8348, "place": 14},
        {"t": 8822, "place": 47},
    ]
    out = run("international", events, INTERNATIONAL_LOOP)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("international", INTERNATIONAL_LOOP, "37x28", "9-14")
    assert not [r for r in out if "takeback" in r]
    assert not notices(out, "illegal-board")


SPANISH_KING = "B:W10,11,21,22,25:BK3,20,24,27,28,29"


def test_a_touch_as_the_king_touches_down_proves_nothing_once_it_goes_on() -> None:
    # From `python -m hands --family opponent-touch` (seed 263084 in Spanish). Black's
    # king 3x2 takes four men. White touches 25 44 ms before the king first touches
    # down on 6, the end of the same capture by a shorter way: "3x6, and White
    # starting" fits that moment. The king then comes down on 13, 17, 26, 19 and 15:
    # it was on its way, so when it passes 6 again on its way to 2 nothing is
    # committed there.
    events = [
        {"t": 51, "lift": 11},
        {"t": 140, "lift": 3},
        {"t": 769, "lift": 25},
        {"t": 813, "place": 6},
        {"t": 846, "lift": 6},
        {"t": 945, "place": 13},
        {"t": 1000, "lift": 13},
        {"t": 1055, "place": 17},
        {"t": 1596, "lift": 17},
        {"t": 2004, "place": 26},
        {"t": 2159, "lift": 26},
        {"t": 2556, "place": 19},
        {"t": 2644, "lift": 19},
        {"t": 2710, "place": 15},
        {"t": 3130, "lift": 15},
        {"t": 3428, "place": 6},
        {"t": 3494, "lift": 6},
        {"t": 3571, "place": 2},
        {"t": 3814, "lift": 10},
        {"t": 3880, "lift": 22},
        {"t": 4255, "lift": 21},
        {"t": 4740, "place": 25},
    ]
    out = run("spanish", events, SPANISH_KING)
    assert [m["fen"] for m in moves(out)] == ["W:W25:BK2,20,24,27,28,29"]
    assert not notices(out, "illegal-board")


INTERNATIONAL_KING = (
    "B:W27,32,34,36,41,42,45,46,47,49,50:B1,2,3,4,5,6,7,8,9,10,11,14,15,19,24,25,K48"
)


def test_a_touched_piece_read_as_taken_does_not_make_the_last_removal_a_start() -> None:
    # From the mixed family (seed 274646 in International, 20 plies). Black's king 48x40
    # takes 42, 34 and 27; White touches 32 while the king is in the air. Once 34 is
    # off, the board is the end of the other route 48x40 (taking 32, 34, 42), with 32
    # read as taken off early. Then 27 comes off: "that route, and White starting with
    # 27" and "48x40 taking 27, its last piece taken off while White holds 32" fit the
    # same switches. Neither is proved; 32 put back shows which. Then 45x34 takes the king.
    events = [
        {"t": 609, "lift": 48},
        {"t": 1031, "lift": 32},
        {"t": 1104, "place": 37},
        {"t": 1148, "lift": 37},
        {"t": 1206, "place": 31},
        {"t": 1512, "lift": 42},
        {"t": 1541, "lift": 31},
        {"t": 1745, "place": 18},
        {"t": 2022, "lift": 18},
        {"t": 2196, "place": 29},
        {"t": 2255, "lift": 29},
        {"t": 2342, "place": 40},
        {"t": 2502, "lift": 34},
        {"t": 2910, "lift": 27},
        {"t": 2983, "place": 32},
        {"t": 4308, "lift": 45},
        {"t": 4760, "place": 34},
        {"t": 4833, "lift": 40},
    ]
    out = run("international", events, INTERNATIONAL_KING)
    played = [m["fen"] for m in moves(out)]
    assert played == [
        "W:W32,36,41,45,46,47,49,50:B1,2,3,4,5,6,7,8,9,10,11,14,15,19,24,25,K40",
        "B:W32,34,36,41,46,47,49,50:B1,2,3,4,5,6,7,8,9,10,11,14,15,19,24,25",
    ]
    assert not notices(out, "illegal-board")


PORTUGUESE_KING = "B:W4,5,6,7,8,11,15:BK1,18,20,22,23,24,27,28,31"


def test_a_piece_picked_up_again_before_the_touched_piece_lands_was_travelling() -> None:
    # From `python -m hands --family opponent-touch --touch-move on` (seed 292089 in
    # Portuguese). Black's king 1x17 takes 7, 6, 15 and 5, touching down on its way.
    # White lifts 8 while the king is in the air. The king rests on 19 (the end of the
    # same capture by a shorter way), is lifted again, and touches down on 12: "1x19,
    # then White's 8-12" fits that landing, but Black picked the king up again before
    # White's piece could have landed: it was still travelling. White puts 8 back
    # after the king lands on 17, then plays 11-14.
    events = [
        {"t": 102, "lift": 7},
        {"t": 362, "lift": 6},
        {"t": 433, "lift": 1},
        {"t": 1023, "lift": 8},
        {"t": 1118, "place": 14},
        {"t": 1189, "lift": 14},
        {"t": 1248, "place": 19},
        {"t": 1732, "lift": 19},
        {"t": 2181, "place": 12},
        {"t": 2322, "lift": 12},
        {"t": 2688, "place": 7},
        {"t": 2747, "lift": 7},
        {"t": 2830, "place": 3},
        {"t": 3078, "lift": 15},
        {"t": 3125, "lift": 3},
        {"t": 3361, "place": 6},
        {"t": 3409, "lift": 6},
        {"t": 3468, "place": 13},
        {"t": 3491, "lift": 13},
        {"t": 3550, "place": 17},
        {"t": 4117, "lift": 5},
        {"t": 4530, "place": 8},
        {"t": 5782, "lift": 11},
        {"t": 6125, "place": 14},
    ]
    out = run("portuguese", events, PORTUGUESE_KING, touch_move=True)
    played = [m["fen"] for m in moves(out)]
    assert played == [
        "W:W4,8,11:BK17,18,20,22,23,24,27,28,31",
        "B:W4,8,14:BK17,18,20,22,23,24,27,28,31",
    ]
    assert not notices(out, "illegal-board")
