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
from host.messages import REASONS, SIDES, render
from host.move_reasons import describe

TEXTS = {
    "en": {
        "prompt": "{side} to move> ",
        "capture": "Capture is mandatory: {moves}",
        "help": (
            "Type a move as the board's notation shows it ({example}), or:\n"
            "  moves   list the legal moves      undo   take back the last move\n"
            "  board   draw the board again      fen    show the position as FEN\n"
            "  resign  give up the game          draw   agree a draw\n"
            "  new     start a new game          quit   leave (the game is saved)"
        ),
        "illegal": "Not legal: {why}",
        "no-undo": "There is no move to take back.",
        "undone": "Took back {move}.",
        "unknown": "Unknown command {word!r}; type help.",
        "saved": "Game saved to {path}",
        "bye": "Goodbye.",
        "draw-count": "{plies} plies left before the {rule} draw.",
    },
    "pt-BR": {
        "prompt": "Vez das {side}> ",
        "capture": "A captura é obrigatória: {moves}",
        "help": (
            "Digite um lance na notação do tabuleiro ({example}), ou:\n"
            "  lances    lista os lances legais    desfazer  volta o último lance\n"
            "  tabuleiro desenha o tabuleiro       fen       mostra a posição em FEN\n"
            "  abandonar desiste da partida        empate    empate por acordo\n"
            "  novo      começa outra partida      sair      sai (a partida é salva)"
        ),
        "illegal": "Lance ilegal: {why}",
        "no-undo": "Não há lance para desfazer.",
        "undone": "Lance {move} desfeito.",
        "unknown": "Comando desconhecido {word!r}; digite ajuda.",
        "saved": "Partida salva em {path}",
        "bye": "Até logo.",
        "draw-count": "Faltam {plies} lances para o empate por {rule}.",
    },
}

# command words in either language -> action
COMMANDS = {
    "help": "help", "ajuda": "help", "?": "help",
    "moves": "moves", "lances": "moves",
    "undo": "undo", "desfazer": "undo", "takeback": "undo",
    "board": "board", "tabuleiro": "board",
    "fen": "fen",
    "resign": "resign", "abandonar": "resign",
    "draw": "draw", "empate": "draw",
    "new": "new", "novo": "new",
    "quit": "quit", "exit": "quit", "sair": "quit",
}


def draw_board(position: Position) -> str:
    """The board from White's side, with a square-number map beside it.

    `w`/`b` are men, `W`/`B` kings; the right-hand map shows the variant's
    numbering, because numeric notation is what players type.
    """
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
            symbol = "." if piece is None else piece.color.lower()
            if piece is not None and piece.king:
                symbol = piece.color
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
        print(draw_board(self.game.position), file=self.stdout)
        legal = self.game.legal_moves()
        if legal and legal[0].is_capture:
            self.say("capture", moves=self._texts(legal))

    def _texts(self, moves) -> str:
        position = self.game.position
        return ", ".join(sorted(position.move_text(m) for m in moves))

    # -------------------------------------------------------------------- loop
    def run(self) -> int:
        self.announce("new-game", variant=self.variant.name, side=self.game.position.turn)
        self.show()
        while True:
            side = SIDES[self.language][self.game.position.turn]
            print(TEXTS[self.language]["prompt"].format(side=side), end="", file=self.stdout)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:  # end of input: leave as if "quit" was typed
                print(file=self.stdout)
                return self.finish()
            text = line.strip()
            if not text:
                continue
            action = COMMANDS.get(text.lower())
            if action == "quit":
                return self.finish()
            if action is not None:
                self.command(action)
            elif self.result is None:
                self.play(text)
            else:
                self.say("unknown", word=text)

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
        elif action == "undo":
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
        """A fresh file name for this game in the games folder (never overwrites another)."""
        assert self.games_dir is not None
        self.games_dir.mkdir(parents=True, exist_ok=True)
        stem = f"{now:%Y%m%d-%H%M%S}-{self.variant.name}"
        path, counter = self.games_dir / f"{stem}.pdn", 1
        while path.exists():
            counter += 1
            path = self.games_dir / f"{stem}-{counter}.pdn"
        return path
