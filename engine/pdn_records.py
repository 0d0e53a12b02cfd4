"""PDN games as written: tags, move texts and terminator, one game at a time.

This layer groups tokens into games and knows nothing of rules: turning move
texts into moves needs a variant and a position (`engine.pdn_replay`). It
reads lazily: each game is handed on when its text is complete, so a file of
any size is read in the memory of one game. A game whose text is broken
comes out with `error` set (and what could be read of it); the games after it
are read normally.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.pdn_lexer import Kind, tokenize
from engine.pdn_results import is_score, meaning
from engine.pdn_source import PdnSource, Source
from engine.position import EngineError

__all__ = ["MoveToken", "PdnError", "PdnRecord", "UnsupportedVariantError", "read_records"]


class PdnError(EngineError):
    """PDN that cannot be read; the message says where: `game 3, line 41, column 12: ...`.

    A `ValueError` (through `EngineError`). `reason` is the message without
    the place; `game` is the game's number in the file, from 1.
    """

    def __init__(self, message: str, game: int, line: int, column: int) -> None:
        super().__init__(f"game {game}, line {line}, column {column}: {message}")
        self.reason = message
        self.game = game
        self.line = line
        self.column = column


class UnsupportedVariantError(PdnError):
    """A game in a variant this engine does not play (GameType 40, Frisian, ...)."""


@dataclass(frozen=True)
class MoveToken:
    """A move as written, with its place in the file for error messages.

    `unknown` marks a move the file does not know (`41. - -`): the game's
    moves are not recorded from there on.
    """

    text: str
    line: int
    column: int
    unknown: bool = False


@dataclass
class PdnRecord:
    """One game as written: tags in file order, move texts, and its terminator.

    `terminator` is the result written after the moves (`None` when the file
    simply ends or the next game starts); the `Result` tag, if any, is in
    `tags` and is read by `result_tag()`, which also knows the Italian
    `Risultato`. `setups` are `/FEN/` set-ups in the movetext, with the
    number of moves read before each.
    """

    number: int
    line: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[MoveToken] = field(default_factory=list)
    terminator: str | None = None
    comments: list[str] = field(default_factory=list)
    #: each comment with the number of moves written before it (a comment after a move
    #: is about that move: its clock times, `engine.pdn_clocks`)
    move_comments: list[tuple[int, str]] = field(default_factory=list)
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (line, col)
    setups: list[tuple[int, str]] = field(default_factory=list)
    error: PdnError | None = None  # the text of this game is broken here

    def tag(self, *names: str) -> str | None:
        """The first of `names` present, case-insensitively (files vary: `FEN`, `Fen`)."""
        lowered = {key.lower(): value for key, value in self.tags.items()}
        for name in names:
            if name.lower() in lowered:
                return lowered[name.lower()]
        return None

    def tag_error(self, name: str, message: str, kind: type[PdnError] = PdnError) -> PdnError:
        """A `PdnError` pointing at tag `name` (an unreadable FEN, an unknown GameType)."""
        line, column = next(
            (place for key, place in self.tag_places.items() if key.lower() == name.lower()),
            (self.line, 1),
        )
        return kind(message, self.number, line, column)

    def result_tag(self) -> str | None:
        """The result the tags claim: `Result`, or Italian `Risultato`, stripped."""
        value = self.tag("Result", "Risultato")
        if value is None:
            return None
        return value.strip().replace("½", "1/2") or None

    def _settle_score_terminator(self) -> None:
        """A last "move" like `4-6` that repeats the Result tag is the score, not a move.

        Dutch files end games with the match score (`[Result "4-6"]` ...
        `13-19 4-6`); on 10x10 `4-6` is also a move, so only the agreement
        with the tag (or, in the replay, its being illegal there) settles it.
        """
        if self.terminator is not None or not self.moves:
            return
        last = self.moves[-1].text
        claimed = self.result_tag()
        if is_score(last) and claimed is not None and meaning(claimed) is not None and (
            claimed.replace(" ", "") == last
        ):
            self.moves.pop()
            self.terminator = last


def read_records(source: Source | PdnSource) -> Iterator[PdnRecord]:
    """Every game of a PDN source, in file order, numbered from 1, read lazily.

    A game is an optional tag section followed by movetext and ended by a
    result; a tag after movetext with no result also starts a new game, and
    the last game may end at the end of the file. Broken text ends its game
    with `error` set, and reading resumes at the next tag section.
    """
    pdn = source if isinstance(source, PdnSource) else PdnSource(source)
    current: PdnRecord | None = None
    count = 0

    def start(line: int) -> PdnRecord:
        nonlocal current, count
        if current is None:
            count += 1
            current = PdnRecord(number=count, line=line)
        return current

    def finish() -> PdnRecord | None:
        nonlocal current
        done, current = current, None
        if done is None or not (done.tags or done.moves or done.terminator or done.error):
            return None
        done._settle_score_terminator()
        return done

    for token in tokenize(pdn.lines()):
        kind = token.kind
        if kind is Kind.TAG:
            # A tag after movetext: the terminator was left out.
            if current is not None and (current.moves or current.setups) and (
                (done := finish()) is not None
            ):
                yield done
            name, value = token.value  # type: ignore[misc]
            game = start(token.line)
            game.tags[name] = value
            game.tag_places[name] = (token.line, token.column)
        elif kind is Kind.MOVE or kind is Kind.UNKNOWN_MOVE:
            start(token.line).moves.append(
                MoveToken(str(token.value), token.line, token.column,
                          unknown=kind is Kind.UNKNOWN_MOVE)
            )
        elif kind is Kind.COMMENT:
            game = start(token.line)
            game.comments.append(str(token.value))
            game.move_comments.append((len(game.moves), str(token.value)))
        elif kind is Kind.SETUP:
            game = start(token.line)
            game.setups.append((len(game.moves), str(token.value)))
        elif kind is Kind.RESULT:
            start(token.line).terminator = str(token.value)
            if (done := finish()) is not None:
                yield done
        else:  # ERROR: the rest of this game's text is skipped by the lexer
            game = start(token.line)
            game.error = PdnError(str(token.value), game.number, token.line, token.column)
            if (done := finish()) is not None:
                yield done
    if (done := finish()) is not None:
        yield done
