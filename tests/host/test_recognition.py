"""The recogniser on the replay (simulated clock) against the real engine.

Each test is one thing real hands do; every expectation comes from the rules
(engine legal moves), never from a hard-coded answer of the recogniser.
"""

from __future__ import annotations

import json

import pytest
from replaykit import frame_at, moves, role, run

from engine import Game, Position, get_variant
from host.recognition.recogniser import HOLD
from tests.paths import SHARED

pytestmark = pytest.mark.usefixtures("each_recogniser")


def after(variant: str, fen: str, text: str) -> str:
    pos = Position.from_fen(fen, get_variant(variant))
    return pos.play(pos.parse_move(text)).fen()


def test_example_stream_commits_exactly_the_recorded_moves() -> None:
    events = [
        json.loads(line) for line in (SHARED / "examples/replay-brazilian.events.jsonl").open()
    ]
    expected = [
        json.loads(line) for line in (SHARED / "examples/replay-brazilian.expected.jsonl").open()
    ]
    out = run("brazilian", events)
    assert [m["fen"] for m in moves(out)] == [e["fen"] for e in expected]
    assert not [r for r in out if r.get("notice") == "illegal-board"]
    game = Game(get_variant("brazilian"))
    for got, want in zip(moves(out), expected, strict=True):
        move = game.position.parse_move(got["move"])
        assert (move.origin, move.destination, sorted(move.captures)) == (
            want["from"],
            want["to"],
            want["captures"],
        )
        game.push(move)


def test_lifted_piece_shows_exactly_its_legal_destinations() -> None:
    v = get_variant("brazilian")
    for origin in (21, 22, 23, 24):
        out = run("brazilian", [{"t": 100, "lift": origin}, {"t": 900, "place": origin}])
        legal = {m.destination for m in v.initial_position().legal_moves() if m.origin == origin}
        assert role(frame_at(out, 500), "destination") == legal
        assert moves(out) == []


def test_flying_king_slide_brushing_squares_commits_only_the_capture() -> None:
    fen = "W:WK29:B18,1"
    pos = Position.from_fen(fen, get_variant("brazilian"))
    events = [
        {"t": 100, "lift": 29},
        {"t": 400, "place": 25},
        {"t": 440, "lift": 25},  # brushes b2
        {"t": 470, "place": 22},
        {"t": 520, "lift": 22},  # and c3 on the way
        {"t": 600, "place": 15},
        {"t": 680, "lift": 15},  # e5 is itself legal: too brief
        {"t": 760, "place": 11},
        {"t": 1200, "lift": 18},
    ]
    out = run("brazilian", events, fen)
    assert role(frame_at(out, 200), "destination") == {m.destination for m in pos.legal_moves()}
    assert [m["fen"] for m in moves(out)] == [after("brazilian", fen, "29x11")]
    assert role(frame_at(out, 1000), "remove") == {18}
    # Once 18 is off, within the time the board stays still (the explained recogniser
    # commits as soon as no story of the king going on to g7 or h8 stands).
    assert 1200 <= moves(out)[0]["t"] <= 1200 + 600


def test_international_king_multi_capture_touch_downs_and_any_removal_order() -> None:
    fen = "W:WK47:B9,12,33"
    events = [
        {"t": 100, "lift": 12},  # a captured piece taken off before anything else
        {"t": 500, "lift": 47},
        {"t": 800, "place": 20},
        {"t": 1100, "lift": 20},
        {"t": 1300, "place": 3},
        {"t": 1700, "lift": 3},
        {"t": 1900, "place": 21},
        {"t": 2300, "lift": 33},
        {"t": 2700, "lift": 9},
    ]
    out = run("international", events, fen)
    legal = Position.from_fen(fen, get_variant("international")).legal_moves()
    assert role(frame_at(out, 600), "destination") == {m.destination for m in legal}
    assert role(frame_at(out, 1000), "landing") == {3}  # next landing after 20
    assert role(frame_at(out, 2000), "remove") == {9, 33}
    assert [m["fen"] for m in moves(out)] == [after("international", fen, "47x21")]


