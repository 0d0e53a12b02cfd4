"""`draughtsboard analyse` through the real command line entry point."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine import Position, get_variant
from engine.search import analyse
from host.cli import main
from tests.engine.test_search_tactics import turned_round
from tests.paths import REPO

FIELDS = {"best", "from", "to", "captures", "score", "mate", "depth", "nodes", "pv"}
# Brazilian, White to move: c3-d4 gives a man and takes three (e5xc3, d2xf8).
SHOT = "W:W21,22,23,24,26,27,28,30,31:B1,4,5,7,8,12,14,15"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def legal_json(variant: str, fen: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    _, out, _ = run(capsys, "moves", "--variant", variant, "--fen", fen, "--json")
    return [json.loads(line) for line in out.splitlines()]


def test_json_object_has_exactly_the_issue_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "analyse", "--variant", "brazilian", "--fen", SHOT,
                           "--depth", "5", "--json")
    assert status == 0 and err == ""
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert set(record) == FIELDS
    assert record["best"] == "c3-d4" and (record["from"], record["to"]) == (22, 18)
    assert record["captures"] == []
    assert record["depth"] == 5 and record["nodes"] > 0 and record["mate"] is None
    assert 250 <= record["score"] < 1000  # three men for one, in centi-men
    assert record["pv"][:3] == ["c3-d4", "e5xc3", "d2xf8"]


def test_best_move_is_one_moves_lists_with_the_same_squares(
        capsys: pytest.CaptureFixture[str]) -> None:
    fen = "W:WK23:B28,17,10,20,29,39,40,38,31,8,9"  # one king capture of ten
    _, out, _ = run(capsys, "analyse", "--variant", "international", "--fen", fen, "--time",
                    "0.5", "--json")
    record = json.loads(out)
    legal = legal_json("international", fen, capsys)
    match = [m for m in legal if m["pdn"] == record["best"]]
    assert len(match) == 1
    assert (match[0]["from"], match[0]["to"], match[0]["captures"]) == (
        record["from"], record["to"], record["captures"])
    assert record["captures"] == sorted(record["captures"]) and len(record["captures"]) == 10


def test_mate_in_plies_from_the_side_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    # White takes Black's last piece: a win in one ply.
    _, out, _ = run(capsys, "analyse", "--variant", "brazilian", "--fen", "W:W22:B18",
                    "--depth", "3", "--json")
    record = json.loads(out)
    assert record["mate"] == 1 and record["best"] == "c3xe5" and record["captures"] == [18]
    # Black to move must give its last man away: lost in two plies.
    _, out, _ = run(capsys, "analyse", "--variant", "brazilian", "--fen", "B:W21,22:B13",
                    "--depth", "4", "--json")
    record = json.loads(out)
    assert record["mate"] == -2 and record["best"] == "a5-b4"
    assert record["score"] < -20000


def test_a_finished_position_has_no_best_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyse", "--variant", "russian", "--fen", "W:W:B1,2",
                         "--json")
    record = json.loads(out)
    assert status == 0 and record["best"] is None and record["mate"] == 0
    assert record["pv"] == [] and record["captures"] == []


def test_many_fens_each_with_its_fen_and_a_bad_line_reported(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SHOT}\n\nnot a fen\nW:W22:B18\n"))
    status, out, err = run(capsys, "analyse", "--variant", "brazilian", "--fens", "-",
                           "--depth", "3", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["fen"] for r in records] == [SHOT, "W:W22:B18"]
    assert all(set(r) == FIELDS | {"fen"} for r in records)
    assert status == 2
    assert err.count("\n") == 1 and "line 3" in err


def test_text_output_names_the_move_score_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyse", "--variant", "brazilian", "--fen", SHOT,
                         "--depth", "3")
    assert status == 0
    assert out.startswith("best c3-d4  score +") and "line c3-d4 e5xc3 d2xf8" in out


@pytest.mark.parametrize("args, message", [
    (["--fen", "W:W22:Bzz"], "cannot read square"),
    (["--fen", SHOT, "--depth", "0"], "--depth runs from 1 to 64 plies, not 0"),
    (["--fen", SHOT, "--depth", "-1"], "--depth runs from 1 to 64 plies, not -1"),
    (["--fen", SHOT, "--depth", "1.5"], "--depth is a whole number of plies"),
    (["--fen", SHOT, "--depth", "100"], "--depth runs from 1 to 64 plies, not 100"),
    (["--fen", SHOT, "--time", "-1"], "--time must be above 0 and at most 3600 seconds"),
    (["--fen", SHOT, "--time", "0"], "--time must be above 0 and at most 3600 seconds"),
    (["--fen", SHOT, "--time", "nan"], "--time must be a number of seconds, not NaN"),
    (["--fen", SHOT, "--time", "inf"], "not infinite"),
    (["--fen", SHOT, "--time", "1e9"], "at most 3600 seconds"),
    (["--fen", SHOT, "--time", "soon"], "--time is a number of seconds, not 'soon'"),
    (["--fens", "/nonexistent/fens.txt"], "cannot read /nonexistent/fens.txt"),
])
def test_errors_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                        message: str) -> None:
    status, out, err = run(capsys, "analyse", "--variant", "brazilian", *args)
    assert status == 2 and out == ""
    assert err.startswith("draughtsboard: ") and err.count("\n") == 1 and message in err


def test_unknown_variant_from_the_installed_command() -> None:
    done = subprocess.run([sys.executable, "-m", "host.cli", "analyse", "--variant", "chess",
                           "--fen", "W:W22:B18"], capture_output=True, text=True, cwd=REPO,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "unknown variant" in done.stderr


def test_scores_agree_between_colours_on_a_mirrored_position() -> None:
    """The score is from the side to move's view: the same position with colours
    and board turned round must score the same."""
    variant = get_variant("brazilian")
    position = Position.from_fen(SHOT, variant)
    turned = turned_round(position)
    assert analyse(position, depth=4).score == analyse(turned, depth=4).score


def test_a_depth_alone_still_stops_and_says_at_which_depth(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import host.commands.analyse as command

    monkeypatch.setattr(command, "DEPTH_TIME", 0.2)  # 60 s in use: a test cannot wait
    status, out, err = run(capsys, "analyse", "--variant", "brazilian", "--fen",
                           "W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12", "--depth", "64")
    assert status == 0 and out.startswith("best ")
    assert err.startswith("draughtsboard: stopped after 0.2 s at depth ")
    assert err.endswith("(give --time to search longer)\n")
