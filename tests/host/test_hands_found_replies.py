"""Hands the long soak found (issue 7), where the next player's hands seem to prove a
move: each stream is the one `python -m hands` generated for the family, variant
and seed named in the test, cut to the moves that matter. Mostly the evidence that
fits two moves (test_hands_found_captures.py: captures and kings on the way).
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


SPANISH = "B:W1,2,3,4,8,13,16:B11,23,24,28,29,30,31,32"


def test_a_move_lifted_again_for_the_next_capture_is_committed_when_the_reply_lands() -> None:
    # From `python -m hands --family blitz` (seed 3058 in Spanish). Black 31-27; White's
    # 3-6 lands in the very scan Black lifts 27 (the reply's start proves 3-6, whose
    # piece must still stay a moment on 6). 189 ms later White lifts the man off 6
    # again to capture, and Black's 27-22 lands: a reply carried down after 3-6
    # landed, so 3-6 was finished. Then 6x15 takes 11.
    events = [
        {"t": 1348, "lift": 31},
        {"t": 1671, "place": 27},
        {"t": 1709, "lift": 3},
        {"t": 2032, "place": 6},
        {"t": 2032, "lift": 27},
        {"t": 2221, "lift": 6},
        {"t": 2240, "place": 22},
        {"t": 2487, "place": 15},
        {"t": 2582, "lift": 11},
    ]
    out = run("spanish", events, SPANISH)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("spanish", SPANISH, "31-27", "3-6", "27-22", "6x15")
    assert not notices(out, "illegal-board")


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


PORTUGUESE = "W:W3,4,12,15,K32:BK1,K2,24,25,26"


def test_a_king_taken_where_it_stopped_is_not_read_as_going_on_with_a_touch() -> None:
    # From `python -m hands --family blitz` (seed 5051 in Portuguese). White's king
    # 32-5 touches 28 and 19 on the way and comes down on 5. Black takes it off, lifts
    # the king from 1 and lands on 14. "The king went on to 14 (Black holding the king
    # from 1, lifted before White's piece came down: a touch)" fits the same switches
    # as "32-5, then 1x14": nothing may be committed while the hands go on; the board
    # standing still is only the two plies' (the touched king never comes back).
    events = [
        {"t": 4156, "lift": 32},
        {"t": 4436, "place": 28},
        {"t": 4498, "lift": 28},
        {"t": 4591, "place": 19},
        {"t": 4669, "lift": 19},
        {"t": 4762, "place": 5},
        {"t": 4871, "lift": 5},
        {"t": 4902, "lift": 1},
        {"t": 5368, "place": 14},
    ]
    out = run("portuguese", events, PORTUGUESE)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE, "32-5", "1x14")
    assert not notices(out, "illegal-board")


RUSSIAN_KING = "B:W20,29:B1,3,4,5,6,7,8,16,K32"


def test_a_king_captured_where_it_came_down_last() -> None:
    # From the blitz family (seed 5031 in Russian). Black's king g1 touches down on
    # d4 and comes down on c5 (32-18, 32-14); White takes it off at once and captures
    # h4xf6xd8xb6xf2, crowning on d8. A flying king from b6 takes a piece on c5 as
    # well as on d4, so "g1-d4" and "g1-c5", each followed by that capture, explain
    # the still board; but d4 was left before c5 was filled, and nothing of White's
    # was in the hand then: the king stood last on c5.
    events = [
        {"t": 4120, "lift": 32},
        {"t": 4508, "place": 18},
        {"t": 4576, "lift": 18},
        {"t": 4633, "place": 14},
        {"t": 4713, "lift": 14},
        {"t": 4781, "lift": 20},
        {"t": 5124, "place": 11},
        {"t": 5535, "lift": 11},
        {"t": 6025, "place": 2},
        {"t": 6197, "lift": 6},
        {"t": 6242, "lift": 2},
        {"t": 6402, "place": 6},
        {"t": 6448, "lift": 6},
        {"t": 6505, "place": 9},
        {"t": 6961, "lift": 9},
        {"t": 7395, "place": 27},
        {"t": 7555, "lift": 7},
        {"t": 7749, "lift": 16},
    ]
    out = run("russian", events, RUSSIAN_KING)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("russian", RUSSIAN_KING, "g1-c5", "h4xf6xd8xb6xf2")
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


POOL_KING = "W:WK2:B9,10,11,13,19,21,22,24,25,K30,K31"


def test_a_captured_piece_taken_off_before_the_capture_started_is_no_reply() -> None:
    # From the long-king family (seed 10088 in Pool). Black's man on 9, one of the
    # pieces White's king will take, comes off before the king is even lifted. The king
    # touches down on the way and comes to rest on 5. Reading the touch-down on 7 as
    # "2x7 with its four captured pieces forgotten, then Black's 9 landing on 14" took
    # a piece lifted before White started for Black's reply.
    events = [
        {"t": 749, "lift": 9},
        {"t": 1181, "lift": 2},
        {"t": 1569, "place": 7},
        {"t": 1603, "lift": 7},
        {"t": 1669, "place": 16},
        {"t": 1747, "lift": 16},
        {"t": 1802, "place": 20},
        {"t": 2146, "lift": 20},
        {"t": 2512, "place": 27},
        {"t": 2823, "lift": 27},
        {"t": 3144, "place": 23},
        {"t": 3178, "lift": 23},
        {"t": 3244, "place": 18},
        {"t": 3322, "lift": 18},
        {"t": 3355, "place": 14},
        {"t": 3444, "lift": 14},
        {"t": 3522, "place": 5},
        {"t": 3821, "lift": 24},
        {"t": 4032, "lift": 11},
    ]
    out = run("pool", events, POOL_KING)
    assert [m["fen"] for m in moves(out)] == fens("pool", POOL_KING, "2x20x27x5")
    assert not notices(out, "illegal-board")


POOL_GOES_ON = "W:W26,27,29,31,32:B1,3,4,5,7,14,15,17,20"


def test_a_landing_that_is_the_last_move_going_on_or_the_reply_commits_neither() -> None:
    # From the mixed family (seed 10159 in Pool). White plays 27-23 and Black lifts 20.
    # A second later White touches its man on 23 and Black's man lands on 24: "27-23
    # went on to 24, Black still holding 20" fits as well as "Black played 20-24,
    # White touching 23". Nothing is re-read; once 23 is back, 20-24 is committed.
    events = [
        {"t": 812, "lift": 27},
        {"t": 1049, "place": 23},
        {"t": 1189, "lift": 20},
        {"t": 2069, "lift": 23},
        {"t": 2125, "place": 24},
        {"t": 2823, "place": 23},
    ]
    out = run("pool", events, POOL_GOES_ON)
    assert [m["fen"] for m in moves(out)] == fens("pool", POOL_GOES_ON, "27-23", "20-24")
    assert not [r for r in out if "move-corrected" in r]
    assert not notices(out, "illegal-board")


BRAZILIAN_CHAIN = "W:W5,12,20,21,25,27,28,29,30,31,32:B2,3,4,7,8,10,11"


def test_a_reply_passing_over_the_movers_square_does_not_move_its_start() -> None:
    # From the mixed family (seed 3105 in Brazilian, touch-move on). White crowns 5-1;
    # Black plays 10-15 and White takes the man off 84 ms later, lifts the new king
    # and captures 1x19, touching down on 10, the square Black's man had left; Black
    # lifts 11 and plays 11-15. The king's touch-down on 10 is no later start of
    # Black's 10-15: White's king was lifted after Black started, so it answers it.
    events = [
        {"t": 18793, "lift": 5},
        {"t": 19178, "place": 1},
        {"t": 19466, "lift": 10},
        {"t": 19815, "place": 15},
        {"t": 19899, "lift": 15},
        {"t": 20080, "lift": 1},
        {"t": 20501, "place": 10},
        {"t": 20561, "lift": 10},
        {"t": 20633, "place": 19},
        {"t": 20718, "lift": 11},
        {"t": 21909, "place": 15},
    ]
    out = run("brazilian", events, BRAZILIAN_CHAIN, touch_move=True)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("brazilian", BRAZILIAN_CHAIN, "5-1", "10-15", "1x19", "11-15")
    assert not notices(out, "illegal-board")


POOL_LATE = "W:WK1,21,K22,23,24,27,28,29,32:B4,5,15"


def test_a_king_that_brushed_a_square_and_went_on_is_answered_where_it_stopped() -> None:
    # From the late-removal family (seed 80051 in Pool). White's king 22x8 takes 15 but
    # leaves it on the board, brushing 11 for 61 ms on the way. Black starts 4x11 (the
    # king) 1.8 s later. "22x11, then Black's 4-8" fits the board once Black's man is
    # down, but something came down on 8 long before Black lifted anything: the king,
    # which had gone on.
    events = [
        {"t": 1686, "lift": 22},
        {"t": 3035, "place": 11},
        {"t": 3096, "lift": 11},
        {"t": 3173, "place": 8},
        {"t": 5012, "lift": 4},
        {"t": 5701, "place": 11},
        {"t": 8230, "lift": 15},
        {"t": 11541, "lift": 8},
    ]
    out = run("pool", events, POOL_LATE)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("pool", POOL_LATE, "22x8", "4x11")
    assert not notices(out, "illegal-board")


PORTUGUESE_FLYING = "B:W1,2,4,5,8,9,16,K30:BK3,21,24,25,28,29,31,32"


def test_a_king_taken_where_it_stopped_last_before_the_capturer_was_lifted() -> None:
    # From the blitz family at 1-3 ms (seed 81063 in Portuguese; bounce included).
    # Black's king 3-10 touches 6; White takes it off 79 ms after it lands, lifts its
    # king on 30 and captures 30x3 (taking 10 and 21), touching down on 17, 13, 10 and
    # 6; Black then starts 24-20. The flying king would have taken Black's king on 6,
    # 10 or 13 alike; it stood last on 10 before White's king was lifted (13 was the
    # capturer on its way). Nothing is read from the capturer coming down on 17 with
    # Black's king possibly gone on there.
    events = [
        {"t": 1786, "lift": 3},
        {"t": 2104, "place": 6},
        {"t": 2187, "lift": 6},
        {"t": 2257, "place": 10},
        {"t": 2336, "lift": 10},
        {"t": 2398, "lift": 30},
        {"t": 2400, "place": 30},
        {"t": 2403, "lift": 30},
        {"t": 2842, "place": 17},
        {"t": 3119, "lift": 17},
        {"t": 3123, "place": 17},
        {"t": 3126, "lift": 17},
        {"t": 3425, "place": 13},
        {"t": 3513, "lift": 13},
        {"t": 3556, "place": 10},
        {"t": 3613, "lift": 10},
        {"t": 3656, "place": 6},
        {"t": 3713, "lift": 6},
        {"t": 3792, "place": 3},
        {"t": 3840, "lift": 21},
        {"t": 3842, "place": 21},
        {"t": 3843, "lift": 21},
        {"t": 3940, "lift": 24},
        {"t": 4275, "place": 20},
    ]
    out = run("portuguese", events, PORTUGUESE_FLYING)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE_FLYING, "3-10", "30x3", "24-20")


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
