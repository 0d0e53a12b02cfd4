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
from dataclasses import dataclass, field

from engine import Move, Position, Variant
from host.recognition.timing import HOLD, STEP

from .table import Table, between

#: the largest scan interval of the boards simulated (ms)
SCAN_MAX = 20

Hook = Callable[[Table], None]


@dataclass
class Style:
    """The pace and habits of one player (all times in ms)."""

    air: tuple[float, float] = (150, 700)  # lift to the first touch-down or landing
    touch: float = 0.6  # chance of touching down on the intermediate landings
    touch_time: tuple[float, float] = (120, HOLD * 1000 - 80)  # a touch-down, under the hold
    brush: float = 0.5  # chance of brushing each empty square a slide passes over
    brush_time: tuple[float, float] = (20, 90)
    before: float = 0.2  # chance a captured piece comes off before the piece is lifted
    during: float = 0.3  # chance one comes off while touching down or in flight
    removal_gap: tuple[float, float] = (60, 600)  # between removals after landing
    #: captured pieces deliberately left on the board after landing (forgotten)
    leave: int = 0


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
    style = style or Style()
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
                _travel(table, variant, touched, square)
                table.brush(square, rng.uniform(*style.brush_time))
                touched = square
        _travel(table, variant, touched, landing)
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


def _travel(table: Table, variant: Variant, a: int, b: int) -> None:
    """A slide along the diagonal from `a` to `b` takes a moment per square (the magnet
    must leave one switch and reach the next)."""
    steps = max(1, len(between(variant, a, b)) + 1)
    # (the board measures it a scan off at worst)
    least = STEP * 1000 * steps + SCAN_MAX
    table.wait(least, least + 40)


def _take_off(table: Table, square: int) -> None:
    """Remove a captured piece unless a hook already took it off."""
    if square in table.pieces:
        table.remove(square)
