"""The board is its own clock: time controls, the clock, and who pays for what.

- control.py: time controls as players write them (`5+3`, `5+3/2+3`, `none`), the
  PDN `TimeControl` tag, the controls the page offers;
- model.py: the clock itself, a pure model with time passed in (live and replay
  run the same code);
- keeper.py: the clock of a game, kept from the recogniser's events (each move
  charged up to the moment it was finished), the flag and the low-time warnings.

docs/rules.md ("Timed games") says what the rules give when a flag falls.
"""

from host.clock.control import PRESETS, TimeControl, parse_pdn_time_control, parse_time_control
from host.clock.keeper import GameClock, ms
from host.clock.model import Clock, Lap

__all__ = [
    "PRESETS",
    "Clock",
    "GameClock",
    "Lap",
    "TimeControl",
    "ms",
    "parse_pdn_time_control",
    "parse_time_control",
]
