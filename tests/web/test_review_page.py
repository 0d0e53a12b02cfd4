"""The review page in a real headless Chromium (Debian's), driven as a player would: open
the review after a game ends on the board, upload a PDN file, step with the keys, read the
graph, the marks and the best move; and the relay's spectator page under its CSP. With
DRAUGHTSBOARD_SCREENSHOTS set (`make screenshots`) the README's review pictures are taken.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import BoardServer, screenshot
from pages import SLOW, expect
from review_games import PlantedGame, game_with_blunder

from engine import Game, get_variant
from host.broadcast.mqtt import BrokerSettings
from host.broadcast.relay import Relay
from host.broadcast.spectators import SpectatorServer
from host.review import store
from host.review.analysis import evaluate_positions

ANALYSIS = 300_000  # ms: the analysis runs at nice 19 on a machine shared with others


def square(page, n: int):  # type: ignore[no-untyped-def]
    return page.locator(f'#board [data-square="{n}"]')


def move_button(page, ply: int):  # type: ignore[no-untyped-def]
    """The button of the move that leads to position `ply`."""
    return page.locator(f'#moves button.mv[data-ply="{ply}"]')


def test_the_game_just_finished_is_reviewed_from_the_board_page(page, tmp_path: Path) -> None:
    game = Game.from_fen("W:W22:B18", get_variant("brazilian"))
    (capture,) = game.legal_moves()  # White's only move takes Black's last man
    board = BoardServer(tmp_path / "board", "--board", "sim", "--fen", "W:W22:B18").start()
    try:
        page.goto(board.url)
        expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
        expect(page.locator("#btn-review")).to_be_hidden()
        square(page, capture.origin).click()
        square(page, capture.destination).click()
        for taken in capture.captures:
            expect(square(page, taken)).to_have_attribute("data-led", "remove", timeout=SLOW)
            square(page, taken).click()
        expect(page.locator("#outcome")).to_be_visible(timeout=SLOW)
        review = page.locator("#btn-review")
        expect(review).to_be_visible()
        expect(review).to_have_text("Review this game")
        review.click()
        expect(page).to_have_url(re.compile(r"/review\?game=saved%3A"), timeout=SLOW)
        expect(page.locator("#progress-text")).to_have_text("Analysis complete",
                                                            timeout=ANALYSIS)
        expect(page.locator("#moves button.mv")).to_have_count(1)
        expect(page.locator("#where")).to_contain_text("Start position")
        # The best move at the start is the capture: lit as a hint is, and drawn as an arrow.
        expect(square(page, capture.origin)).to_have_attribute("data-led", "move-from")
        expect(square(page, capture.destination)).to_have_attribute("data-led", "destination")
        expect(page.locator("#arrows polyline.arrow")).to_have_count(1)
        expect(page.locator("#best-move")).to_have_text(game.position.move_text(capture))
        expect(page.locator("#position-card")).to_be_visible()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#verdict")).to_contain_text("was the only move")
        expect(page.locator("#best-move")).to_have_text("Game over")
        expect(page.locator("#evaluation")).to_have_text("White has won")
        expect(square(page, capture.destination)).to_have_attribute("data-piece", "W")
    finally:
        board.stop()


def upload(page, planted: PlantedGame, name: str = "game.pdn") -> None:  # type: ignore[no-untyped-def]
    page.locator("#upload").set_input_files(files=[{
        "name": name, "mimeType": "application/x-portable-draughts-notation",
        "buffer": planted.pdn("Ana", "Bia", "0-1").encode()}])


def test_an_uploaded_game_is_stepped_through_with_its_marks_and_best_moves(
    page, server: BoardServer,
) -> None:
    page.goto(server.base + "/review")
    expect(page.locator("#games")).to_contain_text("No saved games yet")
    expect(page.locator("#board")).to_be_hidden()
    # A file that is not PDN: one clear line, and nothing else happens.
    page.locator("#upload").set_input_files(files=[{
        "name": "notes.txt", "mimeType": "text/plain", "buffer": b"shopping: milk, eggs"}])
    expect(page.locator("#upload-error")).to_contain_text("not a PDN file", timeout=SLOW)
    expect(page.locator("body")).to_have_attribute("data-view", "list")

    planted = game_with_blunder("russian", 12, 4, seed=21)
    blunder = planted.blunder_ply
    upload(page, planted)
    expect(page.locator("body")).to_have_attribute("data-view", "review", timeout=SLOW)
    expect(page.locator("#game-title")).to_contain_text("Ana – Bia")
    expect(page.locator("#variant-name")).to_have_text("Russian draughts")
    expect(page.locator("#progress-text")).to_have_text("Analysis complete", timeout=ANALYSIS)
    # The planted blunder is marked in the move list, on the graph and in the summary.
    marked = move_button(page, blunder + 1)
    expect(marked).to_have_attribute("data-class", re.compile("mistake|blunder"))
    expect(marked).to_have_text(re.compile(r"\?$"))
    expect(page.locator(f'#graph circle.g-mark[data-ply="{blunder + 1}"]')).to_have_count(1)
    expect(page.locator("#graph polyline.g-line")).to_have_count(1)
    side = "white" if planted.side == "W" else "black"
    column = 1 if side == "white" else 2
    mistakes = page.locator("#summary tr[data-class='mistake'] td").nth(column - 1)
    blunders = page.locator("#summary tr[data-class='blunder'] td").nth(column - 1)
    assert int(mistakes.inner_text()) + int(blunders.inner_text()) >= 1
    # The keys step through the game; the board follows.
    page.keyboard.press("End")
    expect(page.locator("#board")).to_have_attribute("data-ply", str(len(planted.game.moves)))
    page.keyboard.press("Home")
    expect(page.locator("#where")).to_have_text("Start position")
    for _ in range(blunder + 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#board")).to_have_attribute("data-ply", str(blunder + 1))
    moved = planted.game.moves[blunder]
    expect(square(page, moved.destination)).to_have_attribute("data-piece",
                                                              re.compile(planted.side))
    expect(page.locator("#verdict")).to_contain_text(re.compile("was a (mistake|blunder)"))
    expect(page.locator("#verdict")).to_contain_text("Best was")
    page.keyboard.press("ArrowLeft")  # the position before the blunder: its best move lit
    expect(page.locator("#board")).to_have_attribute("data-ply", str(blunder))
    best = page.locator('#board [data-led="move-from"]')
    expect(best).to_have_count(1)
    expect(page.locator("#arrows polyline.arrow")).to_have_count(1)
    page.locator("#show-best").uncheck()
    expect(best).to_have_count(0)
    expect(page.locator("#arrows polyline")).to_have_count(0)
    page.locator("#show-best").check()
    move_button(page, blunder + 1).click()
    expect(page.locator("#board")).to_have_attribute("data-ply", str(blunder + 1))
    box = page.locator("#graph").bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the graph's left edge
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    # The same review in Portuguese.
    page.locator('[data-language="pt-BR"]').click()
    expect(page.locator(".summary-card h2")).to_have_text("Resumo")
    move_button(page, blunder + 1).click()
    expect(page.locator("#verdict")).to_contain_text(re.compile("foi (erro|erro grave)"))
    expect(page.locator("#variant-name")).to_have_text("damas russas")
    expect(page.locator("#progress-text")).to_have_text("Análise completa")
    page.locator("#upload").set_input_files(files=[{
        "name": "x.pdn", "mimeType": "text/plain", "buffer": b'[GameType "44"]\n1. 22-18 *'}])
    expect(page.locator("#upload-error")).to_contain_text(
        "Uma modalidade que este tabuleiro não joga: PDN GameType 44", timeout=SLOW)
    page.reload()  # the choice of language is this browser's, and kept
    expect(page.locator(".summary-card h2")).to_have_text("Resumo", timeout=SLOW)
    # Every word of the review exists in both languages.
    keys = page.evaluate("[Object.keys(REVIEW_WORDS['pt-BR']).sort(), "
                         "Object.keys(REVIEW_WORDS['en']).sort()]")
    assert keys[0] == keys[1]


def analysed(folder: Path, name: str, planted: PlantedGame) -> str:
    """A saved game with its analysis already beside it (made here, as the board would)."""
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    path = games / name
    path.write_text(planted.pdn("Marcos", "Rita", "1-0" if planted.side == "B" else "0-1"))
    evals = list(evaluate_positions(planted.game))
    store.save(store.analysis_path(path), store.game_key(planted.game), evals)
    return f"saved:{name}"


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["wide", "phone"])
def test_a_saved_review_opens_at_once_and_is_pictured(
    browser, tmp_path: Path, viewport: tuple[int, int],
) -> None:
    planted = game_with_blunder("brazilian", 30, 14, seed=8)
    review_id = analysed(tmp_path / "board", "20250510-201500-brazilian.pdn", planted)
    board = BoardServer(tmp_path / "board", "--board", "sim", "--new").start()
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                  locale="pt-BR" if viewport[0] < 600 else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(board.base + "/review")
        entry = page.locator("#games button").first
        expect(entry).to_have_text("Marcos – Rita", timeout=SLOW)
        entry.click()
        expect(page.locator("#progress-text")).to_have_text(
            re.compile("Analysis complete|Análise completa"), timeout=SLOW)  # no waiting
        assert review_id.split(":")[1] in page.url  # the address names the game reviewed
        move_button(page, planted.blunder_ply + 1).click()  # the blunder, and its answer
        expect(page.locator("#verdict")).to_contain_text("??")
        expect(page.locator('#board [data-led="move-from"]')).to_have_count(1)
        page.evaluate("window.scrollTo(0, 0)")
        page.mouse.move(0, 0)
        screenshot(page, "review" if viewport[0] > 600 else "review-phone")
    finally:
        context.close()
        board.stop()
    assert not errors, errors


def test_the_spectator_page_runs_under_its_csp(browser, tmp_path: Path) -> None:
    relay = Relay(BrokerSettings("mqtt://127.0.0.1:1"), tmp_path, log=lambda _t: None)
    spectators = SpectatorServer(relay, tmp_path, "127.0.0.1", 0).start()
    relay._catch_up()  # as tests/broadcast/test_spectators.py: no broker to catch up with
    relay._publish()
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text)
            if "Content Security Policy" in message.text else None)
    try:
        response = page.goto(f"http://127.0.0.1:{spectators.port}/")
        assert response is not None and "script-src 'self'" in response.headers[
            "content-security-policy"]
        # The relay has caught up (above), so the page's script, running under the CSP,
        # opens the live feed: the dot turns online and loses the HTML's own title.
        expect(page.locator("#connection")).to_have_class("online", timeout=SLOW)
        expect(page.locator("#connection")).not_to_have_attribute("title", "live updates")
        expect(page.locator("#title")).not_to_be_empty()
        page.reload()  # the second time the files come back as 304 from the browser's cache
        expect(page.locator("#title")).not_to_be_empty(timeout=SLOW)
    finally:
        context.close()
        spectators.stop()
    assert not problems, problems


def test_players_the_file_does_not_name_are_called_by_their_side(page, tmp_path: Path) -> None:
    """The board writes `?` for a person it has no name for; the review says White or
    Black there (in the viewer's language), and its bar has no separator before the
    variant it does not show yet."""
    games = tmp_path / "board" / "games"
    games.mkdir(parents=True)
    (games / "20260101-100000-brazilian.pdn").write_text(
        '[White "?"]\n[Black "Computer (level 1)"]\n[Result "0-1"]\n'
        '[GameType "26,W,8,8,A0,0"]\n\n1. c3-d4 b6-a5 0-1\n')
    (games / "20260101-110000-brazilian.pdn").write_text(
        '[White "?"]\n[Black "?"]\n[Result "1-0"]\n[GameType "26,W,8,8,A0,0"]\n\n'
        '1. c3-d4 1-0\n')
    board = BoardServer(tmp_path / "board", "--board", "sim").start()
    try:
        page.goto(board.base + "/review")
        names = page.locator("#games li button")
        expect(names).to_have_text(["20260101-110000-brazilian.pdn",  # newest first
                                    "White – Computer (level 1)"], timeout=SLOW)
        before = page.eval_on_selector(
            "#variant-name", "e => getComputedStyle(e, '::before').content")
        assert before == "none"  # no "·" after the name with nothing behind it
        back = page.locator("#to-board").bounding_box()
        switch = page.locator("#language").bounding_box()
        assert back is not None and switch is not None
        # the link back to the board sits level with the language switch beside it
        assert abs((back["y"] + back["height"] / 2) - (switch["y"] + switch["height"] / 2)) < 2
        page.click('#language [data-language="pt-BR"]')
        expect(names.last).to_have_text("Brancas – Computer (level 1)")
        names.last.click()
        expect(page.locator("#game-title")).to_have_text(
            re.compile(r"^Brancas – Computer \(level 1\)\s+0-1$"), timeout=SLOW)
    finally:
        board.stop()
