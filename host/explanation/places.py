"""What a piece arriving on a square can be, in one story: every hand action that
explains the place, each as a new story with its cost.

What may come down:
- the ply's piece in the hand: it rests there (touching down on a landing,
  brushing a square it passes, waiting for captured pieces to come off), or it is
  done there (its end square, every captured piece off), or it is back home;
- a loose piece in a hand: back on its own square, or pushed on to a neighbour (a
  knock sliding), or put where no story of the game has it (a wrong board);
- a captured piece put back on its own square (the player changed their mind);
- a piece from outside the game (a wrong board);
- while the board is being put right, the piece in the hand put where the lights
  ask, whichever piece it is.

When the ply's piece stands on an end square with captured pieces still to come
off, the place may be the next player landing a piece they held already: the ply
was done there and those pieces forgotten.
"""

from __future__ import annotations

from dataclasses import replace

from host.explanation import costs
from host.explanation.rules import Path, geometry_for
from host.explanation.story import (
    CROWN,
    GUIDED,
    KNOCK,
    STRAY,
    TOUCH,
    Loose,
    Story,
    Underway,
)
from host.explanation.turns import (
    Context,
    compatible,
    done_landings,
    ending_on,
    finish,
    off_board,
    settled,
)


def on_place(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """Every story that extends `story` by a piece arriving on `square` at `now`."""
    found: list[Story] = []
    ply = story.ply
    if ply is not None and ply.lifted and ply.on is None:
        found += _comes_down(story, ply, square, now, ctx)
    for loose in story.loose:
        if loose.at is None:
            found += _loose_down(story, loose, square, now, ctx)
    if ply is not None and square in ply.removed:
        found.append(_put_back(story, ply, square))
    stray = Loose(STRAY, None, None, square, None, now)
    found.append(replace(story, loose=(*story.loose, stray), fixed=story.fixed + costs.WRONG))
    return found + _lazy(story, square, now, ctx)


def _comes_down(
    story: Story, ply: Underway, square: int, now: float, ctx: Context
) -> list[Story]:
    """The ply's piece comes down on `square`: it rests there (as a touch-down on
    landings of some paths, as a brush for the others), is done there, or is home."""
    geometry = geometry_for(story.position.variant)
    assert ply.left is not None
    steps = geometry.steps(ply.left, square)
    cost = costs.carry_cost(now - ply.since, steps, from_rest=not ply.touched)
    cost += costs.in_air(ply.since).ended(now)
    early = square != ply.origin
    if early:
        cost += costs.held_early(ply.early)
    down = replace(
        ply, on=square, since=now, last=now, early=0.0 if early else ply.early, touched=True
    )
    paths = compatible(ctx.rules(story), ply)
    found: list[Story] = []
    if square == ply.origin and ply.was is None:
        found.append(_home(story, ply, cost, now))
    landing, pending = _touch_down(paths, square, ply, off_board(story))
    if landing or pending:
        rest = costs.touch_down(now) if landing else costs.removing(now)
        stopped = replace(down, stops=(*ply.stops, square), rest=rest)
        found.append(replace(story, ply=stopped, fixed=story.fixed + cost))
    if len(landing) + len(pending) < len(paths) or not paths:
        brushed = replace(down, rest=costs.brush(now))
        found.append(replace(story, ply=brushed, fixed=story.fixed + cost + costs.BRUSH))
    released = replace(story, ply=replace(down, rest=None), fixed=story.fixed + cost)
    found += settled(released, ctx, now)
    return found


def _touch_down(
    paths: tuple[Path, ...], square: int, ply: Underway, off: frozenset[int]
) -> tuple[list[Path], list[Path]]:
    """The paths for which coming down on `square` is a stop on the way: one of their
    landings still to come (first list), or their end with captured pieces still to
    come off (second; `off`: the pieces already off the board). Ending there with
    every captured piece off is no stop: the piece is done there, or only passing."""
    landing, pending = [], []
    for p in paths:
        i = p.lands_after(square, done_landings(p, ply.stops))
        if i is None:
            continue
        if i < len(p.landings) - 1:
            landing.append(p)
        elif not p.captures <= off:
            pending.append(p)
    return landing, pending


def _home(story: Story, ply: Underway, cost: float, now: float) -> Story:
    """The ply's piece put back on its own square: nothing played (the captured pieces
    already off still count as taken off first, waiting for it to be lifted)."""
    if not ply.removed:
        return replace(story, ply=None, acted=story.acted, fixed=story.fixed + cost)
    waiting = Underway(
        origin=ply.origin, removed=ply.removed, last=ply.last, rest=costs.removing(now)
    )
    return replace(story, ply=waiting, fixed=story.fixed + cost)


def _loose_down(
    story: Story, loose: Loose, square: int, now: float, ctx: Context
) -> list[Story]:
    """A loose piece in a hand comes down: home, slid on to a neighbour (a knock), where
    the lights ask while the board is put right (a hand puts down the piece it lifted
    last: that one only), or astray."""
    rest = tuple(other for other in story.loose if other is not loose)
    ended = loose.term.ended(now) if loose.term is not None else 0.0
    if square == loose.home:
        crowned = story.crowned or loose.kind == CROWN
        return [replace(story, loose=rest, crowned=crowned, fixed=story.fixed + ended)]
    found: list[Story] = []
    geometry = geometry_for(story.position.variant)
    if (
        loose.kind == KNOCK
        and loose.left is not None
        and now - loose.since <= costs.SLIDE + 1e-9
        and square in geometry.neighbours(loose.left)
    ):
        slid = replace(loose, at=square, left=loose.left)
        found.append(replace(story, loose=(*rest, slid)))
    if square in ctx.put and loose.since >= _last_lift(story) - costs.TOGETHER:
        guided = replace(loose, kind=STRAY if loose.home is None else GUIDED, at=square,
                         term=None)
        found.append(replace(story, loose=(*rest, guided), fixed=story.fixed + ended))
    astray = replace(loose, kind=STRAY, at=square, since=now, term=None)
    found.append(replace(story, loose=(*rest, astray), fixed=story.fixed + ended + costs.WRONG))
    return found


def _last_lift(story: Story) -> float:
    """When the piece lifted last among those in a hand left its square."""
    times = [loose.since for loose in story.loose if loose.at is None]
    ply = story.ply
    if ply is not None and ply.lifted and ply.on is None:
        times.append(ply.since)
    return max(times, default=float("-inf"))


def _put_back(story: Story, ply: Underway, square: int) -> Story:
    """A captured piece put back on its own square: no longer taken off."""
    removed = ply.removed - {square}
    kept: Underway | None = replace(ply, removed=removed)
    if not removed and not ply.lifted:
        kept = None
    cost = 0.0 if ply.was is not None else costs.UNDO_REMOVAL
    return replace(story, ply=kept, fixed=story.fixed + cost)


def _lazy(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """The place as the next player landing a piece they already held, after a ply whose
    piece stands on its end square with captured pieces still on the board."""
    ply = story.ply
    if ply is None or ply.on is None or not ply.lifted:
        return []
    other = "B" if story.position.turn == "W" else "W"
    if not any(p.kind == TOUCH and p.at is None and p.hand == other for p in story.loose):
        return []
    paths = ending_on(compatible(ctx.rules(story), ply), ply.on, ply.stops)
    found: list[Story] = []
    for move in {p.move for p in paths if p.captures > ply.removed}:
        done = finish(story, move, ply.last)
        if done.ply is not None:
            found += _comes_down(done, done.ply, square, now, ctx)
    return found
