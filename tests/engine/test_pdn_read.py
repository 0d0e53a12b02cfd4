"""The PDN text reader (`engine.pdn_records`): games as written, before any rules.

The edge-case files are the PDN standard's samples (in ../shared/corpus); the
snippets reproduce, in our own words, what public collections do: Russian
result forms, Dutch match scores, upper-case squares, placeholder games,
stray quotes in tags, set-ups in the movetext.
"""

from __future__ import annotations

import io

import pytest

from engine.pdn_lexer import Kind, Lexer
from engine.pdn_records import PdnRecord, read_records
from tests.paths import CORPUS

EDGE = CORPUS / "pdn-edge-cases"


def records(text: str) -> list[PdnRecord]:
    return list(read_records(io.StringIO(text)))


def moves(text: str, game: int = 0) -> list[str]:
    return [move.text for move in records(text)[game].moves]


def test_alphanumeric_moves_after_a_move_number_without_space() -> None:
    [game] = read_records(EDGE / "alphanumeric.pdn")
    assert [m.text for m in game.moves] == ["a3b4"]
    assert game.terminator is None and game.tags == {}


def test_nested_comment_is_an_error_with_game_line_and_column() -> None:
    [game] = read_records(EDGE / "fail_nested_comment.pdn")
    assert game.error is not None
    assert (game.error.game, game.error.line, game.error.column) == (1, 1, 34)
    assert str(game.error).startswith("game 1, line 1, column 34: '{' inside a comment")


def test_fen_tags_are_kept_verbatim_for_the_replay() -> None:
    games = list(read_records(EDGE / "fen.pdn"))
    assert [g.tag("FEN") for g in games] == [
        "?:W29,13,11:B22,4,2",
        "W:W31,29,K15:B14,13,12,9",
        "W:W31-50:B1-20",
    ]
    assert [g.terminator for g in games] == ["*", "*", "*"]
    assert [g.number for g in games] == [1, 2, 3]


def test_game_terminator_without_tags() -> None:
    [game] = read_records(EDGE / "gameterminator.pdn")
    assert [m.text for m in game.moves] == ["32-28"]
    assert game.terminator == "1/2-1/2"


def test_percent_line_comment_is_skipped() -> None:
    [game] = read_records(EDGE / "linecomment.pdn")
    assert game.tags == {"Date": "2012.02.01"}
    assert [m.text for m in game.moves] == ["32-28", "19-23"]


def test_move_strength_marks_including_parenthesised() -> None:
    [game] = read_records(EDGE / "movestrength.pdn")
    assert [m.text for m in game.moves] == ["32-28", "19-23", "28x19"]
    assert game.terminator == "*"


def test_escaped_quote_in_tag_value() -> None:
    [game] = read_records(EDGE / "string.pdn")
    assert game.tags["White"] == 'This is a string with an escaped character "'
    assert [m.text for m in game.moves] == ["32-28"]


def test_unicode_tags() -> None:
    [game] = read_records(EDGE / "unicode.pdn")
    assert game.tags == {"White": "Сергей Фадеев", "Black": "高文龙"}


def test_variations_are_skipped_even_nested_with_comments() -> None:
    [game] = read_records(EDGE / "variation.pdn")
    assert [m.text for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]


def test_positions_of_moves_are_one_based_line_and_column() -> None:
    [game] = records('[Event "x"]\r\n\r\n1. 32-28 19-23\r\n2. 28x19 *\r\n')
    assert [(m.text, m.line, m.column) for m in game.moves] == [
        ("32-28", 3, 4),
        ("19-23", 3, 10),
        ("28x19", 4, 4),
    ]


def test_spaces_inside_a_right_aligned_number() -> None:
    text = "52. 46-41 47x 9  53.  4x 1 \n1-0\n 17. 43-39  1- 6  49. 10- 4 21-26 *"
    games = records(text)
    assert [m.text for m in games[0].moves] == ["46-41", "47x9", "4x1"]
    assert games[0].terminator == "1-0"
    assert [m.text for m in games[1].moves] == ["43-39", "1-6", "10-4", "21-26"]


