"""Endgame knowledge: material that cannot win, so the evaluation calls it a draw.

Why: a side that cannot win must not avoid a draw the rules grant, and a side
that can must not drift into one. Search alone sees the draw counters only
within its horizon (see `draws.py`), so this module tells the evaluation
which kings-only endings are drawn by material, as draughts theory has it:

- one king against one king: drawn in every variant;
- flying kings: two pieces against a lone king cannot force a win; three
  against a lone king that holds the long diagonal cannot either (on 10x10
  not even when it does not, in practice: the endgame limits end it first);
- short kings (English, Italian): two kings beat one, so only 1 v 1 is drawn.

`draw_factor` returns what the evaluation is multiplied by: 1 for a normal
position, 0 when the stronger side cannot win (then a draw by the rules is
worth exactly as much, so no side gives material away to dodge one), a
quarter when it can win in theory but rarely does in practice.
"""

from __future__ import annotations

DRAWN = 0.0
HARD = 0.25  # winnable in theory, often drawn in practice
NORMAL = 1.0


def draw_factor(flying: bool, size: int, strong_kings: int, strong_men: int, weak_kings: int,
                weak_men: int, weak_king_on_long_diagonal: bool) -> float:
    """How much of the evaluation to keep; only a lone king on the weak side matters here."""
    if weak_men or weak_kings != 1:
        return NORMAL
    strong = strong_kings + strong_men
    if strong <= 1:
        return DRAWN
    if not flying:
        return NORMAL  # two short kings beat one
    if strong == 2:
        return DRAWN
    if strong == 3:
        if weak_king_on_long_diagonal:
            return DRAWN
        return HARD if size == 10 else NORMAL
    return NORMAL
