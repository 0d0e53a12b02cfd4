"""Hands at the moment a piece lands (issue 20): a neighbour shoved in the same scan, a
piece shoved onto a legal square that stays there, and blitz replies that take the
landed piece off before any switch saw it land. Each stream is one that
`python -m hands` generated for the family, variant and seed named in the test (the
`knock-on-landing` and `instant-reply` families; `knocked` with `--timing human`), cut
to the moves that matter. Today's recogniser got each of them wrong before the model
changes they name.
"""

from __future__ import annotations

from replaykit import fens, moves, notices, run


def test_a_neighbour_shoved_onto_the_next_square_as_the_piece_lands_is_no_reply() -> None:
    # White 22-18; the landing hand shoves Black's 14 onto 17 in the scan before 18
    # fills, and pushes it back 200 ms later. "22-17 landed, Black lifting 14" fits the
    # switches for that moment, but a piece lifted as its neighbour fills within SLIDE
    # may be standing there: a knock, no reply. The board shows 22-18 once 14 is back.
    start = "W:W12,19,21,22,25,26,27,29,30,32:B1,2,3,4,5,9,11,13,14"
    events = [
        {"t": 15155, "lift": 22},
        {"t": 15560, "lift": 14},
        {"t": 15560, "place": 17},
        {"t": 15578, "place": 18},
        {"t": 15781, "lift": 17},
        {"t": 15800, "place": 14},
    ]
    out = run("brazilian", events, start)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", start, "22-18")
    assert not notices(out, "illegal-board")


def test_a_landing_and_a_shove_that_fit_two_moves_commit_neither() -> None:
    # From knock-on-landing (seed 0 in Russian). Black's c7 lands in the scan White's c5
    # is shoved: b6 and d6 fill together. "c7-b6, c5 shoved to d6" and "c7-d6, c5 shoved
    # to b6" fit the same switches (and "c7-b6, then White c5-d6" only with a reply whose
    # piece never left a hand: no ply). Nothing is committed; after the grace period the
    # board says it is wrong; once the piece on b6 goes back to c5 it is c7-d6.
    start = "B:W14,23,25,26,28,29,30,31,32:B1,2,3,4,5,6,8,12,13"
    events = [
        {"t": 27400, "lift": 6},
        {"t": 27736, "place": 9},
        {"t": 27736, "place": 10},
        {"t": 27736, "lift": 14},
        {"t": 33261, "lift": 9},
        {"t": 33496, "place": 14},
    ]
    out = run("russian", events, start)
    assert [m["fen"] for m in moves(out)] == fens("russian", start, "c7-d6")
    assert [n["t"] for n in notices(out, "illegal-board")] == [27736 + 3000]
    assert not [r for r in out if "takeback" in r or "move-corrected" in r]


def test_a_piece_shoved_onto_a_legal_square_is_no_move_however_long_it_stands() -> None:
    # From knocked with human timings (seed 1 in Russian). White's 31 is shoved onto 26
    # (19 ms: no hand carries a piece that fast) and stays 626 ms, longer than a final
    # board needs to settle; it is pushed back as White lifts 27, which goes to 24. The
    # shove was read as 31-26 and its push back as a takeback; it is no move.
    start = "W:W12,19,25,27,28,29,30,31,32:B1,2,3,4,8,10,11"
    events = [
        {"t": 100, "lift": 31},
        {"t": 119, "place": 26},
        {"t": 745, "lift": 26},
        {"t": 783, "lift": 27},
        {"t": 783, "place": 31},
        {"t": 1674, "place": 24},
    ]
    out = run("russian", events, start)
    assert [m["fen"] for m in moves(out)] == fens("russian", start, "f2-g3")
    assert not notices(out, "illegal-board")
    assert not [r for r in out if "takeback" in r]


def test_a_landing_taken_off_in_the_scan_it_came_down_is_told_by_the_capture() -> None:
    # From instant-reply (seed 1 in International). Black 10-14 lands as White lifts 22
    # (the same millisecond); White's 22-17 is taken off by Black before any scan saw it
    # on 17, and Black's 11 lands on 22. Only "22-17, 11x22" explains the still board.
    start = (
        "B:W16,22,35,36,37,38,39,40,41,43,44,45,46,47,48,49,50:"
        "B1,2,3,4,5,6,7,8,9,10,11,13,15,19,20"
    )
    events = [
        {"t": 100, "lift": 10},
        {"t": 571, "place": 14},
        {"t": 571, "lift": 22},
        {"t": 898, "lift": 11},
        {"t": 1303, "place": 22},
    ]
    out = run("international", events, start)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("international", start, "10-14", "22-17", "11x22")
    assert not notices(out, "illegal-board")


def test_a_king_takes_a_man_whose_landing_no_switch_saw() -> None:
    # From instant-reply (seed 1 in Brazilian). Black c7xa5 lands on a5 as White lifts
    # a1; White's a1-b2 is taken off by Black's king before it is seen on b2, and the
    # king lands on a3.
    start = "B:W9,18,29:B4,6,7,K30"
    events = [
        {"t": 100, "lift": 9},
        {"t": 146, "lift": 6},
        {"t": 573, "place": 9},
        {"t": 603, "lift": 9},
        {"t": 664, "place": 13},
        {"t": 664, "lift": 29},
        {"t": 1138, "lift": 30},
        {"t": 1443, "place": 21},
    ]
    out = run("brazilian", events, start)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("brazilian", start, "c7xa5", "a1-b2", "c1xa3")
    assert not notices(out, "illegal-board")


def test_a_blitz_chain_with_two_landings_nobody_saw_counts_whole() -> None:
    # From instant-reply (seed 8 in Spanish). Black 22-18 is taken by White's 13 before
    # it shows, White's capture lands on 22 and is taken by Black's 26 before it shows,
    # Black lands on 19, White plays 11-14 at once; then the board stands. Four plies,
    # two of them never seen landing: each taken piece is told by its taker's capture.
    start = "B:W1,2,3,4,5,6,7,8,9,11,12,13:B21,22,23,24,25,26,27,28,29,30,31,32"
    events = [
        {"t": 920, "lift": 22},
        {"t": 1275, "lift": 13},
        {"t": 1521, "lift": 26},
        {"t": 1794, "place": 19},
        {"t": 1863, "lift": 11},
        {"t": 2191, "place": 14},
    ]
    out = run("spanish", events, start)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("spanish", start, "22-18", "13x22", "26x19", "11-14")
    assert not notices(out, "illegal-board")


def test_a_king_capture_over_a_landing_nobody_saw_after_a_crowning_chain() -> None:
    # From instant-reply (seed 3 in Russian). White's new king on h8; Black f8-g7 is
    # taken by the king before it shows, the king touching down on its way and taking
    # two more men, landing on a5.
    start = "B:WK4,21,23,27,28,30,31,32:B1,2,3,5,9,10,12"
    events = [
        {"t": 100, "lift": 3},
        {"t": 324, "lift": 10},
        {"t": 469, "lift": 4},
        {"t": 693, "place": 11},
        {"t": 789, "lift": 11},
        {"t": 853, "place": 15},
        {"t": 1302, "lift": 15},
        {"t": 1766, "place": 6},
        {"t": 2231, "lift": 6},
        {"t": 2455, "place": 13},
        {"t": 2600, "lift": 9},
    ]
    out = run("russian", events, start)
    played = [m["fen"] for m in moves(out)]
    assert played == fens("russian", start, "f8-g7", "h8xa5")
    assert not notices(out, "illegal-board")
