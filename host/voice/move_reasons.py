"""Why a move was refused, in Portuguese (Brazil) or English.

The engine raises `IllegalMoveError` with a `code` and `params`; this table
turns them into a sentence for the player, so the engine stays free of
presentation and a Brazilian club hears the reason in Portuguese. The English
sentences are the engine's own, so a reason reads the same typed or on the board.

`board_mistake` finds the reason for a board: the one piece of a turn that was
put down where no legal move of it goes (the page shows it at once, the board
says it when it asks for the board to be put right).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import IllegalMoveError, Position
from engine.notation import explain

REASONS: dict[str, dict[str, str]] = {
    "pt-BR": {
        "no-piece": "não há peça em {square}",
        "opponent-piece": "a peça em {square} é do adversário",
        "no-legal-move": "não há lance legal",
        "capture-mandatory": "a captura é obrigatória: {moves}",
        "capture-most": "é obrigatório capturar o maior número de peças ({count}): {moves}",
        "occupied": "a casa {square} está ocupada",
        "cannot-move": "a peça em {square} não pode se mover",
        "wrong-destination": (
            "a peça em {square} não vai para {destination}; pode ir para {targets}"
        ),
        "ambiguous": "{move} é ambíguo: pode ser {options}",
        "not-legal": "{move} não é um lance legal aqui",
        "no-square": "{square} não é uma casa escura do tabuleiro",
        "unreadable": "não entendi o lance {move!r}",
    },
    # The engine's own sentences (engine/notation.py `explain`), for rendering a reason
    # kept as code and params (an announcement, the page) in English.
    "en": {
        "no-piece": "there is no piece on {square}",
        "opponent-piece": "{square} holds a {other} piece and it is {side}'s turn",
        "no-legal-move": "{side} has no legal move",
        "capture-mandatory": "capture is mandatory: {moves}",
        "capture-most": "capture is mandatory, taking the most pieces ({count}): {moves}",
        "occupied": "{square} is occupied",
        "cannot-move": "the piece on {square} cannot move",
        "wrong-destination": (
            "the piece on {square} cannot go to {destination}; it can go to {targets}"
        ),
        "ambiguous": "{move} is ambiguous: it could be {options}",
        "not-legal": "{move} is not a legal move here",
    },
}

#: what a side is called inside a reason
SIDE_WORDS = {"pt-BR": {"W": "Brancas", "B": "Pretas"}, "en": {"W": "White", "B": "Black"}}


def describe(error: IllegalMoveError, language: str) -> str:
    """The reason in `language`; the engine's English message otherwise."""
    if language == "en":
        return str(error)
    return reason_text(language, error.code, error.params) or str(error)


def reason_text(language: str, code: str | None, params: Mapping[str, object]) -> str | None:
    """The reason `code` with `params` in `language` (None if there is no sentence)."""
    template = REASONS.get(language, REASONS["en"]).get(code or "")
    if template is None:
        return None
    names = SIDE_WORDS.get(language, SIDE_WORDS["en"])
    values = dict(params)
    side = values.get("side")
    if isinstance(side, str) and side in names:
        values["side"] = names[side]
        values["other"] = names["B" if side == "W" else "W"]
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return None


def board_mistake(
    position: Position, expected: frozenset[int], board: frozenset[int]
) -> IllegalMoveError | None:
    """Why `board` is no move of `position` when one piece went where it cannot: one
    piece gone from its square and one square filled (pieces of the other side taken
    off besides, as for a capture), and no legal move from that square to that one.
    None when the board is no such slip (nothing moved, a legal move underway, several
    pieces astray: the lights then guide)."""
    extra = board - expected
    missing = expected - board
    if len(extra) != 1 or not missing:
        return None
    (destination,) = extra
    mover = position.turn
    own = [sq for sq in missing if (p := position.piece_at(sq)) is not None and p.color == mover]
    origin = own[0] if len(own) == 1 else (min(missing) if len(missing) == 1 else None)
    if origin is None:
        return None
    if any(m.origin == origin and m.destination == destination for m in position.legal_moves()):
        return None  # a legal move: the pieces taken off are the trouble, not the piece
    return explain(position, origin, destination)
