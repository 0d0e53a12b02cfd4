"""Hand families: simulated impatient, clumsy and forgetful hands, as sensor streams.

`generate(family, variant, seed)` gives a `Scenario` (a replayable stream and the
verdict a correct board must reach); `soak` replays and judges many of them;
`python -m hands` (from tests/host) prints the wrong/false/missed table.
"""

from .driver import Driver, Scenario
from .families import FAMILIES
from .score import KINDS, Tally, generate, judge, run_scenario, soak, table

__all__ = [
    "FAMILIES",
    "KINDS",
    "Driver",
    "Scenario",
    "Tally",
    "generate",
    "judge",
    "run_scenario",
    "soak",
    "table",
]
