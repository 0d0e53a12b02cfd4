"""A two-player game typed at the terminal: the board without the board.

Two people at one keyboard type moves in any notation the engine reads; the
program refuses illegal moves and says why, draws the board after every move,
announces the end with its reason and saves the game as PDN. It reads from
and writes to plain streams, so tests drive it with strings.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine import Game, IllegalMoveError, Position, Variant
from engine.pdn_write import write_game
from host.records.journal import pdn_stem, unused_path
from host.voice.messages import COMMAND_WORDS, LANGUAGE_WORDS, PIECE_LETTERS, REASONS, SIDES, render
from host.voice.move_reasons import describe

TEXTS = {
    "en": {
        "prompt": "{side} to move> ",
        "capture": "Capture is mandatory: {moves}",
        "help": (
            "Type a move as the board's notation shows it ({example}), or:\n"
            "  moves   list the legal moves      undo   take back the last move\n"
            "  board   draw the board again      fen    show the position as FEN\n"
            "  resign  give up the game          draw   agree a draw\n"
            "  new     start a new game          quit   leave (the game is saved)\n"
            "  language pt   mensagens em português (Ctrl-C also leaves, saving the game)"
        ),
        "illegal": "Not legal: {why}",
        "no-undo": "There is no move to take back.",
        "undone": "Took back {move}.",
        "unknown": "Unknown command {word!r}; type help.",
        "saved": "Game saved to {path}",
        "bye": "Goodbye.",
        "draw-count": "{plies} plies left before the {rule} draw.",
        "over-prompt": "Game over ({result}). new, undo or quit> ",
        "over": "The game is over: new starts another, undo takes back the last move, quit leaves.",
        "language": "Messages in English.",
        "legend": "w = White, b = Black, capitals = kings",
    },
    "pt-BR": {
        "prompt": "Vez das {side}> ",
        "capture": "A captura é obrigatória: {moves}",
        "help": (
            "Digite um lance na notação do tabuleiro ({example}), ou:\n"
            "  lances    lista os lances legais    desfazer  volta o último lance\n"
            "  tabuleiro desenha o tabuleiro       fen       mostra a posição em FEN\n"
            "  abandonar desiste da partida        empate    empate por acordo\n"
            "  novo      começa outra partida      sair      sai (a partida é salva)\n"
            "  idioma en     messages in English (Ctrl-C também sai, salvando a partida)"
        ),
        "illegal": "Lance ilegal: {why}",
        "no-undo": "Não há lance para desfazer.",
        "undone": "Lance {move} desfeito.",
        "unknown": "Comando desconhecido {word!r}; digite ajuda.",
        "saved": "Partida salva em {path}",
        "bye": "Até logo.",
        "draw-count": "Faltam {plies} lances para o empate por {rule}.",
        "over-prompt": "Fim de jogo ({result}). novo, desfazer ou sair> ",
        "over": "O jogo acabou: novo começa outro, desfazer volta o último lance, sair sai.",
        "language": "Mensagens em português.",
        "legend": "b = brancas, p = pretas, maiúsculas = damas",
    },
}

def draw_board(position: Position, language: str = "en") -> str:
    """The board from White's side, with a square-number map beside it.

    Men are letters a reader of `language` expects (`w`/`b` in English, `b`/`p`
    for brancas/pretas in Portuguese), kings the same in capitals; the right-hand
    map shows the variant's numbering, because numeric notation is what players type.
    """
    letters = PIECE_LETTERS.get(language, PIECE_LETTERS["en"])
    variant = position.variant
    size = variant.size
    pieces = position.pieces()
    files = "abcdefghij"[:size]
    width = len(str(variant.num_squares))
    lines = ["    " + " ".join(files) + "     " + " ".join(f.rjust(width) for f in files)]
    for rank in range(size - 1, -1, -1):
        cells, numbers = [], []
        for file in range(size):
            square = variant.square_at(file, rank)
            if square is None:
                cells.append(" ")
                numbers.append(" " * width)
                continue
            piece = pieces.get(square)
            symbol = "." if piece is None else letters[piece.color]
            if piece is not None and piece.king:
                symbol = symbol.upper()
            cells.append(symbol)
            numbers.append(str(square).rjust(width))
        label = str(rank + 1).rjust(2)
        lines.append(f"{label}  {' '.join(cells)}   {label}  {' '.join(numbers)}")
    return "\n".join(lines)


class TerminalGame:
    """The read-eval-print loop of a typed game."""

    def __init__(self, variant: Variant, *, start: Position | None = None, language: str = "en",
                 games_dir: Path | None = None, stdin: TextIO, stdout: TextIO,
                 clock: Callable[[], _dt.datetime] = _dt.datetime.now) -> None:
        self.variant = variant
        self.start = start or variant.initial_position()
        self.language = language if language in TEXTS else "en"
        self.games_dir = games_dir
        self.stdin = stdin
        self.stdout = stdout
        self.clock = clock
        self.game = Game(variant, self.start)
        self.started = clock()
        self.result: str | None = None
        self._file: Path | None = None  # where this game was saved, rewritten as it goes on
        self._written = ""  # what was last written there

    # ------------------------------------------------------------------ output
    def say(self, key: str, **values: object) -> None:
        print(TEXTS[self.language][key].format(**values), file=self.stdout)

    def announce(self, kind: str, **values: object) -> None:
        print(render(self.language, kind, values), file=self.stdout)

    def show(self) -> None:
        print(file=self.stdout)
        print(draw_board(self.game.position, self.language), file=self.stdout)
        print(TEXTS[self.language]["legend"], file=self.stdout)
        legal = self.game.legal_moves()
        if legal and legal[0].is_capture:
            self.say("capture", moves=self._texts(legal))

    def _texts(self, moves) -> str:
        position = self.game.position
        return ", ".join(sorted(position.move_text(m) for m in moves))

    # -------------------------------------------------------------------- loop
    def run(self) -> int:
        """Until quit, end of input or Ctrl-C; the game is saved whichever way it ends."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            print(file=self.stdout)
            return self.finish()

    def _prompt(self) -> str:
        texts = TEXTS[self.language]
        if self.result is not None:
            return texts["over-prompt"].format(result=self.result)
        return texts["prompt"].format(side=SIDES[self.language][self.game.position.turn])

    def _loop(self) -> int:
        self.announce("new-game", variant=self.variant.name, side=self.game.position.turn)
        self.show()
        while True:
            print(self._prompt(), end="", file=self.stdout)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:  # end of input: leave as if "quit" was typed
                print(file=self.stdout)
                return self.finish()
            text = line.strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            action = COMMAND_WORDS.get(word.lower())
            if action == "quit":
                return self.finish()
            if action == "language":
                self.switch_language(rest.strip())
            elif action is not None:
                self.command(action)
            elif self.result is None:
                self.play(text)
            else:
                self.say("over")

    def switch_language(self, name: str) -> None:
        """`idioma en`, `language pt`; without a name, the other language."""
        if name:
            chosen = LANGUAGE_WORDS.get(name.lower())
            if chosen is None:
                self.say("unknown", word=name)
                return
        else:
            chosen = "en" if self.language == "pt-BR" else "pt-BR"
        self.language = chosen
        self.say("language")

    def play(self, text: str) -> None:
        position = self.game.position
        try:
            move = position.parse_move(text)
        except IllegalMoveError as error:
            self.say("illegal", why=describe(error, self.language))
            return
        self.game.push(move)
        self.announce("move", side=position.turn, move=position.move_text(move))
        self.show()
        outcome = self.game.outcome()
        if outcome is not None:
            self.result = outcome.result
            if outcome.winner is None:
                self.announce("draw", reason=outcome.reason)
            else:
                self.announce("win", side=outcome.winner, reason=outcome.reason)
            self.save()
            return
        for rule, plies in self.game.draw_counters().items():
            if plies is not None and plies <= 10:
                name = REASONS[self.language].get(rule, rule)
                self.say("draw-count", plies=plies, rule=name)

    def command(self, action: str) -> None:
        if action == "help":
            example = "c3-d4" if self.variant.notation == "algebraic" else "11-15"
            self.say("help", example=example)
        elif action == "moves":
            print(self._texts(self.game.legal_moves()), file=self.stdout)
        elif action == "board":
            self.show()
        elif action == "fen":
            print(self.game.fen(), file=self.stdout)
        elif action == "takeback":
            if not self.game.moves:
                self.say("no-undo")
                return
            move = self.game.pop()
            self.result = None
            self.say("undone", move=self.game.position.move_text(move))
            self.show()
        elif action == "resign" and self.result is None:
            loser = self.game.position.turn
            self.result = "0-1" if loser == "W" else "1-0"
            self.announce("resign", side=loser)
            self.save()
        elif action == "draw" and self.result is None:
            self.result = "1/2-1/2"
            self.announce("draw-agreed")
            self.save()
        elif action == "new":
            self.save()
            self.start = self.variant.initial_position()
            self.game = Game(self.variant, self.start)
            self.started = self.clock()
            self._file, self._written = None, ""
            self.result = None
            self.announce("new-game", variant=self.variant.name, side=self.game.position.turn)
            self.show()

    def finish(self) -> int:
        self.save()
        self.say("bye")
        return 0

    def save(self) -> Path | None:
        """Write the game as PDN: one file per game, rewritten only when the record
        changed (a game with no move is not saved)."""
        if self.games_dir is None or not self.game.moves:
            return None
        now = self.clock()
        text = write_game(
            self.variant,
            {"Event": "draughtsboard terminal game", "Date": now.strftime("%Y.%m.%d")},
            self.game.moves,
            self.result or "*",
            start_fen=None if self.start == self.variant.initial_position() else self.start.fen(),
        )
        if text == self._written:
            return None
        path = self._file or self._new_file(now)
        path.write_text(text, encoding="utf-8")
        self._file, self._written = path, text
        self.say("saved", path=path)
        return path

    def _new_file(self, now: _dt.datetime) -> Path:
        """A fresh file for this game, named as every saved game is.

        (`host.records.journal.pdn_stem`)
        """
        assert self.games_dir is not None
        return unused_path(self.games_dir, pdn_stem(self.started, self.variant.name))
