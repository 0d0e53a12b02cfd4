"""Clock times in PDN comments: written as lidraughts exports them, read in both forms.

lidraughts (scaladraughts' `format.pdn.Move`) writes both clocks after every move,
the mover's letter in lower case (its clock stopped) and the other's in upper case
(running), whole seconds as `h:mm:ss`:

    1. 32-28 {[%clock w0:04:58 B0:05:00]} 19-23 {[%clock W0:04:58 b0:04:59]}

The PGN supplement's `[%clk h:mm:ss]` (lichess, DGT, chess.com) gives the mover's
clock alone, seconds possibly with decimals. Both are read; other comment text
around them is left alone. `TimeControl` is seconds + increment (`300+3`).
"""

from __future__ import annotations

import math
import re

__all__ = ["clock_comment", "clock_text", "read_clocks"]

_CLOCK = re.compile(
    r"\[%clock\s+([wWbB])\s*(\d{1,3}:\d\d:\d\d(?:\.\d+)?)"
    r"(?:\s+([wWbB])\s*(\d{1,3}:\d\d:\d\d(?:\.\d+)?))?\s*\]"
)
_CLK = re.compile(r"\[%clk\s+(\d{1,3}:\d\d:\d\d(?:\.\d+)?)\s*\]")


def clock_text(seconds: float) -> str:
    """`h:mm:ss`, whole seconds rounded as lidraughts does (never below 0)."""
    whole = max(0, math.floor(seconds + 0.5))  # half a second up, as lidraughts rounds
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def clock_comment(mover: str, white: float, black: float) -> str:
    """The comment after a move by `mover` ("W" or "B") with both clocks (seconds) after
    it: `[%clock w0:04:58 B0:05:00]` (the mover's clock stopped, the other's running)."""
    w, b = ("w", "B") if mover == "W" else ("W", "b")
    return f"[%clock {w}{clock_text(white)} {b}{clock_text(black)}]"


def _seconds(text: str) -> float:
    hours, minutes, seconds = text.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def read_clocks(comment: str, mover: str) -> dict[str, float]:
    """The clock times a comment after a move by `mover` gives, by side ("W", "B"), in
    seconds: both from `[%clock ...]`, the mover's from `[%clk ...]`; {} if none."""
    found: dict[str, float] = {}
    match = _CLOCK.search(comment)
    if match is not None:
        pairs = [(match.group(1), match.group(2)), (match.group(3), match.group(4))]
        for letter, value in pairs:
            if letter is not None and value is not None:
                found[letter.upper()] = _seconds(value)
        return found
    match = _CLK.search(comment)
    if match is not None:
        found[mover] = _seconds(match.group(1))
    return found
