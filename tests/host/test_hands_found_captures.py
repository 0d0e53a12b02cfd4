"""Hands the long soak found (issue 7) around captures and kings on the way: captured
pieces forgotten or put back, routes between the same squares, a king touching down
and taken. Each stream is the one `python -m hands` generated for the family,
variant and seed named in the test, cut to the moves that matter
(test_hands_found_replies.py: replies that seem to prove a move).
"""

from __future__ import annotations

from replaykit import fens, moves, notices, run

BRAZILIAN_PUT_BACK = "B:W10,16,27,29,31:B5,12,K21"


def test_a_captured_square_filled_again_is_no_capture_going_on() -> None:
    # From the mixed family (seed 20156 in Brazilian). Black's king a3xh4 takes 10 and
    # 16; White's first lift proves it and it stays open (touch-move off). White then
    # holds its man from 27 on 16, where a captured piece stood: read as "the capture
    # still going on, 16 not yet taken", the board said nothing. A captured piece put
    # back is no move going on: the illegal board is announced after the grace period,
    # and the board is right again once the man is back on 27.
    events = [
        {"t": 19227, "lift": 21},
        {"t": 19701, "lift": 16},
        {"t": 19881, "place": 11},
        {"t": 19963, "lift": 11},
        {"t": 20028, "place": 16},
        {"t": 20110, "lift": 16},
        {"t": 20192, "place": 20},
        {"t": 20339, "lift": 10},
        {"t": 20339, "lift": 27},
        {"t": 20552, "place": 16},
        {"t": 26243, "lift": 16},
        {"t": 26652, "place": 27},
    ]
    out = run("brazilian", events, BRAZILIAN_PUT_BACK)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", BRAZILIAN_PUT_BACK, "a3xh4")
    alarms = notices(out, "illegal-board")
    assert [(a["missing"], a["extra"]) for a in alarms] == [([27], [16])]
    assert 20552 + 3000 <= alarms[0]["t"] < 26243
    assert notices(out, "board-ok")


INTERNATIONAL_KING = (
    "W:WK3,28,30,33,34,36,38,39,40,42,44,45,46,47,48,49,50"
    ":B1,2,5,6,7,9,10,11,14,15,18,19,20"
)


def test_two_plies_only_in_an_order_hands_could_play_them() -> None:
    # From the mixed family (seed 10030 in International). White's king 3-17 touches 8
    # and 12 on the way; Black lifts 11 once it is down and holds it on 26, a wrong
    # square, for under three seconds, then captures 11x22 and takes the king off.
    # "3-26, then 11-17" also explains the board with 26 filled, but 17 was filled
    # before 11 was lifted and before 26 was: no hands play it in that order.
    events = [
        {"t": 15268, "lift": 3},
        {"t": 15586, "place": 8},
        {"t": 15610, "lift": 8},
        {"t": 15659, "place": 12},
        {"t": 15733, "lift": 12},
        {"t": 15794, "place": 17},
        {"t": 15891, "lift": 11},
        {"t": 16136, "place": 26},
        {"t": 19079, "lift": 26},
        {"t": 19556, "place": 22},
        {"t": 19629, "lift": 17},
    ]
    out = run("international", events, INTERNATIONAL_KING)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("international", INTERNATIONAL_KING, "3-17", "11x22")
    assert not notices(out, "illegal-board")


ITALIAN_LATE = "W:WK4,8,17,20,22,25,31:B1,9,10,24"


def test_a_captured_piece_put_back_before_the_capture_began_is_still_left() -> None:
    # From the mixed family (seed 60018 in Italian). White plays 17-13, lifts the man
    # again and puts it back on 13 (nothing goes on). Black captures 9x18x27 over 13 and
    # 22 but takes off only 22; White takes the man on 27 off and captures 31x22, landing
    # where 22 stood, with 13 still forgotten on the board. 13 was lifted this turn,
    # but before Black started: it is the captured man, left, not a landing.
    events = [
        {"t": 11149, "lift": 17},
        {"t": 11660, "place": 13},
        {"t": 12342, "lift": 13},
        {"t": 12551, "place": 17},
        {"t": 13025, "lift": 17},
        {"t": 13290, "place": 13},
        {"t": 14048, "lift": 9},
        {"t": 14730, "place": 27},
        {"t": 14863, "lift": 22},
        {"t": 16209, "lift": 27},
        {"t": 17990, "lift": 31},
        {"t": 20113, "place": 27},
        {"t": 20208, "lift": 27},
        {"t": 20264, "place": 22},
    ]
    out = run("italian", events, ITALIAN_LATE)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("italian", ITALIAN_LATE, "17-13", "9x18x27", "31x22")
    assert not notices(out, "illegal-board")


