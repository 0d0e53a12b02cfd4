"""Pieces as written: "W", "B", "WK", "BK".

The recogniser's `pieces()`, the page's protocol, the status file and the journal
write a piece this way; one place says how.
"""

from __future__ import annotations

from engine.position import Piece

#: pieces as the page, the status file and the API write them
CODES = ("W", "B", "WK", "BK")


def code_of(piece: Piece) -> str:
    """`piece` as written: "W", "B", "WK" or "BK"."""
    return piece.color + ("K" if piece.king else "")


def piece_of(code: str) -> Piece:
    """The piece a code names (one of CODES)."""
    if code not in CODES:
        raise ValueError(f"piece must be one of {', '.join(CODES)}, not {code!r}")
    return Piece(code[0], code.endswith("K"))
