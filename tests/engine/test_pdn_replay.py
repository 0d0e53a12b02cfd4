"""Replaying PDN games: variant choice, start position, illegal moves, result agreement."""

from __future__ import annotations

import pytest

from engine import get_variant
from engine.pdn import PdnError, read_games
from engine.pdn_replay import candidate_variants, replay_game
from tests.paths import CORPUS


def replay(text: str, variant: str | None = None):  # type: ignore[no-untyped-def]
    [game] = read_games(text)
    return replay_game(game, get_variant(variant) if variant else None)


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
    replays = [replay_game(game) for game in read_games((CORPUS / name).read_bytes())]
    assert len(replays) == games
    assert [r.error for r in replays if not r.legal] == []
    assert {r.variant.name for r in replays} == {variant}
    assert sum(r.agrees for r in replays) == agreeing


def test_italian_game_25_repeats_three_times_and_the_engine_calls_it_a_draw() -> None:
    games = read_games((CORPUS / "Campionato_Assoluto_2005.pdn").read_bytes())
    result = replay_game(games[24])
    assert result.legal and result.plies == 119
    assert (result.outcome.reason, result.outcome_ply) == ("threefold-repetition", 101)
    assert result.engine_result == "1/2-1/2" and result.claimed_result == "1-0"
    assert not result.agrees


def test_ambiguous_short_capture_is_read_not_rejected() -> None:
    games = read_games((CORPUS / "Campionato_Assoluto_2005.pdn").read_bytes())
    result = replay_game(games[45])
    assert result.legal and result.plies == 26
    assert result.notes == ["ply 26 3x26 could be 3x10x19x26, 3x10x17x26: 3x10x19x26 was taken"]


ITALIAN_46 = (
    "1. 21-17 11-15 2. 26-21 15-19 3. 22x15 12x19 4. 23x14 10x19 5. 28-23 19x28 "
    "6. 32x23 5-10 7. 29-26 6-11 8. 26-22 8-12 9. 22-18 10-14 10. 27-22 12-15 "
    "11. 17-13 14-19 12. 23x14 15-20 13. 24x6 3x26"
)


def test_ambiguity_is_settled_by_the_move_that_follows() -> None:
    # After 3x10x17x26 White must take 30x21; after 3x10x19x26 it cannot.
    result = replay(ITALIAN_46 + " 14. 30x21 *", "italian")
    assert result.legal, result.error
    assert result.notes == [
        "ply 26 3x26 could be 3x10x19x26, 3x10x17x26: only 3x10x17x26 lets the game go on"
    ]
    assert result.moves[25].path == (10, 17, 26) and result.plies == 27


def test_ambiguity_followed_by_a_move_no_reading_allows_is_illegal_there() -> None:
    result = replay(ITALIAN_46 + " 14. 30-29 *", "italian")
    assert not result.legal and result.error_ply == 27 and result.error_move == "30-29"


def test_first_illegal_move_is_reported_with_ply_text_place_and_reason() -> None:
    result = replay('[GameType "20"]\n1. 32-28 19-23\n2. 28-22 *')
    assert not result.legal
    assert (result.plies, result.error_ply, result.error_move) == (2, 3, "28-22")
    assert result.error.startswith("ply 3 (2. 28-22, line 3, column 4): ")
    assert "capture is mandatory" in result.error
    # The position before the illegal move: White to move, 32 on 28, 19 on 23.
    assert result.final_fen == (
        "W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
        ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23"
    )
    assert not result.agrees


def test_explicit_variant_wins_over_game_type() -> None:
    text = '[GameType "20"]\n1. 11-15 24-20 *'
    assert not replay(text).legal
    forced = replay(text, "english")
    assert forced.legal and forced.variant.name == "english" and not forced.inferred


def test_game_type_long_form_is_used() -> None:
    result = replay('[GameType "26,W,8,8,A0,0"]\n1. c3-d4 f6-e5 *')
    assert result.legal and result.variant.name == "brazilian" and not result.inferred