PORTUGUESE_ROUTES = "B:W4,5,6,9,11,12,13:BK1,17,22,24,25,26,27,28,29,30"


def test_a_king_that_touched_down_on_another_routes_squares_did_not_play_this_one() -> None:
    # From the mixed family (seed 60006 in Portuguese). Black's king captures 1x14x7x16
    # (taking 5, 11 and 12) while White touches its man on 6; it touches down on 10,
    # 14 and 7. With 11 still on the board and 6 in White's hand, the board is the
    # final board of the other route, 1x10x3x16 (taking 5, 6 and 12), but the king
    # came down on 14, which that route never passes. That board is only on the way:
    # 11 comes off, 6 comes back, and 1x14x7x16 is committed.
    events = [
        {"t": 15886, "lift": 1},
        {"t": 16376, "lift": 6},
        {"t": 16474, "place": 10},
        {"t": 16533, "lift": 10},
        {"t": 16592, "place": 14},
        {"t": 16945, "lift": 12},
        {"t": 16984, "lift": 14},
        {"t": 17337, "place": 7},
        {"t": 17788, "lift": 5},
        {"t": 17828, "lift": 7},
        {"t": 18161, "place": 16},
        {"t": 18593, "lift": 11},
        {"t": 18710, "place": 6},
    ]
    out = run("portuguese", events, PORTUGUESE_ROUTES)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE_ROUTES, "1x14x7x16")
    assert not [r for r in out if "move-corrected" in r or "takeback" in r]


PORTUGUESE_RING = "W:WK16:BK2,5,6,7,8,11,19,K20,22,24"


def test_a_king_still_touching_down_has_not_finished_where_it_was_seen() -> None:
    # From the ring family (seed 62022 in Portuguese). White's king captures around
    # the board and comes home, 16x27x13x3x16, touching down on 12, 7, 3, 13, 18, 27
    # and 23; Black takes off 22 while the king is still travelling. "16x23x10x3x12
    # (the king seen on 12), then Black's 22-18" fit the switches when the king came
    # down on 18, but the king had come down on 7, 3 and 13 after leaving 12.
    events = [
        {"t": 657, "lift": 7},
        {"t": 879, "lift": 20},
        {"t": 1417, "lift": 16},
        {"t": 2047, "place": 12},
        {"t": 2121, "lift": 12},
        {"t": 2177, "place": 7},
        {"t": 2269, "lift": 7},
        {"t": 2343, "place": 3},
        {"t": 2658, "lift": 22},
        {"t": 2714, "lift": 3},
        {"t": 3196, "place": 13},
        {"t": 3622, "lift": 13},
        {"t": 3956, "place": 18},
        {"t": 3993, "lift": 18},
        {"t": 4067, "place": 27},
        {"t": 4456, "lift": 6},
        {"t": 4475, "lift": 27},
        {"t": 4679, "place": 23},
        {"t": 4753, "lift": 23},
        {"t": 4845, "place": 16},
    ]
    out = run("portuguese", events, PORTUGUESE_RING)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE_RING, "16x27x13x3x16")


PORTUGUESE_KING_TAKEN = "W:W1,3,5,8,9,16,K29:B21,23,25,27,30"


def test_a_king_taken_at_once_then_the_capturer_held_on_a_wrong_square() -> None:
    # From the mixed family (seed 3006 in Portuguese). White's king 29-19 touches 26 and
    # 22; Black takes it off 82 ms after it lands, holds the capturing man from 23 on
    # 20 (a wrong square) for 0.6 s, then lands on 14. "29-26, then 23-20" fit the
    # board while the man stood on 20, but the king came down on 22 and 19 after
    # leaving 26, before Black lifted anything: it had not stopped on 26.
    events = [
        {"t": 241, "lift": 29},
        {"t": 567, "place": 26},
        {"t": 633, "lift": 26},
        {"t": 698, "place": 22},
        {"t": 731, "lift": 22},
        {"t": 812, "place": 19},
        {"t": 894, "lift": 19},
        {"t": 1384, "lift": 23},
        {"t": 1988, "place": 20},
        {"t": 2592, "lift": 20},
        {"t": 2837, "place": 14},
    ]
    out = run("portuguese", events, PORTUGUESE_KING_TAKEN)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("portuguese", PORTUGUESE_KING_TAKEN, "29-19", "23x14")
    assert not notices(out, "illegal-board")


