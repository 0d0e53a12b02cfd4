"""What the LEDs show, read off the best story (host/recognition/story.py).

The same paths that explain the hands give the roles, so what is lit and what is
accepted never disagree:
- nothing underway: the pieces that must capture, the last move, the man to
  crown, captured pieces still to take off, squares whose colours to check, the
  move to carry out when only one is allowed (the computer's);
- a ply underway: where the lifted piece may end (only moves still possible after
  the captured pieces already off), the next landing of a capture resting on the
  way and the pieces it has jumped so far, the captured pieces still to come off;
- a ply just done, not yet committed: its end square, and what a longer capture
  ending there would still take;
- a wrong board being put right: one pair of squares, take from the blinking
  one and put on the steady one, the piece going where that very piece belongs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Move, Outcome, Position
from engine.position import Piece
from host.hints import Hint, HintBuilder, add_move, end_pattern
from host.recognition.rules import Geometry, TurnRules, trajectory
from host.recognition.story import Story
from host.recognition.turns import compatible


def idle_hint(
    rules: TurnRules,
    *,
    crown: int | None,
    last_move: Move | None,
    lingering: Iterable[int],
    check: Iterable[int] = (),
    allowed: Iterable[Move] = (),
) -> Hint:
    """Nothing underway (see the module docstring)."""
    build = HintBuilder()
    build.add("wrong", check, blink=True)
    build.add("remove", lingering)
    build.add("must-capture", rules.must_capture)
    for move in allowed:
        add_move(build, move)
    if crown is not None:
        build.add("crown", [crown])
    if last_move is not None:
        build.add("last-move", [last_move.origin, last_move.destination])
    return build.build()


def end_hint(position: Position, outcome: Outcome, geometry: Geometry) -> Hint:
    """The end of the game's pattern (host/hints.py: `end_pattern`); a flag fall's blinks."""
    pieces = {sq: piece.color for sq, piece in position.pieces().items()}
    coords = {sq: geometry.coords[sq] for sq in range(1, position.variant.num_squares + 1)}
    squares = end_pattern(coords, position.variant.size, outcome.reason, outcome.winner, pieces)
    return HintBuilder().add("end", squares, blink=outcome.reason == "time").build()


def underway_hint(story: Story, rules: TurnRules) -> Hint:
    """The ply underway of `story` (whose position `rules` are): see the module
    docstring. Nothing lit for a piece that may not move."""
    ply = story.ply
    assert ply is not None
    build = HintBuilder().add("remove", story.lingering_squares())
    paths = compatible(rules, ply)
    if not ply.lifted:
        build.add("must-capture", {p.origin for p in paths})
        for p in paths:
            build.add("remove", p.captures - ply.removed)
        return build.build()
    if ply.on is None:
        ends = {p.destination for p in paths}
        build.add("destination", ends)
        for p in paths:
            first = p.landings[0]
            if not ply.removed and not ply.stops and len(p.landings) > 1 and first not in ends:
                build.add("landing", [first])
        return build.build()
    for p in paths:
        if ply.on in p.landings[:-1]:
            i = p.landings.index(ply.on)
            build.add("landing", [p.landings[i + 1]])
            jumped = trajectory(rules.position.variant, p.origin, p.landings[: i + 1])
            build.add("remove", (p.captures & frozenset(jumped)) - ply.removed)
        elif p.destination == ply.on:
            build.add("remove", p.captures - ply.removed)
    return build.build()


def done_hint(story: Story, move: Move, rules: TurnRules) -> Hint:
    """A ply done and not yet committed: where it ended, and what a longer capture of
    the same piece to the same square would still take (`rules`: of its position)."""
    build = HintBuilder().add("destination", [move.destination])
    build.add("remove", story.lingering_squares() - move.captures)
    for p in rules.paths:
        same = (p.origin, p.destination) == (move.origin, move.destination)
        if same and p.captures > move.captures:
            build.add("remove", p.captures - move.captures)
    return build.build()


def capture_alert(rules: TurnRules, lingering: Iterable[int]) -> Hint:
    """A piece that may not move lifted while a capture is mandatory."""
    return (
        HintBuilder()
        .add("remove", lingering)
        .add("capture-alert", rules.must_capture, blink=True)
        .build()
    )


def correction_hint(
    target: Mapping[int, Piece],
    sensed: frozenset[int],
    lingering: frozenset[int],
    pieces_at: Mapping[int, frozenset[Piece | None]],
    geometry: Geometry,
) -> Hint:
    """The next step to put the board right: one (take from, put on) pair, the piece
    lifted going back where that very piece belongs; captured pieces still to take off
    stay lit `remove`. `pieces_at`: the pieces the standing stories have on each
    square."""
    missing = frozenset(target) - sensed
    extra = sensed - frozenset(target) - lingering
    take, put = correction_pair(missing, extra, geometry, target, pieces_at)
    return (
        HintBuilder()
        .add("remove", lingering)
        .add("wrong", put)
        .add("wrong", take, blink=True)
        .build()
    )


def correction_pair(
    missing: Iterable[int],
    extra: Iterable[int],
    geometry: Geometry,
    target: Mapping[int, Piece],
    pieces_at: Mapping[int, frozenset[Piece | None]],
) -> tuple[list[int], list[int]]:
    """What to show of a wrong board. When pieces were moved (both missing and extra
    squares): the closest (take from, put on) pair whose piece is the one the empty
    square needs; if no extra piece is the right one, only the squares to empty (a
    wrong piece is never sent to a square it does not belong on). Otherwise every
    difference. Returns (squares to take a piece from, squares to put a piece on)."""
    missing, extra = sorted(missing), sorted(extra)
    if not missing or not extra:
        return extra, missing

    def fit(e: int, m: int) -> int:
        """0: the piece on e is surely the one m needs; 1: maybe; 2: surely not."""
        pieces = pieces_at.get(e, frozenset({None}))
        need = target.get(m)
        if None in pieces or need is None:
            return 1
        if pieces == {need}:
            return 0
        return 1 if need in pieces else 2

    pairs = sorted((fit(e, m), geometry.distance(e, m), e, m) for e in extra for m in missing)
    best = pairs[0]
    if best[0] == 2:
        return extra, []
    return [best[2]], [best[3]]
