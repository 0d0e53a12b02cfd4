"""Positions (immutable bitboards), pieces and moves in the variant's numbering."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from engine.errors import EngineError, FenError, IllegalMoveError
from engine.king_paths import PathsLater
from engine.movegen import generator_for
from engine.raw_moves import Grouped, RawMove
from engine.variant import BLACK, WHITE, Variant, get_variant


class Piece(NamedTuple):
    color: str  # "W" or "B"
    king: bool


@dataclass(frozen=True, eq=False)
class Move:
    """A move in the variant's numbering.

    Two moves are equal when they agree on origin, destination and the set of
    captured squares (the FMJD convention); `paths` lists every landing path
    that makes this same move. `variant` (set on every move the engine
    generates) only serves `repr`, which names the squares as that variant
    writes them: `<Move c3xe5xg3>`, `<Move 32x23>`.
    """

    origin: int
    destination: int
    captures: frozenset[int]
    path: tuple[int, ...]
    paths: tuple[tuple[int, ...], ...] = field(default=())
    promotes: bool = False
    captured_order: tuple[int, ...] = ()
    variant: Variant | None = field(default=None, repr=False, compare=False)

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def _key(self) -> tuple[int, int, frozenset[int]]:
        return (self.origin, self.destination, self.captures)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        # Every landing: unambiguous without the position, and readable back by parse_move.
        sep = "x" if self.captures else "-"
        squares = (self.origin, *self.path) if self.captures else (self.origin, self.destination)
        variant = self.variant
        if (variant is not None and variant.notation == "algebraic"
                and all(isinstance(s, int) and 1 <= s <= variant.num_squares for s in squares)):
            names = [variant.square_name(square) for square in squares]
        else:
            names = [str(square) for square in squares]
        return f"<Move {sep.join(names)}>"


class _PathsSpeltLater(Move):
    """A capture from `legal_moves()` (a flying king's, or a man's where the compiled
    search listed it) whose `path`, `paths` and `captured_order` are spelt when one of
    them is first read (then for every move of that piece at once:
    `engine.king_paths.EveryPath`); the other fields are set
    when it is made. Otherwise a `Move` in every way: equal, hashed and shown the
    same; `dataclasses.replace` reads every field; a copy or a pickle is a plain
    `Move` with every field spelt."""

    __slots__ = ("_later",)
    _later: PathsLater | None  # until the paths are spelt

    def _spelt(self, name: str) -> Any:
        fields = self.__dict__
        if name not in fields:
            later = self._later
            assert later is not None
            fields["path"], fields["captured_order"], fields["paths"] = later.spell()
            _set_attribute(self, "_later", None)
        return fields[name]

    # Move's __init__ (as `dataclasses.replace` calls it) sets the fields through these.
    path = property(partial(_spelt, name="path"),
                    lambda self, value: self.__dict__.__setitem__("path", value))
    paths = property(partial(_spelt, name="paths"),
                     lambda self, value: self.__dict__.__setitem__("paths", value))
    captured_order = property(partial(_spelt, name="captured_order"),
                              lambda self, value: self.__dict__.__setitem__("captured_order",
                                                                            value))

    def __reduce__(self) -> tuple:
        # made again by Move's own __init__, every field read (spelt) first
        return (Move, tuple(getattr(self, f.name) for f in dataclasses.fields(Move)))


# The generator's own moves are made without the frozen dataclass's `__init__` (one
# guarded attribute call per field: a fifth of `legal_moves()` on a position with many
# moves), their `__dict__` set in one go (`Position._moves`). Every field is set there
# (`path`, `paths` and `captured_order` of a capture found by layers when first read); a
# field added to `Move` must be added there too (tests/engine/test_movegen_exact.py
# checks that the two agree).
_new_object = object.__new__
_set_attribute = object.__setattr__


class Position:
    """A board and the side to move. Immutable; `play` returns a new one.

    Pieces are three bitboards (`white`, `black`, `kings`) in the engine's
    inner bit layout (see `engine.geometry`); the public methods speak the
    variant's square numbers.
    """

    __slots__ = ("variant", "white", "black", "kings", "turn", "_legal")

    def __init__(self, variant: Variant, white: int, black: int, kings: int, turn: str) -> None:
        self.variant = variant
        self.white = white
        self.black = black
        self.kings = kings
        self.turn = turn
        self._legal: list[Move] | None = None

    # --------------------------------------------------------------- identity
    @property
    def key(self) -> tuple[int, int, int, str]:
        """Exact identity of the position (used for repetition: no collisions)."""
        return (self.white, self.black, self.kings, self.turn)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and other.variant is self.variant
            and other.key == self.key
        )

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Position({self.variant.name}, {self.fen()!r})"

    # ----------------------------------------------------------------- pieces
    def _own_opp(self) -> tuple[int, int]:
        return (self.white, self.black) if self.turn == WHITE else (self.black, self.white)

    def piece_at(self, square: int) -> Piece | None:
        """The piece on `square` (1..num_squares), None if it is empty; EngineError
        for a number that is not a square of this board."""
        bit = 1 << self.variant.square_to_bit[self.variant.check_square(square)]
        if self.white & bit:
            return Piece(WHITE, bool(self.kings & bit))
        if self.black & bit:
            return Piece(BLACK, bool(self.kings & bit))
        return None

    def pieces(self) -> dict[int, Piece]:
        result = {}
        to_square = self.variant.bit_to_square
        for color, mask in ((WHITE, self.white), (BLACK, self.black)):
            while mask:
                low = mask & -mask
                bit = low.bit_length() - 1
                result[to_square[bit]] = Piece(color, bool(self.kings & low))
                mask ^= low
        return dict(sorted(result.items()))

    def occupied(self) -> frozenset[int]:
        return frozenset(self.pieces())

    def count(self, color: str) -> tuple[int, int]:
        """(kings, men) of `color` ("W" or "B"; EngineError otherwise)."""
        if color not in (WHITE, BLACK):
            raise EngineError(f"a colour is W or B, not {color!r:.20}")
        mask = self.white if color == WHITE else self.black
        kings = (mask & self.kings).bit_count()
        return kings, mask.bit_count() - kings

    # ------------------------------------------------------------------ moves
    def raw_moves(self, paths: bool = False) -> list[RawMove]:
        own, opp = self._own_opp()
        return generator_for(self.variant).legal(own, opp, self.kings, self.turn == WHITE, paths)

    def legal_moves(self) -> list[Move]:
        """One move per (origin, destination, captured set), every path kept in `paths`."""
        if self._legal is None:
            own, opp = self._own_opp()
            self._legal = self._moves(generator_for(self.variant).grouped(
                own, opp, self.kings, self.turn == WHITE, self.variant.bit_to_square))
        return list(self._legal)

    def legal_paths(self) -> list[Move]:
        """One move per distinct capture path (quiet moves once each)."""
        return [self._to_move(r, [r]) for r in self.raw_moves(paths=True)]

    def _moves(self, grouped: list[Grouped]) -> list[Move]:
        """Moves from the generator's groups (`MoveGenerator.grouped`: capture paths and
        orders already in square numbers; those found by layers spelt when first read)."""
        variant = self.variant
        square = variant.bit_to_square
        kings = self.kings
        moves = []
        for origin, destination, king_after, captures, spelt in grouped:
            if not captures:  # a quiet move: its one path is in bits
                move = _new_object(Move)
                to = (square[destination],)
                _set_attribute(move, "__dict__", {
                    "origin": square[origin], "destination": to[0], "captures": captures,
                    "path": to, "paths": (to,), "promotes": king_after and not kings >> origin & 1,
                    "captured_order": (), "variant": variant})
            elif type(spelt) is PathsLater:
                move = _new_object(_PathsSpeltLater)
                _set_attribute(move, "__dict__", {
                    "origin": square[origin], "destination": square[destination],
                    "captures": captures, "promotes": king_after and not kings >> origin & 1,
                    "variant": variant})
                _set_attribute(move, "_later", spelt)
            else:
                move = _new_object(Move)
                path, order, paths = spelt  # type: ignore[misc]
                _set_attribute(move, "__dict__", {
                    "origin": square[origin], "destination": square[destination],
                    "captures": captures, "path": path, "paths": paths,
                    "promotes": king_after and not kings >> origin & 1,
                    "captured_order": order, "variant": variant})
            moves.append(move)
        return moves

    def _to_move(self, raw: RawMove, group: list[RawMove]) -> Move:
        square = self.variant.bit_to_square.__getitem__
        origin, destination, captured, king_after, path, order = raw
        captured_order = tuple(map(square, order))
        paths = tuple(tuple(map(square, g[4])) for g in group)
        return Move(
            origin=square(origin),
            destination=square(destination),
            captures=frozenset(captured_order),
            path=paths[0] if group[0] is raw else tuple(map(square, path)),
            paths=paths,
            promotes=king_after and not self.kings >> origin & 1,
            captured_order=captured_order,
            variant=self.variant,
        )

    def play(self, move: Move) -> Position:
        """The position after `move`, which must be legal here."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal in {self.fen()}")
        bits = self.variant.square_to_bit
        captured = 0
        for square in move.captures:
            captured |= 1 << bits[square]
        return self.play_raw((bits[move.origin], bits[move.destination], captured,
                              move.promotes or bool(self.kings >> bits[move.origin] & 1)))

    def play_raw(self, raw: tuple) -> Position:
        """Apply a raw move tuple (origin, destination, captured, king_after, ...)."""
        origin, destination, captured, king_after = raw[0], raw[1], raw[2], raw[3]
        shift = (1 << origin) ^ (1 << destination)
        white, black = self.white, self.black
        if self.turn == WHITE:
            white ^= shift
            black &= ~captured
            turn = BLACK
        else:
            black ^= shift
            white &= ~captured
            turn = WHITE
        kings = self.kings & ~(captured | 1 << origin)
        if king_after:
            kings |= 1 << destination
        return Position(self.variant, white, black, kings, turn)

    # -------------------------------------------------------------- notation
    def move_text(self, move: Move) -> str:
        from engine.notation import move_text

        return move_text(self, move)

    def parse_move(self, text: str) -> Move:
        from engine.notation import parse_move

        return parse_move(self, text)

    def fen(self) -> str:
        from engine.fen import write_fen

        return write_fen(self)

    @classmethod
    def from_fen(cls, text: str, variant: Variant | str) -> Position:
        """The position a PDN FEN describes; FenError if it cannot be read.
        `variant` is a `Variant` or its name."""
        from engine.fen import read_fen

        return read_fen(text, get_variant(variant))


__all__ = [
    "EngineError",
    "FenError",
    "IllegalMoveError",
    "Move",
    "Piece",
    "Position",
]
