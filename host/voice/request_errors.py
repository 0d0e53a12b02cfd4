"""Why the host refuses what a page (or any client) asks, in Portuguese (Brazil) and English.

Every refusal the page's API and socket send is a `RequestError`: a stable `code` (a key
of `ERRORS`), the `params` its sentence needs, and the HTTP status that fits. The answer
carries all three beside the English sentence (`{"error", "code", "params"}`), so an API
user reads English and each page renders the code in its viewer's language from the same
table (`GET /api/words`, "errors"). This table is the one place each sentence is written;
the refusals of the game's controls (`REFUSALS`, also the state's `controls`) are part of
it under their own keys.

Placeholders are `{name}`, filled as the page's `fill` fills them (a name without a value
stays as written, so a template may show JSON); `{side}` ("W"/"B") and `{variant}` (a
variant's name) are translated as in announcements.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from host.voice.messages import REFUSALS, SIDES, VARIANT_NAMES

_OWN: dict[str, dict[str, str]] = {
    "pt-BR": {
        # a malformed request (400): a page never sends one, an API user may
        "message-too-large": "Mensagem grande demais ({size} bytes; no máximo {max}).",
        "body-too-large": "Pedido grande demais (no máximo {max} bytes).",
        "not-utf8": "O pedido não é texto UTF-8.",
        "empty-body": "Pedido vazio: envie um objeto JSON.",
        "not-json": "O pedido não é JSON válido ({detail}).",
        "not-object": "Esperava um objeto JSON, não {type}.",
        "unknown-field": "Campo desconhecido {field} (aceitos: {allowed}).",
        "one-hand-action": 'Envie exatamente um de {"lift": CASA}, {"place": CASA} '
        'ou {"drop": CASA}.',
        "not-a-square": "{action}: {value} não é uma casa deste tabuleiro (1..{squares}).",
        "bad-piece": "A peça deve ser uma de {allowed}, não {value}.",
        "bad-hold": "hold deve ser true ou false, não {value}.",
        "bad-command": "O comando deve ser um de {allowed}, não {value}.",
        "bad-variant": "A modalidade deve ser uma de {allowed}, não {value}.",
        "bad-hints": "O nível de dicas deve ser um de {allowed}, não {value}.",
        "bad-language": "O idioma deve ser um de {allowed}, não {value}.",
        "bad-players": 'Os jogadores se escrevem assim: {"W": "human", "B": "computer:3"}.',
        "bad-player": "{side}: {value} não é um jogador ({allowed}).",
        "bad-fen-text": 'A posição deve estar em FEN do PDN, por exemplo "W:W31,32:B1,2".',
        "bad-fen": "Posição inválida: {detail}",
        "bad-clock-type": 'O relógio deve ser um controle de tempo como "5+3", ou "none".',
        "socket-shape": 'Envie {"hands": {...}} ou {"control": {...}}, com "id" opcional.',
        "socket-body": "{kind} deve ser um objeto JSON.",
        "binary-message": "Envie texto JSON, não dados binários.",
        "unknown-command": "Comando desconhecido: {command}.",
        # a new game's clock, typed in the dialog (host/clock/control.py)
        "clock-too-many": "O relógio '{clock}' não vale: escreva minutos+incremento, no "
        "máximo dois, o das Brancas e depois o das Pretas (5+3/2+3).",
        "clock-format": "O relógio '{clock}' não vale: escreva os minutos, + e os segundos "
        "somados a cada lance, como 5+3, 90+30 ou 0.5+1.",
        "clock-not-finite": "O relógio '{clock}' não vale: escreva minutos+incremento com "
        "números finitos, como 5+3.",
        "clock-main": "O relógio '{clock}' não vale: em minutos+incremento, o tempo "
        "principal vai de mais de 0 a {max} minutos.",
        "clock-increment": "O relógio '{clock}' não vale: em minutos+incremento, o "
        "incremento vai de 0 a {max} segundos.",
        # who may control (403)
        "watching-only": "Só assistindo: os controles pedem o código mostrado quando o "
        "tabuleiro foi ligado.",
        "token-needed": "Este controle pede o código mostrado quando o tabuleiro foi ligado.",
        "local-only": "Os controles só são aceitos deste computador (ligue o tabuleiro com "
        "um código para permitir outros).",
        "other-site": "Pedidos de outro site são recusados.",
        # impossible here and now (409)
        "real-board": "Este é um tabuleiro real: mova as peças com a mão (mãos simuladas "
        "são recusadas).",
        "no-piece-to-lift": "Não há peça na casa {square} para levantar.",
        "square-occupied": "A casa {square} já tem uma peça.",
        "board-size": "Este tabuleiro é {size}x{size}; {variant} pedem um tabuleiro "
        "{needs}x{needs}.",
        "no-clock": "Esta partida não tem relógio.",
        "no-computer-opponent": "Não há computador aqui para jogar.",
        "not-now": "Não foi possível: {detail}",
        # downloads (404)
        "no-such-file": "Arquivo não encontrado: {name}.",
        "no-such-game": "Partida não encontrada.",
    },
    "en": {
        "message-too-large": "message too large ({size} bytes; at most {max})",
        "body-too-large": "body too large (at most {max} bytes)",
        "not-utf8": "body is not UTF-8 text",
        "empty-body": "empty body: send a JSON object",
        "not-json": "body is not valid JSON ({detail})",
        "not-object": "expected a JSON object, not {type}",
        "unknown-field": "unknown field {field} (allowed: {allowed})",
        "one-hand-action": 'send exactly one of {"lift": SQUARE}, {"place": SQUARE} '
        'or {"drop": SQUARE}',
        "not-a-square": "{action}: {value} is not a square of this board (1..{squares})",
        "bad-piece": "piece must be one of {allowed}, not {value}",
        "bad-hold": "hold must be true or false, not {value}",
        "bad-command": "command must be one of {allowed}, not {value}",
        "bad-variant": "variant must be one of {allowed}, not {value}",
        "bad-hints": "hints must be one of {allowed}, not {value}",
        "bad-language": "language must be one of {allowed}, not {value}",
        "bad-players": 'players must look like {"W": "human", "B": "computer:3"}',
        "bad-player": "{side}: {value} is not a player ({allowed})",
        "bad-fen-text": 'fen must be a position in PDN FEN, e.g. "W:W31,32:B1,2"',
        "bad-fen": "bad fen: {detail}",
        "bad-clock-type": 'clock must be a time control like "5+3" or "none"',
        "socket-shape": 'send {"hands": {...}} or {"control": {...}}, optional "id"',
        "socket-body": "{kind} must be a JSON object",
        "binary-message": "send JSON text, not binary",
        "unknown-command": "unknown command {command}",
        "clock-too-many": "clock '{clock}' is not a time control: write minutes+increment, "
        "at most two of them, White's then Black's (5+3/2+3)",
        "clock-format": "clock '{clock}' is not a time control: write minutes+increment "
        "like 5+3, 90+30 or 0.5+1 (the minutes, then + and the seconds added per move)",
        "clock-not-finite": "clock '{clock}' is not a time control: write minutes+increment "
        "in finite numbers, like 5+3",
        "clock-main": "clock '{clock}' is not a time control: in minutes+increment the main "
        "time is above 0 and at most {max} minutes",
        "clock-increment": "clock '{clock}' is not a time control: in minutes+increment the "
        "increment goes from 0 to {max} seconds",
        "watching-only": "watching only: controls need the token shown at start-up",
        "token-needed": "this control needs the token shown when the board was started",
        "local-only": "controls are only accepted from this computer (start with a token "
        "to allow others)",
        "other-site": "requests from another site are refused",
        "real-board": "this is a real board: move its pieces by hand (simulated hands are "
        "refused)",
        "no-piece-to-lift": "no piece on square {square} to lift",
        "square-occupied": "square {square} already holds a piece",
        "board-size": "this board is {size}x{size}; {variant} needs a {needs}x{needs} board",
        "no-clock": "this game has no clock",
        "no-computer-opponent": "there is no computer opponent here",
        "not-now": "cannot: {detail}",
        "no-such-file": "no such file {name}",
        "no-such-game": "no such game",
    },
}

#: code -> sentence, per language: the refusals of the controls and the host's own
ERRORS: dict[str, dict[str, str]] = {
    language: {**REFUSALS[language], **_OWN[language]} for language in _OWN
}

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def error_text(code: str, params: Mapping[str, object], language: str = "en") -> str:
    """The sentence for `code` in `language` (English for an unknown language; the code
    itself for an unknown code), filled as the page fills it."""
    table = ERRORS.get(language, ERRORS["en"])
    values = {key: str(value) for key, value in params.items()}
    side = params.get("side")
    if isinstance(side, str) and side in SIDES.get(language, {}):
        values["side"] = SIDES[language][side]
    variant = params.get("variant")
    if isinstance(variant, str):
        values["variant"] = VARIANT_NAMES.get(language, VARIANT_NAMES["en"]).get(variant, variant)
    template = table.get(code, code)
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


class RequestError(Exception):
    """A request the host refuses: `code` (a key of `ERRORS`), `params` for its sentence,
    `status` the HTTP status that fits. `str()` is the English sentence."""

    status = 409

    def __init__(self, code: str, status: int | None = None, /, **params: object) -> None:
        super().__init__(error_text(code, params))
        self.code = code
        self.params = params
        if status is not None:
            self.status = status

    def answer(self) -> dict[str, object]:
        """The JSON an HTTP answer or a socket error carries."""
        return {"error": str(self), "code": self.code, "params": self.params}
