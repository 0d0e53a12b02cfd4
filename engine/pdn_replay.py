"""Replaying a PDN game through the rules: which variant, which start, which moves.

A file does not always say which variant it records (the Italian archive has
no GameType; old English files neither), so the variant is, in order: the
one the caller names, the GameType tag, or inferred by replaying the game in
each variant that fits the board and notation and taking the first in which
every move is legal. The first illegal move stops the replay and is reported
with its ply, text, place in the file and the engine's reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine import (
    EngineError,
    Game,
    IllegalMoveError,
    Move,
    Outcome,
    Position,
    Variant,
    get_variant,
)
from engine.notation import readings
from engine.pdn import MoveToken, PdnGame

__all__ = ["DECISIVE", "Replay", "candidate_variants", "replay_game", "result_from_outcome"]

# Inference orders. Numeric 8x8: the variants whose official notation is
# numeric first (English is by far the most common numeric file), Brazilian
# and Russian read numbers too; Portuguese and Spanish move alike, so a game
# legal in one is legal in the other and the first wins; Pool last (an
# English game is rarely legal in Pool, whose men capture backwards).
NUMERIC_8X8 = ("english", "italian", "brazilian", "russian", "portuguese", "spanish", "pool")
# Squares 1-32 exist on the 10x10 board too: a numeric game that fits no 8x8
# variant (`32-28 19-23`, the usual International opening) is International.
NUMERIC = (*NUMERIC_8X8, "international")
ALGEBRAIC_8X8 = ("brazilian", "russian")
TEN_BY_TEN = ("international",)

# Result texts mapped to who won, for comparing with the engine's outcome.
DECISIVE = {"1-0": "W", "2-0": "W", "0-1": "B", "0-2": "B"}
DRAWS = frozenset({"1/2-1/2", "1-1"})
# Tag names only the Italian federation's files use; Cyrillic text hints Russian.
_ITALIAN_TAGS = frozenset({"bianco", "nero", "risultato", "dati", "anno", "evento", "luogo"})
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")

_Failure = tuple[int, str]  # index of the move that failed, and why


@dataclass
class Replay:
    """What replaying one game found. `error` is None when every move is legal."""

    game: PdnGame
    variant: Variant
    inferred: bool
    start_fen: str
    moves: list[Move]
    final_fen: str
    outcome: Outcome | None
    outcome_ply: int | None  # ply after which the engine first found the game over
    error: str | None = None
    error_ply: int | None = None
    error_move: str | None = None
    notes: list[str] = field(default_factory=list)  # readings chosen for ambiguous moves

    @property
    def legal(self) -> bool:
        return self.error is None

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def engine_result(self) -> str | None:
        """The engine's verdict as a result text, None while the game is live."""
        return result_from_outcome(self.outcome)

    @property
    def claimed_result(self) -> str | None:
        """What the file says: the Result (or Risultato) tag, else the terminator."""
        tag = self.game.result_tag()
        if tag not in (None, "*", "?"):
            return tag
        return self.game.result if self.game.result not in (None, "*") else tag

    @property
    def agrees(self) -> bool:
        """Whether the claimed result is consistent with the replay.

        Never for a game with an illegal move. When the engine finds the game
        over, the claim must be that very result (`2-0`/`0-2`/`1-1` count as
        win/loss/draw). When the position is live, the game ended off the
        board (resignation, agreed draw, time, adjudication), so any win, loss
        or draw agrees, and so does `*` or no result at all; only an unknown
        result text does not.
        """
        if not self.legal:
            return False
        claimed = _normalise(self.claimed_result)
        if self.engine_result is not None:
            return claimed == self.engine_result
        return claimed in {None, "*", "1-0", "0-1", "1/2-1/2", "0-0"}


def result_from_outcome(outcome: Outcome | None) -> str | None:
    """`1-0`, `0-1` or `1/2-1/2` for a finished game, None while it is live."""
    if outcome is None:
        return None
    return {"W": "1-0", "B": "0-1"}.get(outcome.winner or "", "1/2-1/2")


