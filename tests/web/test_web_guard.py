"""The servers' defences at the door, over real sockets: the Host rule (DNS rebinding),
the header deadline (half-open connections), the security headers on every answer, and
static files cached with validators and sent gzipped, on the board's page server
(`draughtsboard run`) and on the relay's spectator server."""

from __future__ import annotations

import gzip
import http.client
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from conftest import BoardServer, run_async

from host.broadcast.mqtt import BrokerSettings
from host.broadcast.relay import Relay
from host.broadcast.spectators import READ_SECONDS, SpectatorServer
from host.web.guard import HEADER_SECONDS, KEEPALIVE_SECONDS, host_refusal, own_names

CSP = "Content-Security-Policy"


def get(port: int, path: str, headers: dict[str, str] | None = None,
        method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these headers (Host included when given)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    headers = dict(headers or {})
    connection.putrequest(method, path, skip_host="Host" in headers,
                          skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


# -- the Host rule ---------------------------------------------------------------------


def test_a_loopback_server_without_a_token_answers_only_to_its_own_names(
    server: BoardServer,
) -> None:
    port = server.port
    for host in ("evil.example", f"evil.example:{port}", "attacker.com.", "127.0.0.1.nip.io",
                 "localhost.evil.example"):
        status, headers, body = get(port, "/api/state", {"Host": host})
        assert status == 403, host
        assert b"own address" in body and CSP.lower() in headers
        assert get(port, "/", {"Host": host})[0] == 403
    before = server.state()
    status, _, _ = get(port, "/api/control", {"Host": "evil.example",
                                              "Content-Type": "application/json"},
                       method="POST")
    assert status == 403 and server.state()["fen"] == before["fen"]
    machine = socket.gethostname()
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}",
                 f"{machine}:{port}", f"{machine.upper()}.local:{port}", "board.localhost",
                 "192.168.1.20:8080"):
        assert get(port, "/api/state", {"Host": host})[0] == 200, host
    # The page's own requests (the browser names the server as it was opened) pass.
    assert server.request("GET", "/api/state")[0] == 200


def test_the_socket_handshake_is_refused_under_a_foreign_name(server: BoardServer) -> None:
    async def handshake(host: str) -> int:
        async with aiohttp.ClientSession() as client:
            try:
                async with client.ws_connect(f"ws://127.0.0.1:{server.port}/ws",
                                             headers={"Host": host}) as ws:
                    await ws.close()
                    return 101
            except aiohttp.WSServerHandshakeError as error:
                return error.status

    assert run_async(handshake("evil.example")) == 403
    assert run_async(handshake(f"127.0.0.1:{server.port}")) == 101


def test_with_a_token_every_name_is_answered(tmp_path: Path) -> None:
    board = BoardServer(tmp_path / "t", "--board", "sim", "--new").start("--token", "tok-12345")
    try:
        status, _, _ = get(board.port, "/api/state", {"Host": "draughtsboard.lan"})
        assert status == 200  # the token guards the controls; phones use any name
        status, _, _ = get(board.port, "/api/control", {"Host": "evil.example"}, method="POST")
        assert status == 403  # no token given
    finally:
        board.stop()


def test_the_host_rule_reads_every_form_of_host() -> None:
    names = own_names("127.0.0.1")
    assert host_refusal(None, names) is None  # HTTP/1.0 tools send none
    for fine in ("127.0.0.1", "127.0.0.1:8080", "[::1]:80", "::1", "LOCALHOST:1",
                 "localhost.", "a.localhost", "10.0.0.7:8080", "[fe80::1%25eth0]:8080"):
        assert host_refusal(fine, names) is None, fine
    for bad in ("evil.example", "evil.example:8080", "localhost.evil", "127.0.0.1.evil",
                "", "x:y:z"):
        assert host_refusal(bad, names) is not None, bad


# -- the header deadline -------------------------------------------------------------------


