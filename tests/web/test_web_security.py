"""Who may control the board, and what bad or hostile clients cannot do to it."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from pathlib import Path

import aiohttp
import pytest
from conftest import BoardServer, run_async

from host.voice.request_errors import ERRORS
from host.web.address import lan_address
from host.web.server import control_refusal


def same_game(a: dict, b: dict) -> bool:
    keys = ("fen", "occupied", "leds", "moves", "outcome", "hints", "language", "variant")
    return all(a[k] == b[k] for k in keys)


def lan_ip() -> str:
    """A non-loopback address of this machine, to come from "another address"."""
    address = lan_address()
    if address is None:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not info[4][0].startswith("127."):
                address = info[4][0]
                break
    if address is None:
        pytest.skip("this machine has no network interface besides loopback")
    return address


@pytest.fixture
def lan_server(tmp_path: Path):
    board = BoardServer(tmp_path / "lan", "--board", "sim", "--new").start(listen="0.0.0.0:0")
    yield board
    board.stop()


def token_of(board: BoardServer) -> str:
    return board.url.split("?token=")[1]


def test_serving_the_lan_needs_the_token_for_every_control(lan_server: BoardServer) -> None:
    ip = lan_ip()
    lan = f"http://{ip}:{lan_server.port}"
    token = token_of(lan_server)
    assert len(token) >= 12
    output = lan_server.read_output()
    assert f"Controls need the token {token}" in output
    assert "█" in output or "▀" in output or "▄" in output  # the QR code for a phone
    before = lan_server.state()
    status, state = lan_server.request("GET", "/api/state", base=lan)
    assert status == 200 and state["fen"] == before["fen"]  # watching needs nothing
    for headers in ({}, {"Authorization": "Bearer wrong-token-123"}, {"Authorization": token}):
        status, answer = lan_server.request(
            "POST", "/api/hands", {"lift": 22}, headers=headers, base=lan)
        assert status == 403 and "token" in answer["error"]
        status, answer = lan_server.request(
            "POST", "/api/control", {"command": "resign"}, headers=headers, base=lan)
        assert status == 403
    # Even from this computer: once there is a token, every control needs it.
    status, _ = lan_server.request("POST", "/api/control", {"command": "resign"})
    assert status == 403
    assert same_game(lan_server.state(), before)
    status, state = lan_server.request(
        "POST", "/api/hands", {"lift": 22}, headers={"Authorization": f"Bearer {token}"}, base=lan)
    assert status == 200 and 22 not in state["occupied"]


def test_without_a_token_only_this_computer_controls() -> None:
    # The command line never serves the LAN without a token (it makes one), so this rule
    # guards a loopback listener reached some other way (a proxy, a tunnel): checked here.
    def refusal(remote, origin=None, token=None, supplied=None):
        refused = control_refusal(
            token=token, supplied=supplied, remote=remote, origin=origin, host="127.0.0.1:8080")
        assert refused is None or refused.status == 403
        return None if refused is None else str(refused)

    for remote in ("127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"):
        assert refusal(remote) is None, remote
    for remote in ("192.168.1.7", "10.0.0.2", "::ffff:192.168.1.7", "fe80::1%eth0", None, "x"):
        assert "only accepted from this computer" in refusal(remote), remote
    assert refusal("192.168.1.7", token="s3cret-token", supplied="s3cret-token") is None
    assert "token" in refusal("127.0.0.1", token="s3cret-token", supplied="s3cret-tokeN")
    assert "another site" in refusal("127.0.0.1", origin="http://127.0.0.1:8081")
    assert "another site" in refusal("127.0.0.1", origin="null")
    assert refusal("127.0.0.1", origin="http://127.0.0.1:8080") is None


def test_a_request_from_another_site_is_refused(server: BoardServer) -> None:
    before = server.state()
    status, answer = server.request(
        "POST", "/api/control", {"command": "resign"}, headers={"Origin": "http://evil.example"})
    assert status == 403 and "another site" in answer["error"]
    assert same_game(server.state(), before)
    status, _ = server.request(
        "POST", "/api/hands", {"lift": 22}, headers={"Origin": server.base})
    assert status == 200


def test_a_configured_token_is_needed_even_on_loopback(tmp_path: Path) -> None:
    board = BoardServer(tmp_path / "t", "--board", "sim", "--new").start(
        "--token", "correct-horse-9")
    try:
        assert board.request("POST", "/api/hands", {"lift": 22})[0] == 403
        status, _ = board.request("POST", "/api/hands", {"lift": 22},
                                  headers={"Authorization": "Bearer correct-horse-9"})
        assert status == 200
    finally:
        board.stop()


# -- the socket -------------------------------------------------------------------------


async def _socket_session(url: str, messages: list, *, collect: float = 0.6) -> list[dict]:
    """Send `messages` (str or bytes) on one socket; every JSON message received."""
    received: list[dict] = []
    async with aiohttp.ClientSession() as client, client.ws_connect(url) as ws:
        for message in messages:
            if isinstance(message, bytes):
                await ws.send_bytes(message)
            else:
                await ws.send_str(message)
        deadline = time.monotonic() + collect
        while time.monotonic() < deadline:
            try:
                msg = await ws.receive(timeout=max(deadline - time.monotonic(), 0.01))
            except TimeoutError:
                break
            if msg.type != aiohttp.WSMsgType.TEXT:
                received.append({"closed": msg.type.name, "code": ws.close_code})
                break
            received.append(json.loads(msg.data))
    return received


def replies(received: list[dict]) -> list[dict]:
    """The socket's answers to requests, without the state each reply carries."""
    return [{k: v for k, v in m.items() if k != "state"}
            for m in received if m.get("type") == "reply"]


