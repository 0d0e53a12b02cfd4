"""What the page and the session read of the recogniser besides its calls.

The pieces the side to move may capture, the capture whose piece has landed with
captured pieces still to come off, and whether the board is wrong: each is read
from the game and the best story at the recogniser's last call, as the lights are
(lights.py), so what the page says and what the LEDs show never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move
from host.recognition.recogniser import Recogniser
from host.recognition.rules import rules_for
from host.recognition.turns import compatible


@dataclass(frozen=True)
class Landed:
    """A capture whose piece stands on its end square, with captured pieces still on
    the board (`left`), before it is committed."""

    move: Move
    left: frozenset[int]


def capturable(rec: Recogniser) -> frozenset[int]:
    """The squares whose pieces a legal move of the side to move captures (none once
    the game is over)."""
    if rec.outcome is not None:
        return frozenset()
    allowed = None if rec.allowed is None else frozenset(rec.allowed)
    return rules_for(rec.game.position, allowed).capturable


def landed_capture(rec: Recogniser) -> Landed | None:
    """The capture of the side to move whose piece, in the best story, has come down on
    the end square of exactly one legal capture with captured pieces still standing;
    None otherwise (nothing underway, a piece in the hand, or several captures that end
    there and take different pieces)."""
    if rec.outcome is not None:
        return None
    best = rec.beam.best(rec.now)
    ply = best.ply
    if best.plies or ply is None or ply.on is None:
        return None
    allowed = None if rec.allowed is None else frozenset(rec.allowed)
    ends = [
        p for p in compatible(rules_for(best.position, allowed), ply)
        if p.destination == ply.on and p.captures
    ]
    if len({p.move for p in ends}) != 1:
        return None
    left = (ends[0].captures - ply.removed) & rec.sensed
    return Landed(ends[0].move, left) if left else None


def board_is_wrong(rec: Recogniser) -> bool:
    """Is the board, as the best story has it, no position of the game nor on its way to
    one: a piece where no hand of the game would leave it, or the moving piece resting
    on a square no legal ply of it lands on (said at once on the page; the board itself
    waits GRACE before it says so: hands are often still moving)?"""
    if rec.outcome is not None:
        return False
    best = rec.beam.best(rec.now)
    if best.wrong(rec.now):
        return True
    ply = best.ply
    if best.plies or ply is None or ply.on is None:
        return False
    allowed = None if rec.allowed is None else frozenset(rec.allowed)
    paths = compatible(rules_for(best.position, allowed), ply)
    return not any(ply.on in p.landings for p in paths)
