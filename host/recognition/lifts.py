"""What a piece leaving its square can be, in one story: every hand action that
explains the lift, each as a new story with its cost.

By whom stands on the square (in that story):
- the ply's piece resting there: it goes on (what resting cost is now fixed);
- a forgotten captured piece: taken off at last;
- a loose piece (knocked, put astray): lifted again;
- a piece of the side to move: the ply starts (or its piece is lifted after captured
  pieces came off first), or one more captured piece of the last move going on;
- a piece of the other side: a captured piece taken off, a touch out of turn, the
  last move's piece carried on (touch-move off), a crowned man lifted to stack a
  king;
- any piece: knocked off its switch.

When the ply's piece stands on an end square with captured pieces still to come
off, the lift may also be the next player's first action: the ply was done there
and those pieces forgotten (`lazy`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.position import Piece
from host.recognition import costs
from host.recognition.rules import geometry_for
from host.recognition.story import CROWN, KNOCK, STRAY, TOUCH, Loose, Story, Underway
from host.recognition.turns import (
    Context,
    compatible,
    crowned_on,
    ending_on,
    finish,
    off_board,
    reopen,
    rest_on,
    settled,
)


def on_lift(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """Every story that extends `story` by a piece leaving `square` at `now`."""
    ply = story.ply
    if ply is not None and ply.on == square:
        # (or, done there, the next player taking it off for their capture)
        return [_goes_on(story, now, ctx), *_lazy(story, square, now, ctx)]
    for ghost, since in story.ghosts:
        if ghost == square:  # (a slid piece's square letting go late)
            if since >= now:
                return []  # (in one scan: the changes in their own order tell it)
            ghosts = tuple(item for item in story.ghosts if item[0] != square)
            late = costs.lagged(since).at(ctx.earliest(now))
            return [replace(story, ghosts=ghosts, fixed=story.fixed + late)]
    loose = story.loose_at(square)
    if loose is not None:
        return [_loose_lifted(story, loose, now, ctx)]
    if any(sq == square for sq, _ in story.lingering):
        lingering = tuple(item for item in story.lingering if item[0] != square)
        return [replace(story, lingering=lingering)]
    piece = story.position.piece_at(square)
    if piece is None:
        return []  # (the story does not have a piece there: it cannot explain this lift)
    if piece.color == story.position.turn:
        found = [_knocked(story, square, piece, now, ctx), *_own_lifted(story, square, now, ctx)]
    else:
        found = _other_lifted(story, square, piece, now, ctx)
    return found + _snatched(story, square, now, ctx) + _lazy(story, square, now, ctx)


def _goes_on(story: Story, now: float, ctx: Context) -> Story:
    """The ply's piece lifted off the square it rested on, to go on (or, a man crowned
    there, to have a king stacked on it)."""
    ply = story.ply
    assert ply is not None and ply.on is not None
    rested = ply.rest.ended(ctx.earliest(now)) if ply.rest is not None else 0.0
    carried = replace(ply, on=None, left=ply.on, since=now, last=now, rest=None,
                      crowned_at=crowned_on(story, ctx), lead=ctx.lead)
    return replace(story, ply=carried, fixed=story.fixed + rested)


def _loose_lifted(story: Story, loose: Loose, now: float, ctx: Context) -> Story:
    """A loose piece picked up again: back in a hand (a piece from outside the game
    taken away is simply gone)."""
    rest = tuple(other for other in story.loose if other is not loose)
    if loose.kind == STRAY and loose.home is None:
        return replace(story, loose=rest)
    lifted = replace(loose, at=None, left=loose.at, since=now, lead=ctx.lead)
    return replace(story, loose=(*rest, lifted))


def _knocked(story: Story, square: int, piece: Piece, now: float, ctx: Context) -> Story:
    """Any piece knocked off its switch (rocked, or pushed on towards a neighbour). One
    that may have been knocked within TOGETHER of another is the same stroke of the
    hand: its pieces stay off under the one term (the hand puts them back together)."""
    for other in story.loose:
        if other.stroke is not None and ctx.earliest(now) - other.stroke <= costs.TOGETHER + 1e-9:
            knock = Loose(KNOCK, piece, square, None, square, now, stroke=other.stroke,
                          lead=ctx.lead)
            return replace(story, loose=(*story.loose, knock), fixed=story.fixed + costs.KNOCK)
    knock = Loose(KNOCK, piece, square, None, square, now, term=costs.knocked(now), stroke=now,
                  lead=ctx.lead)
    return replace(story, loose=(*story.loose, knock), fixed=story.fixed + costs.KNOCK)


def _own_lifted(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """A piece of the side to move lifted: their ply starts, or its piece leaves its
    square after captured pieces came off first; or one more piece the last move
    (the other side's) captures, taken off as that move goes on."""
    ply = story.ply
    rules = ctx.rules(story)
    found: list[Story] = []
    if ply is None:
        cost = 0.0 if rules.from_origin(square) else costs.IMMOVABLE
        start = Underway(origin=square, lifted=True, left=square, since=now, last=now,
                         lead=ctx.lead)
        found.append(replace(story, ply=start, acted=True, fixed=story.fixed + cost))
    elif not ply.lifted and ply.origin in (None, square):
        lifted = replace(
            ply, origin=square, lifted=True, left=square, since=now, last=now, rest=None,
            lead=ctx.lead,
        )
        if compatible(rules, lifted):
            rested = _rested(ply, ctx.earliest(now))
            found.append(replace(story, ply=lifted, fixed=story.fixed + rested))
    opened = reopen(story, now, ctx, lifted=False)
    if opened is not None:
        found += _taken_off(opened, square, now, ctx)
    return found


def _other_lifted(
    story: Story, square: int, piece: Piece, now: float, ctx: Context
) -> list[Story]:
    """A piece of the side not to move lifted: a captured piece taken off, a touch or a
    knock, the last move's piece carried on, or the crowned man lifted to stack a king.
    A piece every path of the capture underway takes is taken off: a touch or a knock
    would only be the same story told with a surprise."""
    found = _taken_off(story, square, now, ctx)
    last = story.plies[-1].move if story.plies else None
    opened = None
    if last is not None and last.destination == square:
        if last.promotes and not story.crowned:
            crown = Loose(CROWN, piece, square, None, square, now, term=costs.crowning(now),
                          lead=ctx.lead)
            found.append(replace(story, loose=(*story.loose, crown)))
        opened = reopen(story, now, ctx, lifted=True)
        if opened is not None:
            found.append(opened)
    if not found or not _taken_by_all(story, square, ctx):
        if opened is None:  # (the last move's piece in its mover's hand: it goes on)
            found.append(_touched(story, square, piece, now, ctx))
        # (the last move's piece, its mover having only just let go of it, is in the
        # mover's hand again: not knocked; while its mover may still go on with it,
        # their hand, still over it, is the likelier)
        if last is None or last.destination != square:
            found.append(_knocked(story, square, piece, now, ctx))
        elif not _just_released(story, now):
            goes_on = opened is not None and opened.ply is not None and not opened.ply.bound
            knock = _knocked(story, square, piece, now, ctx)
            extra = costs.KNOCK_MOVED - costs.KNOCK if goes_on else 0.0
            found.append(replace(knock, fixed=knock.fixed + extra))
    return found


def _just_released(story: Story, now: float) -> bool:
    """Was the last ply's piece released within SLIDE of `now`? Lifted again so soon, it
    is the hand going on with it (its fingers barely off), not a knock."""
    return bool(story.plies) and now - story.plies[-1].finished <= costs.SLIDE + 1e-9


def _touched(story: Story, square: int, piece: Piece, now: float, ctx: Context) -> Story:
    """A piece lifted out of turn by its player's hand, to be put back (a second piece
    in a hand already holding one costs more; so does one lifted while the mover's
    capture stands on its end square, only captured pieces to come off: the player
    starting before the mover finished)."""
    busy = any(p.kind == TOUCH and p.at is None and p.hand == piece.color for p in story.loose)
    cost = costs.TOUCH + (costs.SECOND if busy else 0.0)
    if _removals_left(story, ctx):
        cost += costs.HELD_EARLY
    touch = Loose(TOUCH, piece, square, None, square, now, hand=piece.color,
                  term=costs.held(now), lead=ctx.lead)
    return replace(story, loose=(*story.loose, touch), fixed=story.fixed + cost)


def _removals_left(story: Story, ctx: Context) -> bool:
    """Does the ply's piece stand on the end square of its capture, only captured
    pieces still to come off?"""
    ply = story.ply
    if ply is None or ply.on is None or not ply.lifted:
        return False
    off = off_board(story)
    ends = ending_on(compatible(ctx.rules(story), ply), ply.on, ply.stops)
    return any(not p.captures <= off for p in ends)


def _taken_by_all(story: Story, square: int, ctx: Context) -> bool:
    """Does every path the ply underway may still be take `square`'s piece?"""
    ply = story.ply
    if ply is None:
        return False
    paths = compatible(ctx.rules(story), ply)
    return bool(paths) and all(square in p.captures for p in paths)


def _taken_off(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """`square`'s piece taken off as a piece the ply underway captures (the ply starts
    with it when none is underway); with the ply's piece on its end square and the
    last captured piece off, the ply is also done."""
    ply = story.ply or Underway(origin=None, last=now)
    taken = replace(ply, removed=ply.removed | {square}, last=now)
    if not compatible(ctx.rules(story), taken):
        return []
    # Taking pieces off, the player is busy: the piece's rest (a pause between captured
    # pieces, a touch-down, a wait before the capturing piece is lifted) starts again.
    rested = _rested(ply, ctx.earliest(now))
    after = replace(story, ply=taken, acted=True, fixed=story.fixed + rested)
    if taken.on is not None:
        rest = rest_on(after, taken, taken.on, now, ctx)
        after = replace(after, ply=replace(taken, rest=rest))
        done = settled(after, ctx, now)
        if _complete(after, done, ctx):
            return done
        return [after, *done]
    elif not taken.lifted:
        after = replace(after, ply=replace(taken, rest=costs.removing(now)))
    return [after, *settled(after, ctx, now)]


def _complete(story: Story, done: list[Story], ctx: Context) -> bool:
    """Does the ply's piece stand on the end square of the one move it can still be, its
    last captured piece just taken off? Then the ply is done (`done`): a story of the
    piece still in the hand there could only become that move or no move, which the move
    read again (`reopen`: carried on, or back home) already tells."""
    ply = story.ply
    if ply is None or len(done) != 1:
        return False
    move = done[0].plies[-1].move
    paths = compatible(ctx.rules(story), ply)
    return bool(paths) and all(p.move == move for p in paths)


def _rested(ply: Underway, until: float) -> float:
    """What the ply's piece resting (or waiting to be lifted) has cost until `until` (the
    earliest the change that ends it may have happened)."""
    return 0.0 if ply.rest is None else ply.rest.ended(until)


def _snatched(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """The ply's piece in the hand came down on an end square and the next player took
    it off for their capture within one scan (never seen), and this lift is their next
    action: one story per end square whose capture the next player can make. (A hand
    waiting at the landing is ready for the move as first played: a move going on lands
    where nobody expected it, so a snatch there is anticipated.)"""
    ply = story.ply
    if ply is None or not ply.lifted or ply.on is not None:
        return []
    off = off_board(story)
    board = story.occupied()
    geometry = geometry_for(story.position.variant)
    found: list[Story] = []
    for path in compatible(ctx.rules(story), ply):
        if not path.captures <= off or path.destination in board:
            continue
        assert ply.left is not None
        cost = costs.UNSEEN + (costs.ANTICIPATED if ply.was is not None else 0.0)
        cost += costs.carry_cost(
            now - ply.since + ply.lead,
            geometry.steps(ply.left, path.destination),
            from_rest=not ply.touched,
        )
        landed = replace(ply, on=path.destination, stops=(*ply.stops, path.destination))
        done = finish(replace(story, ply=landed), path.move, now)
        for taken in _taken_off(done, path.destination, now, ctx):
            found += [s.with_cost(cost) for s in on_lift(taken, square, now, ctx) if s.acted]
    return found


def _lazy(story: Story, square: int, now: float, ctx: Context) -> list[Story]:
    """The lift as the next player's first action after a ply whose piece stands on its
    end square with captured pieces still on the board: the ply was done, those pieces
    forgotten (one story per move that fits)."""
    ply = story.ply
    if ply is None or ply.on is None or not ply.lifted:
        return []
    paths = ending_on(compatible(ctx.rules(story), ply), ply.on, ply.stops)
    moves = {p.move for p in paths if p.captures > ply.removed}
    found: list[Story] = []
    for move in moves:
        done = finish(story, move, ply.last)
        found += [s for s in on_lift(done, square, now, ctx) if s.acted]
    return found
