"""Result texts: every form real PDN files write, and the few the writer allows.

Files say who won in several dialects. The PDN standard's forms are `1-0`,
`0-1`, `1/2-1/2` (chess style), `2-0`, `1-1`, `0-2` (FMJD match points),
`0-0` (double forfeit) and `*` (unknown or unfinished). Russian files write
`1:0`, `0:1`, `1/2:1/2`, `2:0`, `1:1`, `0:2`; older files `½-½`; Dutch
tournament files write the match score (`4-6`, `1-9`: points out of 10, or
whatever the event counted). All of these are read; `meaning` says who won,
so a result can be compared with the engine's verdict whatever its dialect.
Only the standard forms are written (`WRITTEN`).
"""

from __future__ import annotations

import re
from typing import Literal

Meaning = Literal["W", "B", "draw", "double-forfeit", "unknown"]

# The forms PDN 3.0 names; the writer refuses any other result.
WRITTEN = ("1-0", "0-1", "1/2-1/2", "2-0", "1-1", "0-2", "0-0", "*")

# What each fixed form means (after `_canonical`: colon -> dash, ½ -> 1/2).
_FIXED: dict[str, Meaning] = {
    "1-0": "W", "2-0": "W",
    "0-1": "B", "0-2": "B",
    "1/2-1/2": "draw", "1-1": "draw",
    "0-0": "double-forfeit",
    "*": "unknown",
}
# A match score written in place of a result: `4-6`, `10-0`, `1-9`.
_SCORE = re.compile(r"^(\d{1,2})-(\d{1,2})$")

# In movetext, the fixed forms (both separators) are game terminators; a
# score like `4-6` is only taken as one by context (see `engine.pdn_records`),
# since on a 10x10 board it is also a legal move.
TERMINATOR = re.compile(
    r"1/2[-:]1/2|½[-:]½|(?:1[-:]0|0[-:]1|2[-:]0|0[-:]2|1[-:]1|0[-:]0)(?![0-9])|\*"
)


def _canonical(text: str) -> str:
    return text.strip().replace(" ", "").replace("½", "1/2").replace(":", "-")


def meaning(text: str | None) -> Meaning | None:
    """Who a result text says won: `W`, `B`, `draw`, `double-forfeit`, `unknown`.

    None for no text, or a text that is no result at all (`?`, `abc`). A match
    score counts as a win for the side with more points, a draw when equal.
    """
    if text is None:
        return None
    canonical = _canonical(text)
    if canonical in _FIXED:
        return _FIXED[canonical]
    score = _SCORE.match(canonical)
    if score:
        white, black = int(score.group(1)), int(score.group(2))
        return "W" if white > black else "B" if black > white else "draw"
    return None


def is_result(text: str | None) -> bool:
    """Whether `text` is a result in any of the dialects read."""
    return meaning(text) is not None


def is_score(text: str) -> bool:
    """A match score (`4-6`) rather than one of the fixed forms."""
    canonical = _canonical(text)
    return canonical not in _FIXED and bool(_SCORE.match(canonical))


def is_russian_form(text: str | None) -> bool:
    """`0:1`, `1/2:1/2`...: the colon is a habit of Russian files."""
    return text is not None and ":" in text and is_result(text)


def standard(text: str | None) -> str | None:
    """The chess-style form of a decided result (`1-0`, `0-1`, `1/2-1/2`), else the text."""
    return {"W": "1-0", "B": "0-1", "draw": "1/2-1/2"}.get(meaning(text) or "", text)
