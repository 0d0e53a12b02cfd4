"""Why a typed move was refused, in Portuguese (Brazil) or English.

The engine raises `IllegalMoveError` with a `code` and `params`; this table
turns them into a sentence for the player, so the engine stays free of
presentation and a Brazilian club hears the reason in Portuguese.
"""

from __future__ import annotations

from engine import IllegalMoveError

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
}

def describe(error: IllegalMoveError, language: str) -> str:
    """The reason in `language`; the engine's English message otherwise."""
    template = REASONS.get(language, {}).get(error.code)
    if template is None:
        return str(error)
    try:
        return template.format(**error.params)
    except (KeyError, IndexError):
        return str(error)

