"""The page while playing, as a player drives it with the pointer: take back against the
computer, slips that are never silent, the controls at the end of a game, and a status
line that always describes the board as it stands.

One simulator serves the module (`shared`); each test starts its own game on it."""

from __future__ import annotations

import pytest
from conftest import BoardServer, fresh, screenshot
from pages import SLOW, expect, open_board, square

from engine import get_variant

AT_ONCE = 1_500  # ms: well under the 3 s a wrong board waits before it is guided
BRAZILIAN = get_variant("brazilian")




def centre(page, selector: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag_to(page, origin: int, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    """A pointer drag from a square to a point (anywhere on the page)."""
    page.mouse.move(*centre(page, f'[data-square="{origin}"]'))
    page.mouse.down()
    page.mouse.move(x, y, steps=5)
    page.mouse.up()


def wrong_pair(page) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """The (take from, put on) squares the put-right lights show now."""
    lit = page.eval_on_selector_all(
        '[data-led="wrong"]', "cells => cells.map(c => [Number(c.dataset.square), "
        "c.dataset.blink === 'true'])")
    take = [sq for sq, blink in lit if blink]
    put = [sq for sq, blink in lit if not blink]
    assert len(take) == 1 and len(put) == 1, lit
    return take[0], put[0]


# -- 1. take back against the computer ------------------------------------------------------


def test_a_takeback_against_the_computer_undoes_both_moves_and_the_page_puts_it_right(
    page, shared: BoardServer
) -> None:
    fresh(shared, players={"W": "human", "B": "computer:1"})
    open_board(page, shared)
    square(page, 22).click()
    square(page, 18).click()
    expect(page.locator("#btn-play-computer")).to_be_visible(timeout=SLOW)
    reply = shared.state()["computer"]["move"]
    page.click("#btn-play-computer")
    expect(page.locator("#move-list .m")).to_have_text(["c3-d4", reply["text"]], timeout=SLOW)
    page.click("#btn-takeback")
    expect(page.locator("#move-list .m")).to_have_count(0, timeout=SLOW)
    state = shared.state()
    assert state["moves"] == [] and state["turn"] == "W" and state["correcting"]
    assert state["computer"]["move"] is None and not state["computer"]["thinking"]
    # The way back is lit, piece by piece, and said: nothing is silent.
    ways = {(18, 22), (reply["to"], reply["from"])}
    assert wrong_pair(page) in ways
    expect(page.locator("#latest")).to_contain_text("Put the board right")
    expect(page.locator("#said-list")).to_contain_text("Move c3-d4 taken back.")
    expect(page.locator("#btn-put-right")).to_be_visible()
    page.mouse.move(0, 0)
    screenshot(page, "takeback")
    # The simulator carries the put-right out with a person's lifts and places.
    page.click("#btn-put-right")
    expect(page.locator('[data-led="wrong"]')).to_have_count(0, timeout=SLOW)
    state = shared.wait_for(lambda s: not s["correcting"])
    start = BRAZILIAN.initial_position()
    assert state["occupied"] == sorted(start.occupied()) and state["moves"] == []
    assert {int(sq): piece for sq, piece in state["pieces"].items()} == {
        sq: p.color + ("K" if p.king else "") for sq, p in start.pieces().items()}
    expect(page.locator("#btn-put-right")).to_be_hidden()
    expect(page.locator("#said-list")).to_contain_text("The board is right again.")
    # and play goes on from the start position
    square(page, 22).click()
    square(page, 17).click()
    expect(page.locator("#move-list .m")).to_have_text(["c3-b4"], timeout=SLOW)


# -- 3. slips are never silent --------------------------------------------------------------


def test_a_piece_dropped_off_the_board_goes_back_with_the_reason(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    drag_to(page, 22, 5, 5)  # released over the page's corner, off the board
    expect(square(page, 22)).to_have_attribute("data-piece", "W", timeout=AT_ONCE)
    expect(page.locator("#latest")).to_have_text(
        "The piece fell off the board and went back to c3.")
    expect(page.locator('[data-led="destination"]')).to_have_count(0, timeout=AT_ONCE)
    page.wait_for_timeout(500)
    state = shared.state()
    assert 22 in state["occupied"] and state["moves"] == [] and not state["correcting"]
    assert "Put the board right" not in page.inner_text("#latest")


def test_a_piece_dropped_onto_another_piece_goes_back_with_the_reason(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    drag_to(page, 22, *centre(page, '[data-square="26"]'))  # onto its neighbour d2
    expect(square(page, 22)).to_have_attribute("data-piece", "W", timeout=AT_ONCE)
    expect(square(page, 26)).to_have_attribute("data-piece", "W")
    expect(page.locator("#latest")).to_have_text(
        "d2 already holds a piece: the piece went back to c3.")
    screenshot(page, "slip")
    assert shared.state()["moves"] == []


def test_an_illegal_destination_shows_the_engines_reason_at_once(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    square(page, 22).click()
    square(page, 13).click()  # c3 to a5: no such move
    expect(page.locator("#latest")).to_have_text(
        "Not legal: the piece on c3 cannot go to a5; it can go to b4, d4.", timeout=AT_ONCE)
    # then the lights guide, and the board says the same reason
    expect(square(page, 13)).to_have_attribute("data-led", "wrong", timeout=SLOW)
    expect(page.locator("#said-list li").first).to_have_text(
        "The board is wrong: the piece on c3 cannot go to a5; it can go to b4, d4. "
        "Put the lit squares right.")
    page.drag_and_drop('[data-square="13"]', '[data-square="22"]')
    expect(page.locator("#status-card")).to_have_attribute("data-correcting", "false",
                                                          timeout=SLOW)


def test_a_click_on_a_piece_nobody_may_take_off_picks_it_up(page, shared) -> None:
    fresh(shared)
    open_board(page, shared)
    square(page, 9).click()  # Black's man, White to move: picked up, not taken off
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "true")
    expect(square(page, 9)).to_have_attribute("data-piece", "", timeout=AT_ONCE)
    square(page, 9).click()  # put back
    expect(square(page, 9)).to_have_attribute("data-piece", "B", timeout=AT_ONCE)
    # Holding White's man, a black man it cannot capture is not taken off either: the
    # held piece goes back and the black one is picked up.
    square(page, 22).click()
    expect(square(page, 22)).to_have_attribute("data-piece", "", timeout=AT_ONCE)
    square(page, 10).click()
    expect(square(page, 22)).to_have_attribute("data-piece", "W", timeout=AT_ONCE)
    expect(square(page, 10)).to_have_attribute("data-piece", "")
    square(page, 10).click()
    expect(square(page, 10)).to_have_attribute("data-piece", "B", timeout=AT_ONCE)
    page.wait_for_timeout(400)
    state = shared.state()
    assert len(state["occupied"]) == 24 and state["moves"] == []
    assert not state["correcting"]


# -- 4. the end of a game -------------------------------------------------------------------


def test_after_a_resignation_only_what_still_applies_is_enabled(page, shared) -> None:
    fresh(shared, players={"W": "human", "B": "computer:1"})
    open_board(page, shared)
    expect(page.locator("#btn-takeback")).to_be_disabled()  # nothing to take back yet
    page.click("#btn-resign")
    page.click("#btn-resign")  # the second press confirms
    expect(page.locator("#outcome")).to_contain_text("Black wins: resignation.", timeout=SLOW)
    for button in ("#btn-resign", "#btn-draw", "#btn-hint", "#btn-takeback"):
        expect(page.locator(button)).to_be_disabled()
    expect(page.locator("#btn-resign")).to_have_attribute("title", "The game is over.")
    expect(page.locator("#btn-rematch")).to_be_enabled()
    expect(page.locator("#latest")).to_have_text(
        "A rematch with colours swapped, or a new game.")
    status, answer = shared.control(command="resign")
    assert status == 409 and answer["error"] == "The game is over."
    screenshot(page, "over")
    page.click("#btn-rematch")  # colours swapped: the computer now plays White
    expect(page.locator("#outcome")).to_be_hidden(timeout=SLOW)
    expect(page.locator("#players-line")).to_contain_text(
        "White: Computer · level 1 (beginner) · Black: Person")
    assert shared.state()["players"] == {"W": "computer:1", "B": "human"}
    expect(page.locator("#btn-resign")).to_be_enabled()


def test_the_players_line_cut_short_is_in_full_in_its_tooltip(page, shared) -> None:
    fresh(shared, players={"W": "human", "B": "computer:1"})
    open_board(page, shared)
    line = page.locator("#players-line")
    full = "White: Person · Black: Computer · level 1 (beginner)"
    expect(line).to_have_text(full)
    expect(line).to_have_attribute("title", full)


def test_a_game_won_by_a_move_can_still_be_taken_back(page, shared) -> None:
    fresh(shared, fen="W:W22:B18")
    open_board(page, shared)
    square(page, 22).click()
    square(page, 15).click()  # c3xe5 ...
    square(page, 18).click()  # ... and the captured man taken off: Black has none left
    expect(page.locator("#outcome")).to_contain_text("White wins", timeout=SLOW)
    expect(page.locator("#btn-resign")).to_be_disabled()
    expect(page.locator("#btn-takeback")).to_be_enabled()  # a slip of the hand, undone
    page.click("#btn-takeback")
    expect(page.locator("#outcome")).to_be_hidden(timeout=SLOW)
    expect(page.locator("#btn-put-right")).to_be_visible(timeout=SLOW)
    page.click("#btn-put-right")  # the capturer back, the captured man put back
    expect(square(page, 18)).to_have_attribute("data-piece", "B", timeout=SLOW)
    expect(square(page, 22)).to_have_attribute("data-piece", "W")
    expect(square(page, 15)).to_have_attribute("data-piece", "")
    state = shared.wait_for(lambda s: not s["correcting"])
    assert state["moves"] == [] and state["outcome"] is None


# -- 5. the status describes the board as it stands -----------------------------------------


def test_mid_capture_the_jumped_pieces_are_lit_and_the_landed_capture_is_named(
    page, shared
) -> None:
    fresh(shared, fen="W:W18:B15,16,1")
    open_board(page, shared)
    square(page, 18).click()  # d4 lifted: a double capture over e5 and g5
    square(page, 11).click()  # touch down on f6 (the first landing)
    expect(square(page, 15)).to_have_attribute("data-led", "remove", timeout=AT_ONCE)
    expect(square(page, 20)).to_have_attribute("data-led", "landing")
    square(page, 11).click()  # lift again ...
    square(page, 20).click()  # ... and land on h4
    expect(page.locator("#latest")).to_have_text(
        "d4xh4: take the captured pieces off (lit): e5, g5.", timeout=AT_ONCE)
    page.mouse.move(0, 0)
    screenshot(page, "capture-landed")
    square(page, 15).click()
    square(page, 16).click()
    expect(page.locator("#move-list .m")).to_have_text(["d4xh4"], timeout=SLOW)
    expect(page.locator("#latest")).to_have_text("White played d4xh4.", timeout=SLOW)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800},
                                      {"width": 390, "height": 844}])
def test_the_controls_never_move_while_playing(browser, shared, viewport) -> None:
    """Lift, place, a wrong board guided, put right: the controls keep their place."""
    fresh(shared)
    phone = viewport["width"] < 600
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  locale="pt-BR")  # the longer sentences
    page = context.new_page()
    watched = ["#controls", ".buttons", "#status-card", "#board", "#tray", "#move-list"]
    boxes = """(selectors) => Object.fromEntries(selectors.map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [s, [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]];
    }))"""
    try:
        open_board(page, shared)
        before = page.evaluate(boxes, watched)
        seen = []
        square(page, 22).click()
        expect(square(page, 17)).to_have_attribute("data-led", "destination", timeout=SLOW)
        seen.append(("lifted", page.evaluate(boxes, watched)))
        square(page, 13).click()  # a wrong square: the reason at once
        expect(page.locator("#latest")).to_contain_text("Lance ilegal", timeout=AT_ONCE)
        seen.append(("reason", page.evaluate(boxes, watched)))
        expect(page.locator("#btn-put-right")).to_be_visible(timeout=SLOW)
        seen.append(("guided", page.evaluate(boxes, watched)))
        page.click("#btn-put-right")
        expect(page.locator("#status-card")).to_have_attribute("data-correcting", "false",
                                                              timeout=SLOW)
        seen.append(("right", page.evaluate(boxes, watched)))
        square(page, 22).click()
        square(page, 18).click()
        expect(page.locator("#move-list .m")).to_have_count(1, timeout=SLOW)
        seen.append(("moved", page.evaluate(boxes, watched)))
        for moment, after in seen:
            # the move list may grow downwards as moves come; nothing else changes
            after["#move-list"] = after["#move-list"][:3] + before["#move-list"][3:]
            assert after == before, (moment, before, after)
    finally:
        context.close()
