"""How a story's ply starts, ends and opens again: the turn changing hands.

- `compatible`: the legal paths a ply underway may still be (its piece, the
  landings it touched in order, the captured pieces taken off);
- `finish`: the ply is done (its piece released on its end square; captured
  pieces still standing are forgotten), the next player's turn begins, and a
  piece they were already holding becomes their ply (a touch played on);
- `reopen`: the last ply's piece is carried on (touch-move off) or back (a
  takeback), before the next player acted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine import Move
from engine.position import Piece
from host.recognition import costs
from host.recognition.costs import Term
from host.recognition.rules import Path, TurnRules, rules_for
from host.recognition.story import TOUCH, Ply, Story, Underway


@dataclass(frozen=True)
class Context:
    """What every action of one change may read: the settings, and which ply of the
    stories the restriction of `allowed` (a computer's move to carry out) applies to."""

    touch_move: bool
    allowed: frozenset[Move] | None
    #: the story ply the restriction applies to (the first not yet committed)
    first_open: int
    #: squares the lights ask to take a piece from / put one on (correcting a board)
    take: frozenset[int] = frozenset()
    put: frozenset[int] = frozenset()
    #: pieces a hand said it puts down on a square (the simulator's tray): a piece from
    #: outside the game put there is that one
    told: tuple[tuple[int, Piece], ...] = ()
    #: how much earlier than its time this change may have happened: its time less the
    #: last read of the switches that did not show it (0: read the moment it happened)
    lead: float = 0.0

    def earliest(self, now: float) -> float:
        """The earliest this change, read at `now`, may have happened."""
        return now - self.lead

    def rules(self, story: Story) -> TurnRules:
        allowed = self.allowed if len(story.plies) == self.first_open else None
        return rules_for(story.position, allowed)


def compatible(rules: TurnRules, ply: Underway) -> tuple[Path, ...]:
    """The paths `ply` may still be playing."""
    if ply.bound:
        return ()
    return _compatible(rules, ply.origin, ply.removed, ply.stops)


@lru_cache(maxsize=1024)
def _compatible(
    rules: TurnRules, origin: int | None, removed: frozenset[int], stops: tuple[int, ...]
) -> tuple[Path, ...]:
    if origin is None:
        candidates = [rules.paths[i] for i in rules.capture_paths]
    else:
        candidates = [rules.paths[i] for i in rules.from_origin(origin)]
    return tuple(
        p for p in candidates if removed <= p.captures and _in_order(stops, p.landings)
    )


def _in_order(stops: tuple[int, ...], landings: tuple[int, ...]) -> bool:
    """Is `stops` a subsequence of `landings` (landings may be skipped, never revisited)?"""
    i = 0
    for square in landings:
        if i < len(stops) and stops[i] == square:
            i += 1
    return i == len(stops)


def ending_on(paths: tuple[Path, ...], square: int, stops: tuple[int, ...]) -> list[Path]:
    """The paths that end on `square` with `stops` touched on their way."""
    way = stops if stops[-1:] == (square,) else (*stops, square)
    return [p for p in paths if p.destination == square and _in_order(way, p.landings)]


def off_board(story: Story) -> frozenset[int]:
    """The squares whose piece is off the board in `story`: taken off by the ply, or in
    a hand (touched, knocked) - a captured piece in a hand counts as taken off."""
    off = {p.home for p in story.loose if p.at is None and p.home is not None}
    if story.ply is not None:
        off |= story.ply.removed
    return frozenset(off)


def rest_on(story: Story, ply: Underway, square: int, now: float, ctx: Context) -> Term:
    """What the ply's piece resting on `square` costs as time goes on: a touch-down on
    a landing still to come of some path, a pause between captured pieces on its end
    square, else a brush (it is done there, or only passing)."""
    off = off_board(story)
    before = ply.stops[:-1] if ply.stops[-1:] == (square,) else ply.stops
    for p in compatible(ctx.rules(story), ply):
        i = p.lands_after(square, done_landings(p, before))
        if i is None:
            continue
        if i < len(p.landings) - 1:
            return costs.touch_down(now)
        if not p.captures <= off:
            return costs.removing(now)
    return costs.brush(now, touched=False)


def crowned_on(story: Story, ctx: Context) -> tuple[int, float] | None:
    """The ply's piece stands on the end square of a move that crowns it, every
    captured piece off: that square, and since when its move was complete."""
    ply = story.ply
    if ply is None or ply.on is None:
        return ply.crowned_at if ply is not None else None
    if ply.crowned_at is not None and ply.crowned_at[0] == ply.on:
        return ply.crowned_at
    off = off_board(story)
    ends = ending_on(compatible(ctx.rules(story), ply), ply.on, ply.stops)
    if any(p.move.promotes and p.captures <= off for p in ends):
        return (ply.on, ply.last)
    return ply.crowned_at


def done_landings(path: Path, stops: tuple[int, ...]) -> int:
    """How many of `path`'s landings the stops have passed."""
    i = 0
    for stop in stops:
        found = path.lands_after(stop, i)
        if found is not None:
            i = found + 1
    return i


def finish(story: Story, move: Move, finished: float, lead: float = 0.0) -> Story:
    """`story` with its ply underway done as `move`, finished at `finished` (the mover's
    last action belonging to it, which may have been `lead` earlier: the reads of that
    change; the piece released there, so what resting in the hand cost until now does
    not count); its captured pieces not taken off are forgotten. A piece the next
    player already holds becomes their ply (see `_played_on`)."""
    ply = story.ply
    assert ply is not None
    if ply.crowned_at is not None and ply.crowned_at[0] == move.destination:
        finished = min(finished, ply.crowned_at[1])  # (then a king stacked on it)
    before = story.position
    after = before.play(move)
    removed = ply.removed
    loose = []
    lingering = dict(story.lingering)
    held = 0.0
    for piece in story.loose:
        if piece.home is not None and piece.home in move.captures:
            # A captured piece already off its square (touched, knocked): taken off.
            if piece.at is not None and piece.piece is not None:
                lingering[piece.at] = piece.piece
            removed = removed | {piece.home}
            held += piece.term.ended(finished - lead) if piece.term is not None else 0.0
            continue
        loose.append(piece)
    forgotten = move.captures - removed
    for square in forgotten:
        captured = before.piece_at(square)
        assert captured is not None
        lingering[square] = captured
    done = Story(
        plies=(*story.plies, Ply(move, before, finished)),
        position=after,
        ply=None,
        loose=tuple(loose),
        lingering=tuple(sorted(lingering.items())),
        acted=False,
        turn_began=finished,
        ghosts=story.ghosts,
        fixed=story.fixed + held + (costs.FORGET if forgotten else 0.0),
    )
    played = _played_on(done, lead)
    if forgotten and played.ply is not None and played.ply.least_early > costs.TOGETHER:
        # (the next player's piece was in the hand before the capture was done: nothing
        # they did since proves the pieces left standing forgotten)
        played = replace(played, fixed=played.fixed + costs.STILL_REMOVING - costs.FORGET)
    return played


def _played_on(story: Story, lead: float) -> Story:
    """The next player's turn has begun (at `turn_began`, or up to `lead` before) while
    they hold one of their own pieces (lifted out of turn): that piece is their ply
    underway, lifted early."""
    side = story.position.turn
    mine = [
        piece for piece in story.loose
        if piece.kind == TOUCH and piece.at is None and piece.home is not None
        and piece.piece is not None and piece.piece.color == side
    ]
    if not mine:
        return story
    latest = max(mine, key=lambda piece: piece.since)
    assert latest.home is not None
    ply = Underway(
        origin=latest.home, lifted=True, left=latest.home, since=latest.since,
        last=latest.since, lead=latest.lead, early=max(0.0, story.turn_began - latest.since),
        early_lead=lead,
    )
    rest = tuple(piece for piece in story.loose if piece is not latest)
    held = latest.term.ended(story.turn_began - lead) if latest.term is not None else 0.0
    return replace(story, ply=ply, loose=rest, acted=True, fixed=story.fixed + held)


def reopen(story: Story, now: float, ctx: Context, *, lifted: bool) -> Story | None:
    """The last ply of `story` open again, its piece lifted off its end square now
    (`lifted`) or still standing there (one more captured piece coming off). None when
    the next player has acted since, or there is no ply to open. With touch-move on the
    piece may only go back (a takeback), never on."""
    if not story.plies or story.ply is not None or story.acted:
        return None
    last = story.plies[-1]
    move = last.move
    forgotten = {sq for sq, _ in story.lingering if sq in move.captures}
    bound = ctx.touch_move and lifted
    ply = Underway(
        origin=move.origin,
        removed=move.captures - forgotten,
        stops=(move.destination,) if move.captures and not bound else (),
        lifted=True,
        on=None if lifted else move.destination,
        left=move.destination,
        since=now,
        last=now,
        lead=ctx.lead,
        rest=None if lifted else costs.removing(now),
        was=move,
        crowned_at=(move.destination, last.finished) if move.promotes and lifted else None,
        bound=bound,
    )
    if not lifted and ctx.touch_move:
        return None  # a released piece has moved: its capture is what it was
    lingering = tuple((sq, p) for sq, p in story.lingering if sq not in forgotten)
    return Story(
        plies=story.plies[:-1],
        position=last.before,
        ply=ply,
        loose=story.loose,
        lingering=lingering,
        acted=True,
        turn_began=story.turn_began,
        crowned=False,
        ghosts=story.ghosts,
        fixed=story.fixed + costs.reopen_cost(ctx.earliest(now) - last.finished),
    )


def settled(story: Story, ctx: Context, now: float) -> list[Story]:
    """The stories that follow from `story` when its ply's piece stands on an end square
    with every captured piece off: the ply done there, finished `now` (one per move). A
    king capture ending on its own square may be done without the king ever lifted."""
    ply = story.ply
    if ply is None:
        return []
    paths = compatible(ctx.rules(story), ply)
    if ply.lifted:
        if ply.on is None:
            return []
        ends = ending_on(paths, ply.on, ply.stops)
    else:
        ends = [p for p in paths if p.origin == p.destination and ply.origin in (None, p.origin)]
    off = off_board(story)
    done = {p.move for p in ends if p.captures <= off}
    return [finish(story, move, now, ctx.lead) for move in done]
