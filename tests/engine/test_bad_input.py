"""Bad input through the API: one clear `EngineError` (a `ValueError`), never anything else.

Python refuses to convert strings of more than 4,300 digits to int (and ints
that large to strings), and slicing with a negative index silently wraps: each
case here once gave a bare ValueError, a wrong answer or a RecursionError.
"""

from __future__ import annotations

import pytest

from engine import (
    EngineError,
    FenError,
    Game,
    IllegalMoveError,
    Position,
    UnknownVariantError,
    get_variant,
    perft,
)

HUGE = "9" * 5000  # beyond Python's int-string limit (4,300 digits)


def short_id(value: object) -> str | None:
    """Test ids that pytest can print (it would call str() on a 5,000-digit int)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return "huge-int"
    if isinstance(value, str) and len(value) > 30:
        return f"{value[:12]}...({len(value)} chars)"
    return None


@pytest.mark.parametrize(
    "fen",
    [
        f"W:W{HUGE}:B1",
        f"W:W1-{HUGE}:B5",
        f"W:Wa{HUGE}:B1",
        f"W:W1:BK{HUGE}",
        "0" * 5000 + "1",
        "W:W" + "0" * 5000 + "1:B5",  # a square number has three digits at most
        "W:W\u0661:B2",  # an Arabic-Indic digit one: not a square number in a FEN
        "W:W\u00b2:B1",  # superscript two (str.isdigit() says yes, int() says no)
        "W:W:B",
        "B:W:B:H0",
        "   ",
        "X:W1:B2",
        "W:W1,1:B2",
    ],
    ids=short_id,
)
def test_bad_fen_is_one_fen_error_with_a_short_message(fen: str) -> None:
    with pytest.raises(FenError) as raised:
        Position.from_fen(fen, "brazilian")
    message = str(raised.value)
    assert "\n" not in message and len(message) < 200


def test_a_fen_is_text() -> None:
    with pytest.raises(FenError, match="a FEN is text, not bytes"):
        Position.from_fen(b"W:W21:B1", "brazilian")  # type: ignore[arg-type]


def test_the_empty_board_is_refused_not_scored() -> None:
    with pytest.raises(FenError, match="no piece on the board"):
        Game.from_fen("W:W:B", "brazilian")
    variant = get_variant("brazilian")
    with pytest.raises(EngineError, match="the board is empty"):
        Game(variant, Position(variant, 0, 0, 0, "W"))


@pytest.mark.parametrize("name", [HUGE, "26" + "0" * 4400, "²", "", "checkers-ish", 10**5000,
                                  -26, None, b"26", True], ids=short_id)
def test_bad_variant_is_an_unknown_variant_error(name: object) -> None:
    with pytest.raises(UnknownVariantError) as raised:
        get_variant(name)  # type: ignore[arg-type]
    assert isinstance(raised.value, EngineError) and len(str(raised.value)) < 300


def test_variants_by_name_game_type_and_record() -> None:
    russian = get_variant("russian")
    assert get_variant("25") is get_variant(25) is get_variant("25,W,8,8,A0,0") is russian
    assert get_variant(russian) is russian


@pytest.mark.parametrize(
    "text",
    [HUGE, f"22-{HUGE}", f"{HUGE}x1", f"c3-d{HUGE}", "22-18" + "x" * 10000, "\u0662\u0662-18",
     "", "x", "22", "-22-18", "\x00", "22\u200b-18"],
    ids=short_id,
)
def test_bad_move_text_is_an_illegal_move_error(text: str) -> None:
    game = Game("brazilian")
    with pytest.raises(IllegalMoveError) as raised:
        game.parse(text)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 200
    assert game.ply == 0


def test_a_move_is_text() -> None:
    with pytest.raises(IllegalMoveError, match="a move is text, not bytes"):
        Game("brazilian").push_text(b"c3-d4")  # type: ignore[arg-type]


@pytest.mark.parametrize("depth", [5000, 10**9, 10**15, 10**20, 10**5000, 41, -1], ids=short_id)
def test_perft_depth_is_bounded_before_anything_is_allocated(depth: int) -> None:
    with pytest.raises(EngineError, match="perft depth must be from 0 to 40"):
        perft(get_variant("russian").initial_position(), depth)


@pytest.mark.parametrize("depth", [2.5, "3", True])
def test_perft_depth_is_a_whole_number(depth: object) -> None:
    with pytest.raises(EngineError, match="a perft depth is a whole number"):
        perft(get_variant("russian").initial_position(), depth)  # type: ignore[arg-type]


def test_perft_depth_zero_is_one_node() -> None:
    assert perft(get_variant("russian").initial_position(), 0) == 1


@pytest.mark.parametrize(
    ("square", "message"),
    [(-1, "there is no square -1: squares run from 1 to 32"),
     (0, "there is no square 0: squares run from 1 to 32"),
     (33, "there is no square 33: squares run from 1 to 32"),
     (10**5000, "there is no square that large: squares run from 1 to 32"),
     ("5", "a square is a number from 1 to 32, not str"),
     (True, "a square is a number from 1 to 32, not bool")],
    ids=short_id,
)
def test_piece_at_a_square_that_is_not_on_the_board(square: object, message: str) -> None:
    position = get_variant("brazilian").initial_position()
    with pytest.raises(EngineError) as raised:
        position.piece_at(square)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert position.piece_at(1) is not None and position.piece_at(32) is not None


def test_a_game_refuses_a_position_of_another_variant() -> None:
    brazilian = get_variant("brazilian").initial_position()
    with pytest.raises(EngineError, match="a brazilian position; this game is russian"):
        Game("russian", brazilian)
    assert Game("brazilian", brazilian).position is brazilian


# -- every other public entry: wrong kinds of argument are EngineErrors too -------------------


def test_a_game_given_a_fen_text_says_how_to_start_from_one() -> None:
    with pytest.raises(EngineError) as raised:
        Game("brazilian", "W:W21:B1")  # type: ignore[arg-type]
    assert str(raised.value) == ("a game starts from a Position, not str "
                                 "(for a FEN: Game.from_fen(fen, variant))")
    with pytest.raises(EngineError, match="from a Position, not int"):
        Game("brazilian", 5)  # type: ignore[arg-type]


def test_taking_back_at_the_start_is_an_engine_error_and_still_an_index_error() -> None:
    game = Game("brazilian")
    with pytest.raises(EngineError, match="no move to take back"):
        game.pop()
    with pytest.raises(IndexError):
        game.pop()


@pytest.mark.parametrize(("tags", "message"), [
    ({1: 2}, "a tag name is text, not int"),
    ({"White": ["Ana"]}, "tag White: a value is text or a number, not list"),
    ({"Round": True}, "a value is text or a number, not bool"),
    ("White=Ana", "tags are a mapping of tag names to values, not str"),
    ([("White", "Ana")], "not list"),
])
def test_write_game_refuses_tags_that_are_not_names_and_values(tags: object,
                                                               message: str) -> None:
    from engine import write_game

    with pytest.raises(EngineError, match=message):
        write_game(Game("brazilian"), tags)  # type: ignore[arg-type]


def test_write_game_takes_numbers_and_leaves_out_unknown_values() -> None:
    from engine import write_game

    text = write_game(Game("brazilian"), {"Round": 3, "WhiteElo": 1850.5, "Annotator": None})
    assert '[Round "3"]' in text and '[WhiteElo "1850.5"]' in text and "Annotator" not in text
    with pytest.raises(EngineError, match="writes a Game, not NoneType"):
        write_game(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: perft(None, 1), "perft counts from a Position, not NoneType"),  # type: ignore[arg-type]
    (lambda: perft("W:W21:B1", 2), "perft counts from a Position, not str"),  # type: ignore[arg-type]
    (lambda: get_variant("brazilian").initial_position().count("X"), "a colour is W or B"),
    (lambda: get_variant("brazilian").square_from_name(5), "a square name is text, not int"),
    (lambda: __import__("engine").write_fen("W:W21:B1"), "write_fen writes a Position"),
    (lambda: __import__("engine").parse_game(b"1. c3-d4 *"), "a PDN game is text, not bytes"),
    (lambda: __import__("engine").read_games(5), "from a path, bytes or an open file, not int"),
    (lambda: __import__("engine").read_games(None), "not NoneType"),
])
def test_other_entries_name_what_they_take(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EngineError, match=message):
        call()


def test_read_fen_takes_a_variant_name_as_every_entry_does() -> None:
    from engine import read_fen

    assert read_fen("W:W21:B1", "brazilian") == Position.from_fen("W:W21:B1", "brazilian")
