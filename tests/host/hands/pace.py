"""Hands at every pace: very slow, blitz, just under each threshold, pieces that rest
on a square and go on (touch-move off and on)."""

from __future__ import annotations

from engine import Move

from .driver import Driver
from .habits import (
    MARGIN,
    in_ms,
    other_quiet,
    pieces_that_go_on,
    rest_on,
    wrong_squares,
    wrong_then_back,
)
from .moves import Hooks, Style
from .positions import find, partial_finals, rest_stops
from .timing import ALARM_AFTER, GRAZE_UNDER, PASSING_UNDER, TOUCH_UNDER


def held_wrong(d: Driver, plies: int) -> None:
    """A piece held on a wrong square for 0.3 to 3 s, then moved on: an illegal square
    (no alarm before ALARM_AFTER) or another legal destination (committed, then
    re-read when it goes on; with touch-move on, see `touch_move_club`)."""
    for _ in range(plies):
        move = d.choose(prefer=lambda m: not m.captures)
        if move is None:
            return
        wrong = wrong_squares(d, move)
        other = [m.destination for m in other_quiet(d, move) if not d.ends(m)]
        if other and not move.captures and d.rng.random() < 0.5:
            w = d.rng.choice(other)
            d.corrections = True
            hold = d.rng.uniform(300, 1500)
        elif wrong and d.rng.random() < 0.8:
            w = d.rng.choice(wrong)
            hold = d.rng.uniform(300, in_ms(ALARM_AFTER) - MARGIN - 50)
        else:
            d.play(move)
            d.pause()
            continue
        d.play(move, hooks=Hooks(in_air=[rest_on(d, w, hold, move.origin)]))
        d.pause()


def slow(d: Driver, plies: int) -> None:
    """Very slow play: long air time, captured pieces removed 0.6 to 2.5 s apart."""
    style = Style(
        air=d.timing.slow_air, removal_gap=d.timing.slow_removal_gap, before=0.3, during=0.2
    )
    for _ in range(plies):
        move = d.choose(prefer=lambda m: bool(m.captures))
        if move is None:
            return
        if partial_finals(d.position, move):
            d.corrections = True  # a pause on a shorter capture's board may commit it first
        d.play(move, style)
        d.pause(1500, 4000)

def blitz(d: Driver, plies: int) -> None:
    """Blitz: each reply starts within the profile's blitz reply time after the last
    change (0 to 150 ms at the model's pace), a quarter of them in the same scan."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        d.play(move, Style(air=d.timing.blitz_air, removal_gap=d.timing.blitz_removal_gap))
        d.table.wait(0, 0) if d.rng.random() < 0.25 else d.table.wait(*d.timing.blitz_reply)

def thresholds(d: Driver, plies: int) -> None:
    """Timings just on the quiet side of every bound of the model pace (hands/timing.py):
    a legal final board brushed for just under GRAZE_UNDER and under 200 ms, an illegal
    square held just under ALARM_AFTER, the position before the last move shown just
    under PASSING_UNDER, a touch-down just under TOUCH_UNDER."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        hooks = Hooks()
        choice = d.rng.choice(("settle", "transient", "grace", "calm", "hold"))
        others = [m.destination for m in other_quiet(d, move)]
        if choice in ("settle", "transient") and others:
            ms = (
                d.rng.uniform(in_ms(GRAZE_UNDER) - MARGIN - 15, in_ms(GRAZE_UNDER) - MARGIN)
                if choice == "settle"
                else d.rng.uniform(200 - MARGIN - 15, 200 - MARGIN + 10)
            )
            w = d.rng.choice(others)
            hooks.in_air.append(lambda t, sq=w, ms=ms: (t.brush(sq, ms), t.wait(60, 200)))
        elif choice == "grace" and wrong_squares(d, move):
            w = d.rng.choice(wrong_squares(d, move))
            hold = d.rng.uniform(in_ms(ALARM_AFTER) - MARGIN - 40, in_ms(ALARM_AFTER) - MARGIN)
            hooks.in_air.append(rest_on(d, w, hold, move.origin))
        elif choice == "hold":
            touch_time = (in_ms(TOUCH_UNDER) - MARGIN - 30, in_ms(TOUCH_UNDER) - MARGIN)
            d.play(move, Style(touch=1.0, touch_time=touch_time))
            d.pause()
            continue
        elif choice == "calm" and not move.captures:
            d.play(move)
            d.pause(400, 900)
            # The piece just moved is put back on its square for just under the calm time,
            # then carried to the destination again.
            piece = d.table.lift(move.destination)
            d.table.wait(150, 400)
            d.table.place(move.origin, piece)
            d.table.wait(in_ms(PASSING_UNDER) - MARGIN - 40, in_ms(PASSING_UNDER) - MARGIN)
            d.table.lift(move.origin)
            d.table.wait(150, 400)
            d.table.place(move.destination, piece)
            d.pause()
            continue
        d.play(move, hooks=hooks)
        d.pause()

