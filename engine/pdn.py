"""Reading and writing PDN game files: the API.

    from engine.pdn import read_games, write_game
    for game in read_games("games.pdn"):       # a path, bytes, or an open stream
        print(game.tags.get("White"), game.variant.name, game.ply, game.error)

`read_games` reads lazily: each game is replayed and handed over as soon as
its text is read, so a file of any size costs the memory of a few games.
Every game is a `PdnGame`, a `Game` with its moves pushed and the file's
tags, whose variant comes from the caller, the GameType tag, or everything
else the file says (`engine.pdn_infer`). Illegal moves are findings, not
errors: the game stops before the first one and says why in `error`. Text
that cannot be read at all raises `PdnError` (or goes to `on_error`).

The layers, each its own module: `pdn_source` (bytes to lines, encodings),
`pdn_lexer` (tokens), `pdn_records` (games as written), `pdn_infer`
(variant), `pdn_replay` (moves through the rules), `pdn_write` (writer),
`pdn_results` (result texts). docs/pdn.md says what is read and how.
"""

from __future__ import annotations

import io
import os
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.pdn_infer import FileEvidence, named_variant, rank
from engine.pdn_records import PdnError, PdnRecord, UnsupportedVariantError, read_records
from engine.pdn_replay import PdnGame, replay
from engine.pdn_source import PdnSource, Source
from engine.pdn_write import write_game
from engine.variant import UnknownVariantError, Variant, get_variant

__all__ = [
    "PdnError",
    "PdnGame",
    "UnsupportedVariantError",
    "parse_game",
    "read_games",
    "write_game",
]

# Games that fit several variants wait (in file order, with the games after
# them) for the file's other games to tell which; at most this many.
PENDING_LIMIT = 32


def read_games(
    source: Source,
    variant: Variant | str | None = None,
    *,
    on_error: Callable[[PdnError], None] | None = None,
) -> Iterator[PdnGame]:
    """The games of a PDN source, in file order, read and replayed lazily.

    `source` is a path, the file's bytes, or an open text or binary stream.
    `variant` (a `Variant` or a name) forces the rules for every game;
    otherwise each game's GameType tag, else inference. A game that cannot
    be read (broken text, a variant not played here, an unreadable FEN tag)
    raises `PdnError` (`UnsupportedVariantError` for the variant), the games
    before it having been yielded; with `on_error`, the error is passed to it
    instead and reading goes on with the next game.
    """
    forced = variant if isinstance(variant, Variant) or variant is None else get_variant(variant)
    if not (isinstance(source, str | bytes | bytearray | os.PathLike)
            or hasattr(source, "read")):
        raise EngineError(f"PDN is read from a path, bytes or an open file, "
                          f"not {type(source).__name__}")
    return _Reader(PdnSource(source), forced, on_error).games()


def parse_game(text: str, variant: Variant | str | None = None) -> PdnGame:
    """The first game of PDN `text`, as a `PdnGame`; `PdnError` if there is none,
    EngineError if `text` is not text."""
    if not isinstance(text, str):
        raise EngineError(f"a PDN game is text, not {type(text).__name__}")
    for game in read_games(io.StringIO(text), variant):
        return game
    raise PdnError("no game found", 1, 1, 1)


@dataclass
class _Read:
    """A game read, or a game that fits several variants, waiting for the file to tell.

    A waiting game keeps only its first reading (a game costs memory: every
    position with its legal moves); another is replayed if the file chooses it.
    """

    game: PdnGame | None
    fits: list[Variant] = field(default_factory=list)  # the variants it fits, in order
    first: PdnGame | None = None  # its reading in fits[0]
    record: PdnRecord | None = None