def test_jump_straight_to_the_end_of_a_multi_capture() -> None:
    fen = "W:WK47:B9,12,33"
    events = [{"t": 100, "lift": 47}, {"t": 600, "place": 26}]
    events += [{"t": 900, "lift": 33}, {"t": 1000, "lift": 12}, {"t": 1100, "lift": 9}]
    out = run("international", events, fen)
    assert [m["fen"] for m in moves(out)] == [after("international", fen, "47x26")]


def test_must_capture_pieces_lit_and_wrong_piece_flashes_them() -> None:
    fen = "W:W48,46:B24,K31,34,K42,43"
    pos = Position.from_fen(fen, get_variant("international"))
    out = run("international", [{"t": 300, "lift": 46}, {"t": 1500, "place": 46}], fen)
    assert role(frame_at(out, 0), "must-capture") == {m.origin for m in pos.legal_moves()} == {48}
    assert role(frame_at(out, 400), "capture-alert") == {48}
    assert [r for r in out if r.get("notice") == "capture-mandatory"]
    assert moves(out) == [] and not [r for r in out if r.get("notice") == "illegal-board"]
    assert role(frame_at(out, 1600), "must-capture") == {48}


def test_transient_state_never_commits() -> None:
    events = [
        {"t": 100, "lift": 22},
        {"t": 300, "place": 17},
        {"t": 450, "lift": 17},  # 150 ms on b4: transient
        {"t": 600, "place": 18},
    ]
    out = run("brazilian", events)
    assert [m["move"] for m in moves(out)] == ["c3-d4"]
    assert 800 <= moves(out)[0]["t"] <= 1200


def test_lift_and_return_and_touching_opponent_pieces_commit_nothing() -> None:
    events = [
        {"t": 100, "lift": 22},
        {"t": 900, "place": 22},
        {"t": 1500, "lift": 9},
        {"t": 2800, "place": 9},
    ]
    out = run("brazilian", events)
    assert moves(out) == []
    assert not [r for r in out if r.get("notice") == "illegal-board"]


def test_english_free_choice_accepts_the_shorter_capture() -> None:
    fen = "W:W21,22,27,29,32:B3,4,5,9,17,19,K30"
    pos = Position.from_fen(fen, get_variant("english"))
    assert {len(m.captures) for m in pos.legal_moves()} == {1, 2}
    out = run(
        "english", [{"t": 100, "lift": 21}, {"t": 500, "place": 14}, {"t": 900, "lift": 17}], fen
    )
    assert role(frame_at(out, 0), "must-capture") == {m.origin for m in pos.legal_moves()}
    assert [m["fen"] for m in moves(out)] == [after("english", fen, "21x14")]


def test_russian_state_on_the_way_to_a_longer_capture_waits_to_settle() -> None:
    fen = "W:W20,25,26,28,29,30:B1,6,7,8,9,14,16,22"
    v = get_variant("russian")
    pos = Position.from_fen(fen, v)
    ring = next(m for m in pos.legal_moves() if m.destination == m.origin == 26)
    longer = next(m for m in pos.legal_moves() if m.origin == 26 and m.destination == 19)
    # Taking the captured pieces off first gives exactly the board of the capture that
    # comes back to 26, which is also on the way to the others: a pause shorter
    # than the hold time, then the piece carried on to 19, must give 26x...x19.
    events = [{"t": 100 + 50 * i, "lift": c} for i, c in enumerate(sorted(ring.captures))]
    t = 100 + 50 * len(ring.captures) + int(HOLD * 1000) - 150
    events.append({"t": t, "lift": 26})
    events.append({"t": t + 400, "place": 19})
    out = run("russian", events, fen)
    assert [m["fen"] for m in moves(out)] == [pos.play(longer).fen()]
    # Left alone, the same state is the ring capture, committed once it has held.
    settle = 100 + 50 * (len(ring.captures) - 1)
    out = run("russian", events[: len(ring.captures)], fen)
    assert [m["fen"] for m in moves(out)] == [pos.play(ring).fen()]
    assert settle + 200 <= moves(out)[0]["t"] <= settle + HOLD * 1000 + 50


