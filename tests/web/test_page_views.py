"""What each viewer chooses for their own page: its language (the board's voice and hint
level stay the board's), the board turned round, a look back at any move, move sounds.

One simulator serves the module (`shared`); each test starts its own game on it."""

from __future__ import annotations

import json

from conftest import BoardServer, fresh, screenshot
from pages import SLOW, expect, open_board, square

from host.voice.messages import MESSAGES, REFUSALS, render


def play(page, *moves: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    for origin, destination in moves:
        before = page.locator("#move-list .m").count()
        square(page, origin).click()
        square(page, destination).click()
        expect(page.locator("#move-list .m")).to_have_count(before + 1, timeout=SLOW)


# -- 7. language per viewer -----------------------------------------------------------------


def test_each_page_follows_its_viewers_language_and_keeps_its_choice(browser, shared) -> None:
    fresh(shared)
    english = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    portuguese = browser.new_context(locale="pt-BR", viewport={"width": 1280, "height": 900})
    try:
        en, pt = open_board(english.new_page(), shared), open_board(portuguese.new_page(), shared)
        expect(en.locator("#btn-new")).to_have_text("New game")
        expect(pt.locator("#btn-new")).to_have_text("Novo jogo")
        assert pt.evaluate("document.documentElement.lang") == "pt-BR"
        play(en, (22, 18))
        expect(en.locator("#latest")).to_have_text("White played c3-d4.", timeout=SLOW)
        expect(pt.locator("#latest")).to_have_text("Lance das Brancas: c3-d4.", timeout=SLOW)
        expect(pt.locator("#said-list li").first).to_have_text("Lance das Brancas: c3-d4.")
        expect(pt.locator("#turn-text")).to_have_text("Vez das Pretas")
        screenshot(pt, "portuguese")
        # One viewer switches: only that page changes, status and announcements included.
        pt.click('[data-page-language="en"]')
        expect(pt.locator("#btn-new")).to_have_text("New game")
        expect(pt.locator("#latest")).to_have_text("White played c3-d4.")
        expect(pt.locator("#said-list li").first).to_have_text("White played c3-d4.")
        expect(pt.locator('[data-page-language="en"]')).to_have_attribute("aria-checked",
                                                                          "true")
        en.click('[data-page-language="pt-BR"]')
        expect(en.locator("#turn-text")).to_have_text("Vez das Pretas")
        expect(en.locator("#latest")).to_have_text("Lance das Brancas: c3-d4.")
        assert shared.state()["language"] == "en"  # the board's voice did not change
        en.reload()  # the choice is this browser's, kept
        expect(en.locator("#btn-new")).to_have_text("Novo jogo", timeout=SLOW)
        # The board's voice is a board setting: it changes what the board says (the
        # console, the speech) while each page still reads in its own language.
        en.click('[data-language="pt-BR"]')
        shared.wait_for(lambda s: s["language"] == "pt-BR")
        play(en, (9, 13))
        shared.wait_for(lambda s: "Lance das Pretas: b6-a5." in s["announcements"])
        expect(pt.locator("#latest")).to_have_text("Black played b6-a5.", timeout=SLOW)
        expect(pt.locator('[data-language="pt-BR"]')).to_have_attribute("aria-checked", "true")
    finally:
        english.close()
        portuguese.close()
        shared.control(command="language", language="en")


def test_the_page_says_every_sentence_as_the_board_does(page, shared) -> None:
    """The page renders the host's messages itself (each viewer in their language): the
    same words as host/voice/messages.py `render`, for every kind, in both languages."""
    open_board(page, shared)
    samples = {"side": "W", "other": "B", "move": "c3-d4", "square": "c3",
               "reason": "threefold-repetition", "variant": "brazilian", "moves": 12,
               "path": "games/x.pdn", "level": 3, "seconds": 75,
               "why": {"code": "wrong-destination",
                       "params": {"square": "c3", "destination": "e5", "targets": "b4, d4"}}}
    for language, table in MESSAGES.items():
        expected = {kind: render(language, kind, samples) for kind in table}
        shown = page.evaluate(
            "([lang, kinds, values]) => Object.fromEntries(kinds.map("
            "(k) => [k, renderMessage(lang, k, values)]))",
            [language, list(table), json.loads(json.dumps(samples))])
        assert shown == expected
        for key, text in REFUSALS[language].items():
            assert page.evaluate("([l, k]) => renderMessage(l, k, {}, 'refusals')",
                                 [language, key]) == text


def test_a_watcher_may_choose_the_page_language_but_not_the_boards_settings(
    browser, tmp_path
) -> None:
    board = BoardServer(tmp_path / "lan", "--board", "sim", "--new").start(listen="0.0.0.0:0")
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(board.base + "/")  # no token: watching only
        expect(page.locator("#link-badge")).to_have_attribute("data-link", "live",
                                                              timeout=SLOW)
        for selector in ('[data-hints="off"]', '[data-language="pt-BR"]', "#btn-new",
                         "#btn-takeback"):
            expect(page.locator(selector)).to_be_disabled()
        page.click('[data-page-language="pt-BR"]')
        expect(page.locator("#btn-new")).to_have_text("Novo jogo")
        assert board.state()["language"] == "en" and board.state()["hints"] == "full"
    finally:
        context.close()
        board.stop()


# -- what online boards have ----------------------------------------------------------------


def test_the_board_can_be_turned_round_and_stays_so(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)

    def top_of(n: int) -> float:
        box = square(page, n).bounding_box()
        assert box is not None
        return box["y"]

    assert top_of(22) > top_of(9)  # White's men near the viewer
    page.click("#btn-flip")
    expect(page.locator("#btn-flip")).to_have_attribute("aria-pressed", "true")
    assert top_of(22) < top_of(9)  # Black's side near the viewer now
    expect(page.locator("#files-bottom span").first).to_have_text("h")
    screenshot(page, "flipped")
    play(page, (22, 18))  # the hands work the same way round
    page.reload()
    expect(page.locator("#btn-flip")).to_have_attribute("aria-pressed", "true", timeout=SLOW)
    assert top_of(18) < top_of(9)
    page.click("#btn-flip")
    assert top_of(18) > top_of(9)


def test_any_move_can_be_looked_at_and_the_live_game_comes_back(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    play(page, (22, 18), (9, 13), (23, 19))
    page.locator("#move-list .m").first.click()  # after 1. c3-d4
    expect(page.locator("#viewing-text")).to_have_text("Position after 1. c3-d4")
    expect(square(page, 18)).to_have_attribute("data-piece", "W")
    expect(square(page, 9)).to_have_attribute("data-piece", "B")  # b6-a5 not played yet
    expect(square(page, 23)).to_have_attribute("data-piece", "W")
    expect(square(page, 18)).to_have_attribute("data-led", "last-move")
    expect(page.locator("#latest")).to_contain_text("Viewing a past move")
    screenshot(page, "looking-back")
    page.keyboard.press("ArrowRight")  # arrow keys step through the moves
    expect(page.locator("#viewing-text")).to_have_text("Position after 1... b6-a5")
    expect(square(page, 13)).to_have_attribute("data-piece", "B")
    expect(square(page, 23)).to_have_attribute("data-piece", "W")
    square(page, 21).click()  # no hands while looking back
    page.wait_for_timeout(300)
    assert 21 in shared.state()["occupied"]
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "false")
    page.locator('#move-list [aria-current="true"]').focus()
    page.keyboard.press("Home")
    expect(page.locator("#viewing-text")).to_have_text("Start position")
    expect(square(page, 22)).to_have_attribute("data-piece", "W")
    page.click("#btn-live")
    expect(page.locator("#viewing")).to_have_attribute("data-browsing", "false")
    expect(square(page, 19)).to_have_attribute("data-piece", "W")
    expect(square(page, 23)).to_have_attribute("data-piece", "")
    play(page, (10, 14))  # and the hands work again


# The WebAudio sounds, recorded: each oscillator started, with its frequency (the Web Audio
# API as Chromium has it: OscillatorNode.frequency.setValueAtTime, start).
RECORD_SOUNDS = """
window.__knocks = [];
const create = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const tone = create.call(this);
  const set = tone.frequency.setValueAtTime.bind(tone.frequency);
  tone.frequency.setValueAtTime = (value, at) => { tone.__hz = value; return set(value, at); };
  const start = tone.start.bind(tone);
  tone.start = (at) => { window.__knocks.push(tone.__hz); return start(at); };
  return tone;
};
"""


def test_move_and_capture_sounds_are_off_until_asked(page, shared) -> None:
    fresh(shared)
    page.add_init_script(RECORD_SOUNDS)
    open_board(page, shared)
    expect(page.locator("#sounds")).not_to_be_checked()
    play(page, (22, 18))
    page.wait_for_timeout(200)
    assert page.evaluate("window.__knocks") == []
    page.check("#sounds")
    play(page, (11, 15))
    page.wait_for_function("window.__knocks.length === 1")
    assert page.evaluate("window.__knocks") == [660]  # a move: one knock
    square(page, 18).click()  # d4xf6: a capture
    square(page, 11).click()
    square(page, 15).click()  # the captured man taken off
    expect(page.locator("#move-list .m")).to_have_count(3, timeout=SLOW)
    page.wait_for_function("window.__knocks.length === 3")
    assert page.evaluate("window.__knocks") == [660, 520, 390]  # a capture: two, lower
