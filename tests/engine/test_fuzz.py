"""Fuzzing the engine's text input (hypothesis): a result or one clear error, nothing else.

FEN, move text and variant names, drawn from three sources: any Unicode
text, bytes decoded the way the command line decodes arguments (surrogate
escapes for what is not UTF-8), and text shaped like the real thing with
numbers up to thousands of digits spliced in. An exception other than the
engine's own, or a message that is not one short line, fails the test.
"""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    VARIANTS,
    EngineError,
    FenError,
    Game,
    IllegalMoveError,
    Position,
    UnknownVariantError,
    get_variant,
)
from tests.engine.strategies import argv_like, fen_like, move_like, numbers, variant_names

# Each example costs microseconds; the deadline only catches a runaway (a
# quadratic blow-up on long input), with room for a heavily loaded machine.
FUZZ = settings(max_examples=300, deadline=timedelta(seconds=5),
                suppress_health_check=[HealthCheck.too_slow])

def assert_one_line(error: Exception) -> None:
    message = str(error)
    assert message and "\n" not in message and len(message) < 300, message


@FUZZ
@given(variant_names, st.one_of(fen_like(), st.text(max_size=200), argv_like))
def test_fen_reads_or_raises_one_fen_error(name: str, text: str) -> None:
    variant = get_variant(name)
    try:
        position = Position.from_fen(text, variant)
    except FenError as error:
        assert_one_line(error)
        return
    # what was read is written strictly and reads back to the same position
    assert Position.from_fen(position.fen(), variant) == position
    assert position.white | position.black


@FUZZ
@given(st.binary(max_size=100))
def test_fen_as_bytes_is_one_fen_error(data: bytes) -> None:
    try:
        Position.from_fen(data, "brazilian")  # type: ignore[arg-type]
    except FenError as error:
        assert_one_line(error)
    else:
        raise AssertionError("bytes were read as a FEN")


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game a few random legal moves in, in any variant."""
    game = Game(draw(variant_names))
    for _ in range(draw(st.integers(0, 30))):
        if game.outcome() is not None:
            break
        legal = game.legal_moves()
        game.push(legal[draw(st.integers(0, len(legal) - 1))])
    return game


@FUZZ
@given(games(), st.one_of(move_like(), st.text(max_size=100), argv_like))
def test_move_text_parses_or_raises_one_illegal_move_error(game: Game, text: str) -> None:
    fen, ply = game.fen(), game.ply
    try:
        move = game.push_text(text)
    except IllegalMoveError as error:
        assert_one_line(error)
        assert (game.fen(), game.ply) == (fen, ply)  # a refused move changes nothing
        return
    assert game.ply == ply + 1 and move in game.positions[-2].legal_moves()


@FUZZ
@given(st.one_of(st.text(max_size=60), argv_like, numbers,
                 st.integers(min_value=-(10**5000), max_value=10**5000)))
def test_variant_names_find_a_variant_or_raise_unknown_variant_error(name: object) -> None:
    try:
        variant = get_variant(name)  # type: ignore[arg-type]
    except UnknownVariantError as error:
        assert_one_line(error)
        assert isinstance(error, EngineError)
    else:
        assert variant in VARIANTS.values()
