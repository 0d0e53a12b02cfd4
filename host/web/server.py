"""The board's web page and API, served by aiohttp in the runtime's own event loop.

Routes (docs/web.md has the contract):
- `GET /` the page; `GET /static/...` its script, style and icon (all in the
  package: no CDN, nothing fetched from the internet).
- `GET /api/state` the whole state; `GET /ws` a WebSocket that sends it on
  connect and after every change, and takes hands and controls.
- `POST /api/hands`, `POST /api/control`: simulated hands and game controls.
- `GET /api/pdn` the current game; `GET /api/games[/NAME]` the saved games.
- `GET /review` and `/api/review/...`: the review of any game (host/web/review_routes.py).

Defences at the door (host/web/guard.py): without a token a request must name the
server by one of its own names (the Host rule against DNS rebinding); a connection
must send its headers within seconds; every answer carries the security headers; the
page's files are cached with validators and sent gzipped (host/web/static_files.py).

Who may do what: anyone who can reach the page may watch and download. A
control (hands, new game, takeback...) needs the token when one is set
(always, when serving the LAN); without a token only this computer may
control. A request whose `Origin` is another site is refused, so a web page
elsewhere cannot drive the board through the user's browser.

Every watcher gets its own writer task that sends the latest state when the
game changed, so a slow phone skips intermediate states instead of holding up
the board or the other watchers.

A page's hand that disappears (the socket closes while it holds a piece it lifted with
`"hold": true`) puts that piece back where it was lifted from, through the same
lift/place path the hands use, so no other viewer is left with a piece in mid-air.
Only on the simulator: a real board's pieces are moved by real hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from host.errors import UserError
from host.live.bus import Update
from host.live.runtime import Hands, Refused, Runtime
from host.records.journal import pdn_stem
from host.review.games import SAVED_GAME
from host.voice.request_errors import RequestError
from host.web.guard import (
    KEEPALIVE_SECONDS,
    GuardedSite,
    add_security_headers,
    host_check,
    own_names,
)
from host.web.protocol import MAX_BODY, BadRequest, parse_control, parse_hands, parse_object
from host.web.review_routes import ReviewRoutes
from host.web.static_files import SECURITY_HEADERS, StaticFiles
from host.web.words import game_history, page_words

log = logging.getLogger(__name__)
STATIC = resources.files("host.web") / "static"
#: a socket message larger than this is not even read (aiohttp closes with 1009)
MAX_SOCKET_MESSAGE = 64 * 1024


def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and IPv4-mapped loopback; False for anything unknown."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool(ip.is_loopback or (mapped is not None and mapped.is_loopback))


def control_refusal(
    *, token: str | None, supplied: str | None, remote: str | None, origin: str | None, host: str
) -> RequestError | None:
    """Why a control request is refused (403), or None if it is allowed (see the module's
    rules)."""
    if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
        return RequestError("other-site", 403)
    if token:
        if supplied is None or not hmac.compare_digest(supplied.encode(), token.encode()):
            return RequestError("token-needed", 403)
        return None
    if not is_loopback(remote):
        return RequestError("local-only", 403)
    return None


def _bearer(header: str | None) -> str | None:
    if header and header[:7].lower() == "bearer ":
        return header[7:].strip()
    return None


def _follow_hand(watcher: Watcher, action: Hands, piece: str | None) -> None:
    """What the page's hand holds after `action`: a piece lifted with `hold` until it is
    put down (anywhere) or dropped; a lift without `hold` (a captured piece taken off by
    the other hand) leaves the held piece in the hand."""
    if action.action == "lift" and action.hold:
        watcher.holding = Hands("place", action.square, piece)
    elif action.action == "place" or (
        action.action == "drop"
        and watcher.holding is not None
        and watcher.holding.square == action.square
    ):
        watcher.holding = None


def _text(error: RequestError | None) -> str | None:
    return None if error is None else str(error)


def _error(error: RequestError) -> web.Response:
    """`{"error": the English line, "code", "params"}` with the error's status: the page
    renders `code` in its viewer's language (host/voice/request_errors.py)."""
    return web.json_response(error.answer(), status=error.status, headers=SECURITY_HEADERS)


