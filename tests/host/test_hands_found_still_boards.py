"""Hands the long soak found (issue 7) where only the board standing still tells what
was played: plies the hands finished without waiting for the board, read from the
order in which squares emptied and filled (the stories of host/recognition/). Each
stream is the one `python -m hands` generated for the family, variant and seed named
in the test, cut to the moves that matter.
"""

from __future__ import annotations

from replaykit import fens, moves, notices, run

PORTUGUESE_TRADE = "W:W2,5,6,18,21:B8,15,16,25,27,28,32"


def test_three_plies_beat_a_move_that_needs_a_piece_held_since_before_it() -> None:
    # From the mixed family (seed 83004 in Portuguese, 20 plies, a scan every 1 to 3
    # ms). White 18-22; Black takes 22 off at once and lifts 27, touches down on 22
    # and captures 27x18; White plays 21-26 while Black still touches 25. Read as one
    # move, the board is "White's man went back to 18, then 21-26, with Black holding
    # the man from 27 since before White started": Black's 27 never comes back. The
    # three plies explain every square.
    events = [
        {"t": 183, "lift": 18},
        {"t": 505, "place": 22},
        {"t": 599, "lift": 22},
        {"t": 774, "lift": 27},
        {"t": 777, "place": 27},
        {"t": 780, "lift": 27},
        {"t": 1161, "place": 22},
        {"t": 1211, "lift": 22},
        {"t": 1252, "place": 18},
        {"t": 1252, "lift": 25},
        {"t": 1258, "lift": 21},
        {"t": 1261, "place": 21},
        {"t": 1264, "lift": 21},
        {"t": 1843, "place": 25},
        {"t": 1935, "place": 26},
    ]
    out = run("portuguese", events, PORTUGUESE_TRADE)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE_TRADE, "18-22", "27x18", "21-26")
    assert not notices(out, "illegal-board")


def test_one_move_and_its_reply_still_count_with_a_piece_already_held() -> None:
    # The same board read the other way: White's 21-26 lands while Black has held the
    # man from 27 since before White started, and no earlier move and reply explain
    # the squares. The board standing still is White's 21-26 with Black's man lifted.
    events = [
        {"t": 100, "lift": 27},
        {"t": 600, "lift": 21},
        {"t": 1000, "place": 26},
    ]
    out = run("portuguese", events, PORTUGUESE_TRADE)
    assert [m["fen"] for m in moves(out)] == fens("portuguese", PORTUGUESE_TRADE, "21-26")


PORTUGUESE_KING = "W:W10:BK6,16,21,26,27,31"


def test_a_king_touching_down_on_the_movers_square_does_not_move_its_start() -> None:
    # From the mixed family (seed 110075 in Portuguese, 20 plies). White 10-13; Black
    # takes 13 off at once, and the king 6x17 touches down on 10 (the square White's
    # man left) on its way. The still board is 10-13 and 6x17: White's man left 10
    # before 13 filled, though 10 was last emptied after that (the king going on).
    events = [
        {"t": 114, "lift": 10},
        {"t": 435, "place": 13},
        {"t": 512, "lift": 13},
        {"t": 961, "lift": 6},
        {"t": 1628, "place": 10},
        {"t": 1653, "lift": 10},
        {"t": 1717, "place": 17},
    ]
    out = run("portuguese", events, PORTUGUESE_KING)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE_KING, "10-13", "6x17")
    assert not notices(out, "illegal-board")


BRAZILIAN_FORGOTTEN = "W:W23,26,27:B1,5,6,11,13,16,20,K30"


