"""Replaying PDN games: start position, illegal moves, ambiguous texts, what files leave out."""

from __future__ import annotations

import pytest

from engine import get_variant
from engine.pdn import PdnError, PdnGame, UnsupportedVariantError, parse_game, read_games
from host.commands.check_game import agrees
from tests.paths import CORPUS


@pytest.mark.parametrize(
    ("name", "games", "variant", "agreeing"),
    [
        ("wk2003.pdn", 23, "international", 23),
        ("DUTCH96H.pdn", 13, "international", 13),
        ("ussr1947.pdn", 153, "russian", 153),
        ("OCA_2.0.pdn", 43, "english", 43),
        ("inferno.pdn", 68, "english", 68),
        ("Campionato_Assoluto_2005.pdn", 53, "italian", 52),
    ],
)
def test_corpus_replays_without_illegal_moves(
    name: str, games: int, variant: str, agreeing: int
) -> None:
    read = list(read_games(CORPUS / name))
    assert [g.number for g in read] == list(range(1, games + 1))
    assert [g.error for g in read if g.error] == []
    assert {g.variant.name for g in read} == {variant}
    assert sum(agrees(g) for g in read) == agreeing


def test_italian_game_25_repeats_three_times_and_the_engine_calls_it_a_draw() -> None:
    game = list(read_games(CORPUS / "Campionato_Assoluto_2005.pdn"))[24]
    assert game.error is None and game.ply == 119
    assert game.first_outcome is not None
    assert (game.first_outcome.reason, game.first_outcome_ply) == ("threefold-repetition", 101)
    assert game.first_outcome.result == "1/2-1/2" and game.claimed_result == "1-0"
    assert not agrees(game)


def test_ambiguous_short_capture_is_read_not_rejected() -> None:
    game = list(read_games(CORPUS / "Campionato_Assoluto_2005.pdn"))[45]
    assert game.error is None and game.ply == 26
    assert game.notes == ["ply 26 3x26 could be 3x10x19x26, 3x10x17x26: 3x10x19x26 was taken"]


ITALIAN_46 = (
    "1. 21-17 11-15 2. 26-21 15-19 3. 22x15 12x19 4. 23x14 10x19 5. 28-23 19x28 "
    "6. 32x23 5-10 7. 29-26 6-11 8. 26-22 8-12 9. 22-18 10-14 10. 27-22 12-15 "
    "11. 17-13 14-19 12. 23x14 15-20 13. 24x6 3x26"
)


def test_ambiguity_is_settled_by_the_move_that_follows() -> None:
    # After 3x10x17x26 White must take 30x21; after 3x10x19x26 it cannot.
    game = parse_game(ITALIAN_46 + " 14. 30x21 *", "italian")
    assert game.error is None, game.error
    assert game.notes == [
        "ply 26 3x26 could be 3x10x19x26, 3x10x17x26: only 3x10x17x26 lets the game go on"
    ]
    assert game.moves[25].path == (10, 17, 26) and game.ply == 27


def test_ambiguity_followed_by_a_move_no_reading_allows_is_illegal_there() -> None:
    game = parse_game(ITALIAN_46 + " 14. 30-29 *", "italian")
    assert game.error is not None and game.error_ply == 27 and game.error_move == "30-29"


def test_first_illegal_move_is_reported_with_ply_text_place_and_reason() -> None:
    game = parse_game('[GameType "20"]\n1. 32-28 19-23\n2. 28-22 *')
    assert game.error is not None
    assert (game.ply, game.error_ply, game.error_move) == (2, 3, "28-22")
    assert game.error.startswith("ply 3 (2. 28-22, line 3, column 4): ")
    assert "capture is mandatory" in game.error
    # The game stops before the illegal move: White to move, 32 on 28, 19 on 23.
    assert game.fen() == (
        "W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
        ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23"
    )
    assert not agrees(game)


def test_a_game_read_is_a_game_that_can_be_played_on() -> None:
    game = parse_game('[GameType "26"]\n1. c3-d4 f6-e5 *')
    assert isinstance(game, PdnGame)
    game.push(game.position.parse_move("d4xf6"))
    assert game.ply == 3 and game.position.turn == "B"
    game.pop()
    assert game.ply == 2


def test_explicit_variant_wins_over_game_type() -> None:
    text = '[GameType "20"]\n1. 11-15 24-20 *'
    assert parse_game(text).error is not None
    forced = parse_game(text, "english")
    assert forced.error is None and forced.variant.name == "english"
    assert not forced.variant_inferred and forced.variant_grounds == ["the variant was given"]
    assert parse_game(text, get_variant("english")).variant.name == "english"


def test_game_type_long_form_is_used() -> None:
    game = parse_game('[GameType "26,W,8,8,A0,0"]\n1. c3-d4 f6-e5 *')
    assert game.error is None and game.variant.name == "brazilian" and not game.variant_inferred
    assert game.variant_grounds == ["GameType '26,W,8,8,A0,0'"]


