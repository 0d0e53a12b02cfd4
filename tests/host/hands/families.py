"""The hand families of issue 7: what impatient, clumsy and forgetful hands do.

Each family is a function `(driver, plies) -> None` that plays a stretch of a
game on the table with one habit added to normal play, and records what a
correct board must make of it (the moves, the alarms, where a correction is
allowed, where switches cannot tell). Timings are drawn from ranges that
straddle the recogniser's thresholds where a family is about a threshold;
otherwise they stay on the side the family describes (a knock is put back at
once: before a final board could settle). Where a family is ambiguous to
switches the verdict is "commit neither and guide" (the scenario says so in
`ambiguous`); see tests/host/test_hands.py for the ones written by hand.
"""

from __future__ import annotations

from collections.abc import Callable

from .captures import crowning, late_removal, long_king, ring
from .clumsy import hover, illegal_held, knocked, opponent_touch, two_lifted
from .driver import Driver
from .landing import instant_reply, knock_on_landing
from .pace import blitz, goes_on, held_wrong, slow, thresholds, touch_move_club

Family = Callable[[Driver, int], None]

FAMILIES: dict[str, Family] = {
    "knocked": knocked,
    "two-lifted": two_lifted,
    "opponent-touch": opponent_touch,
    "held-wrong": held_wrong,
    "hover": hover,
    "slow": slow,
    "late-removal": late_removal,
    "blitz": blitz,
    "thresholds": thresholds,
    "crowning": crowning,
    "long-king": long_king,
    "ring": ring,
    "illegal-held": illegal_held,
    "goes-on": goes_on,
    "touch-move-club": touch_move_club,
    "knock-on-landing": knock_on_landing,
    "instant-reply": instant_reply,
}

#: families the recogniser does not yet follow, with the timing profiles they fail in:
#: `python -m hands` plays them like the others; `make test` leaves them out there until
#: they pass. (None today: issue 20's knock-on-landing and instant-reply, and knocks at
#: human pace, were the last.)
PENDING: dict[str, tuple[str, ...]] = {}


def followed(timing: str = "model") -> list[str]:
    """The families `make test` requires to pass with the timing profile `timing`."""
    return [f for f in FAMILIES if timing not in PENDING.get(f, ())]

#: the families that play from whatever position the game has reached (the others set
#: up their own position, or the club's touch-move setting, for the whole stream)
MIXABLE = (
    "knocked",
    "two-lifted",
    "opponent-touch",
    "held-wrong",
    "hover",
    "slow",
    "late-removal",
    "blitz",
    "thresholds",
    "illegal-held",
    "goes-on",
    "knock-on-landing",
    "instant-reply",
)


def mixed(d: Driver, plies: int) -> None:
    """Every habit at once, as in a real game: each ply is played by a family drawn at
    random (a blitz reply straight after a knock, a touch during a slow capture, a
    forgotten piece still on the board when the next player holds a piece wrong)."""
    for _ in range(plies):
        if d.over or d.ambiguous:
            return
        FAMILIES[d.rng.choice(MIXABLE)](d, 1)


FAMILIES["mixed"] = mixed
