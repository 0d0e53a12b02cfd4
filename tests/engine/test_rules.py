"""One test per rule row of docs/rules.md, in each variant it distinguishes."""

from __future__ import annotations

import pytest

from engine import Position, get_variant
from tests.engine.helpers import legal_texts

# International rulebook positions (FMJD articles) with their complete move lists.
RULEBOOK = [
    ("4.2 man captures backwards", "W:W35:B30,K40", {"35x24", "35x44"}),
    ("4.3 king captures at range", "W:WK46:B23", {"46x19", "46x14", "46x10", "46x5"}),
    ("4.5 man continues", "W:W15:B8,19,20", {"15x2"}),
    ("4.6 king continues", "W:WK47:B9,12,33", {"47x17", "47x21", "47x26"}),
    ("4.8 captured pieces block", "B:W27,28,38,39,42:BK25", {"25x33"}),
    ("4.13 majority", "W:W48:B24,K31,34,K42,43", {"48x19"}),
    ("4.14 kings not worth more", "W:W26:B12,K21,31,32", {"26x8", "26x28"}),
    ("4.15 passing the last row", "W:W15:B9,10", {"15x13"}),
]


@pytest.mark.parametrize(("article", "fen", "expected"), RULEBOOK, ids=[r[0] for r in RULEBOOK])
def test_international_rulebook(article: str, fen: str, expected: set[str]) -> None:
    assert legal_texts("international", fen) == expected


@pytest.mark.parametrize(
    ("variant", "fen", "expected"),
    [
        ("brazilian", "W:Wd4:Bc3", {"d4xb2"}),
        ("russian", "W:Wd4:Bc3", {"d4xb2"}),
        ("pool", "W:Wd4:Bc3", {"18x25"}),
        ("english", "W:Wd4:Bc3", {"18-14", "18-15"}),
        # mirrored board: c4 is square 15 in Portuguese numbering
        ("portuguese", "W:Wc4:Bb3", {"15-19", "15-20"}),
        ("spanish", "W:Wc4:Bb3", {"15-19", "15-20"}),
        ("italian", "W:Wc4:Bb3", {"18-13", "18-14"}),
    ],
)
def test_men_capture_backwards_only_where_allowed(variant: str, fen: str, expected: set[str]
                                                  ) -> None:
    assert legal_texts(variant, fen) == expected


def test_flying_kings_capture_at_range_and_land_anywhere_beyond() -> None:
    assert legal_texts("brazilian", "W:WKa1:Bd4") == {"a1xe5", "a1xf6", "a1xg7", "a1xh8"}


def test_short_kings_move_and_capture_one_square() -> None:
    assert legal_texts("english", "W:WKa1:Bd4") == {"29-25"}
    assert legal_texts("english", "W:WKa1:Bb2") == {"29x22"}
    assert legal_texts("italian", "W:WKb1:Bc2") == {"29x22"}


def test_italian_men_cannot_capture_kings() -> None:
    assert legal_texts("italian", "W:Wc2:BKd3") == {"26-21"}
    assert legal_texts("italian", "W:Wc2:Bd3") == {"26x19"}
    # the other variants let men take kings
    assert legal_texts("brazilian", "W:Wc3:BKd4") == {"c3xe5"}


def test_majority_rule_forces_the_longest_capture() -> None:
    fen = "W:Wa3,e3:Bb4,d6,f4"
    assert legal_texts("brazilian", fen) == {"a3xe7"}
    assert legal_texts("international", "W:W36,38:B31,22,33") == {"36x18"}


def test_free_choice_allows_a_shorter_capture_but_it_must_be_completed() -> None:
    fen = "W:Wa3,e3:Bb4,d6,f4"
    assert legal_texts("russian", fen) == {"a3xe7", "e3xg5"}
    assert legal_texts("english", fen) == {"21x14x7", "23x16"}  # every landing (seed 004)
    assert legal_texts("pool", fen) == {"21x7", "23x16"}


def test_free_choice_flying_king_must_land_where_it_can_go_on() -> None:
    # after taking c3 the king could stop on d4..h8, but only d4 continues (over f2)
    assert legal_texts("russian", "W:WKa1:Bc3,f2") == {"a1xg1"}
    assert legal_texts("pool", "W:WKa1:Bc3,f2") == {"29x32"}


def test_portuguese_and_spanish_prefer_capturing_kings_on_equal_count() -> None:
    # c2 takes a king on d3, g2 takes a man on f3: both land on e4
    fen = "W:Wc2,g2:BKd3,f3"
    assert legal_texts("portuguese", fen) == {"7x14"}
    assert legal_texts("spanish", fen) == {"7x14"}
    # Brazilian has no such tie-break
    assert legal_texts("brazilian", "W:Wa3,g3:BKb4,f4") == {"a3xc5", "g3xe5"}


def test_italian_prefers_capturing_with_a_king() -> None:
    # the man on c2 and the king on g2 can each take one man, both landing on e4
    assert legal_texts("italian", "W:Wc2,Kg2:Bd3,f3") == {"28x19"}


