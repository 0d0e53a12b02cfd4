"""Which of the game's controls make sense now, and why not when they do not.

One place decides it, for the page (its buttons are disabled, with the reason as a
tooltip) and for the API (`Runtime.control` refuses with the same reason): after the
end of a game, resigning, offering a draw and asking for a hint mean nothing; a take
back means something only where `Session.takeback_plies` finds plies to undo.

Reasons are keys of `host.voice.messages.REFUSALS`, rendered in each viewer's language.
"""

from __future__ import annotations

from host.session import Session

#: the controls whose sense depends on the game (a new game always makes sense)
CONTROLS = ("takeback", "resign", "draw", "hint")


def refusals(session: Session, *, computer: bool, computer_to_move: bool) -> dict[str, str | None]:
    """Control -> why it cannot be used now (a `REFUSALS` key), or None when it can.
    `computer`: a computer opponent exists here; `computer_to_move`: it is its turn."""
    rec = session.recogniser
    over = rec.outcome is not None
    takeback: str | None = None
    if not rec.game.moves:
        takeback = "no-moves"
    elif session.takeback_plies() == 0:
        takeback = "ended-by-agreement" if over else "computer-began"
    hint: str | None = None
    if not computer:
        hint = "no-computer"
    elif over:
        hint = "game-over"
    elif computer_to_move:
        hint = "computer-turn"
    return {
        "takeback": takeback,
        "resign": "game-over" if over else None,
        "draw": "game-over" if over else None,
        "hint": hint,
    }
