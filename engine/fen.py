"""PDN FEN: `W:W21,22,K30:B1-12`.

Read leniently: side to move `W`/`B` (`?` means the variant's first mover),
colour sections in either order or missing, `K` before kings, numeric or
algebraic squares, ranges `1-12`, spaces, a trailing dot, surrounding quotes,
and extra fields some programs append (`:H0`, `:F1`), which are ignored.
Written strictly: numeric squares in ascending order, kings marked, no ranges.
"""

from __future__ import annotations

import re

from engine.position import FenError, Position
from engine.variant import BLACK, WHITE, Variant

_SQUARE = re.compile(r"^(K?)(\d+|[a-jA-J]\d{1,2})(?:-(\d+|[a-jA-J]\d{1,2}))?$")


def read_fen(text: str, variant: Variant) -> Position:
    original = text
    text = "".join(text.strip().strip('"').split())
    if text.endswith("."):
        text = text[:-1]
    if not text:
        raise FenError("empty FEN")
    parts = [p.strip() for p in text.split(":")]
    side = parts[0].upper()
    if side == "?":
        side = variant.first_to_move
    if side not in (WHITE, BLACK):
        raise FenError(f"FEN {original!r}: side to move must be W or B, not {parts[0]!r}")
    bits = {WHITE: 0, BLACK: 0}
    kings = 0
    seen_colours: set[str] = set()
    for part in parts[1:]:
        if not part:
            continue
        colour = part[0].upper()
        if colour not in (WHITE, BLACK):
            if colour in "HF" and part[1:].isdigit():
                continue  # ":H0" / ":F1" (move clocks some programs append): not the position
            raise FenError(f"FEN {original!r}: a piece list must start with W or B, not {part!r}")
        if colour in seen_colours:
            raise FenError(f"FEN {original!r}: {colour} is listed twice")
        seen_colours.add(colour)
        for item in part[1:].split(","):
            item = item.strip().replace(" ", "")
            if not item:
                continue
            match = _SQUARE.match(item)
            if not match:
                raise FenError(f"FEN {original!r}: cannot read square {item!r}")
            is_king, first, last = match.groups()
            start = _square(first, variant, original)
            end = _square(last, variant, original) if last else start
            if end < start:
                raise FenError(f"FEN {original!r}: range {item!r} runs backwards")
            for square in range(start, end + 1):
                bit = 1 << variant.square_to_bit[square]
                if (bits[WHITE] | bits[BLACK]) & bit:
                    raise FenError(f"FEN {original!r}: square {square} holds two pieces")
                bits[colour] |= bit
                if is_king:
                    kings |= bit
    return Position(variant, bits[WHITE], bits[BLACK], kings, side)


def _square(token: str, variant: Variant, original: str) -> int:
    if token.isdigit():
        number = int(token)
        if not 1 <= number <= variant.num_squares:
            raise FenError(
                f"FEN {original!r}: square {number} is not between 1 and {variant.num_squares}"
            )
        return number
    square = variant.square_from_name(token)
    if square is None:
        raise FenError(f"FEN {original!r}: {token!r} is not a dark square of {variant.name}")
    return square


def write_fen(position: Position) -> str:
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
