"""A live board (the asyncio runtime with its page, `run --board sim`) publishing to a real
mosquitto (tests/broadcast's fixture): the publisher follows the session's update bus, the
players from the club's pairings reach the page (state and screen) and the saved PDN, and
a broker that never answers does not hold the board up at exit.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from conftest import BoardServer, screenshot

from engine.pdn import read_games
from host.broadcast import topics
from host.broadcast.pairings import publish_round, read_pairings
from tests.broadcast.broker import Broker, free_port
from tests.broadcast.conftest import broker  # noqa: F401  (the fixture: a real mosquitto)
from tests.broadcast.watch import Watcher

try:
    from playwright.sync_api import expect
except ModuleNotFoundError:  # the `browser` fixture skips, or fails where chromium is required
    expect = None

MOVE_B1 = topics.board_topic("b1", topics.MOVE)
STATE_B1 = topics.board_topic("b1", topics.STATE)
STATUS_B1 = topics.board_topic("b1", topics.STATUS)


def _board(folder: Path, broker_url: str, password_file: Path) -> BoardServer:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(
        f'language = "en"\nspeech = false\njournal = "{folder / "journal.jsonl"}"\n'
        f'games_dir = "{folder / "games"}"\ndata_dir = "{folder}"\n'
        f'broker = "{broker_url}"\nboard_id = "b1"\nbroker_password_file = "{password_file}"\n'
    )
    return BoardServer(folder, "--board", "sim", "--new")


def _payloads(watcher: Watcher, topic: str) -> list[dict]:
    return [json.loads(p) for p in watcher.on(topic) if p]


def test_a_live_board_publishes_its_moves_and_shows_its_players(
    broker: Broker, page, tmp_path: Path,  # noqa: F811  (the imported fixture)
) -> None:
    pairing = read_pairings("board,board_id,white,black\n1,b1,Ana,Bia\n", "round.csv",
                            event="Clube", round_name="3")
    publish_round(broker.settings("organiser"), pairing)
    watcher = Watcher(broker.settings("watcher"), f"{topics.ROOT}/board/b1/#")
    board = _board(tmp_path / "b1", broker.url, broker.password_file("b1")).start()
    try:
        state = board.wait_for(lambda s: s["tags"].get("White") == "Ana")
        assert state["tags"] == {"Event": "Clube", "Round": "3.1", "White": "Ana",
                                 "Black": "Bia"}
        page.goto(board.url)
        expect(page.locator("#players-line")).to_have_text(
            "White: Ana · Black: Bia — Clube · 3.1", timeout=10_000)
        board.hands(lift=22)
        board.hands(place=18)
        state = board.wait_for(lambda s: len(s["moves"]) == 1)
        moves = watcher.wait_for(lambda _m: _payloads(watcher, MOVE_B1))
        assert [(m["ply"], m["move"], m["fen"]) for m in moves] == [
            (1, state["moves"][0], state["fen"])]
        published = watcher.wait_for(
            lambda _m: [s for s in _payloads(watcher, STATE_B1) if s["moves"]])[-1]
        assert published["players"] == {"white": "Ana", "black": "Bia"}
        assert published["moves"] == state["moves"] and published["result"] is None
        assert board.control(command="resign")[0] == 200
        finished = watcher.wait_for(
            lambda _m: [s for s in _payloads(watcher, STATE_B1) if s["result"]])[-1]
        assert finished["result"] == "1-0" and finished["reason"] == "resignation"
    finally:
        assert board.stop() == 0
    assert watcher.wait_for(lambda _m: watcher.on(STATUS_B1)[-1:] == [b"offline"])
    watcher.close()
    saved = next(read_games(next((tmp_path / "b1" / "games").glob("*.pdn"))))
    assert (saved.tags["White"], saved.tags["Black"], saved.tags["Round"]) == ("Ana", "Bia",
                                                                               "3.1")


def test_a_live_board_whose_broker_never_answers_plays_and_stops_at_once(
    broker: Broker, tmp_path: Path,  # noqa: F811  (the imported fixture)
) -> None:
    """No broker at that address: the page plays on, SIGTERM stops it without waiting for
    acknowledgements, and the move waits in the outbox for the next start."""
    silent = f"mqtt://127.0.0.1:{free_port()}"
    board = _board(tmp_path / "b1", silent, broker.password_file("b1")).start()
    try:
        board.hands(lift=22)
        board.hands(place=18)
        board.wait_for(lambda s: len(s["moves"]) == 1)
    finally:
        started = time.monotonic()
        assert board.stop() == 0
        stopping = time.monotonic() - started
    assert stopping < 5.0  # a connected board would wait up to 10 s for the broker
    printed = "".join(board.output)
    assert f"broadcast: cannot connect to {silent}" in printed
    assert "messages kept in the outbox for next time" in printed
    lines = (tmp_path / "b1" / "journal.outbox.jsonl").read_text().splitlines()
    kept = [json.loads(line) for line in lines]
    moves = [json.loads(entry["payload"]) for entry in kept if entry.get("topic") == MOVE_B1]
    assert [move["ply"] for move in moves] == [1]


def test_the_spectator_page_shows_each_game_and_follows_its_moves(
    broker: Broker, page, tmp_path: Path,  # noqa: F811  (the imported fixture)
) -> None:
    """The relay's page in Chromium: the round as it connects, then each board's moves
    as they come, a board's second game after its first, and one game followed."""
    from host.broadcast.relay import Relay
    from host.broadcast.spectators import SpectatorServer
    from tests.broadcast.club import command, first_moves, last_t, quiet_events, reset_to_start
    from tests.broadcast.conftest import BoardProcess

    pairing = read_pairings("board,board_id,white,black\n1,b1,Ana,Bia\n2,b2,Caio,Duda\n",
                            "round.csv", event="Clube", round_name="4")
    publish_round(broker.settings("organiser"), pairing)
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    assert relay.caught_up.wait(20)
    server = SpectatorServer(relay, out, "127.0.0.1", 0).start()
    board = None
    try:
        page.goto(f"http://127.0.0.1:{server.port}/")
        expect(page.locator("#title")).to_have_text("Clube", timeout=10_000)
        cards = page.locator(".card")
        expect(cards).to_have_count(2)
        expect(cards.nth(0)).to_contain_text("Ana – Bia")
        moves = first_moves("brazilian", 6)
        lines = quiet_events(moves)
        t = last_t(lines) + 1000
        lines.append(command(t, "resign"))
        lines.append(reset_to_start("brazilian", t + 3000))
        lines += quiet_events(first_moves("brazilian", 2, skip=1), t0=t + 6000)
        board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
        board.feed(lines)
        assert board.finish() == 0, board.log()
        expect(cards).to_have_count(3, timeout=15_000)  # board 1's second game
        expect(cards.nth(0)).to_contain_text("0-1")
        expect(cards.nth(1)).to_contain_text("game 2")
        expect(cards.nth(1)).to_contain_text("2 plies")
        screenshot(page, "spectators")
        cards.nth(0).click()
        expect(page.locator("#follow-moves li")).to_have_count(3)
        expect(page.locator("#follow-title")).to_contain_text("Ana – Bia 0-1")
    finally:
        if board is not None:
            board.stop()
        server.stop()
        relay.stop()