@dataclass(eq=False)
class Watcher:
    """One open socket: whether it may control, a flag its writer waits on, and the
    piece its page's hand holds (the place that puts it back where it was lifted)."""

    socket: web.WebSocketResponse
    control: bool
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    holding: Hands | None = None


class WebServer:
    """The page and API for one `Runtime`."""

    def __init__(self, runtime: Runtime, *, host: str, port: int, token: str | None) -> None:
        self.runtime = runtime
        self.host = host
        self.port = port
        self.token = token
        self.watchers: set[Watcher] = set()
        self._state_text: str | None = None
        self._runner: web.AppRunner | None = None
        self._stopping = False
        self._putting_back: set[asyncio.Task[None]] = set()
        self._unsubscribe = runtime.subscribe(self._changed)
        self.files = StaticFiles(STATIC)
        self.review = ReviewRoutes(
            runtime, lambda request: _text(self._refusal(request, _bearer(
                request.headers.get("Authorization")))))
        self.app = self._make_app()

    # -- lifetime ---------------------------------------------------------------------

    async def start(self) -> tuple[str, int]:
        """Listen; returns the (host, port) actually bound (port 0 picks a free one)."""
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0,
                                     keepalive_timeout=KEEPALIVE_SECONDS)
        await self._runner.setup()
        site = GuardedSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            why = os.strerror(error.errno).lower() if error.errno else str(error)
            raise UserError(
                f"cannot serve the page on {self.host}:{self.port}: {why} "
                "(choose another with --listen HOST:PORT, or --listen off)"
            ) from None
        bound = self._runner.addresses[0]
        return str(bound[0]), int(bound[1])

    async def stop(self) -> None:
        self._stopping = True
        self._unsubscribe()
        for watcher in list(self.watchers):
            with contextlib.suppress(Exception):
                await watcher.socket.close(code=WSCloseCode.GOING_AWAY, message=b"board stopped")
        await self.review.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def _make_app(self) -> web.Application:
        # Without a token only this computer controls: refuse other sites' names too
        # (DNS rebinding, host/web/guard.py).
        middlewares = [] if self.token else [host_check(own_names(self.host))]
        app = web.Application(client_max_size=MAX_BODY, middlewares=middlewares)
        app.on_response_prepare.append(add_security_headers)
        app.router.add_get("/", self.page)
        app.router.add_get("/review", self.review_page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/api/state", self.get_state)
        app.router.add_get("/api/words", self.get_words)
        app.router.add_get("/api/history", self.get_history)
        app.router.add_post("/api/hands", self.post_hands)
        app.router.add_post("/api/control", self.post_control)
        app.router.add_get("/api/pdn", self.get_pdn)
        app.router.add_get("/api/games", self.get_games)
        app.router.add_get("/api/games/{name}", self.get_game)
        app.router.add_get("/ws", self.socket)
        self.review.add_to(app)
        return app

    # -- state -------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        state = self.runtime.state()
        state["watchers"] = len(self.watchers)
        return state

    def _changed(self, update: Update) -> None:
        if update.kind == "new-game":  # the pieces were set up afresh: no hand holds one
            for watcher in self.watchers:
                watcher.holding = None
        self._invalidate()

    def _invalidate(self) -> None:
        """The state changed (the game, or who watches it): every watcher gets it again."""
        self._state_text = None
        for watcher in self.watchers:
            watcher.dirty.set()

    def _pushed_state(self) -> str:
        """The state message for every watcher, built once per change."""
        if self._state_text is None:
            self._state_text = json.dumps({"type": "state", "state": self.state()})
        return self._state_text

    # -- pages ---------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        return await self.static(request, "index.html")

    async def review_page(self, request: web.Request) -> web.StreamResponse:
        return await self.static(request, "review.html")

    async def static(self, request: web.Request, name: str | None = None) -> web.StreamResponse:
        """A file of the page, with validators (304 when unchanged) and gzip
        (host/web/static_files.py)."""
        name = name or request.match_info["name"]
        answer = self.files.answer(name, request.headers)
        if answer is None:
            return _error(RequestError("no-such-file", 404, name=repr(name)))
        return web.Response(status=answer.status, body=answer.body or None,
                            headers=answer.headers)

    async def get_state(self, request: web.Request) -> web.Response:
        return web.json_response(self.state(), headers=SECURITY_HEADERS)

    async def get_words(self, request: web.Request) -> web.Response:
        """The host's sentences, for each page to render announcements in its viewer's
        language (host/voice/messages.py, host/voice/move_reasons.py)."""
        return web.json_response(page_words(), headers=SECURITY_HEADERS)

    async def get_history(self, request: web.Request) -> web.Response:
        """Every position of the game so far, for looking back at any move."""
        return web.json_response(game_history(self.runtime.session.game),
                                 headers=SECURITY_HEADERS)

    async def get_pdn(self, request: web.Request) -> web.Response:
        session = self.runtime.session
        try:
            text = session.pdn()
        except UserError as error:
            return _error(RequestError("not-now", 404, detail=str(error)))
        return self._pdn_response(text, f"{pdn_stem(session.started, session.variant.name)}.pdn")

    async def get_games(self, request: web.Request) -> web.Response:
        folder = self.runtime.session.config.games_dir
        try:
            files = [p for p in folder.iterdir() if SAVED_GAME.match(p.name) and p.is_file()]
        except OSError:
            files = []
        files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        games = [{"name": p.name, "bytes": p.stat().st_size} for p in files[:100]]
        return web.json_response({"games": games}, headers=SECURITY_HEADERS)

    async def get_game(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        folder = self.runtime.session.config.games_dir
        if not SAVED_GAME.match(name):
            return _error(RequestError("no-such-game", 404))
        try:
            text = (folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return _error(RequestError("no-such-game", 404))
        return self._pdn_response(text, name)

    @staticmethod
    def _pdn_response(text: str, filename: str) -> web.Response:
        headers = {**SECURITY_HEADERS,
                   "Content-Disposition": f'attachment; filename="{filename}"'}
        return web.Response(text=text, content_type="application/x-portable-draughts-notation",
                            headers=headers)

    # -- controls ------------------------------------------------------------------------

    def _refusal(self, request: web.Request, supplied: str | None) -> RequestError | None:
        return control_refusal(
            token=self.token,
            supplied=supplied,
            remote=request.remote,
            origin=request.headers.get("Origin"),
            host=request.host,
        )

    def _why_watching(self, request: web.Request, supplied: str | None) -> str:
        """Why a page may only watch, for it to explain how to get the controls: "token"
        (one is needed), "stale-token" (the one it has is not the board's: rotated),
        "local-only" (no token: only this computer controls), "other-site"."""
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
            return "other-site"
        if self.token:
            return "stale-token" if supplied else "token"
        return "local-only"

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(
                max_size=MAX_BODY, actual_size=request.content_length
            )
        return parse_object(await request.read())

    async def post_hands(self, request: web.Request) -> web.Response:
        return await self._post(request, hands=True)

    async def post_control(self, request: web.Request) -> web.Response:
        return await self._post(request, hands=False)

    async def _post(self, request: web.Request, *, hands: bool) -> web.Response:
        refusal = self._refusal(request, _bearer(request.headers.get("Authorization")))
        if refusal is not None:
            return _error(refusal)
        try:
            data = await self._body(request)
            await self._obey(data, hands=hands)
        except web.HTTPRequestEntityTooLarge:
            return _error(RequestError("body-too-large", 413, max=MAX_BODY))
        except RequestError as error:  # BadRequest, Refused
            return _error(error)
        return web.json_response(self.state(), headers=SECURITY_HEADERS)

    async def _obey(
        self, data: dict[str, Any], *, hands: bool, watcher: Watcher | None = None
    ) -> None:
        runtime = self.runtime
        if not hands:
            runtime.control(parse_control(data))
            return
        action = parse_hands(data, runtime.session.variant.num_squares)
        piece = runtime.piece_on(action.square)
        await runtime.hands(action)
        if watcher is not None:
            _follow_hand(watcher, action, piece)

    def _hand_gone(self, watcher: Watcher) -> None:
        """The page holding a piece has gone: the piece goes back where it was lifted."""
        held, watcher.holding = watcher.holding, None
        if held is None or self._stopping or not self.runtime.simulated:
            return

        async def put_back() -> None:
            try:
                await self.runtime.hands(held)
            except Refused as error:  # the square was filled meanwhile: it stays off
                log.info("a closed page's piece could not go back to %s: %s",
                         held.square, error)

        task = asyncio.create_task(put_back())
        self._putting_back.add(task)
        task.add_done_callback(self._putting_back.discard)

    # -- the socket ----------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.StreamResponse:
        supplied = request.query.get("token") or _bearer(request.headers.get("Authorization"))
        may_control = self._refusal(request, supplied) is None
        why = None if may_control else self._why_watching(request, supplied)
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_SOCKET_MESSAGE)
        try:
            await ws.prepare(request)
        except ConnectionError:
            # Gone before the handshake was answered. A plain response for aiohttp to
            # finish (it finds the connection closed and lets it go quietly).
            return web.Response(status=499)
        watcher = Watcher(ws, may_control)
        self.watchers.add(watcher)
        self._invalidate()  # everyone's watcher count changes
        writer = asyncio.create_task(self._write(watcher))
        try:
            await ws.send_json({"type": "hello", "control": may_control, "why": why})
            watcher.dirty.set()
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    await self._answer(watcher, message.data)
                elif message.type == WSMsgType.BINARY:
                    binary = RequestError("binary-message", 400)
                    await ws.send_json({"type": "error", **binary.answer()})
                elif message.type == WSMsgType.ERROR:
                    break
        except (ConnectionError, asyncio.CancelledError, RuntimeError):
            pass
        finally:
            self.watchers.discard(watcher)
            self._hand_gone(watcher)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            self._invalidate()
        return ws

    async def _write(self, watcher: Watcher) -> None:
        """Send the latest state each time the game changed (never a backlog)."""
        ws = watcher.socket
        while not ws.closed:
            await watcher.dirty.wait()
            watcher.dirty.clear()
            try:
                await ws.send_str(self._pushed_state())
            except (ConnectionError, RuntimeError):
                return

    async def _answer(self, watcher: Watcher, text: str) -> None:
        """One message from a page: `{"id", "hands": {...}}` or `{"id", "control": {...}}`."""
        reply: dict[str, Any] = {"type": "reply", "id": None, "ok": True}
        try:
            data = parse_object(text)
            reply["id"] = data.get("id") if isinstance(data.get("id"), int | str) else None
            kinds = [key for key in ("hands", "control") if key in data]
            if len(kinds) != 1 or set(data) - {"id", "hands", "control"}:
                raise BadRequest("socket-shape")
            body = data[kinds[0]]
            if not isinstance(body, dict):
                raise BadRequest("socket-body", kind=kinds[0])
            if not watcher.control:
                raise Refused("watching-only", 403)
            await self._obey(body, hands=kinds[0] == "hands", watcher=watcher)
            # The board as it stands once it has answered, for the page to decide its next
            # click from (a state pushed meanwhile may still be on its way).
            reply["state"] = self.state()
        except RequestError as error:  # BadRequest, Refused
            reply = {"type": "error", "id": reply["id"], **error.answer()}
        with contextlib.suppress(ConnectionError, RuntimeError):
            await watcher.socket.send_json(reply)
