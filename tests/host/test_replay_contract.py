"""The `draughtsboard replay` contract, checked adversarially with the engine as oracle.

Each test is one defect found (and fixed) or one promise of the contract: fast replies,
exact LED roles for lifted pieces and at the start of every turn, and the handling of
odd input (garbage, time going backwards, huge gaps, empty streams, a finished FEN).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from humanise import humanise, random_game
from replaykit import VARIANTS, fens, frame_at, moves, role, run

from engine import Position, get_variant
from host.cli import main


def alarms(out: list[dict]) -> list[dict]:
    return [r for r in out if r.get("notice") == "illegal-board" or "takeback" in r]




START = get_variant("brazilian").initial_position().fen()


# -- fast replies -------------------------------------------------------------------


@pytest.mark.parametrize("gap", [0, 50, 150, 199, 200, 220, 249])
def test_fast_reply_does_not_lose_the_previous_move(gap: int) -> None:
    # c3-d4 lands at 400; Black lifts f6 `gap` ms later and plays f6-e5.
    events = [
        {"t": 100, "lift": 22},
        {"t": 400, "place": 18},
        {"t": 400 + gap, "lift": 11},
        {"t": 800 + gap, "place": 15},
    ]
    out = run("brazilian", events)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", START, "22-18", "11-15")
    assert alarms(out) == []
    assert 400 <= moves(out)[0]["t"] <= 400 + 600


def test_fast_reply_that_first_takes_off_the_piece_just_moved() -> None:
    # Black plays f6-e5 into a capture; White takes e5 off 100 ms after it landed (which
    # alone looks like Black lifting it again), then captures d4xf6.
    events = [
        {"t": 100, "lift": 22},
        {"t": 400, "place": 18},
        {"t": 1000, "lift": 11},
        {"t": 1300, "place": 15},
        {"t": 1400, "lift": 15},
        {"t": 1450, "lift": 18},
        {"t": 1800, "place": 11},
    ]
    out = run("brazilian", events)
    want = fens("brazilian", START, "22-18", "11-15", "18x11")
    assert [m["fen"] for m in moves(out)] == want
    assert alarms(out) == []
    # The turn after f6-e5 starts with a capture: its frame is printed at the commit.
    second = moves(out)[1]
    start_frames = [r for r in out if "leds" in r and r["t"] == second["t"]]
    assert role(start_frames[0]["leds"], "must-capture") == {18}
    # With e5 already off and d4 in the air, only f6 is left as a destination.
    assert role(frame_at(out, 1500), "destination") == {11}


def test_reply_touching_the_board_at_the_same_millisecond_as_the_landing() -> None:
    events = [
        {"t": 100, "lift": 22},
        {"t": 400, "place": 18},
        {"t": 400, "lift": 11},
        {"t": 800, "place": 15},
    ]
    out = run("brazilian", events)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", START, "22-18", "11-15")


def test_transient_final_board_inside_a_slide_still_never_commits() -> None:
    # A king brushes 25 (a legal destination) for 50 ms; 22 is pressed before 25 is
    # released. Neither is the next player's doing, so only 29-22 is committed.
    fen = "W:WK29:B4"
    events = [
        {"t": 100, "lift": 29},
        {"t": 400, "place": 25},
        {"t": 450, "place": 22},
        {"t": 460, "lift": 25},
    ]
    out = run("brazilian", events, fen)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", fen, "29-22")
    assert moves(out)[0]["t"] >= 460 + 200


@pytest.mark.parametrize("name", VARIANTS)
def test_fast_reply_soak(name: str) -> None:
    variant = get_variant(name)
    for seed in range(6):
        rng = random.Random(f"fast-{name}-{seed}")
        game = random_game(variant, rng, max_plies=rng.randint(20, 80))
        events, fens = humanise(variant, list(game.moves), rng, gap=(0, 199), noise=seed % 2 == 0)
        out = run(name, events)
        assert [m["fen"] for m in moves(out)] == fens, f"seed {seed}"
        assert alarms(out) == [], f"seed {seed}"


# -- LED roles ----------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_must_capture_and_destinations_are_exactly_the_rules(name: str) -> None:
    variant = get_variant(name)
    rng = random.Random(f"roles-{name}")
    checked_capture = 0
    for _ in range(10):
        game = random_game(variant, rng, max_plies=rng.randint(6, 70))
        if game.outcome() is not None:
            continue
        pos = game.position
        legal = pos.legal_moves()
        fen = pos.fen()
        capture = any(m.is_capture for m in legal)
        want = {m.origin for m in legal} if capture else set()
        assert role(frame_at(run(name, [], fen), 0), "must-capture") == want, fen
        checked_capture += capture
        for sq, piece in pos.pieces().items():
            frame = frame_at(run(name, [{"t": 100, "lift": sq}], fen), 400)
            mine = piece.color == pos.turn
            dests = {m.destination for m in legal if m.origin == sq} if mine else set()
            assert role(frame, "destination") == dests, (fen, sq, frame)


def test_must_capture_frame_after_every_committed_move() -> None:
    variant = get_variant("international")
    rng = random.Random("mc-after-move")
    game = random_game(variant, rng, max_plies=60)
    events, fens = humanise(variant, list(game.moves), rng)
    out = run("international", events)
    assert [m["fen"] for m in moves(out)] == fens
    captures = 0
    for i, record in enumerate(out):
        if "move" not in record:
            continue
        pos = Position.from_fen(record["fen"], variant)
        legal = pos.legal_moves()
        if not any(m.is_capture for m in legal):
            continue
        frame = next(r["leds"] for r in out[i:] if "leds" in r)
        assert role(frame, "must-capture") == {m.origin for m in legal}
        captures += 1
    assert captures > 0


def test_lifting_a_piece_with_no_move_clears_the_last_destinations() -> None:
    # 22 is put back and 30 (blocked) lifted in the same millisecond.
    events = [{"t": 100, "lift": 22}, {"t": 600, "place": 22}, {"t": 600, "lift": 30}]
    out = run("brazilian", events)
    assert role(frame_at(out, 500), "destination") == {17, 18}
    assert role(frame_at(out, 700), "destination") == set()


def test_destinations_follow_the_captured_piece_already_taken_off() -> None:
    fen = "W:W22:B17,18"
    pos = Position.from_fen(fen, get_variant("brazilian"))
    assert {m.destination for m in pos.legal_moves()} == {13, 15}
    out = run("brazilian", [{"t": 100, "lift": 17}, {"t": 500, "lift": 22}], fen)
    assert role(frame_at(out, 800), "destination") == {13}


# -- input handling -------------------------------------------------------------------


def call(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, list[dict], str]:
    code = main(["replay", *argv])
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    return code, records, captured.err


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "events.jsonl"
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def test_garbage_line_reports_its_number_after_replaying_what_came_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '{"t": 100, "lift": 22}\n{"t": 400, "place": 18}\nnot json\n{"t": 900, "lift": 11}\n'
    code, records, err = call(capsys, ["--variant", "brazilian", "--events", write(tmp_path, text)])
    assert code == 2
    assert "line 3" in err and "Traceback" not in err
    assert [r["move"] for r in records if "move" in r] == ["c3-d4"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"t": 100, "lift": 22}\n{"t": 50, "place": 18}\n', "backwards"),
        ('{"t": NaN, "lift": 22}\n', "non-negative"),
        ('{"t": Infinity, "lift": 22}\n', "non-negative"),
        ('{"t": -1, "lift": 22}\n', "non-negative"),
        ('{"t": 1, "lift": 33}\n', "square 33"),
        ('{"t": 1, "lift": 22, "place": 18}\n', "exactly one"),
        ("[1, 2]\n", "object"),
    ],
)
def test_bad_input_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, why: str
) -> None:
    code, _, err = call(capsys, ["--variant", "brazilian", "--events", write(tmp_path, text)])
    assert code == 2
    assert why in err and "Traceback" not in err


def test_huge_time_gap_is_replayed_quickly_and_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '{"t": 100, "lift": 22}\n{"t": 1000000000000, "place": 18}\n'
    began = time.monotonic()
    code, records, _ = call(capsys, ["--variant", "brazilian", "--events", write(tmp_path, text)])
    assert time.monotonic() - began < 5
    assert code == 0
    assert [(r["t"], r["move"]) for r in records] == [(1000000000250, "c3-d4")]


def test_byte_order_mark_and_blank_lines_are_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '\ufeff{"t": 100, "lift": 22}\n\n{"t": 400, "place": 18}\n'
    code, records, _ = call(capsys, ["--variant", "brazilian", "--events", write(tmp_path, text)])
    assert code == 0 and [r["move"] for r in records] == ["c3-d4"]


def test_empty_stream_prints_only_the_first_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "")
    code, records, _ = call(capsys, ["--variant", "international", "--events", path, "--leds"])
    assert code == 0 and records == [{"t": 0, "leds": {}}]


def test_finished_position_reports_its_outcome_at_once() -> None:
    out = run("brazilian", [], "B:W22:B")
    assert [r for r in out if "outcome" in r] == [
        {"t": 0, "outcome": "win", "winner": "W", "reason": "no-pieces"}
    ]


def test_stream_ending_mid_move_commits_nothing_and_raises_no_alarm() -> None:
    out = run("brazilian", [{"t": 100, "lift": 22}])
    assert moves(out) == [] and alarms(out) == []


def test_occupied_snapshots_mid_stream_and_as_first_event() -> None:
    pos = get_variant("brazilian").initial_position()
    after = pos.play(pos.parse_move("22-18"))
    events = [
        {"t": 100, "occupied": sorted(pos.occupied() - {22})},
        {"t": 400, "occupied": sorted(after.occupied())},
        {"t": 1000, "lift": 11},
        {"t": 1300, "place": 15},
    ]
    out = run("brazilian", events)
    assert [m["fen"] for m in moves(out)] == fens("brazilian", START, "22-18", "11-15")
