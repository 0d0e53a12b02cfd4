"""The review's routes on the board's page server (docs/web.md, "Review a game").

    GET  /review                       the review page (host/web/static/review.html)
    GET  /api/review/games             saved and uploaded games, newest first
    GET  /api/review/current           the id of the game just finished (409 while it goes on)
    GET  /api/review/game?id=&number=  a game to review: every position, every move, and
                                       its analysis as it stands (queued if not made yet)
    GET  /api/review/analysis?id=&number=   the analysis alone (the page polls it)
    POST /api/review/upload            a PDN file (the body, at most 1 MiB): kept for
                                       review; answers its id and its games

Watching is enough to review (a review changes nothing on the board); an upload
writes to the games folder, so it needs what a control needs (the token, or this
computer when there is none). The analysis runs in a low-priority worker that pauses
while the game on the board needs the machine (`game_busy`); every update of the
session nudges it, and every game that ends is queued for analysis in the background,
so its review is ready when someone opens it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from host.live.bus import Update
from host.live.runtime import Runtime
from host.live.state import hex_colour
from host.review import games
from host.review.games import MAX_UPLOAD, ReviewError, ReviewGame
from host.review.service import ReviewService
from host.voice.messages import VARIANT_NAMES
from host.web.static_files import SECURITY_HEADERS


def game_busy(runtime: Runtime) -> bool:
    """Whether the game on the board needs the machine now: the computer opponent is
    thinking, or a piece is off its square (a move is being made, or the board put
    right)."""
    computer = runtime.computer
    if computer is not None and computer.thinking:
        return True
    recogniser = runtime.session.recogniser
    return recogniser.sensed != recogniser.expected


class ReviewRoutes:
    """The review pages and API for one runtime's games folder."""

    def __init__(self, runtime: Runtime, refusal: Callable[[web.Request], str | None],
                 service: ReviewService | None = None) -> None:
        self.runtime = runtime
        self.refusal = refusal
        self.service = service or ReviewService(lambda: game_busy(runtime))
        self._unsubscribe = runtime.subscribe(self._changed)

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/api/review/games", self.get_games)
        app.router.add_get("/api/review/current", self.get_current)
        app.router.add_get("/api/review/game", self.get_game)
        app.router.add_get("/api/review/analysis", self.get_analysis)
        app.router.add_post("/api/review/upload", self.post_upload)

    async def close(self) -> None:
        self._unsubscribe()
        await self.service.close()

    @property
    def folder(self) -> Any:
        return self.runtime.session.config.games_dir

    # -- following the game -----------------------------------------------------------

    def _changed(self, update: Update) -> None:
        self.service.nudge()
        if update.kind == "outcome":
            asyncio.get_running_loop().call_soon(self._queue_finished)

    def _queue_finished(self) -> None:
        """The game just ended (and was saved): analyse it in the background."""
        session = self.runtime.session
        if not session.game.moves:
            return
        try:
            review_id = games.current_id(self.folder, session.game, session.started)
            self.service.request(games.load(self.folder, review_id), urgent=False)
        except ReviewError:
            pass  # not saved (the folder cannot be written): nothing to keep it beside

    # -- routes -----------------------------------------------------------------------

    async def get_games(self, request: web.Request) -> web.Response:
        found = await asyncio.to_thread(games.listing, self.folder)
        return web.json_response({"games": found, "variant_names": VARIANT_NAMES},
                                 headers=SECURITY_HEADERS)

    async def get_current(self, request: web.Request) -> web.Response:
        session = self.runtime.session
        if session.recogniser.outcome is None:
            return _error(ReviewError("the game is still being played: review it when it ends",
                                      409, "still-playing"))
        if not session.game.moves:
            return _error(ReviewError("the game has no moves to review", 409, "no-moves"))
        try:
            review_id = games.current_id(self.folder, session.game, session.started)
        except ReviewError as error:
            return _error(error)
        return web.json_response({"id": review_id, "number": 1}, headers=SECURITY_HEADERS)

    async def get_game(self, request: web.Request) -> web.Response:
        try:
            review = await self._review(request)
        except ReviewError as error:
            return _error(error)
        job = self.service.request(review)
        colours = {role: hex_colour(colour)
                   for role, colour in self.runtime.session.config.colours.items()}
        body = {"game": games.game_json(review, colours), "analysis": self.service.report(job)}
        return web.json_response(body, headers=SECURITY_HEADERS)

    async def get_analysis(self, request: web.Request) -> web.Response:
        try:
            review = await self._review(request)
        except ReviewError as error:
            return _error(error)
        return web.json_response(self.service.report(self.service.request(review)),
                                 headers=SECURITY_HEADERS)

    async def post_upload(self, request: web.Request) -> web.Response:
        refusal = self.refusal(request)
        if refusal is not None:
            return _error(ReviewError(refusal, 403, "forbidden", refusal))
        try:
            data = await _read_limited(request, MAX_UPLOAD)
            review_id, found = await asyncio.to_thread(games.accept_upload, self.folder, data)
        except ReviewError as error:
            return _error(error)
        except OSError as error:
            return _error(ReviewError(f"cannot keep the file: {error.strerror}", 507,
                                      "cannot-keep", str(error.strerror)))
        return web.json_response({"id": review_id, "games": found}, headers=SECURITY_HEADERS)

    async def _review(self, request: web.Request) -> ReviewGame:
        review_id = request.query.get("id", "")
        try:
            number = int(request.query.get("number", "1"))
        except ValueError:
            raise ReviewError("number must be a game's number in its file (1, 2, ...)") from None
        return await asyncio.to_thread(games.load, self.folder, review_id, number)


async def _read_limited(request: web.Request, limit: int) -> bytes:
    """The request's body, refused (413) as soon as it passes `limit` bytes."""
    if request.content_length is not None and request.content_length > limit:
        raise ReviewError(f"the file is too large ({request.content_length} bytes; "
                          f"at most {limit})", 413, "too-large")
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await request.content.read(64 * 1024)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise ReviewError(f"the file is too large (over {limit} bytes)", 413, "too-large")
        chunks.append(chunk)


def _error(error: ReviewError) -> web.Response:
    """`{"error": one line, "code": its kind, "detail": the engine's own words}`: the page
    says the kind in the viewer's language, with the detail."""
    return web.json_response({"error": str(error), "code": error.code, "detail": error.detail},
                             status=error.status, headers=SECURITY_HEADERS)
