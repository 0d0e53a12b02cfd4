"""`perft`, `moves` and `play` through the real command line entry point."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Position, get_variant
from host.cli import main
from host.terminal_game import TerminalGame
from tests.engine.strategies import argv_like, fen_like, numbers, variant_names
from tests.paths import REPO


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_perft_prints_one_line_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "--variant", "international", "--depth", "3")
    assert status == 0
    assert out.splitlines() == ["1 9", "2 81", "3 658"]


def test_perft_from_a_fen_and_with_paths(capsys: pytest.CaptureFixture[str]) -> None:
    ring = "W:WKd2:Bc3,e3,c5,e5"
    _, moves_out, _ = run(capsys, "perft", "--variant", "brazilian", "--depth", "1", "--fen", ring)
    _, paths_out, _ = run(capsys, "perft", "--variant", "brazilian", "--depth", "1", "--fen", ring,
                          "--paths")
    assert int(paths_out.split()[1]) > int(moves_out.split()[1])


def test_moves_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "--variant", "international", "--json",
                         "--fen", "W:WK23:B28,17,10,20,29,39,40,38,31,8,9")
    assert status == 0
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["from"] == 23 and record["to"] == 2
    assert record["captures"] == sorted(record["captures"]) and len(record["captures"]) == 10
    assert record["path"][-1] == 2 and len(record["path"]) == 10
    assert record["pdn"] == "23x2"


def test_moves_many_fens_with_none_and_a_bad_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fens = tmp_path / "fens.txt"
    fens.write_text("W:W35:B30,K40\n\nB:W21:B1\nnot a fen\nW:W29:B1,22,25\n")
    status, out, err = run(capsys, "moves", "--variant", "international", "--json",
                           "--fens", str(fens))
    records = [json.loads(line) for line in out.splitlines()]
    assert {(r["fen"], r.get("to")) for r in records if not r.get("none")} >= {
        ("W:W35:B30,K40", 24), ("W:W35:B30,K40", 44)}
    assert all("fen" in r for r in records)
    assert "line 4" in err and "Traceback" not in err
    assert status == 2  # the bad line is reported; every other line was answered
    status, out, _ = run(capsys, "moves", "--variant", "brazilian", "--json", "--fens",
                         str(_write(tmp_path, "B:Wb6,c5:Ba7\n")))
    assert [json.loads(line) for line in out.splitlines()] == [{"fen": "B:Wb6,c5:Ba7",
                                                                "none": True}]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "one.txt"
    path.write_text(text)
    return path


HUGE = "9" * 5000  # beyond Python's int-string limit (4,300 digits)


@pytest.mark.parametrize(
    "args",
    [
        ["perft", "--variant", "checkers-ish", "--depth", "2"],
        ["perft", "--variant", "brazilian", "--depth", "2", "--fen", "W:W99:B1"],
        ["perft", "--variant", "brazilian", "--depth", "0"],
        ["perft", "--depth", "5000"],  # was a RecursionError
        ["perft", "--depth", str(10**15)],  # was a MemoryError
        ["perft", "--depth", str(10**20)],  # was an OverflowError
        ["perft", "--depth", str(10**9)],  # allocated gigabytes before counting
        ["perft", "--depth", HUGE],
        ["perft", "--depth", "41"],
        ["perft", "--depth=-3"],
        ["perft", "--depth", "2.5"],
        ["perft", "--variant", HUGE, "--depth", "2"],
        ["moves", "--variant", "26" + "0" * 5000, "--fen", "W:W21:B1"],
        ["moves", "--variant", "brazilian", "--fen", "nonsense"],
        ["moves", "--variant", "brazilian", "--fen", f"W:W{HUGE}:B1"],
        ["moves", "--variant", "brazilian", "--fen", "W:W:B"],
        ["moves", "--variant", "brazilian", "--fens", "/no/such/file"],
        ["moves", "--variant", "brazilian", "--fens", "/"],
        ["check-game", "/no/such/file.pdn"],
    ],
    ids=lambda args: " ".join(arg if len(arg) < 20 else f"{arg[:8]}..." for arg in args),
)
def test_errors_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]
                                        ) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2
    assert err.startswith("draughtsboard: ") and err.count("\n") == 1
    assert len(err) < 300


def test_a_fens_file_of_binary_garbage_is_reported_line_by_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fens = tmp_path / "fens.bin"
    fens.write_bytes(b"W:W21:B1\n\xff\xfe\x00\x81garbage\n" + HUGE.encode() + b"\n")
    status, out, err = run(capsys, "moves", "--fens", str(fens))
    assert status == 2
    assert out.splitlines()[0] == "W:W21:B1:"
    assert [line.split(":")[0] for line in err.splitlines()] == ["draughtsboard"] * 2
    assert "line 2" in err and "line 3" in err and "Traceback" not in err


def test_binary_arguments_to_the_real_command_exit_2_without_traceback() -> None:
    # Bytes that are not UTF-8 reach Python as surrogate escapes in sys.argv.
    for args in ([b"moves", b"--fen", b"W:W\xff\xfe:B1"], [b"perft", b"--depth", b"\xff"],
                 [b"moves", b"--variant", b"\xc3\x28", b"--fen", b"W:W21:B1"]):
        result = subprocess.run([sys.executable, "-m", "host.cli", *args], capture_output=True,
                                cwd=REPO, timeout=60)
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith(b"draughtsboard: ") and result.stderr.count(b"\n") == 1


# ---------------------------------------------------------------------- fuzz
CLI_FUZZ = settings(max_examples=150, deadline=timedelta(seconds=10),
                    suppress_health_check=[HealthCheck.too_slow])
cli_text = st.one_of(st.text(max_size=60), argv_like, numbers, fen_like())


def run_captured(*args: str) -> tuple[int, str, str]:
    """`main` with its output captured, without a pytest fixture (hypothesis calls it often)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def assert_success_or_one_line_error(status: int, err: str) -> None:
    assert status in (0, 2), status
    if status == 2:
        assert err.startswith("draughtsboard: ") and err.count("\n") == 1, err
    else:
        assert err == ""


