"""What the page (or any client) may ask, checked before anything changes.

The same rules serve `POST /api/hands`, `POST /api/control` and the WebSocket,
so a request is either understood completely or refused with one line saying
why, and a refused request changes nothing. Bodies are small JSON objects; a
body over `MAX_BODY` bytes is refused unread.
"""

from __future__ import annotations

import json
from typing import Any

from engine import VARIANTS
from host.clock.control import ClockError, parse_time_control
from host.config import HINT_LEVELS, LANGUAGES
from host.live.runtime import Control, Hands
from host.players import ALLOWED, PlayerError, parse_player
from host.recognition.codes import CODES as PIECES
from host.voice.request_errors import RequestError

#: the largest request body or socket message accepted (a real one is under 200 bytes)
MAX_BODY = 4096
COMMANDS = ("new", "takeback", "resign", "draw", "hints", "language", "hint", "pause", "resume")


class BadRequest(RequestError):
    """The request is malformed (HTTP 400): `code` and `params` say why
    (host/voice/request_errors.py); the message is the one-line English reason."""

    status = 400


def parse_object(raw: bytes | str) -> dict[str, Any]:
    """A JSON object from a body or a socket message."""
    if len(raw) > MAX_BODY:
        raise BadRequest("message-too-large", size=len(raw), max=MAX_BODY)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest("not-utf8") from None
    if not raw.strip():
        raise BadRequest("empty-body")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        detail = f"{error.msg} at column {error.colno}"
        raise BadRequest("not-json", detail=detail) from None
    except (RecursionError, ValueError):
        raise BadRequest("not-json", detail="too deep") from None
    if not isinstance(data, dict):
        raise BadRequest("not-object", type=type(data).__name__)
    return data


def _unknown(data: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed, key=str)
    if extra:
        names = ", ".join(sorted(allowed))
        raise BadRequest("unknown-field", field=_short(extra[0]), allowed=names)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_hands(data: dict[str, Any], squares: int) -> Hands:
    """`{"lift": SQ}` (optionally `"hold": true`: the piece stays in this page's hand),
    `{"place": SQ}` (optionally `"piece"`: what the hand puts down), or `{"drop": SQ}`
    (the hand let go of the piece it held from SQ off the board; no switch changes)."""
    actions = [key for key in ("lift", "place", "drop") if key in data]
    if len(actions) != 1:
        raise BadRequest("one-hand-action")
    action = actions[0]
    extra = {"lift": {"hold"}, "place": {"piece"}, "drop": set[str]()}[action]
    _unknown(data, {action, *extra})
    square = data[action]
    if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= squares:
        raise BadRequest("not-a-square", action=action, value=_short(square), squares=squares)
    piece = data.get("piece")
    if piece is not None and piece not in PIECES:
        raise BadRequest("bad-piece", allowed=", ".join(PIECES), value=_short(piece))
    hold = data.get("hold", False)
    if not isinstance(hold, bool):
        raise BadRequest("bad-hold", value=_short(hold))
    return Hands(action, square, piece, hold=hold)


def parse_control(data: dict[str, Any]) -> Control:
    """`{"command": "new"|"takeback"|"resign"|"draw", "variant": optional}` (a new game
    also `"players"`, `"fen"`, `"clock"`), `{"command": "pause"|"resume"}` (the clock),
    `{"command": "hints", "hints": LEVEL}`, `{"command": "language", "language": LANG}`."""
    command = data.get("command")
    if not isinstance(command, str) or command not in COMMANDS:
        raise BadRequest("bad-command", allowed=", ".join(COMMANDS), value=_short(command))
    variant = data.get("variant")  # meaningful for "new" only; tolerated (checked) on all
    if command == "new":
        _unknown(data, {"command", "variant", "players", "fen", "clock"})
        if variant is not None:
            _check_variant(variant)
        players = _check_players(data.get("players"))
        fen = data.get("fen")
        if fen is not None and (not isinstance(fen, str) or not 0 < len(fen) <= 400):
            raise BadRequest("bad-fen-text")
        return Control("new", variant=variant.lower() if variant else None, fen=fen,
                       players=players, clock=_check_clock(data.get("clock")))
    if variant is not None:
        _check_variant(variant)
    if command == "hints":
        _unknown(data, {"command", "hints", "variant"})
        level = data.get("hints")
        if level not in HINT_LEVELS:
            raise BadRequest("bad-hints", allowed=", ".join(HINT_LEVELS), value=_short(level))
        return Control("hints", value=level)
    if command == "language":
        _unknown(data, {"command", "language", "variant"})
        language = data.get("language")
        if language not in LANGUAGES:
            raise BadRequest("bad-language", allowed=", ".join(LANGUAGES),
                             value=_short(language))
        return Control("language", value=language)
    _unknown(data, {"command", "variant"})
    return Control(command)


def _check_clock(clock: object) -> str | None:
    """A time control for the new game: `"5+3"`, `"5+3/2+3"`, `"none"` (host/clock)."""
    if clock is None:
        return None
    if not isinstance(clock, str) or len(clock) > 40:
        raise BadRequest("bad-clock-type")
    try:
        control = parse_time_control(clock)
    except ClockError as error:
        raise BadRequest(error.code, **error.params) from None
    return "none" if control is None else control.text()


def _check_variant(variant: object) -> None:
    if not isinstance(variant, str) or variant.lower() not in VARIANTS:
        raise BadRequest("bad-variant", allowed=", ".join(VARIANTS), value=_short(variant))


def _check_players(players: object) -> dict[str, str] | None:
    """`{"W": "human", "B": "computer:3"}`: who plays each side (host/players.py)."""
    if players is None:
        return None
    if not isinstance(players, dict) or not set(players) <= {"W", "B"}:
        raise BadRequest("bad-players")
    chosen = {}
    for side, who in players.items():
        try:
            chosen[side] = parse_player(who)
        except PlayerError:
            raise BadRequest("bad-player", side=side, value=_short(who), allowed=ALLOWED) from None
    return chosen