def _normalise(result: str | None) -> str | None:
    """Map FMJD match points to plain results: `2-0` -> `1-0`, `1-1` -> `1/2-1/2`."""
    if result is None:
        return None
    result = result.replace(" ", "")
    if result in DECISIVE:
        return "1-0" if DECISIVE[result] == "W" else "0-1"
    return "1/2-1/2" if result in DRAWS else result


def candidate_variants(game: PdnGame) -> list[Variant]:
    """The variants worth trying for a game without a GameType, most likely first."""
    texts = [move.text for move in game.moves]
    fen = game.tag("FEN") or ""
    numbers = [int(n) for text in texts for n in re.findall(r"\d+", text)]
    numbers += [int(n) for n in re.findall(r"\d+", fen.split(":", 1)[-1])] if fen else []
    algebraic = any(re.search(r"[a-wyz]", text) for text in texts)
    ten_algebraic = any(re.search(r"[ij]\d|[a-j](?:9|10)(?!\d)", text) for text in texts)
    if any(n > 32 for n in numbers) or ten_algebraic:
        names: tuple[str, ...] = TEN_BY_TEN
    elif algebraic:
        names = ALGEBRAIC_8X8
    elif texts:
        names = NUMERIC
    else:  # a position without moves: the home variant, then the rest
        names = ("brazilian", *[n for n in NUMERIC_8X8 if n != "brazilian"])
    return [get_variant(name) for name in _hinted(game, names)]


def _hinted(game: PdnGame, names: tuple[str, ...]) -> list[str]:
    """Move a variant the tags point to (Italian tag names, Cyrillic text) to the front."""
    order = list(names)
    tag_text = " ".join([*game.tags.keys(), *game.tags.values()])
    hints = []
    if {key.lower() for key in game.tags} & _ITALIAN_TAGS:
        hints.append("italian")
    if _CYRILLIC.search(tag_text):
        hints.append("russian")
    for hint in reversed(hints):
        if hint in order:
            order.remove(hint)
            order.insert(0, hint)
    return order


def replay_game(game: PdnGame, variant: Variant | None = None) -> Replay:
    """Replay `game`; `variant` forces the rules, else GameType, else inference.

    Raises `PdnError` (pointing at the tag) for a GameType naming no supported
    variant or a FEN tag that cannot be read: those make the game unreadable,
    unlike an illegal move, which is a finding about the game.
    """
    inferred = False
    if variant is not None:
        candidates = [variant]
    elif (game_type := game.tag("GameType")) is not None:
        try:
            candidates = [get_variant(game_type.strip())]
        except (EngineError, ValueError) as error:  # UnknownVariantError is a ValueError
            raise game.tag_error("GameType", str(error)) from None
    else:
        candidates, inferred = candidate_variants(game), True
    best: Replay | None = None
    for candidate in candidates:
        for start in _starts(game, candidate):
            attempt = _replay_from(game, candidate, start, inferred)
            if attempt.legal:
                return attempt
            if best is None or attempt.plies > best.plies:
                best = attempt
    assert best is not None  # candidates and starts are never empty
    return best


def _starts(game: PdnGame, variant: Variant) -> list[Position]:
    """Start positions to try: the FEN tag (both sides if it says `?`) or the initial one."""
    fen = game.tag("FEN")
    if fen is None or not fen.strip():
        return [variant.initial_position()]
    try:
        start = Position.from_fen(fen, variant)  # "?" reads as the variant's first mover
    except (EngineError, ValueError) as error:
        raise game.tag_error("FEN", f"FEN tag unreadable as {variant.name}: {error}") from None
    if fen.strip().strip('"').strip().startswith("?"):
        other = "B" if start.turn == "W" else "W"
        return [start, Position(variant, start.white, start.black, start.kings, other)]
    return [start]