@pytest.mark.parametrize(
    "result",
    ["1-0", "0-1", "1/2-1/2", "2-0", "1-1", "0-2", "0-0", "*",  # the PDN standard
     "1:0", "0:1", "1/2:1/2", "2:0", "1:1", "0:2"],  # Russian files
)
def test_every_result_form_ends_a_game_and_is_no_move(result: str) -> None:
    games = records(f'[Result "{result}"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 {result}\n'
                    f'[Result "{result}"]\n1. c3-d4 {result}')
    assert [len(g.moves) for g in games] == [4, 1]
    assert [g.terminator for g in games] == [result, result]
    assert games[0].result_tag() == result


def test_half_sign_and_results_next_to_moves_that_look_alike() -> None:
    text = "1. 32-28 2-0 1. 32-28 1-1 1. 32-28 0-2 1. 1-10 0-0 1. 11-15 ½-½ 1. 1-7 1/2:1/2"
    games = records(text)
    assert [g.terminator for g in games] == ["2-0", "1-1", "0-2", "0-0", "1/2-1/2", "1/2:1/2"]
    assert moves(text, 3) == ["1-10"]


def test_a_dutch_match_score_that_repeats_the_result_tag_is_the_terminator() -> None:
    text = (
        '[Result "4-6"]\n1. 32-28 19-23 2. 28x19 14x23 4-6\n\n'
        '[Result "1-9"]\n1. 33-29 1-9\n\n'
        '[Event "x"]\n1. 34-30 4-6\n'  # no Result tag to compare with: left to the replay
    )
    games = records(text)
    assert [(len(g.moves), g.terminator) for g in games] == [(4, "4-6"), (1, "1-9"), (2, None)]


def test_upper_case_and_zero_padded_squares() -> None:
    assert moves("1.E3-D4 F6-G5 2.D4XF6 G7:E5 3. 09x18 05-10 *") == [
        "e3-d4", "f6-g5", "d4xf6", "g7:e5", "09x18", "05-10"]


def test_numeric_moves_without_separator() -> None:
    assert moves("1. 3228 1923 2. 2819 *") == ["32-28", "19-23", "28-19"]


def test_placeholder_games_keep_their_unknown_moves() -> None:
    text = ('[Result "1/2-1/2"]\n1. - - 2. - - 3. - -\n\n          1/2-1/2\n\n'
            '[Result "1-0"]\n1. c3-d4 f6-e5 2. -- -- 1-0')
    first, second = records(text)
    assert [(m.text, m.unknown) for m in first.moves] == [("-", True)] * 6
    assert first.terminator == "1/2-1/2"
    assert [m.unknown for m in second.moves] == [False, False, True, True]


def test_move_number_without_a_move_is_an_empty_game() -> None:
    [game] = records("1. 2-0")
    assert game.moves == [] and game.terminator == "2-0"


def test_multi_jump_captures_and_algebraic_forms() -> None:
    text = "1. 26x17x10x1 d4:b6 c3xe5 ab4 a3b4 c3-d4 d4:b6:d8 *"
    assert moves(text) == ["26x17x10x1", "d4:b6", "c3xe5", "ab4", "a3b4", "c3-d4", "d4:b6:d8"]


def test_nags_move_numbers_with_ellipsis_and_semicolon_comments() -> None:
    text = "1. 32-28 $1 1... 19-23 $12 ; rest of line 99-99 {\n2. 28x19 *"
    assert moves(text) == ["32-28", "19-23", "28x19"]


def test_set_up_in_the_movetext_is_kept_with_its_place() -> None:
    [game] = records("/W:W31-50:B1-20/ 1. 32-28 19-23 /B:W28:B19/ 2. 28x19 *")
    assert game.setups == [(0, "W:W31-50:B1-20"), (2, "B:W28:B19")]