def _closed_after(port: int, first: bytes, then: bytes | None = None) -> float:
    """Seconds until the server closes a connection that sends `first` (and, once that
    is answered, `then`), then falls silent."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    started = time.monotonic()
    try:
        if first:
            sock.sendall(first)
        if then is not None:
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += sock.recv(65536)
            started = time.monotonic()
            sock.sendall(then)
        while True:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
        return time.monotonic() - started
    finally:
        sock.close()


def test_half_open_connections_are_closed(server: BoardServer) -> None:
    partial = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    complete = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    cases = {"silent": (b"", None), "partial": (partial, None),
             "partial second request": (complete, partial)}
    took: dict[str, float] = {}

    def watch(name: str, first: bytes, then: bytes | None) -> None:
        took[name] = _closed_after(server.port, first, then)

    threads = [threading.Thread(target=watch, args=(name, *case)) for name, case in cases.items()]
    for thread in threads:
        thread.start()
    # Meanwhile the server goes on answering everyone else.
    assert server.request("GET", "/api/state")[0] == 200
    for thread in threads:
        thread.join(timeout=60)
    assert HEADER_SECONDS - 0.5 <= took["silent"] < HEADER_SECONDS + 10, took
    assert HEADER_SECONDS - 0.5 <= took["partial"] < HEADER_SECONDS + 10, took
    assert took["partial second request"] < KEEPALIVE_SECONDS + 10, took
    assert server.request("GET", "/api/state")[0] == 200


# -- headers and caching on the board's page server ------------------------------------------


def test_every_answer_carries_the_security_headers(server: BoardServer) -> None:
    for path in ("/", "/review", "/static/app.js", "/static/review.js", "/api/state",
                 "/api/games", "/api/review/games", "/no/such/page", "/static/nope.js"):
        status, headers, _ = get(server.port, path, {"Host": f"127.0.0.1:{server.port}"})
        assert "script-src 'self'" in headers.get(CSP.lower(), ""), path
        assert headers.get("x-content-type-options") == "nosniff", path


def _check_caching(port: int, path: str, host: str) -> None:
    """A static file: gzip when asked, validators, 304 when unchanged."""
    status, plain_headers, plain = get(port, path, {"Host": host})
    assert status == 200 and "content-encoding" not in plain_headers
    assert plain_headers["cache-control"] == "no-cache"
    etag, modified = plain_headers["etag"], plain_headers["last-modified"]
    status, headers, packed = get(port, path, {"Host": host, "Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding" and headers["etag"] != etag
    assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 2
    for validators in ({"If-None-Match": etag}, {"If-None-Match": headers["etag"]},
                       {"If-None-Match": f'"other", W/{etag}'},
                       {"If-Modified-Since": modified}):
        status, again, body = get(port, path, {"Host": host, **validators})
        assert status == 304 and body == b"", validators
        assert again["etag"] in (etag, headers["etag"])
    assert get(port, path, {"Host": host, "If-None-Match": '"stale"'})[0] == 200
    assert get(port, path, {"Host": host,
                            "If-Modified-Since": "Mon, 01 Jan 1990 00:00:00 GMT"})[0] == 200
    status, headers, _ = get(port, path, {"Host": host, "Accept-Encoding": "gzip;q=0"})
    assert status == 200 and "content-encoding" not in headers


def test_the_page_files_are_cached_and_compressed(server: BoardServer) -> None:
    host = f"127.0.0.1:{server.port}"
    for path in ("/static/app.js", "/static/style.css", "/", "/static/review.js"):
        _check_caching(server.port, path, host)


# -- the relay's spectator server -----------------------------------------------------------


@pytest.fixture
def spectators(tmp_path: Path) -> Iterator[SpectatorServer]:
    relay = Relay(BrokerSettings("mqtt://127.0.0.1:1"), tmp_path, log=lambda _t: None)
    running = SpectatorServer(relay, tmp_path, "127.0.0.1", 0).start()
    relay._catch_up()  # as tests/broadcast/test_spectators.py: no broker to catch up with
    relay._publish()
    yield running
    running.stop()


def test_the_spectator_page_has_a_csp_and_cached_compressed_files(
    spectators: SpectatorServer,
) -> None:
    host = f"127.0.0.1:{spectators.port}"
    for path in ("/", "/static/page.js", "/api/round", "/nothing"):
        _, headers, _ = get(spectators.port, path, {"Host": host})
        assert "script-src 'self'" in headers.get(CSP.lower(), ""), path
    for path in ("/static/page.js", "/static/style.css", "/static/board.js"):
        _check_caching(spectators.port, path, host)


def test_the_spectator_server_closes_a_silent_connection(spectators: SpectatorServer) -> None:
    took = _closed_after(spectators.port, b"GET / HTTP/1.1\r\nHost: x\r\n")
    assert READ_SECONDS - 0.5 <= took < READ_SECONDS + 10