def test_a_move_committed_in_the_scan_its_piece_left_is_ordered_from_that_lift() -> None:
    # From the mixed family (seed 130439 in Brazilian, 20 plies, a scan every 1 to 3
    # ms). White 27-24; Black 20x18 (taking 24, forgotten, and 23); White's lift of 26
    # proves the capture, so 26 was lifted in the turn before White's 26-23 counts.
    # Black's king takes 23 off at once and captures 30x19, touching down on 26 on
    # the way. The still board is 26-23 and 30x19: White's man left 26 when the turn
    # began, not when the king last left that square.
    events = [
        {"t": 408, "lift": 27},
        {"t": 409, "place": 27},
        {"t": 412, "lift": 27},
        {"t": 790, "place": 24},
        {"t": 791, "lift": 24},
        {"t": 794, "place": 24},
        {"t": 874, "lift": 20},
        {"t": 1259, "place": 27},
        {"t": 1635, "lift": 27},
        {"t": 2089, "place": 18},
        {"t": 3008, "lift": 23},
        {"t": 3364, "lift": 26},
        {"t": 3754, "place": 23},
        {"t": 3833, "lift": 23},
        {"t": 3836, "lift": 30},
        {"t": 3839, "place": 30},
        {"t": 3843, "lift": 30},
        {"t": 4392, "place": 26},
        {"t": 4480, "lift": 26},
        {"t": 4567, "place": 19},
        {"t": 4570, "lift": 19},
        {"t": 4571, "place": 19},
        {"t": 6561, "lift": 24},
    ]
    out = run("brazilian", events, BRAZILIAN_FORGOTTEN)
    played = [m["fen"] for m in moves(out)]
    assert played == [
        "B:W23,24,26:B1,5,6,11,13,16,20,K30",
        "W:W26:B1,5,6,11,13,16,18,K30",
        "B:W23:B1,5,6,11,13,16,18,K30",
        "W:W:B1,5,6,11,13,16,18,K19",
    ]
    assert not notices(out, "illegal-board")


RUSSIAN_RUN = "W:WK5,22,25,29:B7,8,11,K32"


def test_a_run_of_four_plies_explains_a_board_two_would_leave_a_king_in_the_air() -> None:
    # From the mixed family (seed 140646 in Russian, 20 plies, a scan every 1 to 3
    # ms). White's king 5-23; Black takes it off at once and captures 32x9, touching
    # down on 27 and 14; White 25-21 (put down, back on 25, down on 21 again); Black
    # 9-14. Two plies (25-21, 32-14) fit only with White's king held since before
    # White's 25 was lifted. Four plies explain every square; of the squares where
    # White's king could have been taken, it stood on 23 when Black's king was lifted
    # (27 and 14 filled only after: Black's king on its way).
    events = [
        {"t": 257, "lift": 5},
        {"t": 728, "place": 23},
        {"t": 809, "lift": 23},
        {"t": 811, "place": 23},
        {"t": 815, "lift": 23},
        {"t": 913, "lift": 32},
        {"t": 1268, "place": 27},
        {"t": 1308, "lift": 27},
        {"t": 1401, "place": 14},
        {"t": 1433, "lift": 14},
        {"t": 1495, "place": 9},
        {"t": 1525, "lift": 25},
        {"t": 2060, "place": 21},
        {"t": 2064, "lift": 21},
        {"t": 2066, "place": 21},
        {"t": 2752, "lift": 21},
        {"t": 2966, "place": 25},
        {"t": 3395, "lift": 25},
        {"t": 3696, "place": 21},
        {"t": 3699, "lift": 21},
        {"t": 3701, "place": 21},
        {"t": 5019, "lift": 9},
        {"t": 5325, "place": 14},
        {"t": 5327, "lift": 14},
        {"t": 5329, "place": 14},
    ]
    out = run("russian", events, RUSSIAN_RUN)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("russian", RUSSIAN_RUN, "5-23", "32x9", "25-21", "9-14")
    assert not notices(out, "illegal-board")


BRAZILIAN_KING_ON = "W:W24,25,27,29,30:B1,4,5,9,11,K31"


def test_two_plies_never_have_the_movers_piece_leave_before_the_reply_began() -> None:
    # From the mixed family (seed 170932 in Brazilian, 20 plies, a scan every 1 to 3
    # ms). Black's king 10-21 touches 14 for 59 ms on the way; White lifts 25 6 ms
    # before the king lands on 21. "10-14, then 25-21, with Black's king lifted off 14
    # for the next move" would have that next move start before White's reply did:
    # the king was still travelling. It is 10-21, and White's 25-22 lands after.
    events = [
        {"t": 422, "lift": 24},
        {"t": 1167, "place": 19},
        {"t": 1745, "lift": 19},
        {"t": 1924, "place": 24},
        {"t": 2375, "lift": 24},
        {"t": 2621, "place": 19},
        {"t": 3909, "lift": 31},
        {"t": 4747, "place": 15},
        {"t": 4823, "lift": 15},
        {"t": 4906, "place": 10},
        {"t": 5727, "lift": 30},
        {"t": 6134, "place": 26},
        {"t": 6137, "lift": 26},
        {"t": 6140, "place": 26},
        {"t": 7541, "lift": 10},
        {"t": 7978, "place": 14},
        {"t": 8037, "lift": 14},
        {"t": 8122, "lift": 25},
        {"t": 8128, "place": 21},
        {"t": 9087, "lift": 27},
        {"t": 9154, "place": 22},
    ]
    out = run("brazilian", events, BRAZILIAN_KING_ON)
    assert [m["move"] for m in moves(out)] == ["g3-f4", "e1xd6", "c1-d2", "d6-a3", "b2-c3"]
    assert not notices(out, "illegal-board")


