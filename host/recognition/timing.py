"""How long a board must stay as it is before the recogniser acts on it (seconds).

Hands pass through many boards; only a board that stays counts. The numbers
are tuned to human hands: a slide, a bounce or a brush lasts well under
200 ms, a piece put down on its square stays. Every threshold is checked from
both sides by the hand families in tests/host/hands/.
"""

from __future__ import annotations

#: a final board must stay this long to be committed (a board under 200 ms is a transient)
SETTLE = 0.25
#: a final board that is also on the way to another move (a touch-down of a longer
#: capture, captured pieces still to come off) waits this long instead: longer than the
#: 0.6 s a hand at a normal pace takes between two captured pieces (slower removals may
#: commit the shorter capture first, and the next piece taken off reads it again)
HOLD = 0.65
#: taking back and starting a new game from the board need a calmer board
CALM = 0.5
#: an unrecognised board is left alone this long before guidance starts
GRACE = 3.0
#: a piece that touched its square less than this ago may be brushing past: a reply
#: that starts meanwhile commits the move only once the piece has stayed this long
BRUSH = 0.2
#: a piece that lands this soon after leaving its square was pushed (a knock), not
#: carried by a hand
SLIDE = 0.06
#: a piece slid along a diagonal needs at least this long per square (its magnet
#: leaves one switch and reaches the next; faster is a different piece)
STEP = 0.02
#: changes this close together are one moment (a scan or two, a chattering switch)
TOGETHER = 0.05
#: float slack when comparing deadlines
EPS = 1e-6
