"""Who can use the page, and how: the keyboard and a screen reader (one Tab stop for the
board, arrows across it, names that say piece and light, announcements read out), lights
told apart by more than colour, and a companion page that says why its controls are
off and takes the token."""

from __future__ import annotations

import stat
from pathlib import Path

from conftest import BoardServer, fresh, screenshot
from pages import SLOW, expect, open_board, square
from test_web_companion import FakeUsbBoard

from engine import get_variant
from host.config import DEFAULT_COLOURS


def focused_label(page) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("document.activeElement.getAttribute('aria-label') || "
                         "document.activeElement.id || document.activeElement.tagName")


def keys(page, *names: str) -> None:  # type: ignore[no-untyped-def]
    for name in names:
        page.keyboard.press(name)


# -- 10. the keyboard and screen readers ------------------------------------------------------


def test_the_board_is_one_tab_stop_and_the_keyboard_plays(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    assert page.locator('#board [tabindex="0"]').count() == 1
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('role')") == "gridcell"
    assert focused_label(page) == "a1, white man"
    page.keyboard.press("Tab")  # the next stop is past the board: the tray
    assert page.evaluate("document.activeElement.dataset.tray") == "W"
    stops = 2
    while page.evaluate("document.activeElement.id") != "btn-new":
        page.keyboard.press("Tab")
        stops += 1
        assert stops < 10, "the controls are too many Tab stops away"
    assert stops == 6  # the board, four spare pieces, then the controls
    page.keyboard.press("Shift+Tab")
    # Back on the board: the arrows move across it, Enter lifts and places.
    page.focus('#board [tabindex="0"]')
    keys(page, "ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp")
    assert focused_label(page) == "c3, white man"
    page.keyboard.press("Enter")
    expect(page.locator("#hand-note")).to_have_text(
        "In hand: Enter on an empty square puts the piece down, Escape puts it back")
    expect(square(page, 18)).to_have_attribute("aria-label", "d4, empty, may move here",
                                               timeout=SLOW)
    assert focused_label(page) == "c3, white man, in the hand"
    # Escape lets go: the piece goes back to c3 and the hand is empty; Enter lifts again.
    page.keyboard.press("Escape")
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "false")
    expect(square(page, 22)).to_have_attribute("aria-label", "c3, white man", timeout=SLOW)
    assert page.locator("#move-list .m").count() == 0
    page.keyboard.press("Enter")
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "true")
    keys(page, "ArrowUp", "ArrowRight", "Enter")
    expect(page.locator("#move-list .m")).to_have_text(["c3-d4"], timeout=SLOW)
    expect(square(page, 18)).to_have_attribute("aria-label", "d4, white man, last move")
    # Announcements reach screen readers through a live region.
    expect(page.locator("#live")).to_contain_text("White played c3-d4.")
    assert page.get_attribute("#live", "aria-live") == "polite"
    # The spare pieces are buttons: Enter takes one, Enter on a square puts it down.
    page.focus('[data-tray="WK"]')
    page.keyboard.press("Enter")
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "true")
    assert page.evaluate("document.activeElement.getAttribute('role')") == "gridcell"
    keys(page, "ArrowLeft", "ArrowLeft")  # from d4 to b4, empty
    assert focused_label(page) == "b4, empty"
    page.keyboard.press("Enter")
    expect(square(page, 17)).to_have_attribute("data-piece", "WK", timeout=SLOW)


def test_the_settings_say_what_is_chosen_to_a_screen_reader(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    for group, chosen in (("hints-label", "full"), ("voice-label", "en"),
                          ("page-language-label", "en")):
        radios = page.locator(f'[aria-labelledby="{group}"] [role="radio"]')
        assert radios.count() >= 2
        checked = page.locator(f'[aria-labelledby="{group}"] [aria-checked="true"]')
        expect(checked).to_have_count(1)
        value = checked.first.evaluate(
            "b => b.dataset.hints || b.dataset.language || b.dataset.pageLanguage")
        assert value == chosen, group
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.get_by_role("radiogroup", name="Light hints")).to_be_visible()
    expect(page.get_by_role("radio", name="Full")).to_have_attribute("aria-checked", "true")


