"""Variants as data: one frozen record per variant, fields are the rule choices.

Adding a variant is adding a record to `VARIANTS` (plus code only for a rule
the engine has never seen). The fields mirror the table in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from engine.errors import EngineError, UnknownVariantError, shown, square_out_of_range
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


# How an endgame limit counts its moves (docs/rules.md, "How a game ends").
EACH = "each"  # N moves by each side: 2N plies after the count starts
STRONGER = "stronger"  # the stronger side's Nth move after the count starts ("his 15th move")

# What starts an endgame count afresh.
MATERIAL = "material"  # any change of material: a capture or a promotion
FAMILY = "family"  # only entering the rule's material from outside it

# Conditions on the long diagonal (a1-h8; h1-a8 on the mirrored boards).
STRONG_KING_AT_START = "strong-king-at-start"  # a stronger side's king on it when the count starts
LONE_KING_HOLDS = "lone-king-holds"  # only moves after which the lone king is alone on it count

# How multi-captures are written.
SHORT = "short"  # origin and destination (`28x19`), every landing only where that is ambiguous
FULL = "full"  # every landing square (`10x19x26`), as American checkers books do


@dataclass(frozen=True)
class EndgameLimit:
    """A draw when the stronger side has not won an ending within `moves` moves.

    `strong` lists the accepted material of the stronger side as (kings, men)
    pairs and `weak` that of the other side; a colour is "stronger" in a
    position when its material is in `strong` and the other's in `weak` (in
    king v king both are). `both_kings_total` instead matches positions where
    both sides have a king and the total number of pieces is in it (Russian
    7.2.6). `rule` names the article, for the outcome and the docs.
    """

    rule: str
    moves: int
    strong: tuple[tuple[int, int], ...] = ()
    weak: tuple[tuple[int, int], ...] = ((1, 0),)
    both_kings_total: tuple[int, ...] = ()
    counting: str = EACH
    restart: str = MATERIAL
    long_diagonal: str | None = None


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
    endgame_limits: tuple[EndgameLimit, ...] = field(default=())  # in order of precedence
    capture_notation: str = SHORT  # how multi-captures are written: SHORT or FULL

    def __hash__(self) -> int:
        """By name only: equal variants have equal names, and the engine looks its
        move generator up by variant on every `legal_moves()`, where hashing every
        field (the endgame limits included) cost a tenth of a typical call."""
        return hash(self.name)

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

    def check_square(self, square: int) -> int:
        """`square` itself if this board has it; else an EngineError saying so."""
        if isinstance(square, bool) or not isinstance(square, int):
            raise EngineError(f"a square is a number from 1 to {self.num_squares}, "
                              f"not {type(square).__name__}")
        if not 1 <= square <= self.num_squares:
            raise square_out_of_range(square, self.num_squares)
        return square

    def square_coords(self, square: int) -> tuple[int, int]:
        """(file, rank), 0-based, a1 = (0, 0), on the board as White sees it."""
        return self._coords[self.check_square(square)]

    def square_at(self, file: int, rank: int) -> int | None:
        return self._square_by_coords.get((file, rank))

    def square_name(self, square: int) -> str:
        file, rank = self.square_coords(square)
        return f"{'abcdefghij'[file]}{rank + 1}"

    def square_from_name(self, name: str) -> int | None:
        """The dark square named `c3`, or None (a light square, off the board, not a name);
        EngineError for a name that is not text."""
        if not isinstance(name, str):
            raise EngineError(f"a square name is text, not {type(name).__name__}")
        name = name.strip().lower()
        rank = name[1:]
        if (not 2 <= len(name) <= 3 or name[0] not in "abcdefghij"[: self.size]
                or not (rank.isascii() and rank.isdigit())):
            return None
        return self.square_at("abcdefghij".index(name[0]), int(rank) - 1)

    def reading_order_to_square(self, k: int) -> int:
        """Square number of the k-th dark square in reading order from White's seat
        (far row first, left to right): the hardware's numbering."""
        self.check_square(k)  # the same range: one index per dark square
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


