"""Hardware squares <-> the variant's own squares.

The board numbers its squares in reading order from White's seat; each variant
numbers them its own way (Portuguese, Spanish and Italian are also played with
the board turned a quarter turn, which the layout absorbs). This map is the
only place the two numberings meet, so the recogniser never sees hardware
numbers and the hardware never sees variant numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Variant
from host.errors import UserError


class SquareMap:
    """Bijection between hardware reading-order numbers and `variant` squares."""

    def __init__(
        self,
        variant: Variant,
        board_squares: int | None = None,
        turned: Mapping[int, int] | None = None,
    ) -> None:
        """`turned`: board square -> reading-order square from White's seat, when the board
        reports squares for another orientation than the one played (see `quarter_turn`)."""
        n = variant.num_squares
        if board_squares is not None and board_squares != n:
            raise UserError(
                f"{variant.name} is played on {variant.size}x{variant.size} ({n} squares) "
                f"but this board has {board_squares} squares"
            )
        turned = turned or {}
        self.to_variant_map = {
            k: variant.reading_order_to_square(turned.get(k, k)) for k in range(1, n + 1)
        }
        self.to_hardware_map = {sq: k for k, sq in self.to_variant_map.items()}

    def occupied(self, hardware: Iterable[int]) -> frozenset[int]:
        """Sensed hardware squares as variant squares."""
        return frozenset(self.to_variant_map[k] for k in hardware if k in self.to_variant_map)

    def hardware_squares(self, squares: Iterable[int]) -> frozenset[int]:
        return frozenset(self.to_hardware_map[sq] for sq in squares)

    def frame(self, frame: Mapping[int, tuple[int, int, int]]) -> dict[int, tuple[int, int, int]]:
        """An LED frame in variant squares, re-keyed for the hardware."""
        return {self.to_hardware_map[sq]: colour for sq, colour in frame.items()}
