"""A page that disappears while its hand holds a piece (docs/web.md, "A hand that goes
away"): on the simulator the piece goes back where it was lifted from, through the same
lift/place path the hands use; a piece the hand let go of, or a captured piece taken
off, stays off.
"""

from __future__ import annotations

import json

import aiohttp
from conftest import BoardServer, run_async
from pages import SLOW, expect


async def _hands_then_close(url: str, actions: list[dict]) -> list[dict]:
    """Send hands on one socket, wait for every answer, then close it (as a tab closing)."""
    replies: list[dict] = []
    async with aiohttp.ClientSession() as client, client.ws_connect(url) as ws:
        for n, action in enumerate(actions, start=1):
            await ws.send_str(json.dumps({"id": n, "hands": action}))
            while True:
                message = json.loads((await ws.receive(timeout=10)).data)
                if message.get("id") == n:
                    replies.append(message)
                    break
    return replies


def _ws(board: BoardServer) -> str:
    return board.base.replace("http://", "ws://") + "/ws"


def test_a_held_piece_goes_back_when_its_page_closes(server: BoardServer) -> None:
    replies = run_async(_hands_then_close(_ws(server), [{"lift": 22, "hold": True}]))
    (reply,) = replies
    assert (reply["type"], reply["id"], reply["ok"]) == ("reply", 1, True)
    assert 22 not in reply["state"]["occupied"]  # the board as it stood once it answered
    state = server.wait_for(lambda s: 22 in s["occupied"])
    assert state["pieces"]["22"] == "W"
    assert "destination" not in state["leds"].values()  # nothing is lit for a lifted piece
    assert state["moves"] == [] and not state["correcting"]


def test_only_the_held_piece_goes_back_not_one_let_go_or_taken_off(
    server: BoardServer,
) -> None:
    # The hand holds c3 and, with the other hand, takes a black piece off (a capture's
    # victim is taken off this way): only c3 goes back.
    run_async(_hands_then_close(_ws(server), [{"lift": 22, "hold": True}, {"lift": 9}]))
    state = server.wait_for(lambda s: 22 in s["occupied"])
    assert 9 not in state["occupied"] and state["pieces"]["22"] == "W"
    # A piece the hand let go of off the board (knocked off) is not the hand's any more.
    replies = run_async(_hands_then_close(
        _ws(server), [{"lift": 23, "hold": True}, {"drop": 23}, {"place": 9, "piece": "B"}]))
    assert all(reply["ok"] for reply in replies)
    state = server.wait_for(lambda s: 9 in s["occupied"])
    server.read_output(0.5)  # time enough for a wrong put-back to show
    assert 23 not in server.state()["occupied"]
    # Put down anywhere, a piece is no longer in the hand: closing moves nothing.
    run_async(_hands_then_close(_ws(server), [{"lift": 21, "hold": True}, {"place": 23}]))
    server.read_output(0.5)
    state = server.state()
    assert 23 in state["occupied"] and 21 not in state["occupied"]


def test_a_closed_browser_does_not_leave_its_piece_in_the_air(browser, server) -> None:  # type: ignore[no-untyped-def]
    """The newcomer's case: a browser lifted c3 and was closed; the next one saw c3 still
    lifted with its destinations lit."""
    first = browser.new_context(viewport={"width": 1280, "height": 900})
    page = first.new_page()
    page.goto(server.url)
    expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
    page.locator('[data-square="22"]').click()
    expect(page.locator('[data-square="17"]')).to_have_attribute(
        "data-led", "destination", timeout=SLOW)
    first.close()
    second = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = second.new_page()
        page.goto(server.url)
        expect(page.locator('[data-square="22"]')).to_have_attribute(
            "data-piece", "W", timeout=SLOW)
        expect(page.locator('[data-square="17"]')).to_have_attribute("data-led", "")
        expect(page.locator('[data-square="18"]')).to_have_attribute("data-led", "")
    finally:
        second.close()
    assert server.state()["moves"] == []
