"""What the board says, in Portuguese (Brazil) and English.

Texts are keyed by announcement kind so the console, speech and the future web
page all say the same thing; `{placeholders}` are filled from the event.
"""

from __future__ import annotations

from host.voice.move_reasons import reason_text

MESSAGES: dict[str, dict[str, str]] = {
    "pt-BR": {
        "move": "Lance das {side}: {move}.",
        "move-corrected": "Lance corrigido. As {side} jogaram {move}.",
        "check-colours": "Confira as cores das peças nas casas que piscam.",
        "capture-mandatory": "A captura é obrigatória.",
        "illegal-board": "Tabuleiro incorreto. Corrija as casas acesas.",
        "illegal-move": "Tabuleiro incorreto: {why}. Corrija as casas acesas.",
        "board-ok": "Tabuleiro correto. O jogo continua.",
        "crown": "Coroe a pedra em {square}: ponha uma dama.",
        "crown-confirmed": "Dama confirmada em {square}.",
        "win": "Vitória das {side}: {reason}.",
        "draw": "Empate: {reason}.",
        "takeback": "Lance {move} desfeito.",
        "new-game": "Novo jogo de {variant}. Começam as {side}.",
        "resign": "As {side} abandonaram a partida.",
        "draw-agreed": "Empate por acordo.",
        "disconnected": "Tabuleiro desconectado.",
        "reconnected": "Tabuleiro reconectado.",
        "waiting-for-board": "Aguardando o tabuleiro: conecte-o. O jogo começa quando ele "
        "estiver pronto.",
        "board-found": "Tabuleiro pronto. Bom jogo!",
        "storage-failed": "Não consigo gravar a partida no cartão. O jogo continua na "
        "memória; veja o registro.",
        "storage-ok": "A partida volta a ser gravada no cartão.",
        "resume-offer": "Jogo interrompido de {variant} encontrado ({moves}). "
        "Arrume as casas acesas para continuar.",
        "unfinished-saved": "O jogo interrompido de {variant} ({moves}) foi guardado "
        "sem resultado. Começa um jogo novo.",
        "resume-found": "Jogo interrompido de {variant} encontrado ({moves}).",
        "resumed": "Jogo retomado. Vez das {side}.",
        "nothing-to-take-back": "Não há lance para desfazer.",
        "no-move-of-yours": "Não há lance seu para desfazer: o computador começou.",
        "takeback-after-end": "A partida terminou por {reason}: comece um jogo novo.",
        "game-saved": "Partida salva em {path}.",
        "menu": "Comandos: leve a peça extra a uma casa acesa; retire-a para cancelar.",
        "menu-closed": "Comandos fechados.",
        "draw-offer": "As {side} propõem empate. As {other} aceitam escolhendo empate também.",
        "level": "Computador no nível {level}.",
        "level-off": "Dois jogadores, sem computador.",
        "variant-chosen": "Variante escolhida: {variant}.",
        "computer-move": "O computador joga {move} pelas {side}. Faça o lance aceso.",
        "computer-move-again": "Esse não é o lance do computador. Volte a posição e jogue {move}.",
        "hint": "Dica: {move}.",
        "hint-refused": "Sem dica: é a vez do computador. Faça o lance aceso, {move}.",
        "hint-refused-thinking": "Sem dica: o computador está pensando no lance dele.",
        "flag": "Acabou o tempo das {side}.",
        "draw-on-time": "Empate: acabou o tempo, mas o adversário não podia mais vencer.",
        "clock-warning": "{side}: {time} no relógio.",
        "clock-paused": "Relógio parado.",
        "clock-resumed": "O relógio volta a correr.",
        "draw-offer-computer": "As {side} propõem empate ao computador.",
        "computer-draw-accepted": "O computador aceita o empate.",
        "computer-draw-declined": "O computador recusa o empate: não está pior, e ainda há "
        "jogo.",
        "computer-draw-declined-better": "O computador recusa o empate: está melhor.",
        "computer-draw-declined-opening": "O computador recusa o empate: ainda é a abertura "
        "(os primeiros {moves} de cada lado).",
    },
    "en": {
        "move": "{side} played {move}.",
        "move-corrected": "Move corrected: {side} played {move}.",
        "check-colours": "Check the colours of the pieces on the blinking squares.",
        "capture-mandatory": "Capture is mandatory.",
        "illegal-board": "The board is wrong. Put the lit squares right.",
        "illegal-move": "The board is wrong: {why}. Put the lit squares right.",
        "board-ok": "The board is right again. Play on.",
        "crown": "Crown the piece on {square}: stack a king.",
        "crown-confirmed": "King confirmed on {square}.",
        "win": "{side} wins: {reason}.",
        "draw": "Draw: {reason}.",
        "takeback": "Move {move} taken back.",
        "new-game": "New {variant} game. {side} to move.",
        "resign": "{side} resigns.",
        "draw-agreed": "Draw agreed.",
        "disconnected": "Board disconnected.",
        "reconnected": "Board reconnected.",
        "waiting-for-board": "Waiting for the board: plug it in. Play starts when it is "
        "ready.",
        "board-found": "The board is ready. Play on.",
        "storage-failed": "Cannot write the game to the card. Play goes on in memory; "
        "see the log.",
        "storage-ok": "The game is written to the card again.",
        "resume-offer": "An unfinished game of {variant} was found ({moves}). "
        "Put the lit squares right to continue.",
        "unfinished-saved": "The unfinished game of {variant} ({moves}) was saved "
        "without a result. A new game begins.",
        "resume-found": "An unfinished game of {variant} was found ({moves}).",
        "resumed": "Game resumed. {side} to move.",
        "nothing-to-take-back": "There is no move to take back.",
        "no-move-of-yours": "There is no move of yours to take back: the computer began.",
        "takeback-after-end": "The game ended by {reason}: start a new game.",
        "game-saved": "Game saved to {path}.",
        "menu": "Board commands: move the spare piece onto a lit square; take it off to cancel.",
        "menu-closed": "Board commands closed.",
        "draw-offer": "{side} offers a draw. {other} accepts by choosing draw too.",
        "level": "Computer at level {level}.",
        "level-off": "Two players, no computer.",
        "variant-chosen": "Variant chosen: {variant}.",
        "computer-move": "The computer plays {move} for {side}. Carry out the lit move.",
        "computer-move-again": "That is not the computer's move. Put the position back and "
        "play {move}.",
        "hint": "Hint: {move}.",
        "hint-refused": "No hint: it is the computer's turn. Carry out its lit move, {move}.",
        "hint-refused-thinking": "No hint: the computer is thinking about its move.",
        "flag": "{side}'s time is up.",
        "draw-on-time": "Draw: out of time, but the opponent could no longer win.",
        "clock-warning": "{side}: {time} left.",
        "clock-paused": "Clock stopped.",
        "clock-resumed": "The clock runs again.",
        "draw-offer-computer": "{side} offers the computer a draw.",
        "computer-draw-accepted": "The computer accepts the draw.",
        "computer-draw-declined": "The computer declines the draw: it does not stand worse, "
        "and there is still a game to play.",
        "computer-draw-declined-better": "The computer declines the draw: it stands better.",
        "computer-draw-declined-opening": "The computer declines the draw: it is still the "
        "opening (the first {moves} of each side).",
    },
}