RUSSIAN_KING_HOME = "B:WK5,13,17,19,21,26,27:B20,K28"


def test_a_king_that_came_down_twice_on_its_end_square_went_on_there() -> None:
    # From the mixed family (seed 92057 in Russian). Black's king h2xb8 (28x1, taking
    # 19) touches down on 24 and 6 and comes down on 1; 19 comes off. Black then lifts
    # the king again as White lifts its king on 5 (same scan), and puts it back on 1;
    # White plays 5-14. The king came down on 1 after leaving 6 and before White lifted
    # anything: it did not stop on 6, so "h2xc7, then White's a7-b8" is no reading,
    # however late the last touch on 1.
    events = [
        {"t": 32717, "lift": 28},
        {"t": 33091, "place": 24},
        {"t": 33136, "lift": 24},
        {"t": 33240, "place": 6},
        {"t": 33330, "lift": 6},
        {"t": 33375, "place": 1},
        {"t": 33405, "lift": 19},
        {"t": 33480, "lift": 1},
        {"t": 33480, "lift": 5},
        {"t": 34302, "place": 1},
        {"t": 34571, "place": 14},
    ]
    out = run("russian", events, RUSSIAN_KING_HOME)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("russian", RUSSIAN_KING_HOME, "h2xb8", "a7-c5")


RUSSIAN_CHOICE = "W:W6,9,K17:BK8,14,16,20,22,24,K29,K30"
# From the long-king family (seed 141059 in Russian, a scan every 1 to 3 ms). White's
# king captures 17x28 taking 24, 14, 16 and 8 (Russian: any route, so 17x28 taking
# only 24 and 14 is legal too); 16 comes off 582 ms after 14. Then Black's 30-26.
RUSSIAN_CHOICE_EVENTS = [
    {"t": 571, "lift": 17},
    {"t": 1033, "place": 7},
    {"t": 1077, "lift": 7},
    {"t": 1135, "lift": 24},
    {"t": 1552, "place": 24},
    {"t": 1591, "lift": 24},
    {"t": 1636, "place": 28},
    {"t": 1819, "lift": 14},
    {"t": 2401, "lift": 16},
    {"t": 2928, "lift": 8},
    {"t": 3917, "lift": 30},
    {"t": 4278, "place": 26},
]


def test_captured_pieces_at_a_normal_pace_never_commit_the_shorter_capture() -> None:
    # A hand takes up to 0.6 s between captured pieces: the shorter capture's board on
    # the way holds longer than that, so only the capture played is announced.
    out = run("russian", RUSSIAN_CHOICE_EVENTS, RUSSIAN_CHOICE)
    played = [m["fen"] for m in moves(out)]
    assert played == ["B:W6,9,K28:B20,22,K29,K30", "W:W6,9,K28:B20,22,K26,K29"]
    assert not [r for r in out if "move-corrected" in r]
    assert not notices(out, "illegal-board")


def test_a_slow_removal_after_the_shorter_capture_counted_is_read_again() -> None:
    # The same hands, a second slower after 14: the shorter capture counts. Taking 16
    # off keeps it open (one more captured piece, or Black starting); 8 off is the
    # longer capture or Black's start, so the board waits; Black lifting 30 (which no
    # capture takes) shows 16 and 8 were captured pieces: read again at once, and
    # Black's 30-26 follows.
    events = [dict(e, t=e["t"] + (1000 if e["t"] > 2000 else 0)) for e in RUSSIAN_CHOICE_EVENTS]
    out = run("russian", events, RUSSIAN_CHOICE)
    assert moves(out)[0]["fen"] == "B:W6,9,K28:BK8,16,20,22,K29,K30"  # 24 and 14 only
    corrected = [r for r in out if "move-corrected" in r]
    assert [r["fen"] for r in corrected] == ["B:W6,9,K28:B20,22,K29,K30"]
    # At 30's lift at the latest (within a scan), not GRACE (nor HOLD) later. (The
    # explained recogniser may read it again a little sooner: Black holding 16 and 8
    # at once in the air fits worse and worse while the board stays.)
    assert 3928 < corrected[0]["t"] <= 4917 + 20
    assert moves(out)[-1]["fen"] == "W:W6,9,K28:B20,22,K26,K29"
    assert not notices(out, "illegal-board")


