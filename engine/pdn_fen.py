"""Lenient reading of the FEN tag of PDN files, before the strict parser sees it.

FEN tags in the wild add a trailing dot (`...:B1,2,3.` in the USSR archive),
leave the side to move as `?`, write ranges (`B1-20`), put spaces after
commas, use algebraic squares, or append extra fields (`:H0:F1`). This module
rewrites such a tag into strict PDN FEN (`W:W21,22,K30:B1,2`) that
`Position.from_fen` accepts, and returns the sides to move worth trying (both,
when the tag says `?`). It needs the variant only to turn algebraic squares
into numbers.
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = ["FenTagError", "normalise_fen_tag"]


class _Squares(Protocol):
    """What this module needs of a variant (engine.Variant satisfies it)."""

    num_squares: int

    def square_name(self, sq: int) -> str: ...


class FenTagError(ValueError):
    """The FEN tag cannot be read even leniently; the message says why."""


_SQUARE = re.compile(r"(K?)(\d+|[a-z]\d{1,2})(?:-(\d+|[a-z]\d{1,2}))?$", re.IGNORECASE)


def normalise_fen_tag(text: str, variant: _Squares, first_to_move: str) -> list[str]:
    """Strict FEN strings for a lenient FEN tag, one per side to move to try.

    `first_to_move` is the side tried first when the tag says `?` (the
    variant's first mover). Raises `FenTagError` for text that is not a FEN.
    """
    body = re.sub(r"\s+", "", text).rstrip(".")
    fields = body.split(":")
    side = fields[0].upper()
    if side not in ("W", "B", "?"):
        raise FenTagError(f"FEN {text!r}: side to move must be W, B or ?, not {fields[0]!r}")
    pieces: dict[str, list[str]] = {"W": [], "B": []}
    seen: set[int] = set()
    names = {variant.square_name(sq).lower(): sq for sq in range(1, variant.num_squares + 1)}
    for part in fields[1:]:
        colour = part[:1].upper()
        if colour not in pieces:
            continue  # extra fields some programs append (":H0", ":F1"): not position
        for item in filter(None, part[1:].split(",")):
            for king, square in _expand(item, names, variant.num_squares, text):
                if square in seen:
                    raise FenTagError(f"FEN {text!r}: square {square} is given twice")
                seen.add(square)
                pieces[colour].append(f"{'K' if king else ''}{square}")
    if side == "?":
        other = "B" if first_to_move == "W" else "W"
        sides = [first_to_move, other]
    else:
        sides = [side]
    return [f"{s}:W{','.join(pieces['W'])}:B{','.join(pieces['B'])}" for s in sides]


def _expand(item: str, names: dict[str, int], size: int, text: str) -> list[tuple[bool, int]]:
    """One FEN list item (`K30`, `21`, `1-12`, `c3`) as (king, square) pairs."""
    match = _SQUARE.match(item)
    if not match:
        raise FenTagError(f"FEN {text!r}: cannot read {item!r} as a square")
    king = bool(match.group(1))
    first = _square(match.group(2), names, size, text)
    last = first if match.group(3) is None else _square(match.group(3), names, size, text)
    if last < first:
        raise FenTagError(f"FEN {text!r}: range {item!r} runs backwards")
    return [(king, sq) for sq in range(first, last + 1)]


def _square(token: str, names: dict[str, int], size: int, text: str) -> int:
    if token.isdigit():
        square = int(token)
        if not 1 <= square <= size:
            raise FenTagError(f"FEN {text!r}: square {square} is not on a {size}-square board")
        return square
    if token.lower() not in names:
        raise FenTagError(f"FEN {text!r}: {token!r} is not a playing square")
    return names[token.lower()]


def fen_squares(text: str) -> list[int]:
    """Numbers mentioned in a FEN tag, to guess the board size before a variant is known."""
    return [int(n) for n in re.findall(r"\d+", text.split(":", 1)[-1])]
