"""The relay's spectator page (`relay --listen HOST:PORT`), on the standard library.

Why no web framework: it serves one page, one JSON document and one
Server-Sent Events stream, to a club's worth of spectators; `http.server`
with a thread per connection does that, and the relay stays one dependency
(paho) away from a bare Python. What it serves, all read-only:

    /                       the page (host/broadcast/static/)
    /static/<file>          its script and style sheet
    /api/round[?round=R]    the round: its games in file order (JSON)
    /api/events             Server-Sent Events: first {"kind": "round", "data": <the
                            round, whole>}, then {"kind": "moves", "data": <what is new
                            in one game: from_ply, moves, fen, result...>} per change,
                            and "round" again when the pairings change
    /api/status             the relay's status (relay_status.py)
    /<folder>/<file>.pdn    the relay's files (round-3/games.pdn: lidraughts' source URL)

Everything comes from the relay's shown versions, so `--delay` holds for
spectators too. Until the relay has caught up after a start, the round, the
files and the stream answer 503 (Retry-After: 2): nobody is served anything
older than what they may have seen before the restart.
"""

from __future__ import annotations

import contextlib
import json
import queue
import re
import threading
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from host.errors import UserError
from host.web import address
from host.web.static_files import SECURITY_HEADERS, StaticFiles

STATIC = StaticFiles(resources.files("host.broadcast") / "static")
#: seconds a connection may stay silent while a request is read (a half-open one is
#: closed; the same deadline as the board's page, host/web/guard.py)
READ_SECONDS = 10.0
#: a spectator who falls this many updates behind is disconnected (its page reconnects)
CLIENT_BACKLOG = 500
HEARTBEAT = 15.0
_FILE = re.compile(r"^/((?:round-[A-Za-z0-9._-]+)|unpaired)/((?:games|board-[A-Za-z0-9_-]+)\.pdn)$")


def parse_listen(text: str) -> tuple[str, int] | None:
    """The relay's `--listen`, read as the board's page reads its own
    (`host.web.address.parse_listen`: an IP address or localhost, or `off` for none);
    `:PORT` is short for every interface."""
    if text.strip().startswith(":"):
        text = "0.0.0.0" + text.strip()
    listen = address.parse_listen(text)
    return None if listen is None else (listen.host, listen.port)


class SpectatorServer:
    """Serves spectators from a `Relay`; `notify(kind, data)` pushes to every page."""

    def __init__(self, relay: Any, out_dir: Path, host: str, port: int) -> None:
        self.relay = relay
        self.out_dir = Path(out_dir)
        self._clients: set[queue.Queue[bytes | None]] = set()
        self._lock = threading.Lock()
        server = self

        class Handler(_Handler):
            spectators = server

        try:
            self.httpd = ThreadingHTTPServer((host, port), Handler)
        except OSError as error:
            raise UserError(f"cannot listen on {host}:{port}: {error.strerror}") from None
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="spectators",
                                        daemon=True)

    def start(self) -> SpectatorServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._lock:
            for client in self._clients:
                with contextlib.suppress(queue.Full):
                    client.put_nowait(None)
        self.httpd.shutdown()
        self.httpd.server_close()

    def notify(self, kind: str, data: dict[str, Any]) -> None:
        """Send one event to every page following (the relay calls it on each change)."""
        message = _event(kind, data)
        with self._lock:
            for client in list(self._clients):
                self._put(client, message)

    def _put(self, client: queue.Queue[bytes | None], message: bytes) -> None:
        try:
            client.put_nowait(message)
        except queue.Full:  # too slow: cut it off, its page reconnects
            self._clients.discard(client)
            with contextlib.suppress(queue.Empty):
                client.get_nowait()
            client.put_nowait(None)

    def subscribe(self) -> queue.Queue[bytes | None]:
        """A new page: the whole round first, then every change after it (the relay
        hands over the round and starts telling us changes in one step)."""
        client: queue.Queue[bytes | None] = queue.Queue(maxsize=CLIENT_BACKLOG)

        def listener(kind: str, data: dict[str, Any]) -> None:
            with self._lock:
                if client in self._clients:
                    self._put(client, _event(kind, data))

        with self._lock:
            self._clients.add(client)
        client.listener = listener  # type: ignore[attr-defined]
        self.relay.follow(listener)  # tells it the whole round first
        return client

    def unsubscribe(self, client: queue.Queue[bytes | None]) -> None:
        with self._lock:
            self._clients.discard(client)
        listener = getattr(client, "listener", None)
        if listener is not None:
            self.relay.unfollow(listener)


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps({'kind': kind, 'data': data})}\n\n".encode()


class _Handler(BaseHTTPRequestHandler):
    spectators: SpectatorServer
    server_version = "draughtsboard-relay"
    timeout = READ_SECONDS  # the socket's timeout (socketserver.StreamRequestHandler)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib's name
        pass  # spectators' requests are not the operator's business

    def do_GET(self) -> None:  # noqa: N802 - stdlib's name
        url = urlsplit(self.path)
        path = url.path
        if path in ("/", "/index.html"):
            self._static("index.html")
        elif path.startswith("/static/"):
            self._static(path.removeprefix("/static/"))
        elif path == "/api/status":
            self._send(HTTPStatus.OK, "application/json",
                       json.dumps(self.spectators.relay.status_json()).encode())
        elif not self.spectators.relay.caught_up.is_set() and (
                path.startswith("/api/") or _FILE.match(path)):
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/plain",
                       b"the relay is catching up; try again in a moment\n",
                       retry_after=2)
        elif path == "/api/round":
            name = parse_qs(url.query).get("round", [None])[0]
            self._send(HTTPStatus.OK, "application/json",
                       json.dumps(self.spectators.relay.round_summary(name)).encode())
        elif path == "/api/events":
            self._events()
        elif (match := _FILE.match(path)) is not None:
            self._file(self.spectators.out_dir / match.group(1) / match.group(2))
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")

    def _send(self, status: HTTPStatus, kind: str, body: bytes, *,
              retry_after: int | None = None) -> None:
        self.send_response(status)
        if retry_after is not None:
            self.send_header("Retry-After", str(retry_after))
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Access-Control-Allow-Origin", "*")
        self._security_headers()
        self.end_headers()
        self.wfile.write(body)

    def _security_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)

    def _static(self, name: str) -> None:
        """The page's files, with validators and gzip (host/web/static_files.py)."""
        # the request's headers: an email Message, whose get() ignores case as answer wants
        answer = STATIC.answer(name, cast(Mapping[str, str], self.headers))
        if answer is None:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")
            return
        self.send_response(answer.status)
        for header, value in answer.headers.items():
            self.send_header(header, value)
        self.send_header("Content-Length", str(len(answer.body)))
        self.end_headers()
        self.wfile.write(answer.body)

    def _file(self, path: Path) -> None:
        try:
            body = path.read_bytes()
        except OSError:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"no such file yet\n")
            return
        self._send(HTTPStatus.OK, "application/x-draughts-pdn", body)

    def _events(self) -> None:
        client = self.spectators.subscribe()
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Access-Control-Allow-Origin", "*")
            self._security_headers()
            self.end_headers()
            self.wfile.write(b"retry: 2000\n\n")
            self.wfile.flush()
            while True:
                try:
                    message = client.get(timeout=HEARTBEAT)
                except queue.Empty:
                    message = b": keep-alive\n\n"
                if message is None:
                    return
                self.wfile.write(message)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
        finally:
            self.spectators.unsubscribe(client)