def _luminance(colour: str) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _hex(css: str) -> str:
    parts = [int(float(x)) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
    return "#" + "".join(f"{p:02x}" for p in parts)


def test_every_light_has_its_own_symbol_readable_on_its_colour(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    symbols = page.evaluate("(roles) => Object.fromEntries(roles.map("
                            "(r) => [r, roleSymbol(r, false)]))", list(DEFAULT_COLOURS))
    assert all(symbols.values()), symbols
    assert len(set(symbols.values())) == len(symbols)  # no two roles alike but for shade
    assert page.evaluate("roleSymbol('wrong', true)") != symbols["wrong"]  # take / put
    square(page, 22).click()
    mark = square(page, 18).locator(".mark")
    expect(mark).to_have_text("●", timeout=SLOW)
    style = mark.evaluate("m => { const s = getComputedStyle(m); return [s.color, "
                          "s.backgroundColor, s.borderTopColor]; }")
    glyph, disc, rim = (_hex(c) for c in style)
    assert contrast(glyph, disc) >= 4.5  # the symbol on its disc (text)
    for role, colour in shared.state()["colours"].items():
        # the disc stands out from the light under it by its fill or by its rim (WCAG
        # 1.4.11: 3 to 1 for what is not text)
        assert max(contrast(disc, colour), contrast(rim, colour)) >= 3, role
    legend = page.locator("#legend .swatch").first
    expect(legend).to_have_text("●")
    square(page, 22).click()


# -- 8. companion mode explains itself --------------------------------------------------------


def test_a_companion_page_says_why_it_only_watches_and_takes_the_token(
    browser, tmp_path: Path
) -> None:
    variant = get_variant("brazilian")
    keys_down = {variant.square_to_reading_order(sq) - 1
                 for sq in variant.initial_position().occupied()}
    folder = tmp_path / "board"
    fake = FakeUsbBoard(keys_down)
    board = BoardServer(folder, "--board", f"serial:socket://127.0.0.1:{fake.port}",
                        "--new").start(listen="0.0.0.0:0")
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    try:
        token = board.url.split("?token=")[1]
        kept = folder / "page-token"
        assert kept.read_text().strip() == token  # kept for the next start
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # readable by its owner only
        page = context.new_page()
        open_board(page, board, "/")  # the address without the token
        expect(page.locator("#access")).to_be_visible()
        expect(page.locator("#access-text")).to_have_text(
            "Watching only: the controls need the board's token. Scan the QR code shown "
            "where the board was started, or type the token here.")
        expect(page.locator("#btn-new")).to_be_disabled()
        expect(page.locator("#watch-badge")).to_be_visible()
        screenshot(page, "companion-watching")
        page.fill("#token-input", token)
        page.click("#token-form button")
        expect(page.locator("#access")).to_be_hidden(timeout=SLOW)
        expect(page.locator("#btn-new")).to_be_enabled()
        expect(page.locator("#watch-badge")).to_be_hidden()
        expect(page.locator("#tray")).to_be_hidden()  # real pieces: no simulated hands
        port = board.port
        board.stop()
        # Restarted: the same token, so the phone keeps its controls.
        fake = FakeUsbBoard(keys_down)
        board = BoardServer(folder, "--board", f"serial:socket://127.0.0.1:{fake.port}").start(
            listen=f"0.0.0.0:{port}")
        assert board.url.split("?token=")[1] == token
        expect(page.locator("#link-badge")).to_have_attribute("data-link", "live",
                                                              timeout=SLOW)
        expect(page.locator("#btn-new")).to_be_enabled()
        board.stop()
        # The owner rotates it: the old one stops working, and the page says so.
        fake = FakeUsbBoard(keys_down)
        board = BoardServer(folder, "--board", f"serial:socket://127.0.0.1:{fake.port}").start(
            "--new-token", listen=f"0.0.0.0:{port}")
        rotated = board.url.split("?token=")[1]
        assert rotated != token and kept.read_text().strip() == rotated
        expect(page.locator("#access-text")).to_have_text(
            "The token this browser kept is no longer the board's (it was changed). Scan "
            "the new QR code, or type the token here.", timeout=SLOW)
        expect(page.locator("#btn-new")).to_be_disabled()
    finally:
        context.close()
        board.stop()
