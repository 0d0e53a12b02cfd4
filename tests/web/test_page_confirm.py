"""The page's two buttons that ask before they act (Resign, Draw): the question names what
the second press will do, in the viewer's language, and can be read while the pointer is
still on the button.

One simulator serves the module (`shared`); each test starts its own game on it."""

from __future__ import annotations

import pytest
from conftest import BoardServer, fresh
from pages import SLOW, expect, open_board

#: every question an armed button asks (i18n.js), and the sides it may name
QUESTIONS = ("confirm-resign", "confirm-draw", "confirm-draw-computer", "confirm-draw-computers")


def luminance(css: str) -> float:
    """WCAG relative luminance of an `rgb(r, g, b)` colour."""
    channels = [int(part) / 255 for part in css[css.index("(") + 1:-1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(page, selector: str) -> float:  # type: ignore[no-untyped-def]
    ink, paper = page.eval_on_selector(
        selector, "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    light, dark = sorted((luminance(ink), luminance(paper)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_resigning_on_the_computers_turn_resigns_for_the_person_and_says_so(
    page, shared: BoardServer
) -> None:
    fresh(shared, players={"W": "human", "B": "computer:1"})
    open_board(page, shared)
    page.locator('[data-square="22"]').click()
    page.locator('[data-square="18"]').click()
    expect(page.locator("#btn-play-computer")).to_be_visible(timeout=SLOW)  # Black's turn
    page.click("#btn-resign")
    # The question names the person's side, not the side to move (the computer's).
    expect(page.locator("#btn-resign")).to_have_text("Does White resign?")
    assert contrast(page, "#btn-resign") >= 4.5  # the pointer is still on it
    page.click("#btn-resign")
    expect(page.locator("#outcome")).to_contain_text("Black wins: resignation.", timeout=SLOW)
    assert shared.state()["outcome"]["winner"] == "B"


def test_a_draw_is_offered_to_the_computer_in_the_viewers_language(
    page, shared: BoardServer
) -> None:
    fresh(shared, players={"W": "human", "B": "computer:1"})
    open_board(page, shared)
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("Offer a draw?")
    assert contrast(page, "#btn-draw") >= 4.5
    page.click("#btn-draw")
    expect(page.locator("#said-list")).to_contain_text(
        "White offers the computer a draw.", timeout=SLOW)
    # the computer answers; in the opening it declines, and the game goes on
    expect(page.locator("#said-list")).to_contain_text("The computer declines", timeout=SLOW)
    assert shared.state()["outcome"] is None
    page.click('[data-page-language="pt-BR"]')
    expect(page.locator("#btn-draw")).to_have_text("Empate")
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("Propor empate?")
    page.click("#btn-draw")
    expect(page.locator("#said-list")).to_contain_text(
        "As Brancas propõem empate ao computador.", timeout=SLOW)


def test_between_two_people_a_draw_is_their_agreement(page, shared: BoardServer) -> None:
    fresh(shared)
    open_board(page, shared)
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("Draw by agreement?")
    page.click("#btn-draw")
    expect(page.locator("#outcome")).to_contain_text("Draw: agreement.", timeout=SLOW)


def test_with_the_computer_on_both_sides_draw_ends_the_game(page, shared: BoardServer) -> None:
    fresh(shared, players={"W": "computer:1", "B": "computer:1"})
    open_board(page, shared)
    page.click('[data-page-language="pt-BR"]')
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("Encerrar com empate?")
    expect(page.locator("#btn-draw")).to_have_text("Empate", timeout=SLOW)  # not pressed again
    page.click('[data-page-language="en"]')
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("End the game drawn?")
    page.click("#btn-draw")
    expect(page.locator("#outcome")).to_contain_text("Draw: agreement.", timeout=SLOW)


def controls_box(page) -> dict:  # type: ignore[no-untyped-def]
    """Where each of the game's buttons stands, and whether any text overflows its button."""
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#controls .buttons > button')].map((b) => {
          const r = b.getBoundingClientRect();
          return [b.id, [r.x, r.y, r.width, r.height, b.scrollHeight > b.clientHeight]];
        }))""")


@pytest.mark.parametrize("viewport", [(360, 740), (1280, 800)], ids=["phone", "laptop"])
def test_arming_draw_or_resign_moves_nothing_in_either_language(
    browser, shared: BoardServer, viewport: tuple[int, int]  # type: ignore[no-untyped-def]
) -> None:
    fresh(shared)
    context = browser.new_context(locale="en-US",
                                  viewport={"width": viewport[0], "height": viewport[1]})
    try:
        page = open_board(context.new_page(), shared)
        for language in ("pt-BR", "en"):
            page.click(f'[data-page-language="{language}"]')
            expect(page.locator("html")).to_have_attribute("lang", language)
            idle = controls_box(page)
            assert not any(box[4] for box in idle.values()), idle
            page.click("#btn-draw")
            page.click("#btn-resign")
            expect(page.locator("#btn-resign")).to_have_attribute("data-armed", "true")
            assert controls_box(page) == idle, language
            # Every question either button may ask, for either side, fits as well.
            for key in QUESTIONS:
                for side in ("W", "B"):
                    page.evaluate("""([language, key, side]) => {
                        const button = document.querySelector('#btn-draw');
                        button.textContent = say(language, key, {side: SIDE_NAMES[language][side]});
                      }""", [language, key, side])
                    assert controls_box(page) == idle, (language, key, side)
            expect(page.locator("#btn-resign")).to_have_attribute("data-armed", "false",
                                                                  timeout=SLOW)
            expect(page.locator("#btn-draw")).to_have_attribute("data-armed", "false")
    finally:
        context.close()
    assert shared.state()["outcome"] is None  # nothing was pressed twice
