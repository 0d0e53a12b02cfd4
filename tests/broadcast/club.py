"""Recorded games for a simulated club evening, made from the shared corpus.

Each corpus game (from the initial position, legal throughout) becomes the
sensor events real hands would produce (`tests/host/humanise.py`), ending with
the typed command that finishes it like the real game ended: `draw` for a
draw, `resign` when the loser is the side to move. Used by the broadcast
tests and by `make bench`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

from engine import Game, Move, Variant, get_variant
from engine.pdn import read_games
from engine.pdn_results import meaning
from host.records.journal import result_text
from tests.host.humanise import humanise
from tests.paths import CORPUS

#: corpus files, the variant their games are replayed in, and whether to take them from
#: the end. The corpus has no Brazilian file: most of ussr1947's games are also legal
#: Brazilian games (docs/pdn.md), so its last games stand in for the home variant.
SOURCES = (("ussr1947.pdn", "brazilian", True), ("wk2003.pdn", "international", False),
           ("ussr1947.pdn", "russian", False), ("DUTCH96H.pdn", "international", False))


@dataclass(frozen=True)
class RecordedGame:
    variant: Variant
    moves: tuple[Move, ...]
    texts: tuple[str, ...]
    result: str  # what the board will record ("*" if the game cannot be ended on it)
    command: str | None  # the typed command that ends it so
    seed: int = field(repr=False, default=0)

    @cached_property
    def events(self) -> tuple[str, ...]:
        """JSON lines for `run --events`: real hands (made on first use: they take time)."""
        events, _ = humanise(self.variant, list(self.moves), random.Random(self.seed))
        lines = [json.dumps(e) for e in events]
        if self.command is not None:
            lines.append(json.dumps({"t": int(events[-1]["t"]) + 1500, "command": self.command}))
        return tuple(lines)

    def write(self, path: Path) -> Path:
        path.write_text("\n".join(self.events) + "\n", encoding="utf-8")
        return path


def _ending(variant: Variant, game: Game, claimed: str | None) -> tuple[str | None, str]:
    """The command that ends the game as the file says, and the result the board records."""
    said = meaning(claimed)
    if said == "draw":
        return "draw", result_text(None, variant.name)
    winner = said if said in ("W", "B") else None
    if winner is not None and game.position.turn != winner:  # the loser is to move
        return "resign", result_text(winner, variant.name)
    return None, "*"


def corpus_games(count: int, *, max_plies: int = 300, seed: int = 7) -> list[RecordedGame]:
    """`count` recorded games, taken in turn from each source (so a club mixes variants),
    cut at `max_plies`; fewer only if the corpus runs out."""
    rng = random.Random(seed)
    feeds = [_source_games(name, get_variant(variant), backwards)
             for name, variant, backwards in SOURCES]
    out: list[RecordedGame] = []
    while feeds and len(out) < count:
        for feed in list(feeds):
            item = next(feed, None)
            if item is None:
                feeds.remove(feed)
                continue
            variant, moves, claimed = item
            out.append(_record(variant, moves[:max_plies],
                               claimed if len(moves) <= max_plies else None, rng))
            if len(out) == count:
                break
    return out


def _source_games(name: str, variant: Variant, backwards: bool):  # type: ignore[no-untyped-def]
    """(variant, moves, claimed result) of each usable game of one corpus file."""
    yield from _usable(name, variant.name, backwards)


@cache
def _usable(name: str, variant_name: str,
            backwards: bool) -> tuple[tuple[Variant, list[Move], str | None], ...]:
    """A corpus file's usable games, read once per process (reading takes seconds)."""
    variant = get_variant(variant_name)
    initial = variant.initial_position().fen()
    games = list(read_games(CORPUS / name, variant))
    return tuple((variant, list(pdn.moves), pdn.claimed_result)
                 for pdn in (reversed(games) if backwards else games)
                 if pdn.error is None and pdn.moves and pdn.first_outcome_ply is None
                 and pdn.start.fen() == initial)


def _record(variant: Variant, moves: list[Move], claimed: str | None,
            rng: random.Random) -> RecordedGame:
    game = Game(variant)
    texts = []
    for move in moves:
        texts.append(game.position.move_text(move))
        game.push(move)
    command, result = _ending(variant, game, claimed)
    return RecordedGame(variant, tuple(moves), tuple(texts), result, command,
                        rng.randrange(2**32))


def quiet_events(moves: list[Move] | tuple[Move, ...], t0: int = 500,
                 gap: int = 1000) -> list[str]:
    """Clean hands: lift the piece, put it on its destination, lift each captured piece."""
    lines: list[str] = []
    t = t0
    for move in moves:
        for kind, square in (("lift", move.origin), ("place", move.destination),
                             *(("lift", c) for c in sorted(move.captures))):
            lines.append(json.dumps({"t": t, kind: square}))
            t += 300
        t += gap
    return lines


def command(t: int, word: str) -> str:
    return json.dumps({"t": t, "command": word})


def last_t(lines: list[str]) -> int:
    return max(int(json.loads(line)["t"]) for line in lines) if lines else 0


def first_moves(variant_name: str, plies: int, skip: int = 0) -> list[Move]:
    """A short, fixed, legal game: the first legal move each time (`skip`: take the
    (skip+1)-th move at the first ply instead, for a different game)."""
    game = Game(get_variant(variant_name))
    for ply in range(plies):
        moves = sorted(game.legal_moves(), key=lambda m: (m.origin, m.destination))
        game.push(moves[skip % len(moves)] if ply == 0 else moves[0])
    return list(game.moves)


def reset_to_start(variant_name: str, t: int) -> str:
    """Every piece back on its starting square at `t`: the board starts a new game."""
    variant = get_variant(variant_name)
    start = variant.initial_position()
    return json.dumps({"t": t, "occupied": sorted(
        square for square in range(1, variant.num_squares + 1) if start.piece_at(square))})