def goes_on(d: Driver, plies: int) -> None:
    """A move that goes on (touch-move off): a piece released on a legal square and moved
    on 0.3 to 1.5 s later, or a slow capture resting on a landing square where a
    shorter legal capture ends (free-choice variants). The board re-reads the move."""
    found = None
    fresh = not d.table.changes  # (mixed with other habits: from the game's position)
    if fresh and d.variant.capture_rule == "free" and d.rng.random() < 0.5:
        found = find(d.variant, d.rng, lambda p, m: bool(rest_stops(p, m)), sparse_first=True)
    if found is not None:
        position, move = found
        d.reset(position)
        i, captured = d.rng.choice(rest_stops(position, move))
        _rest_on_the_way(d, move, i, captured)
        d.corrections = True
        d.pause()
    for move, other in pieces_that_go_on(d, plies, 0.6):
        first = d.rng.choice(other)
        d.clear_path(move)  # (forgotten pieces where it goes on come off first too)
        d.play(first)
        if d.over:
            return  # the game ended with it: nothing goes on after the end
        d.went_on()
        d.table.wait(300, 1500)
        piece = d.table.lift(first.destination)
        d.table.wait(150, 600)
        d.table.place(move.destination, piece)
        d.advance(move)
        d.corrections = True
        d.pause()

def _rest_on_the_way(d: Driver, move: Move, stop: int, captured: frozenset[int]) -> None:
    """Play `move` touching down on every landing, resting on `move.path[stop]` with
    `captured` taken off (the final board of a shorter capture), then going on."""
    t = d.table
    piece = t.lift(move.origin)
    t.wait(300, 900)
    for i, landing in enumerate(move.path):
        t.place(landing, piece)
        if i == stop:
            for c in sorted(captured):
                t.wait(100, 300)
                t.remove(c)
            t.wait(600, 2000)
        elif i != len(move.path) - 1:
            t.wait(150, 400)
        if i != len(move.path) - 1:
            t.lift(landing)
            t.wait(200, 500)
    for c in sorted(move.captures - captured):
        t.wait(200, 700)
        t.remove(c)
    d.advance(move)

def touch_move_club(d: Driver, plies: int) -> None:
    """Touch-move on (club play): a piece released on a legal square has moved. Moving it
    on is refused; after the grace period the lights bring it back."""
    d.touch_move = True
    for move, other in pieces_that_go_on(d, plies, 0.5):
        d.play(move)
        if d.over:
            return  # the game is over: a piece moved after it is no move at all
        t = d.table
        t.wait(400, 1500)
        went_on = d.rng.choice(other).destination
        piece = t.lift(move.destination)
        t.wait(150, 600)
        t.place(went_on, piece)
        wrong_then_back(d, piece, went_on, move.destination)
        # The mover's own piece back on its end square, nobody else having acted: the
        # move's last action (the clock charges it to here: docs/play.md, timed games).
        d.finished[-1] = d.table.t
        d.pause()
