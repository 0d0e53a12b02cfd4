"""Recognition as explanation: the switch history explained by hand actions.

`Recogniser` (recogniser.py) keeps a small set of stories (story.py) that explain
every switch change since the last certain position by what hands do (lifts.py,
places.py, turns.py), each with a cost from its timing and plausibility
(costs.py: the one place where human timing enters). It commits the plies every
story within a margin of the best agrees on (verdict.py) and lights the LEDs from
the best one (lights.py). What it reports is an `Event` (events.py); a piece is
written as codes.py says. docs/play.md describes the model on one page.
"""