SPANISH_PUT_ON_TAKEN = "B:W1,13,15,18:B10,21,23,25,29"


def test_a_piece_landing_where_a_captured_piece_stood_is_read_on_a_still_board() -> None:
    # From the mixed family (seed 170110 in Spanish, 20 plies, a scan every 1 to 3 ms).
    # Black 21x14 takes 18 off; White's hand knocks Black's 10 lifting 13, puts 10
    # back a second later and lands 13-18, where the captured man stood. "The capture
    # still underway, 18 not taken off, White holding 13" and "21x14, 13-18" fit the
    # switches; the board standing still is the two plies.
    events = [
        {"t": 279, "lift": 21},
        {"t": 508, "place": 14},
        {"t": 624, "lift": 18},
        {"t": 670, "lift": 10},
        {"t": 672, "place": 10},
        {"t": 672, "lift": 13},
        {"t": 676, "lift": 10},
        {"t": 676, "place": 13},
        {"t": 678, "lift": 13},
        {"t": 1779, "place": 10},
        {"t": 1781, "lift": 10},
        {"t": 1783, "place": 10},
        {"t": 1947, "place": 18},
    ]
    out = run("spanish", events, SPANISH_PUT_ON_TAKEN)
    assert [m["fen"] for m in moves(out)] == fens(
        "spanish", SPANISH_PUT_ON_TAKEN, "21x14", "13-18"
    )
    assert not notices(out, "illegal-board")


SPANISH_TOUCHED = "B:W1,3,4,13,17,K20:B19,22,K24,25"


def test_no_run_of_plies_takes_a_piece_before_it_came_down() -> None:
    # From the opponent-touch family (seed 183014 in Spanish). Black's king captures
    # 24x2 (20 taken off first), touching down on 11 and 6; White lifts 3 while the
    # king is in the air and puts it back later. "24x11, White's 3-6, then 11x2
    # taking it" explains every square, but Black's king left 11 before anything
    # came down on 6: it was the king on its way. The capture counts once 3 is back.
    events = [
        {"t": 236, "lift": 20},
        {"t": 519, "lift": 24},
        {"t": 684, "lift": 3},
        {"t": 778, "place": 11},
        {"t": 872, "lift": 11},
        {"t": 931, "place": 6},
        {"t": 1002, "lift": 6},
        {"t": 1061, "place": 2},
        {"t": 1768, "place": 3},
    ]
    out = run("spanish", events, SPANISH_TOUCHED)
    assert [m["fen"] for m in moves(out)] == fens("spanish", SPANISH_TOUCHED, "24x2")
    assert not notices(out, "illegal-board")


SPANISH_TOUCH_ON_CAPTURE = "W:W2,4,5,8,9,16,K31:B17,22,25,32"


def test_a_capture_underway_with_an_opponents_touch_waits_for_its_pieces() -> None:
    # From the opponent-touch family (seed 193050 in Spanish). White's king captures
    # 31x13 (touching 27 and 18, 22 taken off last) while Black holds the man from 17,
    # put back after. Nothing was put down on a captured piece's square: the capture
    # is simply underway, and no still-board reading of two plies is tried on it.
    events = [
        {"t": 240, "lift": 31},
        {"t": 631, "lift": 17},
        {"t": 696, "place": 27},
        {"t": 761, "lift": 27},
        {"t": 852, "place": 18},
        {"t": 904, "lift": 18},
        {"t": 956, "place": 13},
        {"t": 1412, "lift": 22},
        {"t": 2141, "place": 17},
    ]
    out = run("spanish", events, SPANISH_TOUCH_ON_CAPTURE)
    assert [m["fen"] for m in moves(out)] == fens("spanish", SPANISH_TOUCH_ON_CAPTURE, "31x13")
    assert not notices(out, "illegal-board")


