"""The stories kept: a small, bounded set of explanations of the switch history.

Each change of the switches extends every story by every hand action that could
cause it (host/recognition/lifts.py, places.py); stories that end up saying the
same thing are merged (the cheaper kept); then only the cheapest are kept: at
most BEAM, none more than DROP above the best. Changes seen in one scan happened
in an order nobody knows: the orders that matter are tried (`_orders`, at most
eight), each as a beam of its own: after each change of the order, the stories
of every story kept so far are cut together to the WIDEST cheapest (they have
explained the same changes, so they compare), so one scan costs at most
orders x changes x WIDEST extensions, however wrong the board. A read that came
late (a host that stalled: its changes span more than TOGETHER) may hold several
actions of one hand, or of both players, in any order: then every order is tried,
the stories that explained the same changes (in whatever order) cut together
(`_every_order`), on the budget of the eight orders: n changes pass through
n x 2^(n - 1) steps, so each set of changes explained keeps 8 x WIDEST / 2^(n - 1)
stories (WIDEST at most, BEAM at least up to SWEEP changes), and a stall never makes
the next step slower than a scan of as many changes read on time.

Costs move with time (a piece resting, a knocked piece not back): `next_change`
says when the ranking may change if the board stays as it is, so the recogniser
knows when to look again.

The rules of a turn may change while hands are at it (a computer's move to carry
out, or that restriction lifted): the beam keeps the stories it last started from
and the changes since (at most HISTORY), so it can explain those same changes
again under the new rules (`reexplain`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import permutations

from engine import Move
from host.recognition import costs
from host.recognition.lifts import on_lift
from host.recognition.places import on_place
from host.recognition.story import Story
from host.recognition.turns import Context

#: stories held at most, per order tried, part-way through one scan's changes
WIDEST = 4 * costs.BEAM
#: float slack when comparing times
EPS = 1e-6
#: changes kept to explain again (`reexplain`); past it, the stories stand as they are
HISTORY = 64
#: a late read with at most this many changes has them tried in every order (more is a
#: board swept or set up: recogniser.SWEEP)
EVERY_ORDER = 6

#: one scan's changes as the stories were extended by them (or, instead of the context,
#: how long the switches went unread until then: `unread`)
Scan = tuple[float, frozenset[int], frozenset[int], Context | float]


class Beam:
    """The explanations kept, cheapest first."""

    def __init__(self, stories: Iterable[Story]) -> None:
        self.stories: list[Story] = list(stories)
        #: the most stories held at once since the beam was made (a memory witness)
        self.most_held = len(self.stories)
        self._ranked: tuple[float, list[tuple[float, Story]]] | None = None
        #: the stories last started from and the scans since (None: too many to keep)
        self._base: list[Story] | None = list(self.stories)
        self._since: list[Scan] = []

    def advance(
        self, now: float, lifted: frozenset[int], placed: frozenset[int], ctx: Context
    ) -> None:
        """Extend every story by one scan's changes."""
        self._remember((now, lifted, placed, ctx))
        ups = [(sq, True) for sq in sorted(lifted)]
        downs = [(sq, False) for sq in sorted(placed)]
        if ctx.lead > costs.TOGETHER + EPS and 2 < len(ups) + len(downs) <= EVERY_ORDER:
            found = _every_order(self.stories, ups + downs, now, ctx)
        else:
            found = self._in_orders(ups, downs, now, ctx)
        self.most_held = max(self.most_held, len(found))
        self.stories = [s for _, s in _cheapest(found, now, costs.BEAM)]
        self._ranked = None

    def _in_orders(
        self, ups: list[tuple[int, bool]], downs: list[tuple[int, bool]], now: float,
        ctx: Context,
    ) -> list[Story]:
        """Every story extended by one scan's changes (its lifts and its placements, each
        sorted) in the orders that matter (`_orders`), each order a beam of its own."""
        orders = [
            first + second
            for lifts in _orders(ups)
            for places in _orders(downs)
            for first, second in ((lifts, places), (places, lifts))[: 2 if ups and downs else 1]
        ]
        found: list[Story] = []
        for order in orders:
            frontier = self.stories
            for square, up in order:
                step = on_lift if up else on_place
                frontier = [s for here in frontier for s in step(here, square, now, ctx)]
                if len(order) > 1:
                    frontier = [s for _, s in _cheapest(frontier, now, WIDEST)]
            found += frontier
        return found

    def ranked(self, now: float) -> list[tuple[float, Story]]:
        """The stories with their cost now, cheapest first."""
        if self._ranked is None or self._ranked[0] != now:
            # (of two stories costing the same now, the one growing slower first: it
            # is the cheaper from now on)
            costed = [(s.cost(now), _slope(s, now)[0], s) for s in self.stories]
            costed.sort(key=lambda item: (round(item[0], 9), item[1]))
            ranked = [(cost, s) for cost, _, s in costed]
            self._ranked = (now, ranked)
        return self._ranked[1]

    def best(self, now: float) -> Story:
        return self.ranked(now)[0][1]

    def best_at(self, then: float) -> Story:
        """The best story at another time, the board staying as it is."""
        return min(self.stories, key=lambda s: s.cost(then))

    def within(self, now: float, margin: float = costs.MARGIN) -> list[Story]:
        """The stories less than `margin` above the best: those that still stand (one
        exactly `margin` above has just fallen, at the time `next_change` named)."""
        ranked = self.ranked(now)
        cheapest = ranked[0][0]
        return [s for c, s in ranked if c < cheapest + margin - EPS]

    def unread(self, now: float, unseen: float) -> None:
        """The switches went unread for `unseen` seconds before `now`: that time does
        not count towards any story's conditions (`Story.unread`)."""
        self.stories = [story.unread(now, unseen) for story in self.stories]
        self._ranked = None
        self._remember((now, frozenset(), frozenset(), unseen))  # (a scan of no change)

    def _remember(self, scan: Scan) -> None:
        """Keep `scan` to explain again (`reexplain`); past HISTORY, forget them all."""
        if self._base is not None and len(self._since) < HISTORY:
            self._since.append(scan)
        else:
            self._base, self._since = None, []

    def keep(self, wanted: Callable[[Story], bool], now: float) -> None:
        """Keep only the stories `wanted` says (at least the best one)."""
        kept = [s for s in self.stories if wanted(s)]
        self.stories = kept or [self.best(now)]
        self._ranked = None

    def replace(self, stories: Iterable[Story]) -> None:
        """Start again from `stories` (what is certain now)."""
        self.stories = list(stories)
        self.most_held = max(self.most_held, len(self.stories))
        self._ranked = None
        self._base, self._since = list(self.stories), []

    def reexplain(self, allowed: frozenset[Move] | None) -> bool:
        """Explain the scans since the stories last started again, the turn restricted
        to `allowed` now: what the hands did is the same, what it may mean has changed.
        False (nothing done) when more scans passed than HISTORY."""
        if self._base is None:
            return False
        since = self._since
        self.stories, self._since, self._ranked = list(self._base), [], None
        for now, lifted, placed, ctx in since:
            if isinstance(ctx, float):
                self.unread(now, ctx)
            else:
                self.advance(now, lifted, placed, replace(ctx, allowed=allowed))
        return True

    def next_change(self, now: float) -> float | None:
        """The earliest time after `now` when the ranking of the stories may change if
        the board stays as it is (one story overtaking another, or rising MARGIN above
        one, or a condition reaching its cap); None if every cost stays as it is."""
        lines = [(c, *_slope(s, now)) for c, s in self.ranked(now)]
        soon = min((bend for _, _, bend in lines), default=float("inf"))
        cheapest = lines[0][0]
        moving = [line for line in lines if line[1] or line[0] <= cheapest + costs.MARGIN]
        for cost, slope, _ in moving:
            if cost > cheapest + 2 * costs.MARGIN:
                continue
            for other, other_slope, _ in moving:
                closing = slope - other_slope
                if closing <= 0:
                    continue
                for target in (0.0, costs.MARGIN):
                    wait = (target - (cost - other)) / closing
                    if wait > EPS:
                        soon = min(soon, now + wait)
        return soon if soon < float("inf") else None


