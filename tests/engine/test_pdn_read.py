"""The PDN reader against the edge-case files and hand-written snippets."""

from __future__ import annotations

import pytest

from engine.pdn import PdnError, decode_pdn, read_games
from tests.paths import CORPUS

EDGE = CORPUS / "pdn-edge-cases"


def moves(text: str, game: int = 0) -> list[str]:
    return [move.text for move in read_games(text)[game].moves]


def test_alphanumeric_moves_after_a_move_number_without_space() -> None:
    [game] = read_games((EDGE / "alphanumeric.pdn").read_bytes())
    assert [m.text for m in game.moves] == ["a3b4"]
    assert game.result is None and game.tags == {}


def test_nested_comment_fails_with_game_line_and_column() -> None:
    with pytest.raises(PdnError) as caught:
        read_games((EDGE / "fail_nested_comment.pdn").read_bytes())
    error = caught.value
    assert (error.game, error.line, error.column) == (1, 1, 34)
    assert str(error).startswith("game 1, line 1, column 34: '{' inside a comment")


def test_fen_tags_are_kept_verbatim_for_the_replay() -> None:
    games = read_games((EDGE / "fen.pdn").read_bytes())
    assert [g.tag("FEN") for g in games] == [
        "?:W29,13,11:B22,4,2",
        "W:W31,29,K15:B14,13,12,9",
        "W:W31-50:B1-20",
    ]
    assert [g.result for g in games] == ["*", "*", "*"]
    assert [g.index for g in games] == [1, 2, 3]


def test_game_terminator_without_tags() -> None:
    [game] = read_games((EDGE / "gameterminator.pdn").read_bytes())
    assert [m.text for m in game.moves] == ["32-28"]
    assert game.result == "1/2-1/2"


def test_percent_line_comment_is_skipped() -> None:
    [game] = read_games((EDGE / "linecomment.pdn").read_bytes())
    assert game.tags == {"Date": "2012.02.01"}
    assert [m.text for m in game.moves] == ["32-28", "19-23"]


def test_move_strength_marks_including_parenthesised() -> None:
    [game] = read_games((EDGE / "movestrength.pdn").read_bytes())
    assert [m.text for m in game.moves] == ["32-28", "19-23", "28x19"]
    assert game.result == "*"


def test_escaped_quote_in_tag_value() -> None:
    [game] = read_games((EDGE / "string.pdn").read_bytes())
    assert game.tags["White"] == 'This is a string with an escaped character "'
    assert [m.text for m in game.moves] == ["32-28"]


def test_unicode_tags() -> None:
    [game] = read_games((EDGE / "unicode.pdn").read_bytes())
    assert game.tags == {"White": "Сергей Фадеев", "Black": "高文龙"}
    assert [m.text for m in game.moves] == ["32-28", "19-23"]


def test_variations_are_skipped_even_nested_with_comments() -> None:
    [game] = read_games((EDGE / "variation.pdn").read_bytes())
    assert [m.text for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]


def test_positions_of_moves_are_one_based_line_and_column() -> None:
    [game] = read_games('[Event "x"]\r\n\r\n1. 32-28 19-23\r\n2. 28x19 *\r\n')
    assert [(m.text, m.line, m.column) for m in game.moves] == [
        ("32-28", 3, 4),
        ("19-23", 3, 10),
        ("28x19", 4, 4),
    ]


def test_spaces_inside_a_right_aligned_number() -> None:
    text = "52. 46-41 47x 9  53.  4x 1 \n1-0\n 17. 43-39  1- 6  49. 10- 4 21-26 *"
    games = read_games(text)
    assert [m.text for m in games[0].moves] == ["46-41", "47x9", "4x1"]
    assert games[0].result == "1-0"
    assert [m.text for m in games[1].moves] == ["43-39", "1-6", "10-4", "21-26"]


def test_results_are_terminators_and_not_moves() -> None:
    text = "1. 32-28 2-0 1. 32-28 1-1 1. 32-28 0-2 1. 1-10 0-0 1. 11-15 ½-½"
    games = read_games(text)
    assert [g.result for g in games] == ["2-0", "1-1", "0-2", "0-0", "1/2-1/2"]
    assert moves(text, 3) == ["1-10"]


def test_multi_jump_captures_and_algebraic_forms() -> None:
    text = "1. 26x17x10x1 d4:b6 c3xe5 ab4 a3b4 c3-d4 d4:b6:d8 *"
    assert moves(text) == ["26x17x10x1", "d4:b6", "c3xe5", "ab4", "a3b4", "c3-d4", "d4:b6:d8"]


def test_nags_move_numbers_with_ellipsis_and_semicolon_comments() -> None:
    text = "1. 32-28 $1 1... 19-23 $12 ; rest of line 99-99 {\n2. 28x19 *"
    assert moves(text) == ["32-28", "19-23", "28x19"]


def test_comments_are_kept_with_the_game() -> None:
    [game] = read_games("1. 38-33 {Bianco Vince} 1-0")
    assert game.comments == ["Bianco Vince"]


def test_a_tag_after_moves_without_terminator_starts_a_new_game() -> None:
    games = read_games('[White "a"]\n1. 32-28\n[White "b"]\n1. 33-28 *')
    assert [(g.index, g.tags["White"], len(g.moves)) for g in games] == [
        (1, "a", 1),
        (2, "b", 1),
    ]
    assert games[0].result is None


def test_italian_result_tag_and_case_insensitive_tag_lookup() -> None:
    [game] = read_games('[Risultato "1-0"]\n[Fen "W:W1:B2"]\n1. 21-17 1-0')
    assert game.result_tag() == "1-0"
    assert game.tag("FEN") == "W:W1:B2"


@pytest.mark.parametrize(
    ("text", "game", "line", "column", "reason"),
    [
        ("1. 32-28 1-0\n\n1. 32-28 } 0-1", 2, 3, 10, "unexpected '}'"),
        ("1. 32-28 { open\nforever", 1, 1, 10, "never closed"),
        ("1. 32-28 (19-23 *", 1, 1, 10, "never closed"),
        ('[White "x]\n1. 32-28 *', 1, 1, 1, "unterminated value"),
        ("1-0\n*\n1. 32-28 @@ *", 3, 3, 10, "unexpected '@@'"),
        ("[White 'x']", 1, 1, 8, "expected '\"'"),
        ("1. 32-28 ) *", 1, 1, 10, "unexpected ')'"),
    ],
)
def test_malformed_text_names_game_line_and_column(
    text: str, game: int, line: int, column: int, reason: str
) -> None:
    with pytest.raises(PdnError) as caught:
        read_games(text)
    assert (caught.value.game, caught.value.line, caught.value.column) == (game, line, column)
    assert reason in str(caught.value)
    assert str(caught.value).startswith(f"game {game}, line {line}, column {column}: ")


def test_latin1_file_is_decoded_when_not_utf8() -> None:
    data = '[White "Jo\u00e3o"]\n1. c3-d4 *'.encode("latin-1")
    assert decode_pdn(data).startswith('[White "João"]')
    assert read_games(data)[0].tags["White"] == "João"


def test_utf8_with_bom() -> None:
    data = '\ufeff[White "Jo\u00e3o"]\n1. c3-d4 *'.encode()
    assert read_games(data)[0].tags["White"] == "João"


def test_empty_text_has_no_games() -> None:
    assert read_games("  \n% only a comment line\n") == []
