"""Which piece stands on each occupied square: what the page draws.

The switches see only *that* a square is occupied. To draw the board as it
physically stands, the host follows the pieces from one snapshot to the next
the way a watcher would: a piece that leaves a square is in a hand; a piece
that lands is the one lifted most recently (or the one the simulated hand
says it put down, from the tray for instance). Where the game has a piece of
the same colour on a square, the game's word wins on man or king, because a
stacked king cannot be seen by a switch: the page shows men and kings as the
game knows them.

Pieces are written as the page writes them: "W", "B", "WK", "BK".
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import Position

PIECES = ("W", "B", "WK", "BK")


def piece_code(colour: str, king: bool) -> str:
    return colour + ("K" if king else "")


def position_pieces(position: Position) -> dict[int, str]:
    """The pieces of `position` as square -> code."""
    return {sq: piece_code(p.color, p.king) for sq, p in position.pieces().items()}


class PieceTracker:
    """Follows pieces across occupancy snapshots (squares in the variant's numbering)."""

    def __init__(self, pieces: Mapping[int, str] | None = None) -> None:
        self._on: dict[int, str] = {}
        self._hand: list[str] = []
        self._placing: dict[int, str] = {}
        self.reset(pieces or {})

    def reset(self, pieces: Mapping[int, str]) -> None:
        """The board was set up (or the game resumed) with exactly these pieces."""
        self._on = dict(pieces)
        self._hand.clear()
        self._placing.clear()

    def placing(self, square: int, piece: str) -> None:
        """The next piece to land on `square` is `piece` (a hand that knows what it holds)."""
        if piece not in PIECES:
            raise ValueError(f"piece must be one of {', '.join(PIECES)}, not {piece!r}")
        self._placing[square] = piece

    def follow(self, occupied: frozenset[int], position: Position) -> None:
        """A new snapshot: pieces that left go to the hand; pieces that landed come from it."""
        for square in sorted(set(self._on) - occupied):
            self._hand.append(self._on.pop(square))
        for square in sorted(occupied - set(self._on)):
            chosen = self._placing.pop(square, None)
            if chosen is not None:
                self._take_from_hand(chosen)
            elif self._hand:
                chosen = self._hand.pop()
            else:
                known = position.piece_at(square)
                colour = known.color if known is not None else position.turn
                chosen = piece_code(colour, bool(known and known.king))
            self._on[square] = chosen
        del self._hand[:-64]  # pieces put aside for good (captured) need not be remembered

    def pieces(self, position: Position) -> dict[int, str]:
        """Square -> piece for every occupied square, men and kings as the game knows them."""
        shown: dict[int, str] = {}
        for square, piece in self._on.items():
            known = position.piece_at(square)
            if known is not None and known.color == piece[0]:
                piece = piece_code(known.color, known.king)
            shown[square] = piece
        return dict(sorted(shown.items()))

    def _take_from_hand(self, piece: str) -> None:
        for i in range(len(self._hand) - 1, -1, -1):
            if self._hand[i][0] == piece[0]:
                del self._hand[i]
                return