def _every_order(
    stories: list[Story], changes: list[tuple[int, bool]], now: float, ctx: Context
) -> list[Story]:
    """`stories` extended by `changes` made in any order: after each step, the stories
    that have explained the same changes are cut together to the cheapest `width`, the
    eight orders' budget (8 x changes x WIDEST extensions) shared among the
    changes x 2^(changes - 1) steps of every order."""
    width = min(WIDEST, 8 * WIDEST >> (len(changes) - 1))
    frontier: dict[frozenset[int], list[Story]] = {frozenset(): stories}
    for _ in changes:
        reached: dict[frozenset[int], list[Story]] = {}
        for done, here in frontier.items():
            for i, (square, up) in enumerate(changes):
                if i in done:
                    continue
                step = on_lift if up else on_place
                reached.setdefault(done | {i}, []).extend(
                    s for story in here for s in step(story, square, now, ctx)
                )
        frontier = {
            done: [s for _, s in _cheapest(found, now, width)] for done, found in reached.items()
        }
    return [s for found in frontier.values() for s in found]


def _orders(changes: list[tuple[int, bool]]) -> list[list[tuple[int, bool]]]:
    """The orders in which changes of one kind seen in one scan may have happened: both
    orders of two, else as sorted and reversed (a hand does not do three things of one
    kind in one scan one by one: what it does at once has no order that matters)."""
    if len(changes) <= 2:
        return [list(order) for order in permutations(changes)]
    return [changes, changes[::-1]]


def _finished(story: Story) -> tuple[float, ...]:
    """When each ply of `story` was finished: of two stories saying the same at the same
    cost, the later finishes are kept (a captured piece taken off in the scan the next
    player started still came off with the move)."""
    return tuple(ply.finished for ply in story.plies)


def _first(item: tuple[float, Story]) -> float:
    return item[0]


def _slope(story: Story, now: float) -> tuple[float, float]:
    """How fast `story`'s cost grows just after `now`, and when that next changes."""
    slope, bend = 0.0, float("inf")
    for term in story.terms():
        rate, until = term.slope(now + EPS)
        slope += rate
        bend = min(bend, until)
    return slope, bend


def _cheapest(stories: Iterable[Story], now: float, most: int) -> list[tuple[float, Story]]:
    """The stories worth keeping, with their cost now: merged by key (the cheaper kept),
    at most `most`, none more than DROP above the cheapest."""
    found: dict[tuple[object, ...], tuple[float, Story]] = {}
    for story in stories:
        cost = story.cost(now)
        key = story.key()
        known = found.get(key)
        if known is None or cost < known[0] - EPS or (
            cost < known[0] + EPS and _finished(story) > _finished(known[1])
        ):
            found[key] = (cost, story)
    ranked = sorted(found.values(), key=_first)
    if not ranked:
        return []
    limit = ranked[0][0] + costs.DROP
    return [item for item in ranked[:most] if item[0] <= limit]
