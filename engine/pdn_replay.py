"""Replaying a PDN game through the rules: from which position, with which moves.

`replay(record, variant)` pushes the game's move texts into a `PdnGame` (a
`Game` that also keeps what the file said). The first illegal move stops the
replay and is reported with its ply, text, place in the file and the
engine's reason; the game is left before that move. Which variant to replay
in is `engine.pdn`'s choice (with `engine.pdn_infer`); this module only
replays.

Things real files do that are not illegal moves: a text naming several legal
moves (a short `3x26` where two capture paths end on 26) is settled by the
rest of the game; unknown moves (`41. - -`) end what can be replayed; a
last "move" like `4-6` that is illegal there is the Dutch match score; a FEN
`?` side to move is tried both ways. Each leaves a note.
"""

from __future__ import annotations

from engine.game import Game, Outcome
from engine.notation import readings
from engine.pdn_clocks import read_clocks
from engine.pdn_records import PdnRecord
from engine.pdn_results import is_score, meaning
from engine.position import EngineError, IllegalMoveError, Move, Position
from engine.variant import Variant

__all__ = ["TRIAL_LIMIT", "PdnGame", "replay"]

_Failure = tuple[int, str]  # index of the move that failed, and why


class PdnGame(Game):
    """A game read from PDN: a `Game`, its legal moves pushed, with what the file said.

    Everything a `Game` offers works (`moves`, `position`, `outcome()`,
    `push`, `pop`): the game can be played on from where the file stops.
    Besides: `tags` (in file order), `number` (place in the file, from 1),
    `line`, `terminator` (the result written after the moves), `comments`,
    `error` (the first illegal move, None when every move is legal),
    `error_ply`/`error_move`, `notes` (readings chosen, unknown moves),
    `variant_inferred` and `variant_grounds` (why this variant), the
    engine's verdict at the first ply it found the game over,
    `first_outcome`/`first_outcome_ply` (play may have gone on after it), and
    `clocks`: for each ply replayed, the clock times the file gives after it
    (side -> seconds, from `[%clock ...]` or `[%clk ...]`; {} where it gives none).
    """

    def __init__(self, variant: Variant, position: Position | None = None) -> None:
        super().__init__(variant, position)
        self.tags: dict[str, str] = {}
        self.number = 0
        self.line = 0
        self.terminator: str | None = None
        self.comments: list[str] = []
        self.error: str | None = None
        self.error_ply: int | None = None
        self.error_move: str | None = None
        self.notes: list[str] = []
        self.variant_inferred = False
        self.variant_grounds: list[str] = []
        self.first_outcome: Outcome | None = None
        self.first_outcome_ply: int | None = None
        self.clocks: list[dict[str, float]] = []

    @property
    def start(self) -> Position:
        """The position the game starts from (the FEN tag's, or the initial one)."""
        return self.positions[0]

    @property
    def claimed_result(self) -> str | None:
        """What the file says: the Result (or Risultato) tag, else the terminator."""
        lowered = {key.lower(): value for key, value in self.tags.items()}
        tag = lowered.get("result", lowered.get("risultato"))
        tag = tag.strip().replace("½", "1/2") if tag is not None and tag.strip() else None
        if tag is not None and meaning(tag) not in (None, "unknown"):
            return tag
        terminator = self.terminator
        return terminator if terminator is not None and terminator != "*" else tag or terminator

    def __repr__(self) -> str:
        return (f"<PdnGame {self.number} {self.variant.name}: {self.tags.get('White', '?')} - "
                f"{self.tags.get('Black', '?')}, {self.ply} plies>")


# Ambiguous moves are settled by replaying the rest of the game once per
# reading; a file full of them could make that exponential, so after this many
# trial replays the first reading is simply taken.
TRIAL_LIMIT = 64


def replay(record: PdnRecord, variant: Variant) -> PdnGame:
    """Replay `record` in `variant`; the game stops before its first illegal move.

    Raises `PdnError` (pointing at the tag) for a FEN tag that cannot be read
    in this variant: that makes the game unreadable, unlike an illegal move,
    which is a finding about the game.
    """
    best: PdnGame | None = None
    for start in _starts(record, variant):
        game = _replay_from(record, variant, start)
        if game.error is None:
            return game
        if best is None or game.ply > best.ply:
            best = game
    assert best is not None  # there is always at least one start
    return best


def _starts(record: PdnRecord, variant: Variant) -> list[Position]:
    """Start positions to try: the FEN tag (both sides if it says `?`) or the initial one."""
    fen = record.tag("FEN")
    if _unknown_fen(fen) and record.setups and record.setups[0][0] == 0:
        fen = record.setups[0][1]  # a set-up before the first move acts as the FEN
    if fen is None or _unknown_fen(fen):
        return [variant.initial_position()]
    try:
        start = Position.from_fen(fen, variant)  # "?" reads as the variant's first mover
    except (EngineError, ValueError) as error:
        raise record.tag_error("FEN", f"FEN tag unreadable as {variant.name}: {error}") from None
    if fen.strip().strip('"').strip().startswith("?"):
        other = "B" if start.turn == "W" else "W"
        return [start, Position(variant, start.white, start.black, start.kings, other)]
    return [start]