def test_unknown_game_type_is_a_pdn_error_at_the_tag() -> None:
    with pytest.raises(PdnError) as caught:
        replay('[Event "x"]\n[GameType "31"]\n1. 32-28 *')
    assert (caught.value.game, caught.value.line, caught.value.column) == (1, 2, 1)
    assert "31" in caught.value.reason


def test_unreadable_fen_is_a_pdn_error_at_the_tag() -> None:
    with pytest.raises(PdnError) as caught:
        replay('[GameType "20"]\n[FEN "W:W99:B1"]\n*')
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "FEN" in str(caught.value)


def test_fen_with_unknown_side_tries_the_side_that_makes_the_moves_legal() -> None:
    # International; only Black's man on 19 can move first as written.
    result = replay('[GameType "20"]\n[FEN "?:W32:B19"]\n1... 19-23 32-28 *')
    assert result.legal and result.start_fen == "B:W32:B19"


def test_fen_trailing_dot_ranges_and_spaces() -> None:
    result = replay('[GameType "20"]\n[FEN "W:W31 - 50:B1-20."]\n1. 32-28 19-23 *')
    assert result.legal
    assert result.start_fen == get_variant("international").initial_position().fen()


def test_inference_numeric_8x8_prefers_english_then_italian() -> None:
    assert replay("1. 11-15 24-20 *").variant.name == "english"
    assert replay("1. 21-17 12-15 *").variant.name == "italian"


def test_inference_algebraic_is_brazilian_then_russian() -> None:
    assert replay("1. c3-d4 f6-e5 *").variant.name == "brazilian"
    [game] = read_games('[White "Иванов"]\n1. c3-d4 f6-e5 *')
    assert [v.name for v in candidate_variants(game)] == ["russian", "brazilian"]


def test_inference_fifty_squares_is_international() -> None:
    [game] = read_games("1. 33-28 18-23 *")
    assert candidate_variants(game)[-1].name == "international"
    assert replay("1. 33-28 18-23 *").variant.name == "international"
    [game] = read_games('[FEN "W:W31-50:B1-20"] *')
    assert [v.name for v in candidate_variants(game)] == ["international"]


def test_italian_tag_names_put_italian_first() -> None:
    [game] = read_games('[Bianco "A"]\n[Nero "B"]\n1. c3-d4 *')
    assert candidate_variants(game)[0].name == "brazilian"  # algebraic: no Italian candidate
    [game] = read_games('[Bianco "A"]\n1. 11-15 *')
    assert candidate_variants(game)[0].name == "italian"


def test_when_no_variant_fits_the_one_that_went_furthest_is_reported() -> None:
    result = replay("1. 32-28 19-23 2. 28-22 *")
    assert not result.legal and result.variant.name == "international" and result.plies == 2


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [("1-0", True), ("2-0", True), ("0-1", False), ("1/2-1/2", False), ("*", False)],
)
def test_finished_game_agrees_only_with_the_engine_result(claim: str, agrees: bool) -> None:
    # Brazilian: White's a3 takes Black's last man on b4.
    result = replay(f'[GameType "26"]\n[FEN "W:W21:B17"]\n[Result "{claim}"]\n1. 21x14 {claim}')
    assert result.engine_result == "1-0" and result.outcome.reason == "no-pieces"
    assert result.outcome_ply == 1
    assert result.agrees is agrees


@pytest.mark.parametrize(
    ("claim", "agrees"),
    [("1-0", True), ("0-1", True), ("1/2-1/2", True), ("1-1", True), ("*", True), ("3-0", False)],
)
def test_live_position_agrees_with_any_real_result(claim: str, agrees: bool) -> None:
    result = replay(f'[Result "{claim}"]\n1. 32-28 19-23 *')
    assert result.engine_result is None
    assert result.agrees is agrees


def test_no_result_at_all_agrees_only_while_the_game_is_live() -> None:
    assert replay("1. 32-28").agrees
    assert not replay('[GameType "26"]\n[FEN "W:W21:B17"]\n1. 21x14').agrees