#: why a control of the page cannot be used now (host/live/controls.py)
REFUSALS: dict[str, dict[str, str]] = {
    "pt-BR": {
        "game-over": "A partida terminou.",
        "no-moves": "Ainda não há lance para desfazer.",
        "computer-began": "Não há lance seu para desfazer: o computador começou.",
        "ended-by-agreement": "Um abandono ou um empate combinado não se desfaz: "
        "comece um jogo novo.",
        "no-computer": "Não há computador aqui para dar dicas.",
        "computer-turn": "É a vez do computador.",
    },
    "en": {
        "game-over": "The game is over.",
        "no-moves": "There is no move to take back yet.",
        "computer-began": "There is no move of yours to take back: the computer began.",
        "ended-by-agreement": "A resignation or an agreed draw is not taken back: "
        "start a new game.",
        "no-computer": "There is no computer here to give hints.",
        "computer-turn": "It is the computer's turn.",
    },
}

#: what `run` prints on its console at start-up (not announcements: never spoken)
CONSOLE: dict[str, dict[str, str]] = {
    "pt-BR": {
        "page": "Página do tabuleiro: {url}",
        "token": "Os controles pedem o código {token} (o endereço acima já o leva).",
        "commands": "Comandos: {words} (em inglês: {other})",
    },
    "en": {
        "page": "The board's page: {url}",
        "token": "Controls need the token {token} (the address above carries it).",
        "commands": "Commands: {words} (in Portuguese: {other})",
    },
}


def console_line(language: str, kind: str, **params: object) -> str:
    """A start-up line for the console in `language` (English for an unknown one)."""
    return CONSOLE.get(language, CONSOLE["en"])[kind].format(**params)


#: typed command words in either language -> action (the terminal game and `run`'s console)
COMMAND_WORDS: dict[str, str] = {
    "help": "help", "ajuda": "help", "?": "help",
    "moves": "moves", "lances": "moves",
    "takeback": "takeback", "undo": "takeback", "desfazer": "takeback", "voltar": "takeback",
    "board": "board", "tabuleiro": "board",
    "fen": "fen",
    "resign": "resign", "desistir": "resign", "abandonar": "resign",
    "draw": "draw", "empate": "draw",
    "new": "new", "novo": "new", "nova": "new",
    "quit": "quit", "exit": "quit", "sair": "quit",
    "language": "language", "idioma": "language", "língua": "language", "lingua": "language",
}  # fmt: skip

