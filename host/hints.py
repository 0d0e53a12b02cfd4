"""LED hints: which role each square plays, filtered by the hint level, then coloured.

The recogniser decides *roles* from the same sets it uses to accept moves, so
what is lit and what is accepted never disagree (host/recognition/lights.py says which
role each state lights). This module owns the small policy around them: role
precedence (one role per square), blinking, the hint level, the end-of-game
patterns, and colours.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine import Move
from hardware.base import Colour

# Highest first: when two roles claim a square, the earlier one wins.
PRECEDENCE = (
    "end",
    "wrong",
    "crown",
    "capture-alert",
    "remove",
    "landing",
    "destination",
    "move-from",
    "must-capture",
    "last-move",
)

# What each hint level keeps. "off" still shows what the board itself needs:
# squares to put right, the man to crown and the end of the game.
ESSENTIAL = frozenset({"end", "wrong", "crown"})
CAPTURE_ROLES = frozenset({"must-capture", "capture-alert", "landing", "remove"})


@dataclass(frozen=True)
class Hint:
    """One LED frame as roles: `roles` square -> role, `blink` the squares that flash."""

    roles: dict[int, str] = field(default_factory=dict)
    blink: frozenset[int] = frozenset()


class HintBuilder:
    """Collects candidate roles for one state and resolves them into a `Hint`."""

    def __init__(self) -> None:
        self._roles: dict[int, str] = {}
        self._blink: set[int] = set()

    def add(self, role: str, squares: Iterable[int], *, blink: bool = False) -> HintBuilder:
        rank = PRECEDENCE.index(role)
        for square in squares:
            current = self._roles.get(square)
            if current is None or PRECEDENCE.index(current) > rank:
                self._roles[square] = role
                if blink:
                    self._blink.add(square)
                else:
                    self._blink.discard(square)
        return self

    def build(self) -> Hint:
        return Hint(dict(sorted(self._roles.items())), frozenset(self._blink))


def add_move(build: HintBuilder, move: Move) -> HintBuilder:
    """Light one whole move, as the computer's move or a hint is shown: the piece to move
    (`move-from`), each landing of a capture on the way (`landing`), where it ends
    (`destination`) and the pieces it takes (`remove`)."""
    build.add("move-from", [move.origin])
    build.add("landing", move.path[:-1])
    build.add("destination", [move.destination])
    return build.add("remove", move.captures)


def move_hint(move: Move) -> Hint:
    """A frame showing only `move` (see `add_move`)."""
    return add_move(HintBuilder(), move).build()


def blinking(hint: Hint) -> Hint:
    """The same frame with every square blinking: a refusal's (what to do instead)."""
    return Hint(hint.roles, frozenset(hint.roles))


def filter_level(hint: Hint, level: str, capture_turn: bool) -> Hint:
    """Apply the hint level: "full", "captures" (only capture help) or "off"."""
    if level == "full":
        return hint
    keep = ESSENTIAL if level == "off" else ESSENTIAL | CAPTURE_ROLES
    roles = {
        sq: role
        for sq, role in hint.roles.items()
        if role in keep or (level == "captures" and capture_turn and role == "destination")
    }
    return Hint(roles, frozenset(sq for sq in hint.blink if sq in roles))


def colour_frame(
    hint: Hint, colours: Mapping[str, Colour], blink_on: bool = True
) -> dict[int, Colour]:
    """The LED frame for `hint`: blinking squares are dark in the off phase."""
    frame: dict[int, Colour] = {}
    for square, role in hint.roles.items():
        if square in hint.blink and not blink_on:
            continue
        frame[square] = colours.get(role, (255, 255, 255))
    return frame


def end_pattern(
    coords: Mapping[int, tuple[int, int]],
    size: int,
    reason: str,
    winner: str | None,
    pieces: Mapping[int, str],
) -> list[int]:
    """Squares lit at the end of the game; each result has its own shape so it can be
    told apart without sound: a win lights the winner's pieces, threefold repetition
    every occupied square, no-progress the long diagonals, an endgame limit the edge,
    a draw by agreement the two middle rows. A flag fall lights the same squares as
    its result would otherwise (the winner's pieces; the edge for the draw it gives in
    an ending limited against a lone king), blinking (`end_hint`)."""
    if winner is not None:
        return sorted(sq for sq, colour in pieces.items() if colour == winner)
    if reason == "threefold-repetition":
        return sorted(pieces)
    if reason == "no-progress":
        return sorted(sq for sq, (f, r) in coords.items() if f == r or f + r == size - 1)
    if reason in ("endgame-limit", "time"):
        edge = {0, size - 1}
        return sorted(sq for sq, (f, r) in coords.items() if f in edge or r in edge)
    middle = {size // 2 - 1, size // 2}
    return sorted(sq for sq, (_, r) in coords.items() if r in middle)

