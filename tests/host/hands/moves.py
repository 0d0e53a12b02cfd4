"""How a hand carries out one legal move on the `Table`.

A move is: lift the piece, maybe slide it (brushing empty squares on the
diagonal), touch down on landing squares of a multi-capture or jump straight
to the end, and take the captured pieces off in any order: before lifting,
during the flight, while touching down, or after landing, at a pace the
`Style` sets. Families of clumsy hands hook into the phases (`Hooks`) to add
what real hands do besides: knocks, an opponent's touch, a hovering hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine import Move, Position, Variant

from .table import Table, between
from .timing import MODEL, SCAN_MAX, Range, Timing

__all__ = ["SCAN_MAX", "Hook", "Hooks", "Style", "carry_out"]

Hook = Callable[[Table], None]


@dataclass
class Style:
    """The pace and habits of one player (all times in ms). A pace left None is the
    timing profile's (`Style.paced`)."""

    air: Range | None = None  # lift to the first touch-down or landing
    touch: float = 0.6  # chance of touching down on the intermediate landings
    touch_time: Range | None = None  # a touch-down on an intermediate landing
    brush: float = 0.5  # chance of brushing each empty square a slide passes over
    brush_time: Range | None = None
    before: float = 0.2  # chance a captured piece comes off before the piece is lifted
    during: float = 0.3  # chance one comes off while touching down or in flight
    removal_gap: Range | None = None  # between removals after landing
    #: a slide along the diagonal over n squares takes travel(n)
    travel: Callable[[int], Range] | None = None
    #: captured pieces deliberately left on the board after landing (forgotten)
    leave: int = 0

    def paced(self, timing: Timing) -> Style:
        """This style with every pace it leaves open taken from `timing`."""
        return replace(
            self,
            air=self.air or timing.air,
            touch_time=self.touch_time or timing.touch,
            brush_time=self.brush_time or timing.brush,
            removal_gap=self.removal_gap or timing.removal_gap,
            travel=self.travel or timing.travel,
        )


@dataclass
class Hooks:
    """Extra actions at the phases of a move (each called with the table)."""

    before_lift: list[Hook] = field(default_factory=list)
    in_air: list[Hook] = field(default_factory=list)
    landed: list[Hook] = field(default_factory=list)
    done: list[Hook] = field(default_factory=list)

    @staticmethod
    def run(hooks: list[Hook], table: Table) -> None:
        for hook in hooks:
            hook(table)


def carry_out(
    table: Table,
    position: Position,
    move: Move,
    style: Style | None = None,
    hooks: Hooks | None = None,
) -> list[int]:
    """Play `move` (legal in `position`) with the table's hands. Returns the captured
    squares deliberately left on the board (`style.leave`), in the order the hand
    would take them off later."""
    style = (style or Style()).paced(MODEL)
    assert style.air and style.touch_time and style.brush_time and style.removal_gap
    hooks = hooks or Hooks()
    rng = table.rng
    variant = position.variant
    path = rng.choice(move.paths) if move.paths else move.path
    captures = list(move.captures)
    rng.shuffle(captures)
    left = captures[: style.leave]
    removable = captures[style.leave :]
    before = [c for c in removable if rng.random() < style.before]
    rest = [c for c in removable if c not in before]
    for square in before:
        if square in table.pieces:
            table.remove(square)
            table.wait(*style.removal_gap)
    Hooks.run(hooks.before_lift, table)
    piece = table.lift(move.origin)
    table.wait(*style.air)
    Hooks.run(hooks.in_air, table)
    touch = rng.random() < style.touch
    here = table.hand_at or move.origin
    table.hand_at = None
    for i, landing in enumerate(path):
        last = i == len(path) - 1
        touched = here  # the last square the piece touched: it travels on from there
        for square in between(variant, here, landing):
            if square not in table.pieces and rng.random() < style.brush:
                _travel(table, variant, touched, square, style)
                table.brush(square, rng.uniform(*style.brush_time))
                touched = square
        _travel(table, variant, touched, landing, style)
        if last:
            table.place(landing, piece)
        elif touch:
            table.place(landing, piece)
            table.wait(*style.touch_time)
            if rest and rng.random() < style.during:
                _take_off(table, rest.pop())
                table.wait(20, 60)
            table.lift(landing)
            table.wait(100, 400)
        elif rest and rng.random() < style.during:
            _take_off(table, rest.pop())
            table.wait(100, 300)
        here = landing
    Hooks.run(hooks.landed, table)
    for square in rest:
        table.wait(*style.removal_gap)
        _take_off(table, square)
    Hooks.run(hooks.done, table)
    return left


def _travel(table: Table, variant: Variant, a: int, b: int, style: Style) -> None:
    """A slide along the diagonal from `a` to `b` takes a moment per square (the magnet
    must leave one switch and reach the next)."""
    assert style.travel
    steps = max(1, len(between(variant, a, b)) + 1)
    table.wait(*style.travel(steps))


def _take_off(table: Table, square: int) -> None:
    """Remove a captured piece unless a hook already took it off."""
    if square in table.pieces:
        table.remove(square)
