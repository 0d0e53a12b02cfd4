"""Variants as data: one frozen record per variant, fields are the rule choices.

Adding a variant is adding a record to `VARIANTS` (plus code only for a rule
the engine has never seen). The fields mirror the table in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from engine.geometry import Geometry, geometry_for

WHITE = "W"
BLACK = "B"

# Capture precedence rules (how to choose among capture sequences).
FREE = "free"  # any complete sequence (Russian, English, Pool)
MAJORITY = "majority"  # most pieces (Brazilian, International)
MAJORITY_THEN_KINGS = "majority-then-kings"  # most pieces, then most kings (Portuguese, Spanish)
ITALIAN = "italian"  # most pieces, with a king, most kings, king earliest

# What happens to a man that reaches the last row in the middle of a capture.
PROMOTE_AT_END = "at-end"  # stays a man, goes on capturing; crowned only if it stops there
PROMOTE_CONTINUE = "continue"  # crowned at once, goes on capturing as a king (Russian)
PROMOTE_STOP = "stop"  # crowned, the move ends there


class UnknownVariantError(ValueError):
    """A variant name or PDN GameType the engine does not serve."""


@dataclass(frozen=True)
class EndgameLimit:
    """A draw after `moves` moves each once the material matches.

    `strong` lists the accepted material of the stronger side as (kings, men)
    pairs; `weak` that of the other side. `equal_kings` instead matches
    endings where both sides have the same number of kings and the total
    number of pieces is in `total` (the Russian rule). `long_diagonal`
    requires one of the stronger side's kings on the long diagonal when the
    count starts (the Portuguese federation's condition for the Forcada).
    """

    moves: int
    strong: tuple[tuple[int, int], ...] = ()
    weak: tuple[tuple[int, int], ...] = ()
    equal_kings: bool = False
    total: tuple[int, ...] = ()
    long_diagonal: bool = False


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    game_type: int
    size: int
    first_to_move: str
    mirrored: bool
    men_capture_backwards: bool
    flying_kings: bool
    men_capture_kings: bool
    capture_rule: str
    promotion: str
    numbering: str  # "standard" (1 = far-left dark square), "italian" (1 = a8), "spanish" (1 = h1)
    notation: str  # official move notation: "numeric" or "algebraic"
    no_progress_moves: int  # moves each with no capture and no man move; 0 = no such rule
    endgame_limits: tuple[EndgameLimit, ...] = field(default=())

    @property
    def num_squares(self) -> int:
        return self.size * self.size // 2

    @property
    def rows_of_men(self) -> int:
        return self.size // 2 - 1

    @property
    def pdn_game_type(self) -> str:
        """The long PDN GameType tag, e.g. ``26,W,8,8,A0,0``."""
        colour = "W" if self.first_to_move == WHITE else "B"
        notation = "A0" if self.notation == "algebraic" else (
            "N2" if self.numbering in ("italian",) or self.size == 10 else "N1"
        )
        return f"{self.game_type},{colour},{self.size},{self.size},{notation},{int(self.mirrored)}"

    @cached_property
    def geometry(self) -> Geometry:
        return geometry_for(self.size)

    # --- squares ---------------------------------------------------------
    @cached_property
    def _coords(self) -> tuple[tuple[int, int], ...]:
        """Square number -> (file, rank), index 0 unused."""
        per_row = self.size // 2
        coords: list[tuple[int, int]] = [(-1, -1)]
        for number in range(1, self.num_squares + 1):
            k = number - 1
            if self.numbering == "spanish":  # 180-degree turn of the Italian order
                k = self.num_squares - 1 - k
            row_from_top, index = divmod(k, per_row)
            rank = self.size - 1 - row_from_top
            # dark squares: file + rank odd on mirrored boards, even otherwise
            parity = (rank + (1 if self.mirrored else 0)) % 2
            coords.append((2 * index + parity, rank))
        return tuple(coords)

    @cached_property
    def _square_by_coords(self) -> dict[tuple[int, int], int]:
        return {c: n for n, c in enumerate(self._coords) if n}

    @cached_property
    def square_to_bit(self) -> tuple[int, ...]:
        """Square number -> bit index in the engine's bitboards (index 0 unused)."""
        bits = [-1]
        for file, rank in self._coords[1:]:
            inner_file = self.size - 1 - file if self.mirrored else file
            bits.append(self.geometry.bit_of(inner_file, rank))
        return tuple(bits)

    @cached_property
    def bit_to_square(self) -> tuple[int, ...]:
        """Bit index -> square number (0 for the ghost bits): a tuple, indexed fast."""
        table = [0] * (max(self.square_to_bit) + 1)
        for number, bit in enumerate(self.square_to_bit):
            if number:
                table[bit] = number
        return tuple(table)

    def square_coords(self, square: int) -> tuple[int, int]:
        """(file, rank), 0-based, a1 = (0, 0), on the board as White sees it."""
        if not 1 <= square <= self.num_squares:
            raise ValueError(f"square {square} is not on a {self.size}x{self.size} board")
        return self._coords[square]

    def square_at(self, file: int, rank: int) -> int | None:
        return self._square_by_coords.get((file, rank))

    def square_name(self, square: int) -> str:
        file, rank = self.square_coords(square)
        return f"{'abcdefghij'[file]}{rank + 1}"

    def square_from_name(self, name: str) -> int | None:
        name = name.strip().lower()
        if len(name) < 2 or name[0] not in "abcdefghij"[: self.size] or not name[1:].isdigit():
            return None
        return self.square_at("abcdefghij".index(name[0]), int(name[1:]) - 1)

    def reading_order_to_square(self, k: int) -> int:
        """Square number of the k-th dark square in reading order from White's seat
        (far row first, left to right): the hardware's numbering."""
        if not 1 <= k <= self.num_squares:
            raise ValueError(f"reading-order index {k} is out of range")
        per_row = self.size // 2
        row_from_top, index = divmod(k - 1, per_row)
        rank = self.size - 1 - row_from_top
        parity = (rank + (1 if self.mirrored else 0)) % 2
        square = self.square_at(2 * index + parity, rank)
        assert square is not None
        return square

    def square_to_reading_order(self, square: int) -> int:
        file, rank = self.square_coords(square)
        return (self.size - 1 - rank) * (self.size // 2) + file // 2 + 1

    def initial_fen(self) -> str:
        men = self.rows_of_men * self.size // 2
        if self.numbering == "spanish":  # White starts on the low numbers
            white, black = (1, men), (self.num_squares - men + 1, self.num_squares)
        else:
            white, black = (self.num_squares - men + 1, self.num_squares), (1, men)
        return f"{self.first_to_move}:W{white[0]}-{white[1]}:B{black[0]}-{black[1]}"

    def initial_position(self):  # -> Position (import cycle avoided)
        from engine.position import Position

        return Position.from_fen(self.initial_fen(), self)

    def __repr__(self) -> str:
        return f"Variant({self.name!r})"


_RUSSIAN_LIMITS = (
    EndgameLimit(moves=15, strong=((3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0),
                                   (10, 0), (11, 0), (12, 0)), weak=((1, 0),)),
    EndgameLimit(moves=5, strong=((2, 0), (1, 1)), weak=((1, 0),)),
    EndgameLimit(moves=30, equal_kings=True, total=(4, 5)),
    EndgameLimit(moves=60, equal_kings=True, total=(6, 7)),
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("brazilian", "Brazilian draughts", 26, 8, WHITE, False, True, True, True,
                MAJORITY, PROMOTE_AT_END, "standard", "algebraic", 40),
        Variant("international", "International draughts", 20, 10, WHITE, False, True, True,
                True, MAJORITY, PROMOTE_AT_END, "standard", "numeric", 25,
                (EndgameLimit(moves=10, strong=((3, 0), (2, 1), (1, 2)), weak=((1, 0),)),
                 EndgameLimit(moves=5, strong=((2, 0), (1, 1), (1, 0)), weak=((1, 0),)))),
        Variant("russian", "Russian draughts", 25, 8, WHITE, False, True, True, True, FREE,
                PROMOTE_CONTINUE, "standard", "algebraic", 15, _RUSSIAN_LIMITS),
        Variant("portuguese", "Portuguese draughts", 28, 8, WHITE, True, False, True, True,
                MAJORITY_THEN_KINGS, PROMOTE_STOP, "spanish", "numeric", 20,
                (EndgameLimit(moves=12, strong=((3, 0),), weak=((1, 0),), long_diagonal=True),)),
        Variant("spanish", "Spanish draughts", 24, 8, WHITE, True, False, True, True,
                MAJORITY_THEN_KINGS, PROMOTE_STOP, "spanish", "numeric", 40),
        Variant("italian", "Italian draughts", 22, 8, WHITE, True, False, False, False, ITALIAN,
                PROMOTE_STOP, "italian", "numeric", 40),
        Variant("english", "English draughts / American checkers", 21, 8, BLACK, False, False,
                False, True, FREE, PROMOTE_STOP, "standard", "numeric", 40),
        Variant("pool", "Pool checkers", 23, 8, BLACK, False, True, True, True, FREE,
                PROMOTE_AT_END, "standard", "numeric", 40),
    )
}

_ALIASES = {"american": "english", "checkers": "english", "brazil": "brazilian",
            "draughts": "international", "damas": "brazilian"}


def get_variant(name: str | int) -> Variant:
    """A variant by name (`brazilian`), short PDN GameType (`26`) or long one
    (`26,W,8,8,A0,0`)."""
    text = str(name).strip().lower()
    if text in VARIANTS:
        return VARIANTS[text]
    alias = _ALIASES.get(text)
    if alias:
        return VARIANTS[alias]
    head = text.split(",", 1)[0].strip()
    if head.isdigit():
        for variant in VARIANTS.values():
            if variant.game_type == int(head):
                return variant
        raise UnknownVariantError(f"PDN GameType {head} is not a variant this board plays "
                                  f"(known: {_known_game_types()})")
    raise UnknownVariantError(f"unknown variant {name!r}; choose one of: {', '.join(VARIANTS)}")


def _known_game_types() -> str:
    return ", ".join(f"{v.game_type} {v.name}" for v in VARIANTS.values())
