"""Quick hands on a slow board, in a real Chromium: every click is decided from the board's
state, never from what the page last drew. A board that answers late (here: the board's
process stopped while the player clicks, as a loaded Pi would be) still gets each click
acted on, in order."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

from conftest import BoardServer
from pages import SLOW, expect, open_board, square


@contextlib.contextmanager
def board_held_up(board: BoardServer) -> Iterator[None]:
    """The board's process does nothing until the block ends: whatever the page sends
    meanwhile is answered only afterwards."""
    assert board.proc is not None
    os.kill(board.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(board.proc.pid, signal.SIGCONT)


def test_a_piece_put_down_and_lifted_again_at_once_is_lifted(page, server: BoardServer) -> None:  # type: ignore[no-untyped-def]
    open_board(page, server)
    square(page, 22).click()  # c3 into the hand
    server.wait_for(lambda s: 22 not in s["occupied"])
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "true")
    with board_held_up(server):
        square(page, 18).click()  # put down on d4...
        square(page, 18).click()  # ...and lifted again, before the board has answered
        expect(page.locator("#hand-note")).to_have_attribute("data-holding", "false")
    # Both clicks were acted on: the piece went down on d4 and is in the hand again.
    state = server.wait_for(lambda s: 18 not in s["occupied"] and 22 not in s["occupied"])
    assert len(state["occupied"]) == 23, state["occupied"]
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "true", timeout=SLOW)
    expect(square(page, 18)).not_to_have_attribute("data-piece", "W", timeout=SLOW)
    # A third click puts it back where it came from.
    square(page, 22).click()
    server.wait_for(lambda s: 22 in s["occupied"] and 18 not in s["occupied"])
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "false", timeout=SLOW)


def test_a_click_on_a_piece_then_on_its_destination_before_the_board_answers_moves_it(
    page, server: BoardServer
) -> None:
    # The pointer travels to d4 while the lift of c3 is still unanswered: that travel
    # comes after the first click's release, so the first click stays a click (the piece
    # stays in the hand) and the second puts it down, instead of a drag back onto c3.
    open_board(page, server)
    with board_held_up(server):
        square(page, 22).click()  # c3 into the hand...
        square(page, 18).click()  # ...and down on d4, before the board has answered either
    state = server.wait_for(lambda s: s["moves"] == ["c3-d4"])
    assert 22 not in state["occupied"] and 18 in state["occupied"]
    expect(square(page, 18)).to_have_attribute("data-piece", "W", timeout=SLOW)
    expect(page.locator("#hand-note")).to_have_attribute("data-holding", "false")
