"""`draughtsboard check-game` through `host.cli.main`: output and exit status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.cli import main
from tests.paths import CORPUS

KEYS = {"game", "plies", "legal", "error", "final_fen", "outcome", "result_tag", "agrees",
        "white", "black", "event", "variant", "variant_inferred", "variant_grounds", "file"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    status = main(["check-game", "--json", *args])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    ("name", "games"),
    [
        ("wk2003.pdn", 23),
        ("DUTCH96H.pdn", 13),
        ("ussr1947.pdn", 153),
        ("OCA_2.0.pdn", 43),
        ("inferno.pdn", 68),
        ("Campionato_Assoluto_2005.pdn", 53),
    ],
)
def test_corpus_files_are_all_legal(
    capsys: pytest.CaptureFixture[str], name: str, games: int
) -> None:
    status, rows = run_json(capsys, str(CORPUS / name))
    assert status == 0
    assert [row["game"] for row in rows] == list(range(1, games + 1))
    assert all(row.keys() >= KEYS for row in rows)
    assert all(row["legal"] and row["error"] is None for row in rows)


def test_json_fields_of_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, rows = run_json(capsys, str(CORPUS / "ussr1947.pdn"))
    first = rows[0]
    assert status == 0
    assert first["plies"] == 61 and first["variant"] == "russian" and first["variant_inferred"]
    assert first["final_fen"] == "B:W11,22:B4,12,13"
    assert (first["outcome"], first["result_tag"], first["agrees"]) == (None, "1-0", True)
    assert (first["white"], first["black"], first["event"]) == (
        "Блиндер Б.", "Миротин Б.", "X чемпионат СССР")
    assert "Cyrillic text in tags (White, Black, Event)" in first["variant_grounds"]
    assert first["file"] == str(CORPUS / "ussr1947.pdn")


def test_italian_risultato_tag_and_the_repetition_draw(capsys: pytest.CaptureFixture[str]) -> None:
    _, rows = run_json(capsys, str(CORPUS / "Campionato_Assoluto_2005.pdn"))
    assert rows[0]["result_tag"] == "1-0"
    assert rows[0]["white"] is not None  # Italian files name the players Bianco and Nero
    game25 = rows[24]
    assert game25["outcome"] == "1/2-1/2" and game25["outcome_reason"] == "threefold-repetition"
    assert game25["result_tag"] == "1-0" and game25["agrees"] is False
    assert len(rows[45]["notes"]) == 1


def test_illegal_move_exits_1_and_names_ply_and_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28-22 *\n\n1. 32-28 *\n')
    status, rows = run_json(capsys, str(path))
    assert status == 1
    assert (rows[0]["legal"], rows[0]["plies"], rows[0]["error_ply"]) == (False, 2, 3)
    assert rows[0]["error"].startswith("ply 3 (2. 28-22, line 2, column 19): ")
    assert rows[0]["agrees"] is False
    assert rows[1]["legal"] is True


def test_human_output_names_players_event_variant_and_grounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.pdn"
    path.write_text('[White "Ana"]\n[Black "Zé"]\n[Event "Open"]\n[GameType "20"]\n'
                    '1. 32-28 19-23 2. 28-22 *\n\n[Result "1-0"]\n1. 11-15 24-20 1-0\n')
    status = main(["check-game", str(path)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert lines[0].startswith(
        "game 1 [Ana - Zé, Open]: international, 2 plies, ILLEGAL at ply 3 (2. 28-22")
    assert lines[1] == (
        "game 2: english (inferred: numeric squares up to 32: an 8x8 variant, or 10x10; english "
        "replays every move (illegal as international at ply 1)), 2 plies, legal; "
        "engine: game not over; result 1-0 agrees"
    )
    assert lines[2] == (f"{path}: 2 games, 1 legal, 1 with an illegal move, "
                        "1 agree with their result")


def test_several_files_and_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "club"
    (folder / "2024").mkdir(parents=True)
    (folder / "a.pdn").write_text('[GameType "20"]\n1. 32-28 *\n')
    (folder / "2024" / "b.PDN").write_text('[GameType "20"]\n1. 33-28 *\n1. 34-29 *\n')
    (folder / "notes.txt").write_text("not a game")
    single = tmp_path / "c.pdn"
    single.write_text('[GameType "21"]\n1. 11-15 *\n')
    status = main(["check-game", str(folder), str(single)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    summaries = [line for line in lines if not line.startswith("game ")]
    assert summaries == [
        f"{folder / '2024' / 'b.PDN'}: 2 games, 2 legal, 0 with an illegal move, "
        "2 agree with their result",
        f"{folder / 'a.pdn'}: 1 games, 1 legal, 0 with an illegal move, 1 agree with their result",
        f"{single}: 1 games, 1 legal, 0 with an illegal move, 1 agree with their result",
        "3 files: 4 games, 4 legal, 0 with an illegal move, 4 agree with their result",
    ]


def test_a_broken_game_is_reported_and_the_rest_still_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text('[GameType "20"]\n1. 32-28 *\n\n[Event "x"]\n1. 32-28 { a { b } *\n\n'
                    '[GameType "20"]\n1. 33-28 *\n')
    status = main(["check-game", str(path)])
    captured = capsys.readouterr()
    assert status == 2
    assert [line.split(":")[0] for line in captured.out.splitlines()[:2]] == ["game 1", "game 3"]
    assert captured.err == (f"draughtsboard: {path}: game 2, line 5, column 14: '{{' inside a "
                            "comment (comments cannot be nested)\n")


def test_a_variant_not_played_here_is_reported_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lidraughts.pdn"
    path.write_text('[GameType "40"]\n1. 32-28 *\n\n[GameType "20"]\n1. 32-28 *\n')
    status = main(["check-game", str(path)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert lines[0] == ("game 1: not checked: GameType '40' is Frisian draughts, which this "
                        "engine does not play")
    assert lines[-1].endswith("1 in a variant not played here")
    status, rows = run_json(capsys, str(path))
    assert rows[0] == {"file": str(path), "game": 1, "checked": False, "error": rows[0]["error"]}
    assert rows[1]["legal"]


def test_variant_option_overrides_game_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "english.pdn"
    path.write_text('[GameType "20"]\n1. 11-15 24-20 *\n')
    status, rows = run_json(capsys, str(path), "--variant", "english")
    assert status == 0 and rows[0]["variant"] == "english" and rows[0]["plies"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/nonexistent/game.pdn"], "cannot read /nonexistent/game.pdn"),
        (
            [str(CORPUS / "pdn-edge-cases" / "fail_nested_comment.pdn")],
            "game 1, line 1, column 34: '{' inside a comment",
        ),
        ([str(CORPUS / "wk2003.pdn"), "--variant", "checkerz"], "unknown variant 'checkerz'"),
    ],
)
def test_unreadable_input_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status = main(["check-game", *args])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err
    assert "Traceback" not in captured.err


def test_an_empty_file_and_an_empty_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty.pdn").write_text("% nothing\n")
    (tmp_path / "none").mkdir()
    status = main(["check-game", str(tmp_path / "empty.pdn"), str(tmp_path / "none")])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.splitlines() == [
        f"draughtsboard: {tmp_path / 'empty.pdn'}: no game found",
        f"draughtsboard: {tmp_path / 'none'}: no .pdn file in this folder",
    ]


def test_bad_fen_tag_is_exit_2_naming_game_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "fen.pdn"
    path.write_text('1. 32-28 *\n\n[GameType "20"]\n[FEN "W:W51:B1"]\n*\n')
    assert main(["check-game", str(path)]) == 2
    assert "game 2, line 4, column 1: FEN tag unreadable" in capsys.readouterr().err


def test_edge_case_files_replay(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted((CORPUS / "pdn-edge-cases").glob("*.pdn")):
        if path.name.startswith("fail_"):
            continue
        status, rows = run_json(capsys, str(path))
        assert status == 0, (path.name, rows)
        assert rows and all(row["legal"] for row in rows)


def test_a_cp1251_file_with_russian_result_forms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cup.pdn"
    path.write_bytes(
        ('[White "Петров"]\n[Black "Сидоров"]\n[Result "1/2:1/2"]\n'
         "1. c3-d4 f6-e5 2. d4:f6 g7:e5 1/2:1/2\n\n"
         '[White "Смирнов"]\n[Result "0:1"]\n1. c3-b4 0:1\n').encode("cp1251"))
    status, rows = run_json(capsys, str(path))
    assert status == 0
    assert [(row["white"], row["variant"], row["plies"], row["agrees"]) for row in rows] == [
        ("Петров", "russian", 4, True), ("Смирнов", "russian", 1, True)]
    assert "the file is in a Cyrillic code page (cp1251)" in rows[0]["variant_grounds"]
