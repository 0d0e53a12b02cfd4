"""Putting a wrong board right: when the board says it is wrong, and when it is right.

A board is unexplained when the best story needs a piece where no hand would leave
it (a stray, or a condition that lasted past all plausibility), or when the
standing stories disagree on what was played while nothing is underway in any of
them: then the hands will not tell the stories apart and the board must be put
back. Left so for GRACE, it is said ("illegal-board") and the lights guide it back
one pair of squares at a time (display.py); as soon as it matches the game again
it is said to be right ("board-ok"), or, where the standing stories disagree about
whose piece stands where, the colours are to be checked ("check-colours").
"""

from __future__ import annotations

from host.recognition import costs
from host.recognition.beam import EPS, Beam
from host.recognition.display import Display
from host.recognition.events import Event
from host.recognition.record import GameRecord
from host.recognition.verdict import claims


def unexplained(beam: Beam, now: float) -> bool:
    """Does the board need putting right (see the module docstring)?"""
    if beam.best(now).wrong(now):
        return True
    within = beam.within(now)
    if any(story.ply is not None for story in within):
        return False
    return len({claims(story) for story in within}) > 1


class Guide:
    """Whether the board is being put right, and the notices that go with it."""

    def __init__(self) -> None:
        self.correcting = False

    def review(
        self,
        record: GameRecord,
        beam: Beam,
        display: Display,
        sensed: frozenset[int],
        still: float,
        now: float,
    ) -> tuple[list[Event], bool]:
        """Say the board is wrong once it has stayed unexplained `still` >= GRACE; say it
        is right once it matches the game again. Returns the events, and whether the
        board has just become right (the stories then start again from the game)."""
        lingering = beam.best(now).lingering_squares()
        board = sensed - lingering
        expected = record.game.position.occupied()
        events: list[Event] = []
        if (
            not self.correcting
            and record.outcome is None
            and still + EPS >= costs.GRACE
            and unexplained(beam, now)
        ):
            self.correcting = True
            display.show(display.correction(record, beam, sensed, now), record)
            missing, extra = sorted(expected - board), sorted(board - expected)
            events.append(Event("illegal-board", now, {"missing": missing, "extra": extra}))
        if self.correcting and board == expected:
            events.append(self._right(record, beam, display, now))
            return events, True
        return events, False

    def _right(self, record: GameRecord, beam: Beam, display: Display, now: float) -> Event:
        """The board matches the game again: right, unless the standing stories disagree
        about whose piece stands where (then the colours are to be checked). Asking is
        cheap and a wrong colour left unsaid is not: a story within DOUBT of the best
        is doubt enough. A story waiting for a switch to let go (a push it has not seen
        end) is not one yet."""
        self.correcting = False
        target = record.game.position.pieces()
        doubtful = frozenset(
            sq
            for story in beam.within(now, costs.DOUBT)
            if not story.ghosts
            for sq in target
            if (piece := story.piece_at(sq)) is not None and piece != target[sq]
        )
        if doubtful:
            display.check = doubtful
            return Event("check-colours", now, {"squares": sorted(doubtful)})
        return Event("board-ok", now)
