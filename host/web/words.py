"""What a page fetches once or on demand, beside the live state: the host's sentences
(so each page renders what the board says in its viewer's language) and the game's
positions (so a viewer can look back at any move).

Announcements travel as a message key and its parameters (`said` in the state);
these tables are the one source of their words, the same ones the board speaks.
"""

from __future__ import annotations

from typing import Any

from engine import Game
from host.voice.messages import (
    MESSAGES,
    MOVE_WORDS,
    REASONS,
    REFUSALS,
    SIDES,
    TIME_WORDS,
    VARIANT_NAMES,
)
from host.voice.move_reasons import REASONS as MOVE_REASONS
from host.voice.request_errors import ERRORS


def page_words() -> dict[str, Any]:
    """Every table `host.voice.messages.render` reads, by name, and why the host refuses
    a request (`errors`, host/voice/request_errors.py)."""
    return {
        "messages": MESSAGES,
        "refusals": REFUSALS,
        "sides": SIDES,
        "variants": VARIANT_NAMES,
        "reasons": REASONS,
        "move_words": MOVE_WORDS,
        "time_words": TIME_WORDS,
        "move_reasons": MOVE_REASONS,
        "errors": ERRORS,
    }


def game_history(game: Game) -> dict[str, Any]:
    """The position before the first move and after each one: the pieces (square ->
    "W", "B", "WK", "BK"), whose turn, and the move that led there ([from, to])."""
    positions = []
    for ply, position in enumerate(game.positions):
        move = game.moves[ply - 1] if ply else None
        positions.append({
            "pieces": {
                str(sq): piece.color + ("K" if piece.king else "")
                for sq, piece in position.pieces().items()
            },
            "turn": position.turn,
            "last": [move.origin, move.destination] if move is not None else None,
        })
    return {"variant": game.variant.name, "positions": positions}