SPANISH_KING_HOME = "B:W1,5,6,7,13,17,K31:BK4"


def test_a_king_landing_where_a_captured_man_stood_is_not_that_man_put_back() -> None:
    # From the mixed family (seed 160003 in Spanish, 20 plies, a scan every 1 to 3 ms).
    # Black's king captures 4x24 (taking 5, 6, 7 and 13) but takes off only 13 and 7.
    # White's king, lifted from 31, touches 22 for 88 ms and comes down on 13, where
    # the captured man stood. The switches say "the man on 13 not taken off yet" as
    # well; the piece put down there was White's king, which only 31-13 explains.
    events = [
        {"t": 412, "lift": 4},
        {"t": 738, "place": 18},
        {"t": 1076, "lift": 18},
        {"t": 1079, "place": 18},
        {"t": 1085, "lift": 18},
        {"t": 1408, "place": 9},
        {"t": 1975, "lift": 9},
        {"t": 2275, "place": 2},
        {"t": 2507, "lift": 2},
        {"t": 2894, "place": 20},
        {"t": 2962, "lift": 20},
        {"t": 3009, "place": 24},
        {"t": 3356, "lift": 13},
        {"t": 3870, "lift": 7},
        {"t": 5694, "lift": 31},
        {"t": 7166, "place": 22},
        {"t": 7254, "lift": 22},
        {"t": 7351, "place": 13},
        {"t": 9073, "lift": 24},
        {"t": 9076, "place": 24},
        {"t": 9079, "lift": 24},
        {"t": 9634, "place": 15},
        {"t": 9701, "lift": 15},
        {"t": 9740, "place": 11},
    ]
    out = run("spanish", events, SPANISH_KING_HOME)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("spanish", SPANISH_KING_HOME, "4x24", "31-13", "24-11")
    assert not notices(out, "illegal-board")


INTERNATIONAL_TWICE = (
    "W:WK5,16,25,31,33,34,35,37,41,42,43,44,45,46,47,48,50:B1,2,4,6,7,8,9,11,13,15,17,18,19,29"
)


def test_a_capture_passing_its_end_square_twice_stands_where_it_came_back() -> None:
    # From the mixed family (seed 224407 in International, 20 plies). White's man
    # captures 34x23x12x3x14x23: it touches down on 23 on the way, goes round and
    # comes back to 23. 18 and 19 are forgotten; Black starts 17-22 (touching 11) and
    # lands. The man stood on 23 when Black started: its touch-downs on 12, 3 and 14
    # came before it came back, not after it finished.
    events = [
        {"t": 482, "lift": 34},
        {"t": 1113, "place": 23},
        {"t": 1308, "lift": 23},
        {"t": 1550, "place": 12},
        {"t": 1712, "lift": 12},
        {"t": 1938, "place": 3},
        {"t": 2116, "lift": 3},
        {"t": 2505, "place": 14},
        {"t": 3039, "lift": 14},
        {"t": 3233, "place": 23},
        {"t": 3734, "lift": 8},
        {"t": 3880, "lift": 29},
        {"t": 4074, "lift": 9},
        {"t": 5029, "lift": 11},
        {"t": 5029, "lift": 17},
        {"t": 6129, "place": 11},
        {"t": 6371, "place": 22},
    ]
    out = run("international", events, INTERNATIONAL_TWICE)
    assert [m["fen"] for m in moves(out)][0] == (
        "B:WK5,16,23,25,31,33,35,37,41,42,43,44,45,46,47,48,50:B1,2,4,6,7,11,13,15,17"
    )  # 8, 9, 18, 19 and 29 taken (18 and 19 still on the board)
    assert [m["move"] for m in moves(out)][1] == "17-22"
    assert not notices(out, "illegal-board")