def test_russian_crowning_mid_capture_then_confirmation() -> None:
    fen = "B:W12,K17,24,25,26,29,30:B13"
    pos = Position.from_fen(fen, get_variant("russian"))
    move = next(m for m in pos.legal_moves() if m.promotes)
    events = [{"t": 100, "lift": 13}]
    t = 400
    for sq in move.path:
        events.append({"t": t, "place": sq})
        t += 300
        if sq != move.destination:
            events.append({"t": t, "lift": sq})
            t += 200
    for c in sorted(move.captures):
        events.append({"t": t, "lift": c})
        t += 100
    crowned_at = t + 700
    events += [
        {"t": crowned_at, "lift": move.destination},
        {"t": crowned_at + 500, "place": move.destination},
    ]
    out = run("russian", events, fen)
    assert [m["fen"] for m in moves(out)] == [pos.play(move).fen()]
    assert "K" + str(move.destination) in moves(out)[0]["fen"]
    assert role(frame_at(out, crowned_at - 10), "crown") == {move.destination}
    assert [r for r in out if r.get("notice") == "crown-confirmed"]
    assert role(frame_at(out, crowned_at + 800), "crown") == set()
    assert not [r for r in out if r.get("notice") == "illegal-board"]


def test_illegal_move_is_refused_guided_back_and_play_resumes() -> None:
    events = [
        {"t": 100, "lift": 22},
        {"t": 400, "place": 19},  # not a legal square
        {"t": 6000, "lift": 19},
        {"t": 6400, "place": 22},
        {"t": 7000, "lift": 22},
        {"t": 7400, "place": 18},
    ]
    out = run("brazilian", events)
    notice = next(r for r in out if r.get("notice") == "illegal-board")
    assert 400 + 2500 <= notice["t"] <= 400 + 3600
    assert notice["missing"] == [22] and notice["extra"] == [19]
    assert role(frame_at(out, 5000), "wrong") == {19, 22}
    assert [r for r in out if r.get("notice") == "board-ok"][0]["t"] == 6400
    assert [m["move"] for m in moves(out)] == ["c3-d4"]


def test_knocked_pieces_are_shown_one_pair_at_a_time() -> None:
    # Two men knocked forward at once: each alone would be a move, both together are not.
    events = [
        {"t": 100, "lift": 22},
        {"t": 110, "place": 18},
        {"t": 120, "lift": 21},
        {"t": 130, "place": 17},
    ]
    out = run("brazilian", events)
    wrong = role(frame_at(out, 4000), "wrong")
    assert len(wrong & {17, 18}) == 1 and len(wrong & {21, 22}) == 1  # take from, put on
    assert moves(out) == []


def test_physical_takeback_and_new_game_from_set_up() -> None:
    events = [
        {"t": 100, "lift": 22},
        {"t": 400, "place": 17},
        {"t": 1500, "lift": 17},
        {"t": 1800, "place": 22},  # put back: takeback
        {"t": 3000, "lift": 23},
        {"t": 3300, "place": 18},
        {"t": 4500, "lift": 10},
        {"t": 4800, "place": 14},
        {"t": 6000, "occupied": sorted(get_variant("brazilian").initial_position().occupied())},
    ]
    out = run("brazilian", events)
    takeback = next(r for r in out if "takeback" in r)
    assert takeback["fen"] == get_variant("brazilian").initial_position().fen()
    assert [m["move"] for m in moves(out)] == ["c3-b4", "e3-d4", "d6-c5"]
    assert [r for r in out if "new-game" in r]


def test_end_of_game_outcome_and_pattern() -> None:
    fen = "W:W22:B18"
    out = run(
        "brazilian", [{"t": 100, "lift": 22}, {"t": 400, "place": 15}, {"t": 700, "lift": 18}], fen
    )
    result = next(r for r in out if "outcome" in r)
    assert (result["outcome"], result["winner"], result["reason"]) == ("win", "W", "no-pieces")
    assert role(frame_at(out, 5000), "end") == {15}


def test_hint_levels() -> None:
    fen = "W:W48,46:B24,K31,34,K42,43"
    out = run("international", [{"t": 100, "lift": 48}], fen, hint_level="off")
    assert all(not r["leds"] for r in out if "leds" in r)
    out = run("brazilian", [{"t": 100, "lift": 22}], hint_level="captures")
    assert role(frame_at(out, 500), "destination") == set()  # no capture: no help
    out = run("international", [{"t": 100, "lift": 48}], fen, hint_level="captures")
    assert role(frame_at(out, 500), "destination") == {19}