def _unknown_fen(fen: str | None) -> bool:
    """No FEN, or one that says nothing (`?`: lidraughts writes it for the initial position)."""
    return fen is None or fen.strip().strip('"').strip() in ("", "?", "*")


def _replay_from(record: PdnRecord, variant: Variant, start: Position) -> PdnGame:
    game = PdnGame(variant, start)
    game.tags = dict(record.tags)
    game.number, game.line = record.number, record.line
    game.terminator, game.comments = record.terminator, list(record.comments)
    tokens = record.moves
    end = _replayable(record, game.notes)
    player = _Player(game, tokens[:end])
    player.check_outcome()
    failure = player.play(0, game.notes)
    game.clocks = _clocks(record, game)
    if failure is None:
        return game
    index, reason = failure
    token = tokens[index]
    if index == len(tokens) - 1 and game.terminator is None and is_score(token.text):
        game.terminator = token.text
        game.notes.append(f"the last text {token.text} is no legal move there: read as the "
                          "match score")
        return game
    if not record.tags and record.number > 1:
        game.notes.append(f"no tags: perhaps text left over from game {record.number - 1}")
    game.error_ply, game.error_move = index + 1, token.text
    game.error = (
        f"ply {index + 1} ({_move_label(start, game.position, variant, index + 1)} "
        f"{token.text}, line {token.line}, column {token.column}): {reason}"
    )
    return game


def _clocks(record: PdnRecord, game: PdnGame) -> list[dict[str, float]]:
    """The clock times after each replayed ply, from the comments written after it."""
    clocks: list[dict[str, float]] = [{} for _ in game.moves]
    for before, text in record.move_comments:
        ply = before - 1
        if 0 <= ply < len(clocks):
            clocks[ply].update(read_clocks(text, game.positions[ply].turn))
    return clocks


def _replayable(record: PdnRecord, notes: list[str]) -> int:
    """How many move texts can be replayed: up to an unknown move or a set-up."""
    end = len(record.moves)
    unknown = next((i for i, move in enumerate(record.moves) if move.unknown), None)
    if unknown is not None:
        end = unknown
        notes.append(f"moves not recorded from ply {unknown + 1} ('-' in the file)")
    setup = next((i for i, _ in record.setups if i > 0), None)
    if setup is not None and setup < end:
        end = setup
        notes.append(f"a set-up (/FEN/) in the movetext after ply {setup}: not replayed from there")
    return end


class _Player:
    """Pushes move texts into a game, settling ambiguous texts by the continuation."""

    def __init__(self, game: PdnGame, tokens: list) -> None:
        self.game = game
        self.tokens = tokens
        self.trials = 0

    def check_outcome(self) -> None:
        """Note the first ply at which the engine finds the game over."""
        game = self.game
        if game.first_outcome is None and (outcome := game.outcome()) is not None:
            game.first_outcome, game.first_outcome_ply = outcome, game.ply

    def play(self, index: int, notes: list[str] | None) -> _Failure | None:
        """Push `tokens[index:]`; on failure leave the game before the illegal move.

        `notes` is None on trial replays (which neither note nor watch for
        the end of the game). A text naming several legal moves is not an
        illegal move: each reading is tried and the first that lets the rest
        of the game replay is kept, with a note.
        """
        game = self.game
        for at in range(index, len(self.tokens)):
            text = self.tokens[at].text
            try:
                move = game.position.parse_move(text)
            except (IllegalMoveError, EngineError, ValueError) as error:
                try:
                    options = readings(game.position, text)
                except (IllegalMoveError, EngineError, ValueError):
                    options = []
                if len(options) < 2:
                    return at, _reason(error)
                return self._settle(at, options, notes)
            game.push(move)
            if notes is not None:
                self.check_outcome()
        return None

    def _settle(self, at: int, options: list[Move], notes: list[str] | None) -> _Failure | None:
        """Replay the rest after each reading of an ambiguous move; keep the best one."""
        game = self.game
        position = game.position
        fits: list[Move] = []
        best: tuple[Move, int] | None = None
        for move in options:
            if self.trials >= TRIAL_LIMIT:
                break
            self.trials += 1
            game.push(move)
            failure = self.play(at + 1, None)
            while game.ply > at:
                game.pop()
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
        game.push(chosen)
        if notes is not None:
            self.check_outcome()
        return self.play(at + 1, notes)


def _full_text(position: Position, move: Move) -> str:
    """A capture with its whole path (`3x10x19x26`), to tell readings apart."""
    if not move.is_capture:
        return position.move_text(move)
    squares = (move.origin, *move.path)
    if position.variant.notation == "algebraic":
        return ":".join(position.variant.square_name(sq) for sq in squares)
    return "x".join(str(sq) for sq in squares)


def _move_label(start: Position, now: Position, variant: Variant, ply: int) -> str:
    """`12.` or `12...` for the move at `ply`, numbered as the file numbers it."""
    number = (ply + 1) // 2 if start.turn == variant.first_to_move else ply // 2 + 1
    return f"{number}." if now.turn == variant.first_to_move else f"{number}..."


def _reason(error: Exception) -> str:
    text = str(error).strip()
    return text or type(error).__name__