RUSSIAN_SEVEN = "W:WK4,K31:B7,8,14,15,16,20,22,K27,K32"


def test_the_next_players_start_reads_the_longer_capture_before_their_piece_lands() -> None:
    # From the mixed family (seed 280500 in Russian, 20 plies, a scan every 1 to 3 ms).
    # White's king 31x10 takes seven pieces but leaves 27 on the board: the shorter
    # capture (six) counts. White carries the king about and back, takes 27 off (one
    # more captured piece, or Black starting with it: the board waits), then Black
    # lifts 32: the longer capture, read again at once. Black's king then touches down
    # on 27 for 0.8 s (a square the longer capture emptied) and goes on to 9.
    events = [
        {"t": 668, "lift": 31},
        {"t": 1140, "place": 24},
        {"t": 1522, "lift": 24},
        {"t": 1839, "place": 10},
        {"t": 2040, "lift": 7},
        {"t": 2302, "lift": 8},
        {"t": 2455, "lift": 14},
        {"t": 2601, "lift": 15},
        {"t": 2713, "lift": 16},
        {"t": 2946, "lift": 22},
        {"t": 2949, "place": 22},
        {"t": 2952, "lift": 22},
        {"t": 4756, "lift": 10},
        {"t": 5167, "place": 3},
        {"t": 5357, "lift": 3},
        {"t": 5728, "place": 12},
        {"t": 5961, "lift": 12},
        {"t": 6310, "place": 26},
        {"t": 6557, "lift": 26},
        {"t": 6560, "place": 26},
        {"t": 6563, "lift": 26},
        {"t": 7011, "place": 17},
        {"t": 7371, "lift": 17},
        {"t": 7852, "place": 10},
        {"t": 8326, "lift": 27},
        {"t": 9399, "lift": 32},
        {"t": 9992, "place": 27},
        {"t": 9995, "lift": 27},
        {"t": 9998, "place": 27},
        {"t": 10806, "lift": 27},
        {"t": 11111, "place": 9},
    ]
    out = run("russian", events, RUSSIAN_SEVEN)
    corrected = [r for r in out if "move-corrected" in r]
    assert corrected[0]["t"] == 9399 and corrected[0]["fen"] == "B:WK4,K10:B20,K32"
    played = [r for r in out if "move" in r or "move-corrected" in r]
    assert played[-1]["fen"] == "W:WK4,K10:BK9,20"  # Black's king went on to 9
    assert not notices(out, "illegal-board")


SPANISH_ROUTES = "B:W1,13,19,K20,K21,22:BK25"


def test_a_reply_landing_where_another_routes_captured_piece_stood_is_a_reply() -> None:
    # From the mixed family (seed 320123 in Spanish, 30 plies, a scan every 1 to 3 ms).
    # Black's king 25x16 takes 21, 20 and 22 (a route by 14 and 23 takes 19 instead).
    # The last piece off is 22, after the king landed; White lifts 19 at once and puts
    # it down on 22. The board is then the other route's end (19 taken, 22 touched and
    # put back), but 22 came off after the king landed, as a captured piece does, and
    # White's 19-22 landed on its square: the capture and its reply, then Black's king
    # 16-27.
    events = [
        {"t": 418, "lift": 25},
        {"t": 757, "place": 18},
        {"t": 1214, "lift": 18},
        {"t": 1495, "place": 27},
        {"t": 1965, "lift": 27},
        {"t": 2329, "place": 23},
        {"t": 2373, "lift": 23},
        {"t": 2469, "place": 16},
        {"t": 2572, "lift": 21},
        {"t": 2636, "lift": 20},
        {"t": 2802, "lift": 22},
        {"t": 2879, "lift": 19},
        {"t": 3578, "place": 22},
        {"t": 4791, "lift": 16},
        {"t": 6188, "place": 20},
        {"t": 6266, "lift": 20},
        {"t": 6339, "place": 23},
        {"t": 6425, "lift": 23},
        {"t": 6466, "place": 27},
    ]
    out = run("spanish", events, SPANISH_ROUTES)
    assert [m["fen"] for m in moves(out)] == [
        "W:W1,13,19:BK16",
        "B:W1,13,22:BK16",
        "W:W1,13,22:BK27",
    ]
    assert not notices(out, "illegal-board")