RUSSIAN_PUT_BACK = "W:WK1,22,23,25,28,30:B5,7,9,15,20,21"


def test_a_touched_piece_put_back_is_no_landing_on_a_captured_square() -> None:
    # From the mixed family (seed 190251 in Russian, 20 plies, a scan every 1 to 3 ms).
    # White's king captures 1x24 taking 15 (touching 6 and 19) while Black lifts 20
    # and puts it back; then Black's man from 20 takes White's king and 23 (landing on
    # 18). 20 put back is a touch, not a piece landing where a captured piece stood.
    events = [
        {"t": 413, "lift": 1},
        {"t": 929, "lift": 20},
        {"t": 990, "place": 6},
        {"t": 1062, "lift": 6},
        {"t": 1153, "place": 19},
        {"t": 1232, "lift": 19},
        {"t": 1280, "place": 24},
        {"t": 1774, "lift": 15},
        {"t": 1844, "place": 20},
        {"t": 2563, "lift": 20},
        {"t": 3025, "lift": 23},
        {"t": 3028, "place": 23},
        {"t": 3029, "lift": 23},
        {"t": 3211, "place": 23},
        {"t": 3248, "lift": 23},
        {"t": 3298, "place": 18},
        {"t": 3302, "lift": 18},
        {"t": 3305, "place": 18},
        {"t": 3784, "lift": 24},
    ]
    out = run("russian", events, RUSSIAN_PUT_BACK)
    played = [m["fen"] for m in moves(out)]
    assert played == ["B:W22,23,K24,25,28,30:B5,7,9,20,21", "W:W22,25,28,30:B5,7,9,18,21"]
    assert not notices(out, "illegal-board")


SPANISH_BLITZ = "W:W1,6,9,25:BK8,26,29,32"


def test_a_chain_of_seven_blitz_plies_reads_whole_on_the_still_board() -> None:
    # From `python -m hands --family blitz --scan 1 3` (seed 331003 in Spanish). From
    # Black's king 19x5 on, each ply starts 0 to 150 ms after the last change: White's
    # 1x10 takes the king 97 ms after it landed, and six more plies follow before the
    # board stands still. Only the run of all seven plies explains it.
    events = [
        {"t": 472, "lift": 6},
        {"t": 660, "place": 11},
        {"t": 792, "lift": 8},
        {"t": 983, "place": 12},
        {"t": 1064, "lift": 12},
        {"t": 1159, "lift": 11},
        {"t": 1159, "place": 19},
        {"t": 1551, "place": 14},
        {"t": 1553, "lift": 14},
        {"t": 1555, "place": 14},
        {"t": 1630, "lift": 14},
        {"t": 1632, "place": 14},
        {"t": 1635, "lift": 14},
        {"t": 1762, "lift": 19},
        {"t": 2028, "place": 14},
        {"t": 2075, "lift": 14},
        {"t": 2154, "place": 5},
        {"t": 2251, "lift": 5},
        {"t": 2253, "place": 5},
        {"t": 2255, "lift": 5},
        {"t": 2301, "lift": 1},
        {"t": 2620, "place": 10},
        {"t": 2631, "lift": 26},
        {"t": 2880, "place": 21},
        {"t": 2979, "lift": 9},
        {"t": 3160, "place": 13},
        {"t": 3195, "lift": 21},
        {"t": 3571, "place": 18},
        {"t": 3573, "lift": 18},
        {"t": 3576, "place": 18},
        {"t": 3657, "lift": 13},
        {"t": 3659, "place": 13},
        {"t": 3662, "lift": 13},
        {"t": 3890, "place": 22},
        {"t": 3963, "lift": 18},
        {"t": 3963, "lift": 29},
        {"t": 4137, "place": 26},
    ]
    out = run("spanish", events, SPANISH_BLITZ)
    played = [m["move"] for m in moves(out)]
    assert played == [
        "6-11", "8-19", "11-14", "19x5", "1x10", "26-21", "9-13", "21-18", "13x22", "29-26"
    ]
    assert not notices(out, "illegal-board")