def test_italian_prefers_capturing_more_kings() -> None:
    # the king on e4 can take the man on d5 or the king on f5
    assert legal_texts("italian", "W:WKe4:Bd5,Kf5") == {"19x12"}


def test_italian_prefers_the_sequence_meeting_a_king_first() -> None:
    # both sequences take a man and a king; e4xg6xe8 takes the king first
    assert legal_texts("italian", "W:WKe4:Bd5,Kb7,Kf5,f7") == {"19x3"}


def test_man_crowned_mid_capture_stays_a_man_in_brazilian() -> None:
    # b6xd8 reaches the last row; as a man it cannot reach f6, so it stops and is crowned
    position = Position.from_fen("W:Wb6:Bc7,f6", get_variant("brazilian"))
    (move,) = position.legal_moves()
    assert position.move_text(move) == "b6xd8" and move.promotes


def test_man_crowned_mid_capture_goes_on_as_a_king_in_russian() -> None:
    assert legal_texts("russian", "W:Wb6:Bc7,f6") == {"b6xg5", "b6xh4"}
    position = Position.from_fen("W:Wb6:Bc7,f6", get_variant("russian"))
    assert all(move.promotes for move in position.legal_moves())


def test_man_reaching_last_row_mid_capture_continues_as_man_in_brazilian() -> None:
    # White man on c5 takes d6, lands e7? no: takes b6 to a7... use the rulebook idea on 8x8:
    # e5xc7xe8? men capture backwards, so a man landing on d8 may take e7 back to f6
    position = Position.from_fen("W:Wb6:Bc7,e7", get_variant("brazilian"))
    (move,) = position.legal_moves()
    assert position.move_text(move) == "b6xf6" and not move.promotes


@pytest.mark.parametrize("variant", ["portuguese", "italian", "english"])
def test_crowning_ends_the_move(variant: str) -> None:
    v = get_variant(variant)
    # a white man two rows from the top takes onto the last row; a further capture
    # would need a backward jump, which these men cannot make anyway, and kings
    # made this turn do not move on
    file = 2 if v.mirrored else 1
    origin = v.square_name(v.square_at(file, 5))
    over = v.square_name(v.square_at(file + 1, 6))
    position = Position.from_fen(f"W:W{origin}:B{over}", v)
    (move,) = position.legal_moves()
    assert move.promotes and len(move.captures) == 1


@pytest.mark.parametrize(
    ("variant", "first"),
    [("brazilian", "W"), ("international", "W"), ("russian", "W"), ("portuguese", "W"),
     ("spanish", "W"), ("italian", "W"), ("english", "B"), ("pool", "B")],
)
def test_who_moves_first(variant: str, first: str) -> None:
    assert get_variant(variant).initial_position().turn == first


@pytest.mark.parametrize(
    ("variant", "corner"),
    [("brazilian", "a1"), ("russian", "a1"), ("english", "a1"), ("pool", "a1"),
     ("portuguese", "b1"), ("spanish", "b1"), ("italian", "b1"), ("international", "a1")],
)
def test_dark_corner_from_white_side(variant: str, corner: str) -> None:
    v = get_variant(variant)
    assert v.square_from_name(corner) is not None
    assert v.square_from_name("a1" if corner == "b1" else "b1") is None


def test_square_numbering_per_variant() -> None:
    assert get_variant("brazilian").square_name(1) == "b8"
    assert get_variant("brazilian").square_name(29) == "a1"
    assert get_variant("brazilian").square_name(32) == "g1"
    assert get_variant("international").square_name(46) == "a1"
    assert get_variant("international").square_name(1) == "b10"
    assert get_variant("italian").square_name(1) == "a8"
    assert get_variant("italian").square_name(32) == "h1"
    assert get_variant("spanish").square_name(1) == "h1"
    assert get_variant("portuguese").square_name(32) == "a8"
    assert get_variant("portuguese").initial_fen() == "W:W1-12:B21-32"


def test_reading_order_matches_standard_numbering_and_turns_for_mirrored_boards() -> None:
    brazilian = get_variant("brazilian")
    assert [brazilian.reading_order_to_square(k) for k in range(1, 33)] == list(range(1, 33))
    italian = get_variant("italian")
    assert italian.reading_order_to_square(1) == 1  # a8, the far-left dark square
    spanish = get_variant("spanish")
    assert spanish.reading_order_to_square(1) == 32
    for v in (italian, spanish, get_variant("international")):
        for k in range(1, v.num_squares + 1):
            assert v.square_to_reading_order(v.reading_order_to_square(k)) == k


def test_captured_pieces_are_never_jumped_twice_and_block() -> None:
    # a king circling a square of four men takes all four once
    position = Position.from_fen("W:WKd2:Bc3,e3,c5,e5", get_variant("brazilian"))
    for move in position.legal_paths():
        assert len(move.captures) == len(move.path) == 4