def _replay_from(game: PdnGame, variant: Variant, start: Position, inferred: bool) -> Replay:
    board = Game(variant, start)
    replay = Replay(game, variant, inferred, start.fen(), [], start.fen(), None, None)
    failure = _Player(board, game.moves).play(0, replay.notes)
    if failure is not None:
        index, reason = failure
        token = game.moves[index]
        replay.error_ply, replay.error_move = index + 1, token.text
        replay.error = (
            f"ply {index + 1} ({_move_label(start, board.position, variant, index + 1)} "
            f"{token.text}, line {token.line}, column {token.column}): {reason}"
        )
    replay.moves = list(board.moves)
    replay.final_fen = board.fen()
    replay.outcome, replay.outcome_ply = _first_outcome(variant, start, board.moves)
    return replay


# Ambiguous moves are settled by replaying the rest of the game once per
# reading; a file full of them could make that exponential, so after this many
# trial replays the first reading is simply taken.
TRIAL_LIMIT = 64


class _Player:
    """Pushes move texts into a `Game`, settling ambiguous texts by the continuation."""

    def __init__(self, board: Game, tokens: list[MoveToken]) -> None:
        self.board = board
        self.tokens = tokens
        self.trials = 0

    def play(self, index: int, notes: list[str] | None) -> _Failure | None:
        """Push `tokens[index:]`; on failure leave the board before the illegal move.

        A text naming several legal moves (a short `3x26` where two capture
        paths of equal worth end on 26, as in the Italian archive) is not an
        illegal move: each reading is tried and the first that lets the rest
        of the game replay is kept, with a note (`notes` is None on trials).
        """
        for at in range(index, len(self.tokens)):
            text = self.tokens[at].text
            try:
                move = self.board.position.parse_move(text)
            except (IllegalMoveError, EngineError, ValueError) as error:
                try:
                    options = readings(self.board.position, text)
                except IllegalMoveError:
                    options = []
                if len(options) < 2:
                    return at, _reason(error)
                return self._settle(at, options, notes)
            self.board.push(move)
        return None

    def _settle(self, at: int, options: list[Move], notes: list[str] | None) -> _Failure | None:
        """Replay the rest after each reading of an ambiguous move; keep the best one."""
        position = self.board.position
        fits: list[Move] = []
        best: tuple[Move, int] | None = None
        for move in options:
            if self.trials >= TRIAL_LIMIT:
                break
            self.trials += 1
            self.board.push(move)
            failure = self.play(at + 1, None)
            while self.board.ply > at:
                self.board.pop()
            if failure is None:
                fits.append(move)
            elif best is None or failure[0] > best[1]:
                best = (move, failure[0])
        chosen = fits[0] if fits else best[0] if best else options[0]
        if notes is not None:
            names = ", ".join(_full_text(position, move) for move in options)
            text, taken = self.tokens[at].text, _full_text(position, chosen)
            if len(fits) == 1:
                notes.append(
                    f"ply {at + 1} {text} could be {names}: only {taken} lets the game go on"
                )
            else:
                notes.append(f"ply {at + 1} {text} could be {names}: {taken} was taken")
        self.board.push(chosen)
        return self.play(at + 1, notes)


def _full_text(position: Position, move: Move) -> str:
    """A capture with its whole path (`3x10x19x26`), to tell readings apart."""
    if not move.is_capture:
        return position.move_text(move)
    squares = (move.origin, *move.path)
    if position.variant.notation == "algebraic":
        return ":".join(position.variant.square_name(sq) for sq in squares)
    return "x".join(str(sq) for sq in squares)


def _first_outcome(
    variant: Variant, start: Position, moves: list[Move]
) -> tuple[Outcome | None, int | None]:
    """The engine's verdict at the first ply it finds the game over, else at the end."""
    board = Game(variant, start)
    if (outcome := board.outcome()) is not None:
        return outcome, 0
    for ply, move in enumerate(moves, 1):
        board.push(move)
        if (outcome := board.outcome()) is not None:
            return outcome, ply
    return None, None


def _move_label(start: Position, now: Position, variant: Variant, ply: int) -> str:
    """`12.` or `12...` for the move at `ply`, numbered as the file numbers it."""
    number = (ply + 1) // 2 if start.turn == variant.first_to_move else ply // 2 + 1
    return f"{number}." if now.turn == variant.first_to_move else f"{number}..."


def _reason(error: Exception) -> str:
    text = str(error).strip()
    return text or type(error).__name__
