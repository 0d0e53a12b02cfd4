"""What the lights say in each state of a turn: next steps, pieces to take off, and
how to put a wrong board right with the right pieces.

The roles come from the same readings that accept moves (host/recognition/turn_boards.py),
so what is lit and what is accepted cannot disagree. Putting a board right is
identity-aware: a piece whose identity the tracker knows (host/recognition/piece_identity.py)
is sent back to a square that needs that very piece (the white man lifted goes
back to its own square, not onto the black man's), and when the board looks
right but the switches cannot tell whose piece stands where, both squares
blink and the board asks to check the colours instead of declaring it right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Move, Outcome, Position
from engine.position import Piece
from host.hints import Hint, HintBuilder, add_move, end_pattern
from host.recognition.piece_identity import PieceTracker
from host.recognition.turn_boards import Progress, Reading, TurnBoards

Coords = Mapping[int, tuple[int, int]]


def idle_hint(
    turn: TurnBoards,
    *,
    crown: int | None,
    last_move: Move | None,
    lingering: Iterable[int],
    check: Iterable[int] = (),
    allowed: Iterable[Move] = (),
) -> Hint:
    """Nothing happening: the pieces that must capture, the move to make when only
    some are allowed (the computer's), the man to crown, the last move, captured
    pieces still to take off, squares whose colours to check."""
    build = HintBuilder()
    build.add("wrong", check, blink=True)
    build.add("remove", lingering)
    build.add("must-capture", turn.must_capture)
    for move in allowed:
        add_move(build, move)
    if crown is not None:
        build.add("crown", [crown])
    if last_move is not None:
        build.add("last-move", [last_move.origin, last_move.destination])
    return build.build()


def end_hint(position: Position, outcome: Outcome, coords: Coords) -> Hint:
    """The end of the game's pattern (`end_pattern`); a flag fall's blinks."""
    pieces = {sq: piece.color for sq, piece in position.pieces().items()}
    squares = end_pattern(
        coords, position.variant.size, outcome.reason, outcome.winner, pieces
    )
    return HintBuilder().add("end", squares, blink=outcome.reason == "time").build()


def progress_hint(found: Iterable[Progress], lingering: Iterable[int]) -> Hint:
    """A move underway: where the lifted piece may end, the next landing, what to remove."""
    found = list(found)
    build = HintBuilder()
    build.add("remove", lingering)
    for pr in found:
        o = pr.move.origin
        if not pr.lifted:
            build.add("must-capture", [o])
            build.add("remove", pr.move.captures - pr.removed)
        elif pr.at is None:
            # Where the piece may end its move (only moves still possible given the
            # pieces already removed); first landings of longer captures as extra help.
            dests = {q.move.destination for q in found if q.lifted and q.at is None}
            build.add("destination", dests)
            if not pr.removed and len(pr.path) > 1 and pr.path[0] not in dests:
                build.add("landing", [pr.path[0]])
        elif pr.at < len(pr.path) - 1:
            build.add("landing", [pr.path[pr.at + 1]])
            build.add("remove", jumped(pr) - pr.removed)  # already jumped: they come off
        else:
            build.add("remove", pr.move.captures - pr.removed)
    return build.build()


def jumped(progress: Progress) -> frozenset[int]:
    """The captured pieces a capture underway has jumped so far: those between its
    origin and the landing it stands on, along its path."""
    move = progress.move
    variant = move.variant
    if progress.at is None or variant is None:
        return frozenset()
    found: set[int] = set()
    start = move.origin
    for landing in progress.path[: progress.at + 1]:
        (f0, r0), (f1, r1) = variant.square_coords(start), variant.square_coords(landing)
        df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
        for step in range(1, max(abs(f1 - f0), abs(r1 - r0))):
            square = variant.square_at(f0 + df * step, r0 + dr * step)
            if square in move.captures:
                found.add(square)
        start = landing
    return frozenset(found)


def final_hint(reading: Reading, lingering: Iterable[int]) -> Hint:
    """A move's final board: its destination, and when the same board is also on the
    way to another move, what that move would still need (pieces to take off)."""
    assert reading.move is not None
    build = HintBuilder().add("destination", [reading.move.destination]).add("remove", lingering)
    for pr in reading.found:
        if pr.move != reading.move and pr.on_destination:
            build.add("remove", pr.move.captures - pr.removed)
    return build.build()


def correction_hint(
    target: Mapping[int, Piece],
    sensed: frozenset[int],
    lingering: frozenset[int],
    tracker: PieceTracker,
    coords: Coords,
) -> Hint:
    """The next step to put the board right: one (take from, put on) pair, the piece
    lifted going back where that very piece belongs; captured pieces still to take
    off stay lit `remove`."""
    missing = frozenset(target) - sensed
    extra = sensed - frozenset(target) - lingering
    take, put = correction_pair(missing, extra, coords, target, tracker)
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
    coords: Coords,
    target: Mapping[int, Piece] | None = None,
    tracker: PieceTracker | None = None,
) -> tuple[list[int], list[int]]:
    """What to show of a wrong board. When pieces were moved (both missing and extra
    squares): the closest (take from, put on) pair whose piece is the one the empty
    square needs; if no extra piece is the right one, only the squares to empty (a
    wrong piece is never sent to a square it does not belong on). Otherwise every
    difference. Returns (squares to take a piece from, squares to put a piece on)."""
    missing, extra = sorted(missing), sorted(extra)
    if not missing or not extra:
        return extra, missing

    def distance(a: int, b: int) -> int:
        (fa, ra), (fb, rb) = coords[a], coords[b]
        return max(abs(fa - fb), abs(ra - rb))

    def fit(e: int, m: int) -> int:
        """0: the piece on e is surely the one m needs; 1: maybe; 2: surely not."""
        if target is None or tracker is None:
            return 1
        pieces = tracker.pieces_at(e)
        need = target.get(m)
        if None in pieces or need is None:
            return 1
        if pieces == {need}:
            return 0
        return 1 if need in pieces else 2

    pairs = sorted((fit(e, m), distance(e, m), e, m) for e in extra for m in missing)
    best = pairs[0]
    if best[0] == 2:
        return extra, []
    return [best[2]], [best[3]]