def test_tag_values_with_stray_quotes_or_no_quotes() -> None:
    [game] = records('[Event "The "Big" Match"]\n[Round 5]\n[Site "a\\\\b"]\n[Date \'1999\']\n*')
    assert game.tags == {"Event": 'The "Big" Match', "Round": "5", "Site": "a\\b", "Date": "1999"}


def test_dos_end_of_file_mark_and_no_final_newline() -> None:
    [game] = records("1. 32-28 19-23 *\r\n\x1a")
    assert len(game.moves) == 2


def test_comments_are_kept_with_the_game() -> None:
    [game] = records("1. 38-33 {Bianco Vince} 1-0")
    assert game.comments == ["Bianco Vince"]


def test_a_tag_after_moves_without_terminator_starts_a_new_game() -> None:
    games = records('[White "a"]\n1. 32-28\n[White "b"]\n1. 33-28 *')
    assert [(g.number, g.tags["White"], len(g.moves)) for g in games] == [(1, "a", 1), (2, "b", 1)]
    assert games[0].terminator is None


def test_italian_result_tag_and_case_insensitive_tag_lookup() -> None:
    [game] = records('[Risultato "1-0"]\n[Fen "W:W1:B2"]\n1. 21-17 1-0')
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
        ('[White "x" y]', 1, 1, 12, "expected ']'"),
        ("[White x", 1, 1, 8, "expected '\"'"),
        ("1. 32-28 ) *", 1, 1, 10, "unexpected ')'"),
        ("1. 123-45 *", 1, 1, 4, "unexpected '123-45'"),
    ],
)
def test_malformed_text_names_game_line_and_column(
    text: str, game: int, line: int, column: int, reason: str
) -> None:
    broken = [g for g in records(text) if g.error is not None]
    assert len(broken) == 1
    error = broken[0].error
    assert error is not None and (error.game, error.line, error.column) == (game, line, column)
    assert reason in str(error)
    assert str(error).startswith(f"game {game}, line {line}, column {column}: ")


def test_a_broken_game_does_not_hide_the_games_after_it() -> None:
    text = (
        '[Event "one"]\n1. 32-28 { nested { } 19-23 *\n\n'
        '[Event "two"]\n[Round "\n1. 33-28 *\n\n'  # unterminated tag value
        '[Event "three"]\n1. 34-29 *\n'
    )
    games = records(text)
    assert [(g.tags.get("Event"), g.error is not None) for g in games] == [
        ("one", True), ("two", True), ("three", False)]
    assert [m.text for m in games[2].moves] == ["34-29"]
    assert games[2].number == 3


def test_empty_text_has_no_games() -> None:
    assert records("  \n% only a comment line\n") == []


def test_lexer_gives_the_same_tokens_whatever_the_line_pieces() -> None:
    text = '[Event "a"]\n1. 32-28 {c} 19-23 (18-23) 2. 28x19 $3 1/2-1/2\n[Event "b"]\n1. 33-29 *'
    whole = [(t.kind, t.value, t.line, t.column) for t in Lexer([text]).tokens()]
    pieces = [text[i : i + 3] for i in range(0, len(text), 3)]
    assert [(t.kind, t.value, t.line, t.column) for t in Lexer(pieces).tokens()] == whole
    assert [t.kind for t in Lexer([text]).tokens()].count(Kind.RESULT) == 2


def test_records_are_read_lazily() -> None:
    def lines():  # a second game, then a failure if read any further
        yield '[Event "1"]\n'
        yield "1. 32-28 *\n"
        yield '[Event "2"]\n'
        yield "1. 33-28 *\n" + " " * 5000 + "\n"
        raise AssertionError("read too far")

    class Stream(io.TextIOBase):
        def __init__(self) -> None:
            self.lines = lines()

        def read(self, size: int = -1) -> str:
            return "" if size == 0 else next(self.lines, "")

    first = next(read_records(Stream()))
    assert first.tags == {"Event": "1"}
