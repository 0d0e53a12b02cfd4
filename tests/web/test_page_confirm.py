"""The page's two buttons that ask before they act (Resign, Draw): the question names what
the second press will do, in the viewer's language, and can be read while the pointer is
still on the button.

One simulator serves the module (`shared`); each test starts its own game on it."""

from __future__ import annotations

from conftest import BoardServer, fresh
from pages import SLOW, expect, open_board


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
    expect(page.locator("#btn-draw")).to_have_text("Offer the computer a draw?")
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
    expect(page.locator("#btn-draw")).to_have_text("Propor empate ao computador?")
    page.click("#btn-draw")
    expect(page.locator("#said-list")).to_contain_text(
        "As Brancas propõem empate ao computador.", timeout=SLOW)


def test_between_two_people_a_draw_is_their_agreement(page, shared: BoardServer) -> None:
    fresh(shared)
    open_board(page, shared)
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("Do both players agree to a draw?")
    page.click("#btn-draw")
    expect(page.locator("#outcome")).to_contain_text("Draw: agreement.", timeout=SLOW)


def test_with_the_computer_on_both_sides_draw_ends_the_game(page, shared: BoardServer) -> None:
    fresh(shared, players={"W": "computer:1", "B": "computer:1"})
    open_board(page, shared)
    page.click('[data-page-language="pt-BR"]')
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("Encerrar a partida com empate?")
    expect(page.locator("#btn-draw")).to_have_text("Empate", timeout=SLOW)  # not pressed again
    page.click('[data-page-language="en"]')
    page.click("#btn-draw")
    expect(page.locator("#btn-draw")).to_have_text("End the game as a draw?")
    page.click("#btn-draw")
    expect(page.locator("#outcome")).to_contain_text("Draw: agreement.", timeout=SLOW)
