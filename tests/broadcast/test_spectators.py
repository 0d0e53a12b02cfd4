"""The relay's spectator server: page, round JSON, files, and the live event stream."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.broadcast import topics
from host.broadcast.mqtt import BrokerSettings
from host.broadcast.relay import Relay
from host.broadcast.spectators import SpectatorServer, parse_listen
from host.errors import UserError


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SpectatorServer]:
    """A relay that never reaches a broker, told a round by hand, with its page."""
    relay = Relay(BrokerSettings("mqtt://127.0.0.1:1"), tmp_path, log=lambda _t: None)
    relay.intake.pairings(topics.encode({"event": "Clube", "round": "1", "boards": [
        {"board": 1, "board_id": "b1", "white": "Ana", "black": "Bia"}]}))
    running = SpectatorServer(relay, tmp_path, "127.0.0.1", 0).start()
    yield running
    running.stop()


def _caught_up(server: SpectatorServer) -> None:
    relay = server.relay
    relay._catch_up()
    relay._publish()


def _get(server: SpectatorServer, path: str) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.getheader("Content-Type") or "", response.read()


def test_the_page_and_its_scripts_come_from_the_package(server: SpectatorServer) -> None:
    status, kind, body = _get(server, "/")
    assert status == 200 and kind.startswith("text/html")
    assert b"/static/board.js" in body and b"http" not in body.replace(b"http://www.w3", b"")
    status, kind, body = _get(server, "/static/board.js")
    assert status == 200 and b"function drawBoard(element, diagram" in body
    for bad in ("/static/../spectators.py", "/static/x.py", "/nothing", "/round-1/../x.pdn"):
        assert _get(server, bad)[0] == 404


def test_nothing_is_served_before_the_relay_has_caught_up(server: SpectatorServer) -> None:
    for path in ("/api/round", "/round-1/games.pdn", "/api/events"):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", path)
        response = connection.getresponse()
        assert (response.status, response.getheader("Retry-After")) == (503, "2")
    status, _, body = _get(server, "/api/status")
    assert status == 200 and json.loads(body)["caught_up"] is False


def test_round_json_and_the_public_file(server: SpectatorServer, tmp_path: Path) -> None:
    _caught_up(server)
    status, kind, body = _get(server, "/api/round")
    summary = json.loads(body)
    assert status == 200 and summary["round"] == "1" and summary["event"] == "Clube"
    assert [(g["board"], g["white"], g["moves"]) for g in summary["games"]] == [(1, "Ana", [])]
    status, _, body = _get(server, "/round-1/games.pdn")
    assert status == 200 and body == (tmp_path / "round-1" / "games.pdn").read_bytes()
    assert b'[Round "1.1"]' in body


def _next_event(response: http.client.HTTPResponse) -> dict:
    while True:
        line = response.readline().decode()
        if line.startswith("data: "):
            return json.loads(line.removeprefix("data: "))


def test_a_page_gets_the_round_once_then_each_change(server: SpectatorServer) -> None:
    _caught_up(server)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    first = _next_event(response)
    assert first["kind"] == "round" and first["data"]["games"][0]["white"] == "Ana"
    relay = server.relay
    state = {"epoch": "e", "seq": 1, "game": "g1", "variant": "brazilian",
             "start_fen": "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
             "fen": "?", "moves": ["c3-d4"], "players": {"white": None, "black": None},
             "event": None, "round": "1", "board": 1, "clocks": None, "result": None,
             "reason": None, "ts": 1.0}
    with relay.lock:
        relay.intake.board_message("b1", "state", topics.encode(state), 1.0, 1.0)
    relay._publish()
    change = _next_event(response)
    assert change["kind"] == "moves"
    assert (change["data"]["key"], change["data"]["from_ply"], change["data"]["moves"]) == (
        "1", 1, ["c3-d4"])
    connection.close()


def test_listen_is_checked() -> None:
    assert parse_listen("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_listen(":8080") == ("0.0.0.0", 8080)
    assert parse_listen("off") is None
    with pytest.raises(UserError, match="HOST:PORT"):
        parse_listen("8080x")
