"""Fuzzing the PDN reader and `check-game` with text, PDN-like pieces and raw bytes.

Whatever the input: `read_games` raises nothing but `PdnError` (and with
`on_error`, nothing at all), and `check-game` exits 0, 1 or 2 with clean
one-line errors, never a traceback and never a hang (each example runs under
an alarm).
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pdn import PdnError, read_games
from host.cli import main

SECONDS_PER_EXAMPLE = 20  # generous: a loaded 2-core machine; a hang is minutes

PIECES = [
    '[Event "x"]', '[GameType "20"]', '[GameType "25"]', '[GameType "40"]', '[GameType "',
    '[FEN "W:W31-50:B1-20"]', '[FEN "B:W18:BK22"]', '[FEN "?"]', '[FEN "', '[Result "1-0"]',
    '[White "Иванов"]', "[", "]", '"', "\\", "1.", "1...", "12.", "32-28", "19-23", "28x19",
    "14x23", "c3-d4", "f6-e5", "D4:F6", "a3b4", "3228", "4-6", "-", "--", "1-0", "0-1",
    "1/2-1/2", "1/2:1/2", "0:1", "2-0", "1-1", "*", "{", "}", "{comment}", "(", ")",
    "(19-23 {x})", "$1", "!?", "(!?)", "%", ";", "/", "/W:W28:B19/", "9" * 60, "9" * 5000,
    "\n", "\r\n", " ", "\t", "\x1a", "\x00", "é", "\ufeff", "ÿ",
]
PDN_LIKE = st.lists(st.sampled_from(PIECES), max_size=60).map(" ".join)
ANY_TEXT = st.text(max_size=400) | PDN_LIKE
ENCODED = st.tuples(PDN_LIKE, st.sampled_from(["utf-8", "cp1251", "cp1252", "utf-16"])).map(
    lambda pair: pair[0].encode(pair[1], errors="replace"))
ANY_BYTES = st.binary(max_size=400) | ENCODED

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def fail(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def read_all(source: object) -> list[PdnError]:
    errors: list[PdnError] = []
    with time_limit(SECONDS_PER_EXAMPLE):
        for game in read_games(source, on_error=errors.append):  # type: ignore[arg-type]
            assert game.ply >= 0 and game.number >= 1
    return errors


@FUZZ
@given(ANY_TEXT)
def test_any_text_reads_with_only_pdn_errors(text: str) -> None:
    for error in read_all(io.StringIO(text)):
        assert isinstance(error, PdnError) and "\n" not in str(error)
    with time_limit(SECONDS_PER_EXAMPLE), contextlib.suppress(PdnError):
        list(read_games(io.StringIO(text)))


@FUZZ
@given(ANY_BYTES)
def test_any_bytes_read_with_only_pdn_errors(data: bytes) -> None:
    read_all(data)
    read_all(io.BytesIO(data))


@pytest.mark.parametrize(
    "text",
    [
        "1. " + "9" * 5000 + "-1 *",
        '[GameType "20"]\n[FEN "W:W' + "9" * 5000 + ':B1"]\n*',
        '[GameType "' + "9" * 5000 + '"]\n*',
        '[FEN "W:W1-' + "9" * 5000 + ':B1"]\n1. 32-28 *',
        "{" * 10_000,
        "(" * 10_000 + "1-0",
        "[" * 10_000,
        "1. 32-28 " * 20_000 + "*",
    ],
)
def test_huge_numbers_and_deep_nesting_give_clean_errors(text: str) -> None:
    for error in read_all(io.StringIO(text)):
        assert len(str(error)) < 500


@FUZZ
@given(ANY_BYTES, st.booleans())
def test_check_game_exits_0_1_or_2_with_clean_lines(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, as_json: bool
) -> None:
    path: Path = tmp_path_factory.mktemp("fuzz") / "game.pdn"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with time_limit(SECONDS_PER_EXAMPLE), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        status = main(["check-game", *(["--json"] if as_json else []), str(path)])
    assert status in (0, 1, 2)
    errors = err.getvalue().splitlines()
    assert all(line.startswith("draughtsboard: ") for line in errors)
    assert (status == 2) == bool(errors)
    if as_json:
        for line in out.getvalue().splitlines():
            json.loads(line)
