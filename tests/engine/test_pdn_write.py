"""Writing PDN strictly, refusing what the reader would reject, and reading it back."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import VARIANTS, EngineError, Game, Move, Position, get_variant
from engine.pdn import parse_game, read_games, write_game
from engine.pdn_write import LINE_WIDTH, ROSTER
from host.commands.check_game import agrees


def play_out(variant_name: str, choices: list[int], fen: str | None = None) -> Game:
    """A legal game: at each ply take the legal move `choice % count`."""
    variant = get_variant(variant_name)
    game = Game(variant, None if fen is None else Position.from_fen(fen, variant))
    for choice in choices:
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(moves[choice % len(moves)])
    return game


def tag_names(text: str) -> list[str]:
    return [line.split(" ", 1)[0][1:] for line in text.splitlines() if line.startswith("[")]


def test_roster_order_long_game_type_and_no_fen_from_the_initial_position() -> None:
    game = play_out("brazilian", [0, 1, 2])
    text = write_game(game, {"Black": "Ana", "Opening": "x", "White": "Zé", "Result": "*"})
    assert tag_names(text) == [*ROSTER, "GameType", "Opening"]
    assert '[Result "*"]' in text and '[Date "????.??.??"]' in text
    assert '[GameType "26,W,8,8,A0,0"]' in text
    assert text.rstrip().endswith("*")
    assert text.split("\n\n")[1].startswith("1. ") and "-" in text.split("\n\n")[1]


def test_the_result_is_the_engines_verdict_unless_the_tags_say_otherwise() -> None:
    game = Game(get_variant("brazilian"), Position.from_fen("W:W21:B17", get_variant("brazilian")))
    game.push(game.legal_moves()[0])
    assert '[Result "1-0"]' in write_game(game) and write_game(game).rstrip().endswith("1-0")
    assert '[Result "*"]' in write_game(play_out("brazilian", [0]))
    assert '[Result "0-1"]' in write_game(game, {"result": "0-1"})  # any case of the name


def test_fen_and_setup_are_written_when_the_start_is_not_initial() -> None:
    game = Game(get_variant("international"),
                Position.from_fen("B:W32:B19", get_variant("international")))
    text = write_game(game, {"Result": "1-0"})
    assert '[SetUp "1"]' in text and '[FEN "B:W32:B19"]' in text
    game.push(game.legal_moves()[0])
    assert "1... 19-2" in write_game(game)


def test_the_older_call_still_works() -> None:
    game = play_out("international", [3, 1, 4])
    old = write_game(game.variant, {"Event": "x"}, game.moves, "*")
    assert old == write_game(game, {"Event": "x", "Result": "*"})
    text = write_game(get_variant("international"), {}, [], "1-0", start_fen="B:W32:B19")
    assert '[FEN "B:W32:B19"]' in text


def test_game_type_and_fen_in_the_tags_are_ignored_not_copied() -> None:
    game = play_out("brazilian", [0])
    text = write_game(game, {"GameType": "20", "FEN": "W:W1:B2", "SetUp": "1"})
    assert '[GameType "26,W,8,8,A0,0"]' in text and "FEN" not in text and "SetUp" not in text


def test_escaped_tag_values_read_back_identically() -> None:
    tags = {"White": 'Jo\u00e3o "Z\u00e9" \\ Silva"]', "Event": "Ta\u00e7a\t2003"}
    game = parse_game(write_game(Game(get_variant("brazilian")), tags))
    assert game.tags["White"] == tags["White"] and game.tags["Event"] == tags["Event"]


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"White": "two\nlines"}, "line break"),
        ({"Event": "a\rb"}, "line break"),
        ({"Site": "nul\x00"}, "control character"),
        ({"Bad Name": "x"}, "not a PDN tag name"),
        ({"1st": "x"}, "not a PDN tag name"),
        ({"Tag]": "x"}, "not a PDN tag name"),
        ({"": "x"}, "not a PDN tag name"),
        ({"Result": "1-0 (adjourned)"}, "not a PDN result"),
        ({"Result": "3-1"}, "not a PDN result"),
    ],
)
def test_what_the_reader_would_reject_is_refused(tags: dict[str, str], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        write_game(play_out("brazilian", [0]), tags)


def test_long_games_wrap_at_80_columns_without_orphan_move_numbers() -> None:
    game = play_out("international", list(range(200)))
    movetext = write_game(game).split("\n\n")[1].splitlines()
    assert len(movetext) > 3
    assert all(len(line) <= LINE_WIDTH for line in movetext)
    assert not any(line.rstrip().endswith(".") for line in movetext)


def test_every_variant_has_the_long_game_type_of_the_pdn_standard() -> None:
    expected = {
        "brazilian": "26,W,8,8,A0,0", "russian": "25,W,8,8,A0,0", "english": "21,B,8,8,N1,0",
        "pool": "23,B,8,8,N1,0", "international": "20,W,10,10,N2,0",
        "italian": "22,W,8,8,N2,1", "spanish": "24,W,8,8,N1,1", "portuguese": "28,W,8,8,N1,1",
    }
    assert {name: v.pdn_game_type for name, v in VARIANTS.items()} == expected
    for name, game_type in expected.items():
        assert get_variant(game_type).name == name


def test_games_written_one_after_another_read_back_as_many_games() -> None:
    texts = [write_game(play_out(name, list(range(i, i + 30)))) for i, name in
             enumerate(sorted(VARIANTS))]
    games = list(read_games(io.StringIO("".join(texts))))
    assert [game.variant.name for game in games] == sorted(VARIANTS)
    assert all(game.error is None for game in games)


# Any text a tag value may hold: every Unicode character but line breaks and
# other control characters (which the writer refuses), quotes and backslashes
# included.
TAG_TEXT = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85"),
    max_size=40,
) | st.sampled_from(['"', "\\", '\\"', '"]', "]", "[", "{", "}", "%", ";", " ", "?", "\t"])
TAG_NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,15}", fullmatch=True).filter(
    lambda name: name.lower() not in {"gametype", "fen", "setup", "result"})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roster=st.fixed_dictionaries({name: TAG_TEXT for name in ROSTER if name != "Result"}),
       extra=st.dictionaries(TAG_NAME, TAG_TEXT, max_size=5))
def test_round_trip_of_any_tag_values(roster: dict[str, str], extra: dict[str, str]) -> None:
    tags = {**roster, **extra}
    text = write_game(Game(get_variant("russian")), tags)
    [game] = list(read_games(io.StringIO(text)))
    for name, value in tags.items():
        expected = value or "?" if name in ROSTER else value
        if name == "Date" and not value:
            expected = "????.??.??"
        assert game.tags[name] == expected, (name, value, text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
    white=TAG_TEXT,
)
def test_round_trip_written_then_read_replays_the_same_moves(
    variant: str, choices: list[int], white: str
) -> None:
    game = play_out(variant, choices)
    text = write_game(game, {"Event": "round trip", "White": white})
    [read] = list(read_games(io.StringIO(text)))
    assert read.error is None
    assert read.variant.name == variant and not read.variant_inferred
    assert _identity(read.moves) == _identity(game.moves)
    assert read.fen() == game.fen()
    assert agrees(read)


def _identity(moves: list[Move]) -> list[tuple[int, int, frozenset[int]]]:
    return [(m.origin, m.destination, m.captures) for m in moves]
