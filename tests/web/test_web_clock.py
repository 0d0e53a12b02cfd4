"""The clocks on the page, in a real Chromium: both clocks, the running one marked, tenths
under 10 s, the time each move took, the arbiter's pause, the flag, and the new-game
dialog's time controls. `make screenshots` saves the pictures docs/web.md shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import BoardServer, screenshot
from pages import SLOW, expect, square


@pytest.fixture
def timed(tmp_path: Path):  # type: ignore[no-untyped-def]
    board = BoardServer(tmp_path / "board", "--board", "sim", "--new", "--clock", "0.15+0",
                        "--variant", "english").start()
    yield board
    board.stop()



def seconds(text: str) -> float:
    minutes, rest = text.split(":")
    return int(minutes) * 60 + float(rest)


def test_the_clocks_run_pause_and_fall(page, timed: BoardServer) -> None:
    page.goto(timed.url)
    expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
    expect(page.locator("#clocks")).to_be_visible()
    expect(page.locator("#clock-control")).to_contain_text("0.15+0")
    expect(page.locator("#clock-W-time")).to_have_text("0:09.0")  # 9 s: tenths shown
    expect(page.locator("#clock-B")).to_have_attribute("data-running", "false")

    # English: Black moves first; its time starts with the first lift.
    square(page, 11).click()
    expect(page.locator("#clock-B")).to_have_attribute("data-running", "true", timeout=SLOW)
    square(page, 15).click()
    expect(page.locator("#move-list .m")).to_have_text(["11-15"], timeout=SLOW)
    expect(page.locator("#clock-W")).to_have_attribute("data-running", "true", timeout=SLOW)
    expect(page.locator("#clock-B")).to_have_attribute("data-running", "false")
    # The move's time is shown beside it, not in its text.
    took = page.locator("#move-list .m").first.get_attribute("data-took")
    assert took is not None and re.fullmatch(r"\d\.\ds", took), took
    # White's clock counts down on the page, in tenths, in warning colours.
    first = seconds(page.locator("#clock-W-time").inner_text())
    page.wait_for_timeout(600)
    later = seconds(page.locator("#clock-W-time").inner_text())
    assert 0.3 < first - later < 1.5, (first, later)
    expect(page.locator("#clock-W")).to_have_attribute("data-level", "critical")
    screenshot(page, "clock-running")

    # The arbiter stops the clock: nothing is charged until it runs again.
    page.locator("#btn-pause").click()
    expect(page.locator("#clocks")).to_have_attribute("data-paused", "true", timeout=SLOW)
    stopped = page.locator("#clock-W-time").inner_text()
    page.wait_for_timeout(800)
    assert page.locator("#clock-W-time").inner_text() == stopped
    assert timed.state()["clock"]["paused"] is True
    screenshot(page, "clock-paused")
    page.locator("#btn-pause").click()
    expect(page.locator("#clocks")).to_have_attribute("data-paused", "false", timeout=SLOW)

    # White never moves: the flag falls on its own, no switch change needed.
    expect(page.locator("#clock-W")).to_have_attribute("data-flag", "true", timeout=20_000)
    expect(page.locator("#clock-W-time")).to_have_text("0:00.0")
    expect(page.locator("#outcome")).to_contain_text("0-1")
    state = timed.state()
    assert state["outcome"]["reason"] == "time" and state["clock"]["flagged"] == "W"
    assert state["leds"] and set(state["leds"].values()) == {"end"}
    assert "White's time is up." in timed.read_output()
    screenshot(page, "clock-flag")


def test_the_new_game_dialog_offers_the_common_controls(page, timed: BoardServer) -> None:
    page.goto(timed.url)
    expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
    page.locator("#btn-new").click()
    options = page.locator("#clock-preset option")
    texts = options.all_inner_texts()
    assert texts[0] == "No clock" and texts[-1].startswith("Other")
    assert any(t == "FMJD blitz · 5+3" for t in texts), texts
    assert any(t == "FMJD classical · 80+60" for t in texts), texts
    page.locator("#clock-preset").select_option("5+3")
    screenshot(page, "clock-dialog")
    page.locator("#btn-start").click()
    state = timed.wait_for(lambda s: s["clock"] and s["clock"]["control"] == "5+3")
    assert state["clock"]["white"] == state["clock"]["black"] == 300_000
    expect(page.locator("#clock-B-time")).to_have_text("5:00", timeout=SLOW)
    # A handicap typed in: White's time first.
    page.locator("#btn-new").click()
    page.locator("#clock-preset").select_option("custom")
    page.locator("#clock-custom").fill("10+5/3+5")
    page.locator("#btn-start").click()
    state = timed.wait_for(lambda s: s["clock"] and s["clock"]["control"] == "10+5/3+5")
    expect(page.locator("#clock-W-time")).to_have_text("10:00", timeout=SLOW)
    expect(page.locator("#clock-B-time")).to_have_text("3:00")
    # And none: the clocks go.
    page.locator("#btn-new").click()
    page.locator("#clock-preset").select_option("none")
    page.locator("#btn-start").click()
    timed.wait_for(lambda s: s["clock"] is None)
    expect(page.locator("#clocks")).to_be_hidden(timeout=SLOW)


def test_a_bad_time_control_is_refused_with_its_reason(timed: BoardServer) -> None:
    status, answer = timed.control(command="new", clock="5-3")
    assert status == 400 and "minutes+increment" in answer["error"]
    status, answer = timed.control(command="pause")
    assert status == 200, answer  # (a clock that has not started yet can be stopped too)