#: what a language is called when switching to it (`idioma en`, `language pt`)
LANGUAGE_WORDS: dict[str, str] = {
    "en": "en", "english": "en", "inglês": "en", "ingles": "en",
    "pt": "pt-BR", "pt-br": "pt-BR", "português": "pt-BR", "portugues": "pt-BR",
    "portuguese": "pt-BR",
}  # fmt: skip

#: letters for men (kings in capitals) where the board is drawn as text: what a reader
#: of the language expects (in Portuguese "b" is brancas, White, and "p" pretas, Black)
PIECE_LETTERS = {"pt-BR": {"W": "b", "B": "p"}, "en": {"W": "w", "B": "b"}}

SIDES = {"pt-BR": {"W": "Brancas", "B": "Pretas"}, "en": {"W": "White", "B": "Black"}}

VARIANT_NAMES = {
    "pt-BR": {
        "brazilian": "damas brasileiras",
        "international": "damas internacionais",
        "russian": "damas russas",
        "portuguese": "damas portuguesas",
        "spanish": "damas espanholas",
        "italian": "damas italianas",
        "english": "damas inglesas (checkers)",
        "pool": "pool checkers",
    },
    "en": {
        "brazilian": "Brazilian draughts",
        "international": "international draughts",
        "russian": "Russian draughts",
        "portuguese": "Portuguese draughts",
        "spanish": "Spanish draughts",
        "italian": "Italian draughts",
        "english": "checkers (English draughts)",
        "pool": "pool checkers",
    },
}

REASONS = {
    "pt-BR": {
        "no-pieces": "o adversário não tem peças",
        "no-moves": "o adversário não tem lances",
        "threefold-repetition": "tripla repetição",
        "no-progress": "lances sem progresso",
        "endgame-limit": "limite de lances do final",
        "resignation": "abandono",
        "agreement": "acordo",
        "time": "tempo esgotado",
    },
    "en": {
        "no-pieces": "the opponent has no pieces left",
        "no-moves": "the opponent has no moves",
        "threefold-repetition": "threefold repetition",
        "no-progress": "too many moves without progress",
        "endgame-limit": "endgame move limit",
        "resignation": "resignation",
        "agreement": "agreement",
        "time": "the opponent ran out of time",
    },
}


#: the words for minutes and seconds, one and many ("{time}" from a count of seconds)
TIME_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "pt-BR": (("minuto", "minutos"), ("segundo", "segundos")),
    "en": (("minute", "minutes"), ("second", "seconds")),
}


def spoken_time(language: str, seconds: float) -> str:
    """`90` as "1 minute 30 seconds" ("1 minuto 30 segundos"), whole seconds."""
    (minute, minutes), (second, secs) = TIME_WORDS.get(language, TIME_WORDS["en"])
    whole = int(round(seconds))
    m, s = divmod(whole, 60)
    parts = []
    if m:
        parts.append(f"{m} {minute if m == 1 else minutes}")
    if s or not m:
        parts.append(f"{s} {second if s == 1 else secs}")
    return " ".join(parts)


#: the word for a game's moves, one and many ("{moves}" in a sentence is a count)
MOVE_WORDS: dict[str, tuple[str, str]] = {"pt-BR": ("lance", "lances"), "en": ("move", "moves")}


def render(language: str, kind: str, params: dict[str, object]) -> str:
    """The sentence for `kind` in `language`, with sides and reasons translated."""
    table = MESSAGES.get(language, MESSAGES["en"])
    values = dict(params)
    for key in ("side", "other"):
        side = values.get(key)
        if isinstance(side, str) and side in SIDES[language]:
            values[key] = SIDES[language][side]
    variant = values.get("variant")
    if isinstance(variant, str):
        values["variant"] = VARIANT_NAMES[language].get(variant, variant)
    reason = values.get("reason")
    if isinstance(reason, str):
        values["reason"] = REASONS[language].get(reason, reason)
    why = values.get("why")
    if isinstance(why, dict):  # a move refused, kept as its code and params
        values["why"] = reason_text(language, why.get("code"), why.get("params") or {}) or ""
    seconds = values.get("seconds")
    if isinstance(seconds, int | float) and "time" not in values:
        values["time"] = spoken_time(language, seconds)
    count = values.get("moves")
    if isinstance(count, int):  # a count of a game's moves: "1 move", "12 lances"
        one, many = MOVE_WORDS.get(language, MOVE_WORDS["en"])
        values["moves"] = f"{count} {one if count == 1 else many}"
    template = table.get(kind, kind)
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template
