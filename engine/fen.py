"""PDN FEN: `W:W21,22,K30:B1-12`.

Read leniently: side to move `W`/`B` (`?` means the variant's first mover),
colour sections in either order or missing, `K` before kings, numeric or
algebraic squares, ranges `1-12`, spaces, a trailing dot, surrounding quotes,
and extra fields some programs append (`:H0`, `:F1`), which are ignored.
Refused with a `FenError` naming the fault: anything else, including a board
with no piece at all (no game can be played or scored on it).
Written strictly: numeric squares in ascending order, kings marked, no ranges.
"""

from __future__ import annotations

import re

from engine.errors import EngineError, FenError, shown
from engine.position import Position
from engine.variant import BLACK, WHITE, Variant, get_variant

# ASCII digits only (`\d` would take any script's digits), and no more of them
# than a square number can have: a longer run is reported, never given to int().
_SQUARE = re.compile(r"(K?)(\d+|[a-j]\d+)(?:-(\d+|[a-j]\d+))?", re.ASCII | re.IGNORECASE)
_MAX_DIGITS = 3


def read_fen(text: str, variant: Variant | str) -> Position:
    """The position `text` describes in `variant` (a `Variant` or its name); FenError."""
    variant = get_variant(variant)
    if not isinstance(text, str):
        raise FenError(f"a FEN is text, not {type(text).__name__}")
    where = f"FEN {shown(text)}"
    text = "".join(text.strip().strip('"').split())
    if text.endswith("."):
        text = text[:-1]
    if not text:
        raise FenError("empty FEN")
    parts = text.split(":")
    side = parts[0].upper()
    if side == "?":
        side = variant.first_to_move
    if side not in (WHITE, BLACK):
        raise FenError(f"{where}: side to move must be W or B, not {shown(parts[0], 12)}")
    bits = {WHITE: 0, BLACK: 0}
    kings = 0
    seen_colours: set[str] = set()
    for part in parts[1:]:
        if not part:
            continue
        colour = part[0].upper()
        if colour not in (WHITE, BLACK):
            if colour in "HF" and part[1:].isascii() and part[1:].isdigit():
                continue  # ":H0" / ":F1" (move clocks some programs append): not the position
            raise FenError(f"{where}: a piece list must start with W or B, "
                           f"not {shown(part, 12)}")
        if colour in seen_colours:
            raise FenError(f"{where}: {colour} is listed twice")
        seen_colours.add(colour)
        for item in part[1:].split(","):
            if not item:
                continue
            match = _SQUARE.fullmatch(item)
            if not match:
                raise FenError(f"{where}: cannot read square {shown(item, 12)}")
            is_king, first, last = match.groups()
            start = _square(first, variant, where)
            end = _square(last, variant, where) if last else start
            if end < start:
                raise FenError(f"{where}: range {shown(item, 12)} runs backwards")
            for square in range(start, end + 1):
                bit = 1 << variant.square_to_bit[square]
                if (bits[WHITE] | bits[BLACK]) & bit:
                    raise FenError(f"{where}: square {square} holds two pieces")
                bits[colour] |= bit
                if is_king:
                    kings |= bit
    if not bits[WHITE] | bits[BLACK]:
        raise FenError(f"{where}: there is no piece on the board")
    return Position(variant, bits[WHITE], bits[BLACK], kings, side)


def _square(token: str, variant: Variant, where: str) -> int:
    if not token.isdigit():
        square = variant.square_from_name(token)
        if square is None:
            raise FenError(f"{where}: {shown(token, 12)} is not a dark square of {variant.name}")
        return square
    number = int(token) if len(token) <= _MAX_DIGITS else None  # int() refuses 4,300+ digits
    if number is None or not 1 <= number <= variant.num_squares:
        shown_number = number if number is not None else shown(token, 12)
        raise FenError(
            f"{where}: square {shown_number} is not between 1 and {variant.num_squares}"
        )
    return number


def write_fen(position: Position) -> str:
    """`position` as a strict PDN FEN; EngineError for anything but a `Position`."""
    if not isinstance(position, Position):
        raise EngineError(f"write_fen writes a Position, not {type(position).__name__}")
    pieces = position.pieces()
    sections = []
    for colour in (WHITE, BLACK):
        squares = [
            ("K" if piece.king else "") + str(square)
            for square, piece in pieces.items()
            if piece.color == colour
        ]
        sections.append(colour + ",".join(squares))
    return f"{position.turn}:{sections[0]}:{sections[1]}"
