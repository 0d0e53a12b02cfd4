"""Move text and FEN: every form read, the official form written, clear errors."""

from __future__ import annotations

import pytest

from engine import FenError, Game, IllegalMoveError, Position, get_variant


def position(variant: str, fen: str | None = None) -> Position:
    v = get_variant(variant)
    return v.initial_position() if fen is None else Position.from_fen(fen, v)


@pytest.mark.parametrize("text", ["c3-d4", "22-18", "c3d4", "C3-D4", "cd4", "22-18!"])
def test_brazilian_reads_algebraic_numeric_and_short_forms(text: str) -> None:
    start = position("brazilian")
    move = start.parse_move(text)
    assert (move.origin, move.destination) == (22, 18)
    assert start.move_text(move) == "c3-d4"


def test_russian_old_colon_capture_and_international_numeric() -> None:
    p = position("russian", "W:Wc3:Bd4")
    assert p.move_text(p.parse_move("c3:e5")) == "c3xe5"
    intl = position("international", "W:W35:B30,K40")
    assert intl.parse_move("35x24").captures == frozenset({30})
    assert intl.move_text(intl.parse_move("35x44")) == "35x44"


def test_full_path_written_only_when_the_short_form_is_ambiguous() -> None:
    # A king taking a ring of four men can go round either way to the same square
    # with the same captures: one move, two paths, so `d2xd2` is not ambiguous.
    ring = position("brazilian", "W:WKd2:Bc3,e3,c5,e5")
    moves = ring.legal_moves()
    assert len(ring.legal_paths()) > len(moves)
    # Two captures from the same origin to the same square with different pieces:
    p = position("international", "W:WK46:B41,32,19,28,37")
    texts = {p.move_text(m) for m in p.legal_moves()}
    ambiguous = [t for t in texts if t.count("x") > 1]
    for text in texts:
        assert p.parse_move(text) in p.legal_moves()
    assert all(t.count("x") == 1 for t in texts) or ambiguous


def test_english_multi_jump_is_written_with_every_landing_and_read_in_any_form() -> None:
    # seed 004: "Uma captura em cadeia lista cada casa de pouso: 10x19x26"
    p = position("english", "W:W26:B22,14,7")
    (move,) = p.legal_moves()
    assert p.move_text(move) == "26x17x10x3"
    assert p.parse_move("26x17x10x3") == move
    assert p.parse_move("26x3") == move  # the short form of other books is still read
    assert p.parse_move("26x10x3") == move
    # seed 004's own example: Black's man on 10 takes 15 and 23
    game = Game.from_fen("B:W15,23:B10", "english")
    assert [game.move_text(m) for m in game.legal_moves()] == ["10x19x26"]
    single = Game.from_fen("B:W15:B10", "english")
    assert [single.move_text(m) for m in single.legal_moves()] == ["10x19"]


@pytest.mark.parametrize(
    ("variant", "fen", "written"),
    [
        # short form: the variant's books give origin and destination only
        ("international", "W:W36,38:B31,22,33", "36x18"),  # seed 002 art. 8.2
        ("brazilian", "W:Wa3,e3:Bb4,d6,f4", "a3xe7"),
        ("russian", "W:Wa3:Bb4,d6", "a3xe7"),
        ("pool", "W:W21:B17,10", "21x7"),
        ("italian", "W:W28:B23,15", "28x12"),
        ("portuguese", "W:W1:B5,13", "1x17"),
        ("spanish", "W:W1:B5,13", "1x17"),
    ],
)
def test_short_form_where_the_books_use_it(variant: str, fen: str, written: str) -> None:
    game = Game.from_fen(fen, variant)
    assert [game.move_text(m) for m in game.legal_moves()] == [written]
    assert game.parse(written) == game.legal_moves()[0]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("11-15", "opponent-piece"),
        ("18-14", "no-piece"),
        ("22-17x", "unreadable"),
        ("c3-e5", "wrong-destination"),
        ("22-99", "no-square"),
        ("a2-b3", "no-square"),
        ("", "unreadable"),
    ],
)
def test_illegal_moves_say_why(text: str, code: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        position("brazilian").parse_move(text)
    assert caught.value.code == code
    assert str(caught.value)


def test_mandatory_capture_is_explained() -> None:
    p = position("brazilian", "W:Wa3,e3,h2:Bb4,d6,f4")
    with pytest.raises(IllegalMoveError) as caught:
        p.parse_move("h2-g3")
    assert caught.value.code == "capture-most"
    assert "a3xe7" in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        p.parse_move("e3xg5")
    assert caught.value.code == "capture-most"


def test_fen_round_trip_and_lenient_reading() -> None:
    v = get_variant("brazilian")
    p = Position.from_fen(" W:W21-24,K30:B1,2,K3. ", v)
    assert p.fen() == "W:W21,22,23,24,K30:B1,2,K3"
    assert Position.from_fen("B:B1-12:W21-32", v) == Position.from_fen("B:W21-32:B1-12", v)
    assert Position.from_fen('"?:W21:B1"', v).turn == "W"
    algebraic = Position.from_fen("W:Wa1,Kc3:Bh8", v)
    assert algebraic.fen() == "W:WK22,29:B4"


@pytest.mark.parametrize(
    "fen",
    ["", "X:W1:B2", "W:W33:B1", "W:W1:W2", "W:W1:B1", "W:W5-2:B1", "W:Wz9:B1", "W:Wa2:B1",
     "W:Q1:B2"],
)
def test_malformed_fen_is_a_clear_error(fen: str) -> None:
    with pytest.raises(FenError) as caught:
        Position.from_fen(fen, get_variant("brazilian"))
    assert "FEN" in str(caught.value) or "empty" in str(caught.value)


def test_variant_lookup_by_name_and_game_type() -> None:
    from engine import UnknownVariantError, get_variant

    assert get_variant("26").name == "brazilian"
    assert get_variant("20,W,10,10,N2,0").name == "international"
    assert get_variant("American").name == "english"
    for name in ("italian", "spanish", "portuguese", "pool", "russian", "english"):
        v = get_variant(name)
        assert get_variant(v.pdn_game_type) is v
    with pytest.raises(UnknownVariantError):
        get_variant("frisian")
    with pytest.raises(UnknownVariantError):
        get_variant("99")
