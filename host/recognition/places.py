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

from engine.position import Piece
from host.recognition import costs
from host.recognition.rules import Path, geometry_for
from host.recognition.story import (
    CROWN,
    GUIDED,
    KNOCK,
    STRAY,
    TOUCH,
    Loose,
    Story,
    Underway,
)
from host.recognition.turns import (
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
    told = dict(ctx.told).get(square)
    found = _arrivals(story, square, now, ctx, told)
    if told is None:
        return found
    return [
        replace(found_story, fixed=found_story.fixed + costs.TOLD)
        if (piece := found_story.piece_at(square)) is not None and _not_told(piece, told)
        else found_story
        for found_story in found
    ]


def _not_told(piece: Piece, told: Piece) -> bool:
    """Is `piece` not the one a hand said it put down? Another colour, or a man where the
    hand said a king (a man said where the game has a king is that man, just crowned)."""
    return piece.color != told.color or (told.king and not piece.king)


def _arrivals(
    story: Story, square: int, now: float, ctx: Context, told: Piece | None
) -> list[Story]:
    """The stories of `on_place`; a piece from outside the game is the piece the hand
    said it puts there (`told`), if it said."""
    found: list[Story] = []
    ply = story.ply
    if ply is not None and ply.lifted and ply.on is None:
        found += _comes_down(story, ply, square, now, ctx)
    for loose in story.loose:
        if loose.at is None:
            found += _loose_down(story, loose, square, now, ctx)
    if ply is not None and square in ply.removed:
        found.append(_put_back(story, ply, square))
    stray = Loose(STRAY, told, None, square, None, now)
    found.append(replace(story, loose=(*story.loose, stray), fixed=story.fixed + costs.WRONG))
    found += _pushed_ahead(story, square, now, ctx) + _slid_on(story, square, now, ctx)
    return found + _lazy(story, square, now, ctx)


def _pushed_ahead(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """A piece standing next to `square` pushed onto it, its own square's switch still
    reading it a moment (it lets go within TOGETHER: lifts.py)."""
    found: list[Story] = []
    for home in geometry_for(story.position.variant).neighbours(square):
        piece = story.position.piece_at(home)
        if piece is None or not story.is_home(home):
            continue
        if any(loose.stroke is not None and loose.home == home for loose in story.loose):
            continue
        stroke = _stroke_of(story, ctx.earliest(now))
        knock = Loose(KNOCK, piece, home, square, home, now,
                      term=None if stroke is not None else costs.knocked(now),
                      stroke=now if stroke is None else stroke, lead=ctx.lead)
        cost = costs.LAG + costs.KNOCK
        ghosts = (*story.ghosts, (home, now))
        found.append(replace(story, loose=(*story.loose, knock), ghosts=ghosts,
                             fixed=story.fixed + cost))
    return found


def _slid_on(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """The ply's piece, resting on a square next to `square`, slid on to it, the square it
    left still reading it a moment (it lets go within TOGETHER: lifts.py)."""
    ply = story.ply
    if ply is None or ply.on is None or not ply.lifted:
        return []
    if square not in geometry_for(story.position.variant).neighbours(ply.on):
        return []
    rested = ply.rest.ended(ctx.earliest(now)) if ply.rest is not None else 0.0
    carried = replace(ply, on=None, left=ply.on, since=now, last=now, rest=None, lead=ctx.lead)
    moving = replace(story, ply=carried, ghosts=(*story.ghosts, (ply.on, now)),
                     fixed=story.fixed + rested + costs.LAG)
    return _comes_down(moving, carried, square, now, ctx)


def _stroke_of(story: Story, now: float) -> float | None:
    """The stroke of the hand that may still be knocking pieces at `now`, if one is."""
    for loose in story.loose:
        if loose.stroke is not None and now - loose.stroke <= costs.TOGETHER + 1e-9:
            return loose.stroke
    return None


def _comes_down(
    story: Story, ply: Underway, square: int, now: float, ctx: Context
) -> list[Story]:
    """The ply's piece comes down on `square`: it rests there (as a touch-down on
    landings of some paths, as a brush for the others), is done there, or is home."""
    geometry = geometry_for(story.position.variant)
    assert ply.left is not None
    steps = geometry.steps(ply.left, square)
    # (the longest gap the reads allow for a push; the shortest for time in the air)
    cost = costs.carry_cost(now - ply.since + ply.lead, steps, from_rest=not ply.touched)
    cost += story.air_cost(ctx.earliest(now))
    paths = compatible(ctx.rules(story), ply)
    early = square != ply.origin
    if early:
        cost += costs.held_early(ply.least_early) + _anticipated(story, ply, paths)
    crowned = ply.crowned_at if ply.crowned_at and ply.crowned_at[0] == square else None
    down = replace(
        ply, on=square, since=now, last=now, early=0.0 if early else ply.early, touched=True,
        crowned_at=crowned, early_lead=0.0 if early else ply.early_lead,
    )
    found: list[Story] = []
    if square == ply.origin and ply.was is None:
        found.append(_home(story, ply, cost, now))
    landing, pending = _touch_down(paths, square, ply, off_board(story))
    if landing or pending:
        rest = costs.touch_down(now) if landing else costs.removing(now)
        again = ply.stops[-1:] == (square,)
        stopped = replace(down, stops=ply.stops if again else (*ply.stops, square), rest=rest)
        found.append(replace(story, ply=stopped, fixed=story.fixed + cost))
    if len(landing) + len(pending) < len(paths) or not paths:
        hesitate = not _a_stop(story, ply, square, ctx)
        brushed = replace(down, rest=costs.brush(now, hesitate=hesitate))
        found.append(replace(story, ply=brushed, fixed=story.fixed + cost + costs.BRUSH))
    released = replace(story, ply=replace(down, rest=None), fixed=story.fixed + cost)
    found += settled(released, ctx, now)
    return found


def _anticipated(story: Story, ply: Underway, paths: tuple[Path, ...]) -> float:
    """The cost of a ply lifted before its turn began that can only be a capture of the
    piece the last ply brought: it was lifted to take a piece not there yet."""
    if ply.least_early <= costs.TOGETHER or not story.plies or not paths:
        return 0.0
    brought = story.plies[-1].move.destination
    return costs.ANTICIPATED if all(brought in p.captures for p in paths) else 0.0


def _a_stop(story: Story, ply: Underway, square: int, ctx: Context) -> bool:
    """Is `square` a landing of any move of the ply's piece (whatever the story says it
    did so far)? A piece resting long there touched down; elsewhere it may hesitate."""
    if ply.origin is None:
        return False
    rules = ctx.rules(story)
    return any(square in rules.paths[i].landings for i in rules.from_origin(ply.origin))


def _touch_down(
    paths: tuple[Path, ...], square: int, ply: Underway, off: frozenset[int]
) -> tuple[list[Path], list[Path]]:
    """The paths for which coming down on `square` is a stop on the way: one of their
    landings still to come (first list), or their end with captured pieces still to
    come off (second; `off`: the pieces already off the board). Ending there with
    every captured piece off is no stop: the piece is done there, or only passing."""
    landing, pending = [], []
    # (back on the square it last stopped on: the same stop, as after a hover)
    before = ply.stops[:-1] if ply.stops[-1:] == (square,) else ply.stops
    for p in paths:
        i = p.lands_after(square, done_landings(p, before))
        if i is None:
            continue
        if i < len(p.landings) - 1:
            landing.append(p)
        elif not p.captures <= off:
            pending.append(p)
    return landing, pending


def _home(story: Story, ply: Underway, cost: float, now: float) -> Story:
    """The ply's piece put back on its own square: nothing played (the captured pieces
    already off still count as taken off first, waiting for it to be lifted). After
    touch-downs on the way of a capture, that is abandoning it."""
    if ply.stops:
        cost += costs.ABANDON
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
    if square == loose.home:
        others, ended = _hand_over(rest, loose, ctx.earliest(now))
        crowned = story.crowned or loose.kind == CROWN
        back = replace(story, loose=others, crowned=crowned, fixed=story.fixed + ended)
        return [_finished_again(_free_again(story, back, now), loose, now)]
    found: list[Story] = []
    geometry = geometry_for(story.position.variant)
    if (
        loose.kind == KNOCK
        and loose.left is not None
        and ctx.earliest(now) - loose.since <= costs.SLIDE + 1e-9
        and square in geometry.neighbours(loose.left)
    ):
        slid = replace(loose, at=square, left=loose.left)
        found.append(replace(story, loose=(*rest, slid)))
    others, ended = _hand_over(rest, loose, ctx.earliest(now))
    if square in ctx.put and loose.since >= _last_lift(story) - costs.TOGETHER:
        guided = replace(loose, kind=STRAY if loose.home is None else GUIDED, at=square,
                         term=None, stroke=None)
        found.append(replace(story, loose=(*others, guided), fixed=story.fixed + ended))
    astray = replace(loose, kind=STRAY, at=square, since=now, term=None, stroke=None)
    found.append(replace(story, loose=(*others, astray), fixed=story.fixed + ended + costs.WRONG))
    return found


def _finished_again(story: Story, loose: Loose, now: float) -> Story:
    """The last move's piece, astray since, put back on its end square before the next
    player acted: the mover finishing the move, finished now."""
    if loose.kind != STRAY or story.ply is not None or story.acted or not story.plies:
        return story
    last = story.plies[-1]
    if loose.home != last.move.destination or loose.piece != story.position.piece_at(
        loose.home
    ):
        return story
    return replace(story, plies=(*story.plies[:-1], replace(last, finished=now)))


def _hand_over(
    rest: tuple[Loose, ...], down: Loose, now: float
) -> tuple[tuple[Loose, ...], float]:
    """`down` put down (home, or elsewhere) at the earliest at `now`: what its term
    cost, ended then; but while
    others of its stroke are still off, the stroke's term goes on with them."""
    if down.term is None:
        return rest, 0.0
    if down.stroke is not None:
        for i, other in enumerate(rest):
            if other.stroke == down.stroke and other.term is None:
                taken = replace(other, term=down.term)
                return (*rest[:i], taken, *rest[i + 1:]), 0.0
    return rest, down.term.ended(now)


def _free_again(before: Story, back: Story, now: float) -> Story:
    """The last piece knocked by the hand carrying the ply's piece is back: the time it
    took was the hand's, not the piece's waiting in it."""
    paused = before.knocked_since()
    if paused is None or back.knocked_since() is not None:
        return back
    ply = back.ply
    assert ply is not None
    if ply.rest is not None:  # (a capture waiting for removals: it waits from now)
        shift = max(0.0, now - max(paused, ply.rest.start))
        return replace(back, ply=replace(ply, rest=replace(ply.rest, start=ply.rest.start + shift)))
    busy = ply.busy + max(0.0, now - paused)
    return replace(back, ply=replace(ply, busy=busy))


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