def ws_url(board: BoardServer, base: str | None = None) -> str:
    return (base or board.base).replace("http://", "ws://") + "/ws"


def test_socket_sends_whole_state_then_answers_bad_messages_with_errors(
    server: BoardServer,
) -> None:
    before = server.state()
    bad = [
        "not json", "[]", "{}", '{"hands": 5}', '{"hands": {"lift": 99}}', '{"foo": 1}',
        '{"hands": {"lift": 22}, "control": {"command": "new"}}', '{"control": {"command": "x"}}',
        b"\x00\x01binary", "x" * 5000,
    ]
    received = run_async(_socket_session(ws_url(server), [json.dumps({"id": 1})] + bad))
    assert received[0] == {"type": "hello", "control": True, "why": None}
    states = [m for m in received if m.get("type") == "state"]
    assert states and states[0]["state"]["fen"] == before["fen"]
    errors = [m for m in received if m.get("type") == "error"]
    assert len(errors) == len(bad) + 1  # the message with only an id is not a request either
    assert all(isinstance(e["error"], str) and "\n" not in e["error"] for e in errors)
    assert any("too large" in e["error"] for e in errors)
    # each with a code the page renders in its viewer's language
    assert all(e["code"] in ERRORS["pt-BR"] and isinstance(e["params"], dict) for e in errors)
    assert same_game(server.state(), before)


def test_a_huge_socket_message_closes_that_socket_only(server: BoardServer) -> None:
    before = server.state()
    received = run_async(_socket_session(ws_url(server), ["y" * 200_000]))
    assert received[-1].get("closed") in ("CLOSE", "CLOSED", "CLOSING")
    assert received[-1]["code"] == 1009  # message too big
    assert same_game(server.state(), before)
    ok = run_async(_socket_session(ws_url(server), ['{"id": 7, "hands": {"lift": 22}}']))
    assert {"type": "reply", "id": 7, "ok": True} in replies(ok)


def test_a_watcher_without_the_token_cannot_control_over_the_socket(
    lan_server: BoardServer,
) -> None:
    before = lan_server.state()
    message = '{"id": 3, "control": {"command": "resign"}}'
    received = run_async(_socket_session(ws_url(lan_server), [message]))
    # the page is told why, to say how to get the controls (docs/web.md)
    assert received[0] == {"type": "hello", "control": False, "why": "token"}
    assert any(m.get("type") == "state" for m in received)
    (error,) = [m for m in received if m.get("type") == "error"]
    assert error["id"] == 3 and "token" in error["error"]
    assert same_game(lan_server.state(), before)
    allowed = ws_url(lan_server) + "?token=" + token_of(lan_server)
    received = run_async(_socket_session(allowed, [message]))
    assert received[0] == {"type": "hello", "control": True, "why": None}
    assert {"type": "reply", "id": 3, "ok": True} in replies(received)
    assert lan_server.state()["outcome"]["reason"] == "resignation"


def _handshake() -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_the_server_survives_200_sockets_dropped_abruptly(server: BoardServer) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    before = server.state()
    rss_before = _rss_kib(pid)
    for i in range(200):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        if i % 4 == 0:
            sock.sendall(_handshake()[:40])  # cut off inside the handshake
        else:
            sock.sendall(_handshake())
            if i % 4 == 2:
                sock.recv(1024)  # the 101 answer, then the hello and the state may follow
        # Reset, not a polite close: no close frame, no FIN.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    state = server.wait_for(lambda s: s["watchers"] == 0, timeout=20)
    assert same_game(state, before)
    received = run_async(_socket_session(ws_url(server), ['{"id": 1, "hands": {"lift": 22}}']))
    assert {"type": "reply", "id": 1, "ok": True} in replies(received)
    assert server.proc.poll() is None
    assert _rss_kib(pid) - rss_before < 8 * 1024  # nothing kept per dropped socket