class _Reader:
    """Records to games, with the file's evidence carried from game to game."""

    def __init__(self, pdn: PdnSource, forced: Variant | None,
                 on_error: Callable[[PdnError], None] | None) -> None:
        self.pdn = pdn
        self.forced = forced
        self.on_error = on_error
        self.evidence = FileEvidence()
        self.pending: deque[_Read] = deque()

    def games(self) -> Iterator[PdnGame]:
        for record in read_records(self.pdn):
            self.evidence.encoding = self.pdn.encoding
            try:
                if record.error is not None:
                    raise record.error
                read = self._read(record)
            except PdnError as error:
                yield from self._flush()
                self._fail(error)
                continue
            if read.game is None or self.pending:
                self.pending.append(read)
                if self.evidence.settled or len(self.pending) >= PENDING_LIMIT:
                    yield from self._flush()
            else:
                yield read.game
        yield from self._flush()

    def _fail(self, error: PdnError) -> None:
        if self.on_error is None:
            raise error
        self.on_error(error)

    def _flush(self) -> Iterator[PdnGame]:
        while self.pending:
            read = self.pending.popleft()
            yield read.game if read.game is not None else self._decide(read)

    # ------------------------------------------------------------------ choice
    def _read(self, record: PdnRecord) -> _Read:
        if self.forced is not None:
            game = replay(record, self.forced)
            game.variant_grounds = ["the variant was given"]
            return _Read(game)
        try:
            named = named_variant(record)
        except (UnknownVariantError, ValueError) as error:
            raise record.tag_error("GameType", str(error), UnsupportedVariantError) from None
        if named is not None:
            game = replay(record, named)
            game.variant_grounds = [f"GameType {record.tag('GameType')!r}"]
            self.evidence.vote(named.name, 3)
            return _Read(game)
        return self._infer(record)

    def _infer(self, record: PdnRecord) -> _Read:
        guess = rank(record, self.evidence)
        settled = self.evidence.settled
        explore = not guess.decisive and settled is None  # learn whether several variants fit
        tried: dict[str, PdnGame] = {}
        unreadable: PdnError | None = None
        for candidate in guess.candidates:
            try:
                game = replay(record, candidate)
            except PdnError as error:  # a FEN tag this board cannot hold
                unreadable = unreadable or error
                continue
            tried[candidate.name] = game
            legal_so_far = sum(game.error is None for game in tried.values())
            if legal_so_far >= (2 if explore else 1):
                break  # exploring only needs to know whether more than one variant fits
        if not tried:
            assert unreadable is not None
            raise unreadable
        grounds = guess.grounds()
        legal = [name for name, game in tried.items() if game.error is None]
        if len(legal) > 1:
            first = tried[legal[0]]
            first.variant_inferred, first.variant_grounds = True, grounds
            return _Read(None, [tried[name].variant for name in legal], first, record)
        if not legal:
            game = max(tried.values(), key=lambda g: g.ply)
            grounds.append(f"no variant replays every move; {game.variant.name} goes furthest "
                           f"({game.ply} plies)")
            grounds += [f"{clue.variant.capitalize()} draughts is not a variant this engine "
                        "plays" for clue in guess.unplayed()]
        else:
            game = tried[legal[0]]
            failed = [name for name in tried if name != legal[0]]
            if failed and len(tried) == len(guess.candidates):  # every candidate was tried
                grounds.append(f"only {game.variant.name} replays every move (illegal as "
                               f"{_illegal_at(tried, failed)})")
                self.evidence.vote(game.variant.name)
            elif failed:
                grounds.append(f"{game.variant.name} replays every move (illegal as "
                               f"{_illegal_at(tried, failed)})")
            elif guess.decisive and len(guess.candidates) > 1:
                grounds.append(f"the clues put {game.variant.name} first; every move is legal")
                self.evidence.vote(game.variant.name)
            elif settled is not None:
                grounds.append(f"the file's other games are {settled} "
                               f"({self.evidence.summary()}); every move is legal")
        game.variant_inferred, game.variant_grounds = True, grounds
        return _Read(game)

    def _decide(self, read: _Read) -> PdnGame:
        """Choose among the variants that replay a whole game: the file's, once it is clear.

        A few games legal in one variant only may be recording errors (a
        Brazilian game with a capture short of the majority is legal only in
        Russian), so the file's votes decide only when they agree
        (`FileEvidence.settled`); otherwise the usual order does.
        """
        assert read.first is not None and read.record is not None
        names = [variant.name for variant in read.fits]
        fits = " and ".join(names)
        settled = self.evidence.settled
        if settled not in names:
            read.first.variant_grounds.append(
                f"legal as {fits}; nothing in the file tells them apart: {names[0]} is tried first")
            return read.first
        game = read.first
        if settled != names[0]:
            game = replay(read.record, read.fits[names.index(settled)])
            game.variant_inferred, game.variant_grounds = True, read.first.variant_grounds
        game.variant_grounds.append(
            f"legal as {fits}; {settled} as the file's other games show "
            f"({self.evidence.summary()})")
        return game


def _illegal_at(tried: dict[str, PdnGame], names: list[str]) -> str:
    return ", ".join(f"{name} at ply {tried[name].error_ply}" for name in names)
