"""What the host refuses reaches each viewer in their own language: a mistyped clock in
the new-game dialog read in Portuguese on a Brazilian phone and in English on a laptop,
from the one table of host/voice/request_errors.py; API users keep the English line and
get the code beside it."""

from __future__ import annotations

import re

import pytest
from conftest import BoardServer
from pages import SLOW, expect, open_board

from host.voice.request_errors import ERRORS, error_text

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_error_is_written_in_both_languages_with_the_same_blanks() -> None:
    assert set(ERRORS["pt-BR"]) == set(ERRORS["en"])
    for code, english in ERRORS["en"].items():
        portuguese = ERRORS["pt-BR"][code]
        assert set(PLACEHOLDER.findall(portuguese)) == set(PLACEHOLDER.findall(english)), code
        assert portuguese != english, code


def new_game_with_clock(page, typed: str) -> None:  # type: ignore[no-untyped-def]
    page.locator("#btn-new").click()
    page.locator("#clock-preset").select_option("custom")
    page.locator("#clock-custom").fill(typed)
    page.locator("#btn-start").click()


@pytest.mark.parametrize(("locale", "language"), [("pt-BR", "pt-BR"), ("en-US", "en")])
def test_a_mistyped_clock_is_refused_in_the_viewers_language(
    browser, shared: BoardServer, locale: str, language: str  # type: ignore[no-untyped-def]
) -> None:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_board(page, shared)
        before = shared.state()
        for typed, code in (("90+x", "clock-format"), ("0+0", "clock-main"),
                            ("5+3/2+3/1+1", "clock-too-many")):
            new_game_with_clock(page, typed)
            expect(page.locator("#toast")).to_have_text(
                error_text(code, {"clock": typed, "max": 600}, language), timeout=SLOW)
        after = shared.state()  # nothing changed: the game goes on as it was
        assert (after["fen"], after["moves"], after["clock"]) == (
            before["fen"], before["moves"], before["clock"])
    finally:
        context.close()
    assert not errors, errors


def test_an_api_user_reads_english_and_gets_the_code(shared: BoardServer) -> None:
    status, answer = shared.control(command="new", clock="0+0")
    assert status == 400
    assert answer["code"] == "clock-main" and answer["params"] == {"clock": "0+0", "max": 600}
    assert answer["error"].startswith("clock '0+0' is not a time control")
    status, answer = shared.hands(lift=1, hold="yes")
    assert (status, answer["code"], answer["params"]) == (400, "bad-hold", {"value": "'yes'"})
