"""The page in a real headless Chromium (Debian's), played with pointer and touch.

Everything here goes through the page's own hands: clicks, drags and taps on
`[data-square]` elements, which send lift and place to the same recogniser the
switches feed. The lights are read from `data-led`, the pieces from
`data-piece`. With DRAUGHTSBOARD_SCREENSHOTS set (`make screenshots`) the
README's pictures are taken along the way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BoardServer, journal_with, screenshot
from pages import SLOW, expect, open_board, square

from engine import Game, Position, get_variant


def click_move(page, variant_name: str, game: Game, text: str) -> None:
    """Play a simple move by two clicks (lift, place) and wait for the page to list it."""
    move = game.position.parse_move(text)
    before = page.locator("#move-list .m").count()
    square(page, move.origin).click()
    square(page, move.destination).click()
    expect(page.locator("#move-list .m")).to_have_count(before + 1, timeout=SLOW)
    game.push(move)


def pieces(page) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(
        "[data-square]", "cells => Object.fromEntries(cells.map(c => [c.dataset.square, "
        "c.dataset.piece]))")


def test_brazilian_game_with_a_multi_capture_by_pointer(page, server: BoardServer) -> None:
    open_board(page, server)
    variant = get_variant("brazilian")
    game = Game(variant)
    assert page.locator("[data-square]").count() == 32
    expect(square(page, 22)).to_have_attribute("data-piece", "W")
    expect(square(page, 9)).to_have_attribute("data-piece", "B")
    # Lifting a piece lights where it may go.
    square(page, 23).click()
    expect(square(page, 18)).to_have_attribute("data-led", "destination", timeout=SLOW)
    expect(square(page, 19)).to_have_attribute("data-led", "destination")
    expect(square(page, 23)).to_have_attribute("data-piece", "")
    screenshot(page, "start")
    square(page, 18).click()
    expect(page.locator("#move-list .m")).to_have_text(["e3-d4"], timeout=SLOW)
    game.push(game.position.parse_move("e3-d4"))
    for text in ("d6-e5", "a3-b4", "f6-g5"):
        click_move(page, "brazilian", game, text)
    # White must capture: the capturing piece glows before anything is touched.
    expect(square(page, 18)).to_have_attribute("data-led", "must-capture", timeout=SLOW)
    (capture,) = game.legal_moves()
    assert capture.path == (11, 20) and capture.captures == {15, 16}
    square(page, 18).click()  # lift d4
    expect(square(page, 20)).to_have_attribute("data-led", "destination", timeout=SLOW)
    expect(square(page, 11)).to_have_attribute("data-led", "landing")
    square(page, 11).click()  # touch down on f6 ...
    expect(square(page, 20)).to_have_attribute("data-led", "landing", timeout=SLOW)
    expect(square(page, 11)).to_have_attribute("data-piece", "W")
    square(page, 11).click()  # ... lift again ...
    square(page, 20).click()  # ... and land on h4
    expect(square(page, 15)).to_have_attribute("data-led", "remove", timeout=SLOW)
    expect(square(page, 16)).to_have_attribute("data-led", "remove")
    page.mouse.move(0, 0)
    screenshot(page, "capture")
    square(page, 15).click()  # take the captured pieces off
    square(page, 16).click()
    expect(page.locator("#move-list .m").last).to_have_text("d4xh4", timeout=SLOW)
    expect(square(page, 15)).to_have_attribute("data-piece", "")
    expect(square(page, 20)).to_have_attribute("data-piece", "W")
    state = server.state()
    assert state["moves"] == ["e3-d4", "d6-e5", "a3-b4", "f6-g5", "d4xh4"]
    assert pieces(page) == {str(sq): p for sq, p in
                            {**{s: "" for s in range(1, 33)}, **{
                                int(k): v for k, v in state["pieces"].items()}}.items()}


def test_an_illegal_placement_is_guided_back_and_put_right_by_dragging(
    page, server: BoardServer
) -> None:
    open_board(page, server)
    square(page, 22).click()
    square(page, 13).click()  # c3 two rows up: no such move
    wrong = square(page, 13)
    expect(wrong).to_have_attribute("data-led", "wrong", timeout=SLOW)  # after the grace time
    expect(wrong).to_have_attribute("data-blink", "true")  # take from the blinking square
    expect(square(page, 22)).to_have_attribute("data-led", "wrong")
    expect(square(page, 22)).to_have_attribute("data-blink", "false")  # put on the steady one
    expect(page.locator("#status-card")).to_have_attribute("data-correcting", "true")
    expect(page.locator("#said-list")).to_contain_text("The board is wrong")
    screenshot(page, "put-right")
    page.drag_and_drop('[data-square="13"]', '[data-square="22"]')
    expect(square(page, 22)).to_have_attribute("data-led", "", timeout=SLOW)
    expect(page.locator("#status-card")).to_have_attribute("data-correcting", "false")
    expect(square(page, 22)).to_have_attribute("data-piece", "W")
    assert server.state()["moves"] == []


def test_threefold_repetition_is_announced_as_a_draw(page, tmp_path: Path) -> None:
    board = BoardServer(tmp_path / "board", "--board", "sim",
                        "--fen", "W:WK29,31,32:BK1,3,4").start()
    try:
        open_board(page, board)
        expect(square(page, 29)).to_have_attribute("data-piece", "WK")
        expect(square(page, 1)).to_have_attribute("data-piece", "BK")
        plies = [(29, 25), (1, 5), (25, 29), (5, 1)] * 2
        for n, (origin, destination) in enumerate(plies, start=1):
            page.drag_and_drop(f'[data-square="{origin}"]', f'[data-square="{destination}"]')
            expect(page.locator("#move-list .m")).to_have_count(n, timeout=SLOW)
        outcome = page.locator("#outcome")
        expect(outcome).to_be_visible(timeout=SLOW)
        expect(outcome).to_contain_text("Draw: threefold repetition.")
        expect(outcome).to_contain_text("1/2-1/2")
        for sq in (29, 31, 32, 1, 3, 4):  # a draw by repetition lights every occupied square
            expect(square(page, sq)).to_have_attribute("data-led", "end")
        screenshot(page, "end")
        state = board.state()
        assert state["outcome"]["reason"] == "threefold-repetition"
        assert "Draw: threefold repetition." in state["announcements"]
    finally:
        board.stop()


def test_international_on_the_10x10_board_from_the_new_game_dialog(
    page, server: BoardServer
) -> None:
    open_board(page, server)
    page.click("#btn-new")
    page.check('#variant-grid input[value="international"]')
    page.click("#btn-start")
    expect(page.locator("[data-square]")).to_have_count(50, timeout=SLOW)
    expect(page.locator("#variant-name")).to_have_text("International draughts")
    expect(square(page, 32)).to_have_attribute("data-piece", "W")
    expect(square(page, 50)).to_have_attribute("data-piece", "W")
    expect(square(page, 1)).to_have_attribute("data-piece", "B")
    expect(square(page, 25)).to_have_attribute("data-piece", "")
    page.drag_and_drop('[data-square="32"]', '[data-square="28"]')
    expect(page.locator("#move-list .m")).to_have_text(["32-28"], timeout=SLOW)
    square(page, 19).click()
    square(page, 23).click()
    expect(page.locator("#move-list .m")).to_have_text(["32-28", "19-23"], timeout=SLOW)
    # The squares carry their numbers, as International notation needs.
    expect(square(page, 28).locator(".num")).to_have_text("28")


def test_a_second_page_watches_the_same_board(browser, page, server: BoardServer) -> None:
    open_board(page, server)
    other = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
    try:
        open_board(other, server)
        square(page, 22).click()
        expect(square(other, 22)).to_have_attribute("data-piece", "", timeout=SLOW)
        expect(square(other, 18)).to_have_attribute("data-led", "destination")
        square(page, 18).click()
        expect(other.locator("#move-list .m")).to_have_text(["c3-d4"], timeout=SLOW)
        assert pieces(other) == pieces(page)
        expect(other.locator("#said-list")).to_contain_text("White played c3-d4.")
        other.click('[data-hints="off"]')  # the board's settings reach every page
        expect(page.locator('[data-hints="off"]')).to_have_attribute("aria-checked", "true",
                                                                      timeout=SLOW)
        other.click('[data-language="pt-BR"]')  # the board's voice: every page shows it...
        expect(page.locator('[data-language="pt-BR"]')).to_have_attribute(
            "aria-checked", "true", timeout=SLOW)
        expect(page.locator("#btn-new")).to_have_text("New game")  # ...each in its language
    finally:
        other.context.close()


def test_a_page_that_reconnects_gets_the_whole_state(page, tmp_path: Path) -> None:
    folder = tmp_path / "board"
    board = BoardServer(folder, "--board", "sim", "--new").start()
    open_board(page, board)
    square(page, 22).click()
    square(page, 18).click()
    expect(page.locator("#move-list .m")).to_have_text(["c3-d4"], timeout=SLOW)
    port = board.port
    board.stop()
    expect(page.locator("#link-badge")).to_have_attribute("data-link", "offline", timeout=SLOW)
    again = BoardServer(folder, "--board", "sim").start(listen=f"127.0.0.1:{port}")
    try:
        expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
        expect(page.locator("#move-list .m")).to_have_text(["c3-d4"])
        expect(square(page, 18)).to_have_attribute("data-piece", "W")
        expect(square(page, 22)).to_have_attribute("data-piece", "")
        expect(page.locator("#turn-text")).to_have_text("Black to move")
    finally:
        again.stop()


def test_on_a_phone_with_touch(browser, server: BoardServer) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
        has_touch=True)
    page = context.new_page()
    try:
        open_board(page, server)
        box = page.locator("#board").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["width"] > 300  # the board takes the phone's width
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.tap('[data-square="22"]')
        expect(square(page, 17)).to_have_attribute("data-led", "destination", timeout=SLOW)
        page.tap('[data-square="17"]')
        expect(page.locator("#move-list .m")).to_have_text(["c3-b4"], timeout=SLOW)
        page.tap('[data-square="10"]')
        page.tap('[data-square="14"]')
        expect(page.locator("#move-list .m")).to_have_text(["c3-b4", "d6-c5"], timeout=SLOW)
        screenshot(page, "phone")
    finally:
        context.close()


def test_crowning_with_a_king_from_the_tray(page, tmp_path: Path) -> None:
    folder = tmp_path / "board"
    journal_with(folder, "brazilian", "W:W6,31:B25")
    variant = get_variant("brazilian")
    move = Position.from_fen("W:W6,31:B25", variant).parse_move("6-1")
    board = BoardServer(folder, "--board", "sim").start()
    try:
        open_board(page, board)
        page.drag_and_drop('[data-square="6"]', f'[data-square="{move.destination}"]')
        crown = square(page, move.destination)
        expect(crown).to_have_attribute("data-led", "crown", timeout=SLOW)
        expect(crown).to_have_attribute("data-piece", "W")  # a man until a king is stacked on it
        page.drag_and_drop('[data-tray="WK"]', f'[data-square="{move.destination}"]')
        expect(crown).not_to_have_attribute("data-led", "crown", timeout=SLOW)
        expect(crown).to_have_attribute("data-piece", "WK")
        expect(page.locator("#said-list")).to_contain_text("King confirmed on b8.")
    finally:
        board.stop()


# The browser's speech is replaced by a recorder of what the page asks it to say: the
# Web Speech API as Chromium 156 has it (speechSynthesis.speak(utterance), with the
# utterance's text and lang), minus the sound.
RECORD_SPEECH = """
window.__said = [];
window.speechSynthesis.speak = (utterance) => {
  window.__said.push({text: utterance.text, lang: utterance.lang});
};
"""


def test_announcements_are_spoken_by_the_browser_when_asked(page, server: BoardServer) -> None:
    page.add_init_script(RECORD_SPEECH)
    open_board(page, server)
    expect(page.locator("#speech-setting")).to_be_visible()
    square(page, 22).click()
    square(page, 18).click()
    expect(page.locator("#move-list .m")).to_have_text(["c3-d4"], timeout=SLOW)
    assert page.evaluate("window.__said") == []  # off until the player turns it on
    page.check("#speech")
    square(page, 10).click()
    square(page, 14).click()
    expect(page.locator("#move-list .m")).to_have_count(2, timeout=SLOW)
    page.wait_for_function("window.__said.length > 0")
    assert page.evaluate("window.__said") == [{"text": "Black played d6-c5.", "lang": "en-GB"}]
    page.reload()  # the setting is kept by this browser; old announcements are not repeated
    expect(page.locator("#speech")).to_be_checked(timeout=SLOW)
    page.wait_for_timeout(500)
    assert page.evaluate("window.__said") == []


def test_playing_the_computer_from_the_new_game_dialog(page, server: BoardServer) -> None:
    """New game with the computer as Black at level 1: a person's move by pointer, the
    computer's move lit and carried out with the page's button, then a hint."""
    open_board(page, server)
    page.click("#btn-new")
    expect(page.locator("#player-B option")).to_have_count(5)
    page.select_option("#player-B", "computer:1")
    page.click("#btn-start")
    expect(page.locator("#players-line")).to_contain_text("Computer · level 1", timeout=SLOW)
    assert server.state()["players"] == {"W": "human", "B": "computer:1"}
    square(page, 22).click()
    square(page, 18).click()
    expect(page.locator("#btn-play-computer")).to_be_visible(timeout=SLOW)
    move = server.state()["computer"]["move"]
    expect(page.locator("#latest")).to_have_text(
        f"The computer plays {move['text']}: carry out the lit move on the board.")
    expect(square(page, move["from"])).to_have_attribute("data-led", "move-from")
    expect(square(page, move["to"])).to_have_attribute("data-led", "destination")
    screenshot(page, "computer")
    page.click("#btn-play-computer")
    expect(page.locator("#move-list .m")).to_have_text(["c3-d4", move["text"]], timeout=SLOW)
    expect(page.locator("#btn-play-computer")).to_be_hidden()
    page.click("#btn-hint")
    expect(page.locator("#latest")).to_contain_text("Hint:", timeout=SLOW)
    hint = server.state()["computer"]["hint"]
    expect(square(page, hint["from"])).to_have_attribute("data-led", "move-from")
    assert any("Hint: " in text for text in server.state()["announcements"])
    pdn = server.request("GET", "/api/pdn")[1]
    assert '[Black "Computer (level 1)"]' in pdn


# -- layout: stable while the hands work, deliberate on a phone ----------------------

BOXES = """(selectors) => Object.fromEntries(selectors.map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [s, [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]];
}))"""

# WCAG 2 contrast of an element's text against the first opaque background behind it.
CONTRAST = """(selector) => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const element = document.querySelector(selector);
  let back = element;
  while (back && getComputedStyle(back).backgroundColor === "rgba(0, 0, 0, 0)") {
    back = back.parentElement;
  }
  const a = lum(rgb(getComputedStyle(element).color));
  const b = lum(rgb(getComputedStyle(back || document.body).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

LAYOUTS = [({"width": 1280, "height": 900}, False), ({"width": 1280, "height": 700}, False),
           ({"width": 390, "height": 844}, True), ({"width": 360, "height": 740}, True)]


@pytest.mark.parametrize("language", ["pt-BR", "en"])
@pytest.mark.parametrize(("viewport", "phone"), LAYOUTS)
def test_lifting_a_piece_does_not_move_the_board_or_the_tray(
    browser, server: BoardServer, viewport, phone, language
) -> None:
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  locale=language)  # the page follows the browser's language
    page = context.new_page()
    try:
        open_board(page, server)
        watched = ["#board", "#tray", ".tray-row", "#hand-note", "#status-card"]
        before = page.evaluate(BOXES, watched)
        square(page, 22).click()  # lifted: the piece is in the hand
        expect(page.locator("#hand-note")).to_have_attribute("data-holding", "true")
        expect(square(page, 17)).to_have_attribute("data-led", "destination", timeout=SLOW)
        held = page.evaluate(BOXES, watched)
        for selector in ("#board", "#tray", ".tray-row", "#hand-note"):
            assert held[selector] == before[selector], (selector, before, held)
        assert held["#status-card"][:3] == before["#status-card"][:3]  # it may only grow down
        square(page, 17).click()
        expect(page.locator("#hand-note")).to_have_attribute("data-holding", "false")
        assert page.evaluate(BOXES, ["#board", "#tray"]) == {
            key: before[key] for key in ("#board", "#tray")}
    finally:
        context.close()


@pytest.mark.parametrize("language", ["pt-BR", "en"])
@pytest.mark.parametrize("width", [390, 360])
def test_a_phone_shows_the_name_the_whole_variant_and_one_row_of_spare_pieces(
    browser, server: BoardServer, width: int, language: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844}, locale=language,
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_board(page, server)
        expect(page.locator(".brand-name")).to_be_visible()
        boxes = page.evaluate(BOXES, [".brand-name", ".badges", "#variant-name", "#tray"])
        for selector, (x, _, w, _) in boxes.items():
            assert x >= 0 and x + w <= width, (selector, boxes)
        name, badges = boxes[".brand-name"], boxes[".badges"]
        assert name[0] + name[2] <= badges[0]  # side by side, not on top of each other
        variant = page.locator("#variant-name")
        assert variant.evaluate("e => e.scrollWidth <= e.clientWidth")  # not cut short
        tops = page.eval_on_selector_all(
            "[data-tray]", "els => els.map(e => Math.round(e.getBoundingClientRect().top))")
        assert len(set(tops)) == 1, tops  # the spare pieces on one row
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for selector in ("#variant-name", ".brand-name", ".tray-label", "#hand-note",
                         "#turn-text", "#latest"):
            assert page.evaluate(CONTRAST, selector) >= 4.5, selector  # readable in sunlight
    finally:
        context.close()
