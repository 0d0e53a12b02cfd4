"""The whole state of a live game as plain JSON: what every watcher reads.

One function, so the web page's sockets and `GET /api/state` describe the
game the same way (the club's MQTT messages have their own, smaller form:
host/broadcast/snapshot.py). Squares are the variant's own numbering; LED
roles are exactly those of `replay --leds`.
The first keys are the contract the page and the checks rely on
(docs/web.md); the rest help draw the board.
"""

from __future__ import annotations

from typing import Any

from host.journal import result_text
from host.messages import VARIANT_NAMES, render
from host.session import Session


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
        "squares": {
            str(sq): list(variant.square_coords(sq)) for sq in range(1, variant.num_squares + 1)
        },
        "names": {
            str(sq): variant.square_name(sq) for sq in range(1, variant.num_squares + 1)
        }
        if variant.notation == "algebraic"
        else None,
        "variant_name": VARIANT_NAMES[language].get(variant.name, variant.name),
        "colours": {role: hex_colour(colour) for role, colour in session.config.colours.items()},
        "hints": session.hint_level,
        "language": language,
        "correcting": rec.correcting,
        # PDN tags a club's pairings give the game (host/broadcast): "White", "Black",
        # "Event", "Round"; {} without them
        "tags": dict(session.game_tags),
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
