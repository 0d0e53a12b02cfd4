"""The rules engine: eight draughts variants, exact and fast, with PDN.

Pure Python, no I/O, no hardware, imports nothing of `hardware` or `host`.
The public API (also in docs/engine-api.md):

Squares are always the variant's own numbering (1..32, or 1..50 for International). Colours are the strings "W" and "B" (`engine.WHITE`, `engine.BLACK`).
from engine import (get_variant, VARIANTS, Variant, Position, Move, Piece, Game, Outcome,
                    WHITE, BLACK, EngineError, FenError, IllegalMoveError, UnknownVariantError)
v = get_variant("brazilian")   # names: brazilian international russian portuguese spanish italian english pool
                               # also accepts a PDN GameType "26" or "26,W,8,8,A0,0"; raises UnknownVariantError
VARIANTS                       # dict name -> Variant
v.name, v.size (8|10), v.num_squares (32|50), v.first_to_move ("W"|"B"), v.mirrored (bool),
v.flying_kings, v.men_capture_backwards, v.game_type (int), v.notation ("numeric"|"algebraic") ...
v.square_coords(sq) -> (file, rank)  # 0-based true board coordinates, a1 = (0, 0)
v.square_at(file, rank) -> int | None
v.square_name(sq) -> str            # algebraic, e.g. "c3"
v.reading_order_to_square(k) -> int # k = 1..N in reading order from White's seat (far row first,
v.square_to_reading_order(sq) -> int#   left to right, dark squares): the hardware's numbering
v.initial_position() -> Position
Position.from_fen(text, v) -> Position   # raises FenError (a ValueError) with a clear message
pos.fen() -> str                         # strict PDN FEN, numeric squares, e.g. "W:W21,22,K30:B1,2"
pos.variant, pos.turn ("W"|"B")
pos.piece_at(sq) -> Piece | None         # Piece is a NamedTuple(color: str, king: bool)
pos.pieces() -> dict[int, Piece];  pos.occupied() -> frozenset[int]
pos.legal_moves() -> list[Move]          # one per (origin, destination, captured set)
pos.legal_paths() -> list[Move]          # one per distinct capture path
pos.play(move) -> Position               # a new Position (immutable)
pos.move_text(move) -> str               # variant's official notation, full path only if ambiguous
pos.parse_move(text) -> Move             # numeric "11-15", "15x24", "10x19x26", algebraic "c3-d4",
                                         # "c3xe5", "c3:e5", short "ab4"; raises IllegalMoveError(reason)
Move (frozen, hashable; equality = (origin, destination, captures)):
  .origin: int, .destination: int, .captures: frozenset[int], .path: tuple[int, ...] (landing
  squares after the origin, ending with destination), .paths: tuple[tuple[int,...], ...] (every
  landing path that makes this same move), .is_capture: bool, .promotes: bool (a man crowned by it)
Game(v, position=None):
  .variant, .position, .moves (list[Move] played), .positions, .ply
  .legal_moves(), .push(move) (raises IllegalMoveError if not legal), .pop() -> Move
  .outcome() -> Outcome | None   # Outcome(winner: "W"|"B"|None, reason: str); reasons:
        "no-pieces", "no-moves", "threefold-repetition", "no-progress", "endgame-limit"
  .fen() -> str
"""