@CLI_FUZZ
@given(st.one_of(variant_names, cli_text), st.one_of(fen_like(), cli_text))
def test_moves_fuzzed_answers_or_exits_2(variant: str, fen: str) -> None:
    status, _, err = run_captured("moves", f"--variant={variant}", f"--fen={fen}")
    assert_success_or_one_line_error(status, err)


def _deep(text: str) -> bool:
    """A valid depth above 2: a fuzzed position could take hours to count that far."""
    digits = text.strip()
    return digits.isascii() and digits.isdigit() and len(digits) <= 2 and int(digits) > 2


@CLI_FUZZ
@given(st.one_of(variant_names, cli_text), st.one_of(fen_like(), cli_text),
       st.one_of(st.sampled_from(["1", "2"]), cli_text.filter(lambda t: not _deep(t))))
def test_perft_fuzzed_counts_or_exits_2(variant: str, fen: str, depth: str) -> None:
    status, _, err = run_captured("perft", f"--variant={variant}", f"--fen={fen}",
                                  f"--depth={depth}")
    assert_success_or_one_line_error(status, err)


def test_installed_command_runs_without_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "host.cli", "perft", "--variant", "pool", "--depth", "2"],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    assert result.returncode == 0 and result.stdout.split() == ["1", "7", "2", "49"]


def play(lines: str, language: str = "en", variant: str = "brazilian", fen: str | None = None,
         games_dir: Path | None = None) -> str:
    v = get_variant(variant)
    out = io.StringIO()
    TerminalGame(v, start=Position.from_fen(fen, v) if fen else None, language=language,
                 games_dir=games_dir, stdin=io.StringIO(lines), stdout=out).run()
    return out.getvalue()


def test_terminal_game_refuses_illegal_moves_with_the_reason() -> None:
    out = play("11-15\nc3-e5\nc3-d4\nf6-e5\ne3-f4\n")
    assert "Not legal: f6 holds a Black piece and it is White's turn" in out
    assert "Not legal: the piece on c3 cannot go to e5; it can go to b4, d4" in out
    assert "White played c3-d4." in out and "Black played f6-e5." in out
    assert "Capture is mandatory: d4xf6" in out
    assert "Not legal: capture is mandatory: d4xf6" in out


def test_terminal_game_in_portuguese() -> None:
    out = play("f6-e5\nc3-d4\n", language="pt-BR")
    assert "Novo jogo de damas brasileiras." in out
    assert "Lance ilegal: a peça em f6 é do adversário" in out
    assert "Lance das Brancas: c3-d4." in out


def test_terminal_game_announces_the_end_and_saves_pdn(tmp_path: Path) -> None:
    out = play("c3xe5\n", fen="W:Wc3:Bd4", games_dir=tmp_path)
    assert "White wins: the opponent has no pieces left." in out
    (saved,) = tmp_path.glob("*.pdn")
    text = saved.read_text()
    assert '[Result "1-0"]' in text and "c3xe5" in text and '[FEN "W:W22:B18"]' in text


def test_terminal_game_undo_and_commands() -> None:
    out = play("undo\nc3-d4\nundo\nmoves\nfen\nresign\n")
    assert "There is no move to take back." in out
    assert "Took back c3-d4." in out
    assert "a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4" in out
    assert "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in out
    assert "White resigns." in out


def test_terminal_game_draws_by_repetition() -> None:
    cycle = "c1-d2\nf8-e7\nd2-c1\ne7-f8\n" * 2
    out = play(cycle, fen="W:WKc1:BKf8")
    assert "Draw: threefold repetition." in out


def test_terminal_game_keeps_one_file_per_game_and_rewrites_it_when_it_changes(
    tmp_path: Path,
) -> None:
    play("c3-d4\nresign\nundo\ne3-f4\nresign\nquit\n", games_dir=tmp_path)
    (saved,) = tmp_path.glob("*.pdn")
    text = saved.read_text()
    # c3-d4 was taken back; the same result (Black resigned) with new moves is rewritten
    assert "1. e3-f4 1-0" in text and "c3-d4" not in text
    play("c3-d4\nnew\ne3-f4\nquit\n", games_dir=tmp_path / "two")
    assert len(list((tmp_path / "two").glob("*.pdn"))) == 2