@pytest.mark.parametrize("game_type", ["40", "29,W,8,8,A0,0", "31", "9" * 5000])
def test_a_variant_not_played_here_is_an_error_at_the_tag(game_type: str) -> None:
    with pytest.raises(UnsupportedVariantError) as caught:
        parse_game(f'[Event "x"]\n[GameType "{game_type}"]\n1. 32-28 *')
    assert (caught.value.game, caught.value.line, caught.value.column) == (1, 2, 1)
    assert "GameType" in caught.value.reason or "variant" in caught.value.reason


def test_unreadable_fen_is_a_pdn_error_at_the_tag() -> None:
    with pytest.raises(PdnError) as caught:
        parse_game('[GameType "20"]\n[FEN "W:W99:B1"]\n*')
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "FEN" in str(caught.value)


@pytest.mark.parametrize("fen", ["?", "", "*"])
def test_a_fen_tag_that_says_nothing_is_the_initial_position(fen: str) -> None:
    game = parse_game(f'[GameType "25"]\n[FEN "{fen}"]\n1. c3-d4 *')
    assert game.error is None and game.start == get_variant("russian").initial_position()


def test_fen_with_unknown_side_tries_the_side_that_makes_the_moves_legal() -> None:
    # International; only Black's man on 19 can move first as written.
    game = parse_game('[GameType "20"]\n[FEN "?:W32:B19"]\n1... 19-23 32-28 *')
    assert game.error is None and game.start.fen() == "B:W32:B19"


def test_fen_trailing_dot_ranges_and_spaces() -> None:
    game = parse_game('[GameType "20"]\n[FEN "W:W31 - 50:B1-20."]\n1. 32-28 19-23 *')
    assert game.error is None
    assert game.start == get_variant("international").initial_position()


def test_set_up_before_the_first_move_is_the_start_position() -> None:
    game = parse_game('[GameType "20"]\n/B:W32:B19/ 1... 19-23 *')
    assert game.error is None and game.start.fen() == "B:W32:B19"


def test_set_up_in_the_middle_stops_the_replay_with_a_note() -> None:
    game = parse_game('[GameType "20"]\n1. 32-28 19-23 /W:W28:B23/ 2. 28x19 *')
    assert game.error is None and game.ply == 2
    assert game.notes == ["a set-up (/FEN/) in the movetext after ply 2: not replayed from there"]


def test_placeholder_moves_end_the_replay_without_an_error() -> None:
    game = parse_game('[GameType "25"]\n[Result "1-0"]\n1. c3-d4 f6-e5 2. - - 1-0')
    assert game.error is None and game.ply == 2 and agrees(game)
    assert game.notes == ["moves not recorded from ply 3 ('-' in the file)"]


def test_a_last_score_that_is_no_legal_move_is_the_match_score() -> None:
    game = parse_game('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 4-6')
    assert game.error is None and game.ply == 4 and game.terminator == "4-6"
    assert game.notes == ["the last text 4-6 is no legal move there: read as the match score"]
    assert game.claimed_result == "4-6" and agrees(game)


@pytest.mark.parametrize(
    ("claim", "agreement"),
    [("1-0", True), ("2-0", True), ("1:0", True), ("2:0", True), ("0-1", False),
     ("1/2-1/2", False), ("1/2:1/2", False), ("*", False), ("6-4", True), ("4-6", False)],
)
def test_finished_game_agrees_only_with_the_engine_result(claim: str, agreement: bool) -> None:
    # Brazilian: White's a3 takes Black's last man on b4.
    game = parse_game(f'[GameType "26"]\n[FEN "W:W21:B17"]\n[Result "{claim}"]\n1. 21x14 *')
    assert game.first_outcome is not None and game.first_outcome.result == "1-0"
    assert game.first_outcome.reason == "no-pieces" and game.first_outcome_ply == 1
    assert agrees(game) is agreement


@pytest.mark.parametrize(
    ("claim", "agreement"),
    [("1-0", True), ("0-1", True), ("1/2-1/2", True), ("1-1", True), ("1/2:1/2", True),
     ("0:1", True), ("0-0", True), ("*", True), ("3-x", False)],
)
def test_live_position_agrees_with_any_real_result(claim: str, agreement: bool) -> None:
    game = parse_game(f'[Result "{claim}"]\n1. 32-28 19-23 *')
    assert game.first_outcome is None
    assert agrees(game) is agreement


def test_no_result_at_all_agrees_only_while_the_game_is_live() -> None:
    assert agrees(parse_game("1. 32-28"))
    assert not agrees(parse_game('[GameType "26"]\n[FEN "W:W21:B17"]\n1. 21x14'))


def test_no_game_at_all_is_a_pdn_error() -> None:
    with pytest.raises(PdnError, match="no game found"):
        parse_game("% nothing here\n")


def test_an_untagged_fragment_after_a_game_is_flagged_as_probably_left_over() -> None:
    games = list(read_games(b'[GameType "20"]\n1. 32-28 19-23 1-0\n\n36x27 1-0\n'))
    assert games[1].error is not None
    assert games[1].notes == ["no tags: perhaps text left over from game 1"]
