"""The relay's spectator server: page, round JSON, files, and the live event stream."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.broadcast.mqtt import BrokerSettings
from host.broadcast.relay import Relay
from host.broadcast.relay_files import Pairing
from host.broadcast.spectators import SpectatorServer, parse_listen
from host.errors import UserError


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SpectatorServer]:
    relay = Relay(BrokerSettings("mqtt://127.0.0.1:1"), tmp_path, log=lambda _t: None)
    relay.writer.set_pairings("1", "Clube", [Pairing(1, "b1", "Ana", "Bia")])
    relay.current_round = "1"
    relay.writer.write("1")
    running = SpectatorServer(relay, tmp_path, "127.0.0.1", 0).start()
    yield running
    running.stop()


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


def test_round_json_and_the_public_file(server: SpectatorServer, tmp_path: Path) -> None:
    status, kind, body = _get(server, "/api/round")
    summary = json.loads(body)
    assert status == 200 and summary["round"] == "1" and summary["event"] == "Clube"
    assert [(g["board"], g["white"], g["moves"]) for g in summary["games"]] == [(1, "Ana", [])]
    status, _, body = _get(server, "/round-1/games.pdn")
    assert status == 200 and body == (tmp_path / "round-1" / "games.pdn").read_bytes()
    assert b'[Round "1.1"]' in body


def test_changes_are_pushed_to_every_open_page(server: SpectatorServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    assert response.readline() == b": connected\n"
    response.readline()
    server.notify("game", {"board_id": "b1", "moves": ["c3-d4"]})
    assert json.loads(response.readline().decode().removeprefix("data: ")) == {
        "kind": "game", "data": {"board_id": "b1", "moves": ["c3-d4"]}}
    connection.close()


def test_listen_is_checked() -> None:
    assert parse_listen("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_listen(":8080") == ("0.0.0.0", 8080)
    assert parse_listen("off") is None
    with pytest.raises(UserError, match="HOST:PORT"):
        parse_listen("8080x")
