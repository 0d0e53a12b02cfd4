"""One truth about pieces, in a real Chromium: after any capture, whatever order the
pieces were lifted in, every piece the page draws has the game's colour and kind, on
the page playing and on a second page watching. The pieces come from recognition's
account of the board (`Session.pieces`), as the status file and `GET /api/state` do.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import BoardServer
from pages import SLOW, expect

from engine import Position, get_variant

# White's man on c3 (22) must take d4 (18) and f6 (11), landing on g7 (8).
CAPTURE = "W:W22,30,31:B18,11,2,4"
#: the colour each square's piece has in the game while the capture is played
COLOURS = {22: "W", 15: "W", 8: "W", 30: "W", 31: "W", 18: "B", 11: "B", 2: "B", 4: "B"}

#: clicks on the page (a click lifts a piece, or puts the held one down on an empty
#: square; a click on a piece of the side not to move takes it off)
ORDERS = {
    "captured pieces first": [18, 11, 22, 8],
    "captured pieces in the air": [22, 18, 11, 8],
    "one before, one in the air": [11, 22, 18, 8],
    "after landing": [22, 8, 18, 11],
    "touching down on the way": [22, 15, 15, 18, 11, 8],
}


def drawn(page) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """What the page draws: square -> piece, occupied squares only."""
    cells = page.eval_on_selector_all(
        "[data-square]",
        "cells => cells.map(c => [c.dataset.square, c.dataset.piece])",
    )
    return {square: piece for square, piece in cells if piece}


def same_as_state(page, board: BoardServer) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Wait until the page draws the state's pieces; returns them."""
    for _ in range(200):
        pieces = board.state()["pieces"]
        if drawn(page) == pieces:
            return pieces
        page.wait_for_timeout(50)
    raise AssertionError(f"the page draws {drawn(page)}, the state says {board.state()['pieces']}")


def in_game_colours(pieces: dict[str, str]) -> None:
    for square, piece in pieces.items():
        assert piece[0] == COLOURS[int(square)], pieces
        assert not piece.endswith("K"), pieces  # nobody was crowned


def as_position(state: dict[str, Any]) -> dict[str, str]:
    position = Position.from_fen(state["fen"], get_variant(state["variant"]))
    return {
        str(sq): p.color + ("K" if p.king else "") for sq, p in position.pieces().items()
    }


@pytest.fixture
def boards(browser, tmp_path):  # type: ignore[no-untyped-def]
    board = BoardServer(tmp_path / "board", "--board", "sim", "--new", "--fen", CAPTURE).start()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(board.url)
        expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
    yield board, pages[0], pages[1]
    for context in contexts:
        context.close()
    board.stop()
    assert not errors, f"a page raised: {errors}"


def switch(board: BoardServer, square: int) -> None:
    """What a real board's switch reports: a piece off or on `square`, nothing more (no
    hand says which piece)."""
    occupied = square in board.state()["occupied"]
    status, answer = board.hands(**{"lift" if occupied else "place": square})
    assert status == 200, answer


def touch(board: BoardServer, player, hands: str, square: int) -> None:  # type: ignore[no-untyped-def]
    """One step of the hands on `square` (every step here lifts the piece on it or puts
    one down there), returning once the board has sensed it: a page's click is sent
    while the test goes on, and the next click must find the square as this one left
    it."""
    was = square in board.state()["occupied"]
    if hands == "page":
        player.locator(f'[data-square="{square}"]').click()
    else:
        switch(board, square)
    board.wait_for(lambda s: (square in s["occupied"]) != was)


@pytest.mark.parametrize("hands", ["page", "switches"])
def test_every_lift_order_of_a_capture_draws_the_games_colours(boards, hands: str) -> None:  # type: ignore[no-untyped-def]
    # "page": the player's clicks (its hand says which piece it puts down); "switches":
    # the same changes as a real board reports them, with both pages watching.
    board, player, watcher = boards
    for order, clicks in ORDERS.items():
        status, _ = board.control(command="new", fen=CAPTURE)
        assert status == 200, order
        same_as_state(player, board)
        for square in clicks:
            touch(board, player, hands, square)
            for page in (player, watcher):
                in_game_colours(same_as_state(page, board))
        state = board.wait_for(lambda s: s["moves"] == ["c3xg7"])
        for page in (player, watcher):
            assert same_as_state(page, board) == as_position(state), order
        # Black takes the capturer back (h8xf6), its own capturer lifted last: drawn in
        # Black's colour throughout, the taken man White's until it is off.
        for square in (4, 8, 11):
            touch(board, player, hands, square)
            pieces = same_as_state(player, board)
            assert pieces.get("8", "W") == "W" and all(
                p == "B" for sq, p in pieces.items() if sq in ("2", "4", "11")
            ), pieces
        state = board.wait_for(lambda s: len(s["moves"]) == 2)
        assert state["moves"] == ["c3xg7", "h8xf6"]
        for page in (player, watcher):
            assert same_as_state(page, board) == as_position(state), order


def test_the_computers_move_carried_out_by_the_page_keeps_the_colours(boards) -> None:  # type: ignore[no-untyped-def]
    # The page's button lifts the capturer, then takes the captured pieces off, then
    # puts the capturer down: the captured pieces are lifted after the capturer and
    # before it lands, the order that once painted it black.
    board, player, watcher = boards
    status, _ = board.control(command="new", fen=CAPTURE, players={"W": "computer:1"})
    assert status == 200
    expect(player.locator("#btn-play-computer")).to_be_visible(timeout=SLOW)
    player.click("#btn-play-computer")
    state = board.wait_for(lambda s: s["moves"] == ["c3xg7"], timeout=20)
    for page in (player, watcher):
        assert same_as_state(page, board) == as_position(state)


def test_a_crowned_man_is_drawn_a_man_until_a_king_is_stacked_on_it(boards) -> None:  # type: ignore[no-untyped-def]
    board, player, watcher = boards
    status, _ = board.control(command="new", fen="W:W6,31:B25")
    assert status == 200
    same_as_state(player, board)
    player.locator('[data-square="6"]').click()
    player.locator('[data-square="1"]').click()
    crowned = player.locator('[data-square="1"]')
    expect(crowned).to_have_attribute("data-led", "crown", timeout=SLOW)
    for page in (player, watcher):
        assert same_as_state(page, board)["1"] == "W"  # a man, lit: stack a king on it
    player.drag_and_drop('[data-tray="WK"]', '[data-square="1"]')
    expect(crowned).not_to_have_attribute("data-led", "crown", timeout=SLOW)
    for page in (player, watcher):
        assert same_as_state(page, board)["1"] == "WK"
