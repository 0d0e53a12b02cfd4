"""Which variant a game without GameType is in: clues, the board, and the rest of the file."""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest

from engine import Game, get_variant
from engine.pdn import parse_game, read_games, write_game
from engine.pdn_infer import FileEvidence, clues_of, rank
from engine.pdn_records import read_records
from tests.paths import CORPUS

USSR = (CORPUS / "ussr1947.pdn").read_text(encoding="utf-8")


def first_record(text: str):  # type: ignore[no-untyped-def]
    return next(read_records(io.StringIO(text)))


def order(text: str, encoding: str | None = None) -> list[str]:
    guess = rank(first_record(text), FileEvidence(encoding=encoding))
    return [variant.name for variant in guess.candidates]


def without_clues(text: str) -> str:
    """A PDN text with only Result and FEN tags and captures written with x: no clue left."""
    kept = [line.replace(":", "x") if not line.startswith("[") else line
            for line in text.splitlines()
            if not line.startswith("[") or line.startswith(("[Result", "[FEN"))]
    return "\n".join(kept) + "\n"


def random_games(variant: str, count: int, seed: int) -> list[str]:
    """`count` random legal games of `variant` as PDN, without GameType tags."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        game = Game(get_variant(variant))
        for _ in range(rng.randrange(20, 90)):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.push(rng.choice(moves))
        texts.append(re.sub(r'\[GameType "[^"]*"\]\n', "", write_game(game, {"Result": "*"})))
    return texts


def test_board_and_notation_decide_the_candidates() -> None:
    assert order("1. 32-28 19-23 *") == [
        "english", "italian", "brazilian", "russian", "portuguese", "spanish", "pool",
        "international"]
    assert order("1. 33-28 18-23 *") == ["international"]
    assert order("1. c3-d4 f6-e5 *") == ["brazilian", "russian"]
    assert order("1. i3-j4 *") == ["international"]
    assert order('[FEN "W:W31-50:B1-20"] *') == ["international"]
    assert order('[FEN "W:W21-32:B1-12"] *')[0] == "brazilian"  # no moves: the home variant


@pytest.mark.parametrize(
    ("text", "encoding", "reason"),
    [
        ('[White "Иванов"]\n1. c3-d4 *', None, "Cyrillic text in tags (White)"),
        ("1. c3-d4 *", "cp1251", "the file is in a Cyrillic code page (cp1251)"),
        ("1. c3-d4 f6-e5 2. d4:f6 *", None, "captures written with ':' (the Russian habit)"),
        ('[Result "1/2:1/2"]\n1. c3-d4 *', None, "result written '1/2:1/2' (the Russian habit)"),
        ('[Event "Russian draughts cup"]\n1. c3-d4 *', None,
         "Event 'Russian draughts cup' suggests Russian draughts"),
        ('[Site "Moscow"]\n1. c3-d4 *', None, "Site 'Moscow' suggests Russian draughts"),
    ],
)
def test_russian_clues_put_russian_first(text: str, encoding: str | None, reason: str) -> None:
    assert order(text, encoding) == ["russian", "brazilian"]
    assert reason in [clue.reason for clue in clues_of(first_record(text), encoding)]


def test_brazilian_words_beat_cyrillic_letters() -> None:
    # Russian players in a Brazilian-draughts event: the event's words say which rules.
    text = '[White "Иванов"]\n[Event "Чемпионат России, бразильские шашки"]\n1. c3-d4 *'
    assert order(text) == ["brazilian", "russian"]


def test_italian_tag_names_and_variant_tag() -> None:
    assert order('[Bianco "A"]\n[Nero "B"]\n1. 21-17 *')[0] == "italian"
    assert order('[Bianco "A"]\n1. c3-d4 *')[0] == "brazilian"  # algebraic: not Italian
    assert order('[Variant "pool"]\n1. 11-15 *')[0] == "pool"


def test_a_russian_collection_without_any_clue_comes_out_russian() -> None:
    bare = without_clues(USSR)
    assert "[Event" not in bare and "[White" not in bare and "d4:" not in bare
    games = list(read_games(io.StringIO(bare)))
    assert len(games) == 153 and all(game.error is None for game in games)
    assert Counter(game.variant.name for game in games) == {"russian": 153}
    ambiguous = [game for game in games if "legal as brazilian and russian" in
                 " ".join(game.variant_grounds)]
    assert ambiguous and all("as the file's other games show" in game.variant_grounds[-1]
                             for game in ambiguous)
    decisive = [game for game in games if "only russian replays every move" in
                " ".join(game.variant_grounds)]
    assert decisive


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r", "cp866"])
def test_a_russian_collection_in_a_cyrillic_code_page_comes_out_russian(encoding: str) -> None:
    games = list(read_games(USSR.encode(encoding)))
    assert Counter(game.variant.name for game in games) == {"russian": 153}
    assert games[0].tags["White"] == "Блиндер Б."
    assert f"the file is in a Cyrillic code page ({encoding})" in games[0].variant_grounds


def test_a_cp1251_collection_with_latin_tags_comes_out_russian_by_its_code_page() -> None:
    bare = without_clues(USSR).replace('[Result "1-0"]', '[Result "1-0"]\n[Site "Москва"]', 1)
    games = list(read_games(bare.encode("cp1251")))
    assert Counter(game.variant.name for game in games) == {"russian": 153}


def test_brazilian_games_stay_brazilian_beside_one_game_only_russian_can_replay() -> None:
    russian_only = next(
        game for game in read_records(io.StringIO(without_clues(USSR)))
        if parse_game(_text_of(game), "brazilian").error is not None
    )
    text = "".join([*random_games("brazilian", 12, seed=7), _text_of(russian_only),
                    *random_games("brazilian", 12, seed=8)])
    games = list(read_games(io.StringIO(text)))
    assert [game.variant.name for game in games].count("russian") == 1
    assert games[12].variant.name == "russian"
    assert all(game.error is None for game in games)


def _text_of(record) -> str:  # type: ignore[no-untyped-def]
    tags = "".join(f'[{name} "{value}"]\n' for name, value in record.tags.items())
    return tags + " ".join(move.text for move in record.moves) + " *\n\n"


def test_one_game_type_in_a_file_speaks_for_its_games_without_one() -> None:
    opening = "1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n\n"
    games = list(read_games(io.StringIO(opening + '[GameType "25"]\n' + opening + opening)))
    assert [game.variant.name for game in games] == ["russian"] * 3
    assert "as the file's other games show" in games[0].variant_grounds[-1]


def test_a_game_illegal_in_the_clued_variant_is_replayed_in_the_other() -> None:
    # A Brazilian game Russian rules cannot replay (a man crowned in the middle
    # of a capture goes on as a king in Russian only), with a Cyrillic name.
    only_brazilian = next(text for text in random_games("brazilian", 12, seed=8)
                          if parse_game(text, "russian").error is not None)
    game = parse_game('[Annotator "Иванов"]\n' + only_brazilian)
    assert game.error is None and game.variant.name == "brazilian"
    assert "Cyrillic text in tags (Annotator)" in game.variant_grounds
    assert game.variant_grounds[-1].startswith("only brazilian replays every move (illegal as "
                                               "russian at ply ")


def test_english_numeric_files_are_english_and_fifty_squares_international() -> None:
    assert parse_game("1. 11-15 24-20 *").variant.name == "english"
    assert parse_game("1. 21-17 12-15 *").variant.name == "italian"
    assert parse_game("1. 32-28 19-23 2. 28x19 14x23 *").variant.name == "international"


def test_when_no_variant_fits_the_furthest_is_reported_and_an_unplayed_variant_named() -> None:
    game = parse_game('[Site "Praha"]\n1. c3-d4 b6-a5 2. d4-c5 d6xb4 3. a3xc5 a5-b4 '
                      "4. c5-d6 e7xc5 5. b2-a3 b4xd2 6. e1xc3 *")
    grounds = " | ".join(game.variant_grounds)
    assert "Site 'Praha' suggests Czech draughts" in grounds
    if game.error is not None:
        assert "no variant replays every move" in grounds
        assert "Czech draughts is not a variant this engine plays" in grounds


def test_grounds_name_the_board_and_the_decision() -> None:
    game = parse_game("1. 11-15 24-20 *")
    assert game.variant_inferred
    assert game.variant_grounds[0] == "numeric squares up to 32: an 8x8 variant, or 10x10"
    assert game.variant_grounds[-1] == (
        "legal as english and portuguese; nothing in the file tells them apart: english is "
        "tried first")
    game = next(read_games(CORPUS / "OCA_2.0.pdn"))
    assert game.variant_grounds[-1].startswith("only english replays every move (illegal as ")


def test_black_before_white_is_the_english_habit_even_without_moves() -> None:
    # Problem collections from English checkers programs: a position, no moves.
    text = '[Event "Problem 1"]\n[Black ""]\n[White ""]\n[FEN "W:W13,11,10,6:BK14,3,1"]\n1-0\n'
    game = parse_game(text)
    assert game.variant.name == "english" and game.ply == 0
    assert ("the Black tag comes before White (as English checkers programs write them)"
            in game.variant_grounds)
    assert parse_game(text.replace('[Black ""]\n[White ""]', '[White ""]\n[Black ""]')
                      ).variant.name == "brazilian"