# FMJD-64 "Rules of the game" 7.2.4-7.2.8 (7.2.3 is repetition, 7.2.5 the
# no-progress count), listed in the order they are named when two fall due on
# the same ply: the rule for the smaller material first.
_RUSSIAN_LIMITS = (
    EndgameLimit("7.2.8", 5, strong=((2, 0), (1, 1), (1, 0)), counting=STRONGER, restart=FAMILY),
    EndgameLimit("7.2.7", 5, strong=((3, 0), (2, 1), (1, 2)), counting=STRONGER, restart=FAMILY,
                 long_diagonal=LONE_KING_HOLDS),
    EndgameLimit("7.2.4", 15, strong=tuple((kings, 0) for kings in range(3, 13)),
                 counting=STRONGER),
    EndgameLimit("7.2.6", 30, both_kings_total=(4, 5)),
    EndgameLimit("7.2.6", 60, both_kings_total=(6, 7)),
)
# Seed 002 (the Brazilian federation's text of the FMJD rules), articles 6.3 and 6.4.
_INTERNATIONAL_LIMITS = (
    EndgameLimit("6.4", 5, strong=((2, 0), (1, 1), (1, 0)), restart=FAMILY),
    EndgameLimit("6.3", 10, strong=((3, 0), (2, 1), (1, 2)), restart=FAMILY),
)
# The Portuguese federation's Forcada (docs/rules.md says why the diagonal).
_PORTUGUESE_LIMITS = (
    EndgameLimit("Forcada", 12, strong=((3, 0),), long_diagonal=STRONG_KING_AT_START),
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("brazilian", "Brazilian draughts", 26, 8, WHITE, False, True, True, True,
                MAJORITY, PROMOTE_AT_END, "standard", "algebraic", 40),
        Variant("international", "International draughts", 20, 10, WHITE, False, True, True,
                True, MAJORITY, PROMOTE_AT_END, "standard", "numeric", 25,
                _INTERNATIONAL_LIMITS),
        Variant("russian", "Russian draughts", 25, 8, WHITE, False, True, True, True, FREE,
                PROMOTE_CONTINUE, "standard", "algebraic", 15, _RUSSIAN_LIMITS),
        Variant("portuguese", "Portuguese draughts", 28, 8, WHITE, True, False, True, True,
                MAJORITY_THEN_KINGS, PROMOTE_STOP, "spanish", "numeric", 20,
                _PORTUGUESE_LIMITS),
        Variant("spanish", "Spanish draughts", 24, 8, WHITE, True, False, True, True,
                MAJORITY_THEN_KINGS, PROMOTE_STOP, "spanish", "numeric", 40),
        Variant("italian", "Italian draughts", 22, 8, WHITE, True, False, False, False, ITALIAN,
                PROMOTE_STOP, "italian", "numeric", 40),
        Variant("english", "English draughts / American checkers", 21, 8, BLACK, False, False,
                False, True, FREE, PROMOTE_STOP, "standard", "numeric", 40,
                capture_notation=FULL),
        Variant("pool", "Pool checkers", 23, 8, BLACK, False, True, True, True, FREE,
                PROMOTE_AT_END, "standard", "numeric", 40),
    )
}

_ALIASES = {"american": "english", "checkers": "english", "brazil": "brazilian",
            "draughts": "international", "damas": "brazilian"}


def get_variant(name: str | int | Variant) -> Variant:
    """A variant by name (`brazilian`), short PDN GameType (`26`) or long one
    (`26,W,8,8,A0,0`); a `Variant` is returned as it is, so every function
    that takes a variant takes its name too."""
    if isinstance(name, Variant):
        return name
    if isinstance(name, bool) or not isinstance(name, str | int):
        raise UnknownVariantError(f"a variant is named by text, not {type(name).__name__}")
    if isinstance(name, int):
        return _by_game_type(name) if 0 < name < 1000 else _by_game_type(None)
    text = name.strip().lower()
    if text in VARIANTS:
        return VARIANTS[text]
    alias = _ALIASES.get(text)
    if alias:
        return VARIANTS[alias]
    head = text.split(",", 1)[0].strip()
    if head.isascii() and head.isdigit():
        # a number of thousands of digits is no GameType (and int() would refuse it)
        return _by_game_type(int(head) if len(head) <= 3 else None)
    raise UnknownVariantError(f"unknown variant {shown(name)}; choose one of: "
                              f"{', '.join(VARIANTS)}")


def _by_game_type(number: int | None) -> Variant:
    for variant in VARIANTS.values():
        if variant.game_type == number:
            return variant
    what = f"PDN GameType {number}" if number is not None else "that PDN GameType"
    raise UnknownVariantError(f"{what} is not a variant this board plays "
                              f"(known: {_known_game_types()})")


def _known_game_types() -> str:
    return ", ".join(f"{v.game_type} {v.name}" for v in VARIANTS.values())

