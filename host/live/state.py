"""The whole state of a live game as plain JSON: what every watcher reads.

One function, so the web page's sockets and `GET /api/state` describe the
game the same way (the club's MQTT messages have their own, smaller form:
host/broadcast/snapshot.py). Squares are the variant's own numbering; LED
roles are exactly those of `replay --leds`.
The first keys are the contract the page and the checks rely on
(docs/web.md); the rest help draw the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from engine import get_variant
from host.live.put_right import put_right_steps
from host.recognition.view import capturable, landed_capture
from host.records.journal import result_text
from host.session import Session
from host.voice.announce import Announcement
from host.voice.messages import VARIANT_NAMES, render


def hex_colour(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def game_state(session: Session) -> dict[str, Any]:
    """The state of `session`; its pieces (square -> "W", "B", "WK", "BK") are
    recognition's account of the board (`Session.pieces`)."""
    rec = session.recogniser
    game = session.game
    variant = session.variant
    hint = session.hint  # what the LEDs show: a board command's menu included
    language = session.language
    outcome = None
    if rec.outcome is not None:
        winner, reason = rec.outcome.winner, rec.outcome.reason
        kind = "draw" if winner is None else "win"
        outcome = {
            "result": result_text(winner, variant.name),
            "winner": winner,
            "reason": reason,
            "text": render(language, kind, {"side": winner or "", "reason": reason}),
        }
    return {
        # -- the contract -------------------------------------------------------------
        "variant": variant.name,
        "fen": game.fen(),
        "turn": game.position.turn,
        "occupied": sorted(session.sensed),
        "leds": {str(sq): role for sq, role in hint.roles.items()},
        "blink": sorted(hint.blink),
        "moves": session.move_texts(),
        "outcome": outcome,
        "announcements": [item.text for item in session.recent],
        # -- for drawing ----------------------------------------------------------------
        "announced": session.announced,
        "pieces": {str(sq): piece for sq, piece in session.pieces().items()},
        "size": variant.size,
        "squares": _squares(variant.name),
        "names": _names(variant.name),
        "variant_name": VARIANT_NAMES[language].get(variant.name, variant.name),
        "colours": {role: hex_colour(colour) for role, colour in session.config.colours.items()},
        "hints": session.hint_level,
        "language": language,
        "correcting": rec.correcting,
        # PDN tags a club's pairings give the game (host/broadcast): "White", "Black",
        # "Event", "Round"; {} without them
        "tags": dict(session.game_tags),
        # -- for each viewer's own language (rendered by the page, docs/web.md) ----------
        "said": [said(item) for item in session.recent],
        "mistake": session.mistake(),
        "underway": underway(session),
        "capturable": sorted(capturable(rec)),
        "put_right": put_right(session, session.pieces()) if rec.correcting else None,
        # both clocks (host/clock/keeper.py `GameClock.state`), None in an untimed game,
        # with the seconds at which low time is warned of
        "clock": clock_state(session),
    }


def clock_state(session: Session) -> dict[str, Any] | None:
    """The game's clocks as the session's last scan saw them (ms left; which runs; the
    time each move took), and the low-time marks; None for an untimed game."""
    state = session.game_clock.state(session._clock)
    if state is None:
        return None
    return {**state, "warnings": list(session.config.clock_warnings)}


@cache
def _squares(name: str) -> dict[str, list[int]]:
    """Square -> [file, rank] from White's seat (the same for every state of a variant)."""
    variant = get_variant(name)
    return {str(sq): list(variant.square_coords(sq)) for sq in range(1, variant.num_squares + 1)}


@cache
def _names(name: str) -> dict[str, str] | None:
    """Square -> its algebraic name, for the variants written that way (else None)."""
    variant = get_variant(name)
    if variant.notation != "algebraic":
        return None
    return {str(sq): variant.square_name(sq) for sq in range(1, variant.num_squares + 1)}


def said(item: Announcement) -> dict[str, Any]:
    """An announcement as its message key and parameters, as JSON (a path as its text;
    the position's FEN left out: no sentence uses it)."""
    return {"kind": item.kind, "params": {k: _plain(v) for k, v in item.params.items()
                                          if k != "fen"}}


def _plain(value: object) -> object:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)  # type: ignore[type-var]
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def underway(session: Session) -> dict[str, Any] | None:
    """A capture whose piece has landed, with captured pieces still to take off: its
    text and those squares (what the status says while the lights ask for them)."""
    landed = landed_capture(session.recogniser)
    if landed is None:
        return None
    move = landed.move
    return {"move": session.game.position.move_text(move), "from": move.origin,
            "to": move.destination, "remove": sorted(landed.left)}


def put_right(session: Session, pieces: Mapping[int, str]) -> list[dict[str, Any]]:
    """The hand actions that set the board as the game stands (host/live/put_right.py)."""
    variant = session.variant

    def distance(a: int, b: int) -> int:
        (fa, ra), (fb, rb) = variant.square_coords(a), variant.square_coords(b)
        return max(abs(fa - fb), abs(ra - rb))

    target = {
        sq: piece.color + ("K" if piece.king else "")
        for sq, piece in session.game.position.pieces().items()
    }  # forgotten captured pieces are not in it: they go off
    return put_right_steps(pieces, target, distance)
