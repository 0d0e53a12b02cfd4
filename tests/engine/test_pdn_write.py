"""Writing PDN strictly, and reading back what was written (round trip)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import VARIANTS, Game, Move, get_variant
from engine.pdn import read_games
from engine.pdn_replay import replay_game
from engine.pdn_write import LINE_WIDTH, write_game


def play_out(variant_name: str, choices: list[int], fen: str | None = None) -> Game:
    """A legal game: at each ply take the legal move `choice % count`."""
    variant = get_variant(variant_name)
    game = Game(variant, None if fen is None else _position(fen, variant_name))
    for choice in choices:
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(moves[choice % len(moves)])
    return game


def _position(fen: str, variant_name: str):  # type: ignore[no-untyped-def]
    from engine import Position

    return Position.from_fen(fen, get_variant(variant_name))


def test_roster_order_long_game_type_and_no_fen_from_the_initial_position() -> None:
    game = play_out("brazilian", [0, 1, 2])
    text = write_game(
        game.variant,
        {"Black": "Ana", "Opening": "x", "White": "Zé", "Result": "0-1"},
        game.moves,
        "*",
    )
    tags = [line.split(" ", 1)[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert tags == [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "GameType",
        "Opening",
    ]
    assert '[Result "*"]' in text and '[Date "????.??.??"]' in text
    assert '[GameType "26,W,8,8,A0,0"]' in text
    assert text.rstrip().endswith("*")
    assert "1. " in text and "-" in text.split("\n\n")[1]  # algebraic like c3-d4


def test_fen_is_written_when_the_start_is_not_initial_and_black_starts_with_ellipsis() -> None:
    text = write_game(get_variant("international"), {}, [], "1-0", start_fen="B:W32:B19")
    assert '[FEN "B:W32:B19"]' in text
    game = play_out("international", [0], fen="B:W32:B19")
    text = write_game(game.variant, {}, game.moves, "*", start_fen="B:W32:B19")
    assert "1... 19-2" in text


def test_escaped_tag_values_read_back_identically() -> None:
    tags = {"White": 'Jo\u00e3o "Z\u00e9" \\ Silva', "Event": "Ta\u00e7a"}
    text = write_game(get_variant("brazilian"), tags, [], "*")
    [game] = read_games(text)
    assert game.tags["White"] == tags["White"] and game.tags["Event"] == tags["Event"]


def test_long_games_wrap_at_80_columns_without_orphan_move_numbers() -> None:
    game = play_out("international", list(range(200)))
    text = write_game(game.variant, {}, game.moves, "*")
    movetext = text.split("\n\n")[1].splitlines()
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
)
def test_round_trip_written_then_read_replays_the_same_moves(
    variant: str, choices: list[int]
) -> None:
    game = play_out(variant, choices)
    outcome = game.outcome()
    result = outcome.result if outcome else "*"
    text = write_game(game.variant, {"Event": "round trip"}, game.moves, result)
    [read] = read_games(text)
    replay = replay_game(read)
    assert replay.error is None
    assert replay.variant.name == variant and not replay.inferred
    assert _identity(replay.moves) == _identity(game.moves)
    assert replay.final_fen == game.fen()
    assert replay.agrees


def _identity(moves: list[Move]) -> list[tuple[int, int, frozenset[int]]]:
    return [(m.origin, m.destination, m.captures) for m in moves]
