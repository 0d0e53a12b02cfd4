"""The rules engine: eight draughts variants, exact and fast, with PDN.

Pure Python, no I/O, no hardware, imports nothing of `hardware` or `host`.
Squares are always the variant's own numbering; colours are "W" and "B".
The public API is described in docs/engine-api.md:

    from engine import Game
    game = Game("brazilian")           # or Game.from_fen("W:W21-32:B1-12", "brazilian")
    game.push_text("c3-d4")            # returns the Move; IllegalMoveError says why not
    game.outcome()                     # None while the game goes on
"""

from engine.errors import EngineError, FenError, IllegalMoveError, UnknownVariantError
from engine.fen import read_fen, write_fen
from engine.game import Game, Outcome
from engine.pdn import PdnError, PdnGame, parse_game, read_games, write_game
from engine.perft import perft
from engine.position import Move, Piece, Position
from engine.variant import BLACK, VARIANTS, WHITE, Variant, get_variant

__all__ = [
    "BLACK",
    "VARIANTS",
    "WHITE",
    "EngineError",
    "FenError",
    "Game",
    "IllegalMoveError",
    "Move",
    "Outcome",
    "PdnError",
    "PdnGame",
    "Piece",
    "Position",
    "UnknownVariantError",
    "Variant",
    "get_variant",
    "parse_game",
    "perft",
    "read_games",
    "read_fen",
    "write_fen",
    "write_game",
]
