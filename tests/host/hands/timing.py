"""How fast the simulated hands are: two timing profiles, chosen per soak.

A hand family describes a habit (a knock, a forgotten piece, a blitz reply); the
profile says how long each hand action takes. Two profiles exist:

- `MODEL` is the pace the families were written with. Some of its ranges sit
  just under the bounds named below (a touch-down shorter than TOUCH_UNDER, a
  slide no faster than SLIDE_PER_SQUARE, a knock put back before GRAZE_UNDER),
  figures the board was first tuned to; passing it partly means the board
  agreeing with the pace it was tuned on.
- `HUMAN` takes every range from measured human motor timings, with the source
  written beside it, and from the board's geometry; where no measurement fits, the
  figure is a judgement and says so. Nothing in it is read from the recogniser.

Sources (all times in ms; 1 TMU = 36 ms):

- [MTM] MTM-1 data card (MTM Association; the tables as printed in Groover, *Work
  Systems*, tables 14.4-14.6): normal times of a trained adult at a sustainable
  pace. Reach to an object that may vary slightly (case B): 2 in 4.0 TMU (144),
  4 in 6.4 (230), 10 in 11.5 (414). Move to an exact location (case C): 2 in 5.2
  TMU (187), 4 in 8.0 (288), 6 in 10.3 (371), 14 in 16.9 (608); to an approximate
  location (case B): 2 in 4.6 (166). Grasp, any size object alone (G1A) 2.0 TMU
  (72); release (RL1) 2.0 TMU (72). MTM's own practice puts fast, skilled
  operators at about 130-150 % of normal: the blitz ranges below divide by 1.5.
- [RT] Simple visual reaction time of young adults about 190 ms, rarely under
  150 ms; choice reaction time 350-450 ms (reaction-time references summarised
  at scienceinsights.org "What is the average reaction time of a human" and the
  Exploratorium's reaction-time page).
- [BOARD] This board (docs/hardware.md): 40-50 mm squares, so one diagonal step
  is 57-71 mm (2.2-2.8 in) and a jump over a piece 113-141 mm (4.5-5.6 in); a reed
  switch under a small disc magnet closes within about 10 mm of its centre
  (judgement from the pick-up distance the build notes ask you to test).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Range = tuple[float, float]

#: the largest scan interval of the boards simulated (ms)
SCAN_MAX = 20
#: margin (ms) kept from a threshold on the side a family means
MARGIN = SCAN_MAX + 12

# -- the model pace's bounds (seconds) --------------------------------------------------
# The generator's own figures, which the families and the MODEL profile keep under or
# over. They are written here, never read from the recogniser: a change of the
# recogniser's costs that breaks what the families expect fails the soak instead of
# moving the streams along with it. Two are the board's documented behaviour
# (docs/play.md): a wrong board is said after three seconds, and a board that shows the
# position before the last move counts as a takeback only once it has stood a moment.

#: a wrong board is left unsaid this long (docs/play.md): held shorter, no alarm is
#: expected; longer, one
ALARM_AFTER = 3.0
#: a carried piece grazing a legal square on its way leaves it within this (the
#: `thresholds` family's brush; a knocked piece at the model's pace is back sooner)
GRAZE_UNDER = 0.25
#: a touch-down on a multi-capture's landing square lasts under this at the model's pace
TOUCH_UNDER = 0.65
#: a hand passing the pieces back through the position before the last move (no
#: takeback meant) leaves it within this
PASSING_UNDER = 0.5
#: a piece slid along its diagonal takes at least this per square at the model's pace
#: (its magnet leaves one switch and reaches the next)
SLIDE_PER_SQUARE = 0.02


@dataclass(frozen=True)
class Timing:
    """The duration ranges (ms) hands draw from. Every field is one hand action."""

    name: str
    #: lift to the first touch-down or landing, one move at a normal pace
    air: Range
    #: the same in blitz, and for a slow, hesitant player
    blitz_air: Range
    slow_air: Range
    #: a touch-down on an intermediate landing of a multi-capture (the piece stays
    #: in the hand: no release, no grasp)
    touch: Range
    #: a carried piece grazing an empty square on its way (switch closed)
    brush: Range
    #: a piece slid along its diagonal over n squares (n -> range)
    travel: Callable[[int], Range]
    #: between two captured pieces taken off (reach to the next, grasp it)
    removal_gap: Range
    blitz_removal_gap: Range
    slow_removal_gap: Range
    #: between one player's last action and the other's first (seeing, deciding)
    think: Range
    #: in blitz: from the landing to the reply's first action (a reply prepared
    #: while the opponent moved)
    blitz_reply: Range
    #: a knocked piece shoved off its square onto the next one
    push: Range
    #: a knocked piece (shoved or tipped off its switch) noticed and put back by a
    #: hand: from the knock to the first piece back
    knock_back: Range
    #: removal gaps may include a hesitation of any length, so a board showing only
    #: some captured pieces off may stand still (a shorter capture's final board)
    hesitates: bool
    #: least ms between one hand's change on a square and another hand's on it
    hands_apart: float = 80


def _model_travel(squares: int) -> Range:
    """No faster than SLIDE_PER_SQUARE a square, a scan off at worst."""
    least = SLIDE_PER_SQUARE * 1000 * squares + SCAN_MAX
    return (least, least + 40)


def _human_travel(squares: int) -> Range:
    normal = 108 + 72 * squares
    return (normal / 1.5, normal)


MODEL = Timing(
    name="model",
    air=(150, 700),
    blitz_air=(120, 400),
    slow_air=(1000, 4000),
    touch=(120, TOUCH_UNDER * 1000 - 80),
    brush=(20, 90),
    travel=_model_travel,
    removal_gap=(60, 600),  # under TOUCH_UNDER
    blitz_removal_gap=(30, 200),
    slow_removal_gap=(600, 2500),
    think=(700, 1600),
    blitz_reply=(0, 150),
    push=(10, 50),
    knock_back=(30, GRAZE_UNDER * 1000 - MARGIN - 60),  # back before a graze ends
    hesitates=False,
)

HUMAN = Timing(
    name="human",
    # [MTM] move to an exact location, one step to a two-square jump: M2C-M6C 187-371;
    # the upper end doubled for a player who hesitates over the square (judgement).
    air=(187, 750),
    # [MTM] the same at 150 %: 125-250.
    blitz_air=(125, 250),
    # Thinking with the piece in the hand: seconds (judgement, as the model's).
    slow_air=(1000, 4000),
    # No MTM element is a hop with the piece kept in the hand; a release and a
    # regrasp (RL1 + G1A, 144) bound the usual touch from above, a bounce off the
    # square (about one scan) from below; slow players rest longer (judgement).
    touch=(40, 900),
    # [BOARD] about 20 mm of closed switch crossed at the carrying speed of [MTM]
    # M4B-M2B (0.35-0.45 m/s on average, about twice that at the peak): 20-60;
    # down to a scan for a flick, up to 150 for a slow graze (judgement).
    brush=(15, 150),
    # [MTM] move to an approximate location (case B) grows about linearly with the
    # distance: 4.6 TMU at 2 in, 12.2 at 10 in, 18.2 at 20 in, about 108 ms plus 29 ms
    # an inch; with [BOARD] 2.5 in a diagonal step, 108 + 72 ms a square at normal
    # pace, down to two thirds of it at 150 %.
    travel=_human_travel,
    # [MTM] reach 2-4 in and grasp (R2B + G1A 216 to R4B + G1A 302), at 100-150 %;
    # a hesitation between two pieces up to a second and a half (judgement).
    removal_gap=(145, 1500),
    blitz_removal_gap=(95, 300),
    slow_removal_gap=(600, 2500),
    # [RT] choice reaction time 350 at the least; the rest is thinking, shortened
    # here to keep the streams short (judgement).
    think=(350, 2500),
    # [RT] a reply that reacts to the landing starts 150-300 after it; a prepared
    # reply (the hand already on its piece) starts with the landing: from 0.
    blitz_reply=(0, 300),
    # [BOARD] a piece shoved one step by a hand travelling at 1-2 m/s: the magnet
    # leaves one switch and reaches the next in 15-50.
    push=(15, 50),
    # [RT] + [MTM] noticing (simple reaction 150-300) and a short move back (M2B
    # 166 at 100-150 %, or a push): 200-700; a player who finishes the move first
    # takes up to a second and a half (judgement).
    knock_back=(200, 1500),
    hesitates=True,
)

PROFILES = {t.name: t for t in (MODEL, HUMAN)}
