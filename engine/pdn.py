"""Reading PDN game files, leniently, into tags and move texts.

PDN 3.0 is PGN's cousin for draughts. Files in the wild bend it in every way
(see `docs/pdn.md`), so this reader accepts whatever carries no ambiguity and
rejects only text it cannot read safely, naming the game, line and column.
Reading stops at text: turning move texts into moves needs a variant and a
position, which `engine.pdn_replay` supplies; writing lives in
`engine.pdn_write`. Nothing here does I/O: the caller reads the file's bytes
and hands them (or decoded text) to `read_games`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.pdn_lexer import RESULTS, Kind, PdnSyntaxError, Token, tokenize

__all__ = [
    "RESULTS",
    "MoveToken",
    "PdnError",
    "PdnGame",
    "decode_pdn",
    "read_games",
]


class PdnError(ValueError):
    """Malformed PDN; the message says where: `game 3, line 41, column 12: ...`."""

    def __init__(self, message: str, game: int, line: int, column: int) -> None:
        super().__init__(f"game {game}, line {line}, column {column}: {message}")
        self.reason = message
        self.game = game
        self.line = line
        self.column = column


@dataclass(frozen=True)
class MoveToken:
    """A move as written, with its place in the file for error messages."""

    text: str
    line: int
    column: int


@dataclass
class PdnGame:
    """One game as read: tags in file order, move texts, and its terminator.

    `result` is the game terminator written after the moves (`None` when the
    file simply ends); the `Result` tag, if any, is in `tags` and is read by
    `result_tag()`, which also knows the Italian `Risultato`.
    """

    index: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[MoveToken] = field(default_factory=list)
    result: str | None = None
    comments: list[str] = field(default_factory=list)
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (line, column)

    def tag(self, *names: str) -> str | None:
        """The first of `names` present, case-insensitively (files vary: `FEN`, `Fen`)."""
        lowered = {key.lower(): value for key, value in self.tags.items()}
        for name in names:
            if name.lower() in lowered:
                return lowered[name.lower()]
        return None

    def tag_error(self, name: str, message: str) -> PdnError:
        """A `PdnError` pointing at tag `name` (e.g. an unreadable FEN)."""
        line, column = next(
            (place for key, place in self.tag_places.items() if key.lower() == name.lower()),
            (self.line, 1),
        )
        return PdnError(message, self.index, line, column)

    def result_tag(self) -> str | None:
        """The result the file claims: `Result`, or Italian `Risultato`, normalised."""
        value = self.tag("Result", "Risultato")
        if value is None:
            return None
        value = value.strip().replace("½", "1/2")
        return value or None


def decode_pdn(data: bytes) -> str:
    """Decode file bytes: UTF-8 (with or without BOM), else Latin-1.

    Latin-1 never fails, so old European files with accented names still read;
    a UTF-8 file is recognised because random Latin-1 text is almost never
    valid UTF-8.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.removeprefix("\ufeff")


def read_games(source: str | bytes) -> list[PdnGame]:
    """Every game in PDN text (or raw file bytes), in file order, numbered from 1.

    A game is an optional tag section followed by movetext and ended by a
    result token; a tag after movetext with no result also starts a new game,
    and the last game may end at the end of the file. Raises `PdnError`.
    """
    text = decode_pdn(source) if isinstance(source, bytes) else source
    try:
        tokens = tokenize(text)
    except PdnSyntaxError as error:
        game = _game_number_at(error.tokens)
        raise PdnError(error.message, game, error.line, error.column) from None
    return _Parser(tokens).games()


class _Parser:
    """Groups tokens into games; only the layout rules live here."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.done: list[PdnGame] = []
        self.current: PdnGame | None = None

    def _game(self, token: Token) -> PdnGame:
        if self.current is None:
            self.current = PdnGame(index=len(self.done) + 1, line=token.line)
        return self.current

    def _finish(self) -> None:
        game = self.current
        if game is not None and (game.tags or game.moves or game.result is not None):
            self.done.append(game)
        self.current = None

    def games(self) -> list[PdnGame]:
        self.feed()
        self._finish()
        return self.done

    def feed(self) -> None:
        """Group the tokens; the last game stays open in `self.current`."""
        for token in self.tokens:
            if token.kind is Kind.TAG:
                if self.current is not None and (self.current.moves or self.current.result):
                    self._finish()  # a tag after movetext: the terminator was left out
                name, value = token.value  # type: ignore[misc]
                game = self._game(token)
                game.tags[name] = value
                game.tag_places[name] = (token.line, token.column)
            elif token.kind is Kind.MOVE:
                self._game(token).moves.append(
                    MoveToken(str(token.value), token.line, token.column)
                )
            elif token.kind is Kind.COMMENT:
                self._game(token).comments.append(str(token.value))
            else:  # RESULT: the game terminator
                self._game(token).result = str(token.value)
                self._finish()


def _game_number_at(tokens: list[Token]) -> int:
    """Which game the text after `tokens` (read fine) belongs to: the next one."""
    parser = _Parser(tokens)
    parser.feed()
    return len(parser.done) + 1
