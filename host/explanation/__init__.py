"""Recognition as explanation: the switch history explained by hand actions.

`Recogniser` (recogniser.py) keeps a small set of stories (story.py) that explain
every switch change since the last certain position by what hands do (lifts.py,
places.py, turns.py), each with a cost from its timing and plausibility
(costs.py: the one place where human timing enters). It commits the plies every
story within a margin of the best agrees on (verdict.py) and lights the LEDs from
the best one (lights.py). docs/play.md describes the model on one page.

`recogniser_class(name)` picks this recogniser ("explained") or today's
("classic", host/recognition/) for `replay`, `run` and the soak.
"""

from __future__ import annotations

from typing import Any

#: the recognisers a flag may name; the first is the default
RECOGNISERS = ("classic", "explained")


def recogniser_class(name: str) -> Any:
    """The recogniser class called `name` (see RECOGNISERS)."""
    if name == "explained":
        from host.explanation.recogniser import Recogniser

        return Recogniser
    if name == "classic":
        from host.recognition.recogniser import Recogniser as Classic

        return Classic
    raise ValueError(f"unknown recogniser {name!r}: choose {', '.join(RECOGNISERS)}")
