"""The page server's defences at the door: the Host rule, the header deadline, the
security headers on every answer.

**The Host rule.** Without a token only this computer may control the board, but a
web page elsewhere can still reach a loopback server through the user's own browser
by *DNS rebinding*: its name (`evil.example`) is made to point at 127.0.0.1, and the
browser then treats the board's page as that site's. Such a request carries the
foreign name in its `Host` header, so a server without a token answers only requests
whose Host is one of its own names: an IP address written as such (127.0.0.1, [::1],
192.168.1.20: a page loaded from an address belongs to that address, not to another
site), `localhost` (and `*.localhost`), this machine's host name (and `NAME.local`),
or the host the server was told to listen on. Anything else gets 403. A request with
no Host header at all (HTTP/1.0 tools) is not a browser's and is let through. With a
token (serving the LAN) every name is allowed: the token guards the controls, and a
phone may use any name the network gives the board.

**The header deadline.** A connection must finish sending its first request's headers
within `HEADER_SECONDS` of connecting, or it is closed: a half-open connection (a
phone that left the network mid-request, a client that sends a few bytes and waits)
does not hold a socket forever. aiohttp has no such setting of its own (its
`keepalive_timeout` covers the time *between* requests, and only recent releases start
it at the connection), so the server's site wraps each connection's protocol and
counts. Between requests aiohttp's `keepalive_timeout` (`KEEPALIVE_SECONDS`) closes an
idle connection, and with it one that stops in the middle of a later request's headers.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import TYPE_CHECKING, Any

from aiohttp import web

from host.web.static_files import SECURITY_HEADERS

if TYPE_CHECKING:
    from aiohttp.typedefs import Handler, Middleware

#: seconds a new connection has to send its first request's headers
HEADER_SECONDS = 10.0
#: seconds an idle keep-alive connection is kept between requests
KEEPALIVE_SECONDS = 15.0


def own_names(listen_host: str) -> frozenset[str]:
    """The host names a loopback server answers to besides IP addresses (see the module)."""
    machine = socket.gethostname().lower()
    return frozenset({"localhost", machine, f"{machine}.local", listen_host.lower()})


def host_refusal(host_header: str | None, names: frozenset[str]) -> str | None:
    """Why a request with this Host header is refused by a server without a token, or
    None when it is one of the server's own names."""
    if host_header is None:
        return None
    host = host_header.strip().lower()
    if host.startswith("["):  # [v6]:port
        name = host[1:].split("]", 1)[0]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    try:
        ipaddress.ip_address(name.split("%")[0])
        return None
    except ValueError:
        pass
    if name in names or name.endswith(".localhost"):
        return None
    return (f"this board's page answers to its own address only, not to {name[:60]!r} "
            "(open it as http://localhost or http://127.0.0.1)")


def host_check(names: frozenset[str]) -> Middleware:
    """A middleware refusing foreign Host headers (for a server without a token)."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        refusal = host_refusal(request.headers.get("Host"), names)
        if refusal is not None:
            return web.json_response({"error": refusal}, status=403, headers=SECURITY_HEADERS)
        return await handler(request)

    return check


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer carries the security headers, aiohttp's own 404 and 405 included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


class HeaderDeadline(asyncio.Protocol):
    """Wraps aiohttp's protocol for one connection: closes the connection if its first
    request's headers have not all arrived within `seconds` (everything else is passed
    through untouched)."""

    def __init__(self, inner: asyncio.Protocol, seconds: float) -> None:
        self.inner = inner
        self.seconds = seconds
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        self._timer = asyncio.get_running_loop().call_later(self.seconds, self._expire)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._timer is not None:
            seen = self._tail + data
            if b"\r\n\r\n" in seen:
                self._timer.cancel()
                self._timer = None
            else:
                self._tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def _expire(self) -> None:
        self._timer = None
        transport = self._transport
        if isinstance(transport, asyncio.Transport) and not transport.is_closing():
            transport.abort()


class GuardedSite(web.BaseSite):
    """A TCP site whose connections get the header deadline (`HeaderDeadline`)."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int,
                 header_seconds: float = HEADER_SECONDS) -> None:
        super().__init__(runner)
        self._host = host
        self._port = port
        self._header_seconds = header_seconds

    @property
    def name(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        server = self._runner.server
        assert server is not None
        seconds = self._header_seconds
        self._server = await loop.create_server(
            lambda: HeaderDeadline(server(), seconds), self._host, self._port,
            backlog=self._backlog, reuse_address=True)
