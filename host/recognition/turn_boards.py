"""Matching boards to moves: every board one turn can show, and what a board means.

Recognition is set matching (docs/play.md, DESIGN.md section 2). For one
position the legal moves define every board a hand can pass through while
carrying one out: `expected - {o} - S + L`, with S any subset of the captured
pieces (taken off in any order, even before the piece is lifted) and L
nothing (piece in the hand) or one landing square of a path. A move's final
board is `expected - {o} - C + {d}`. `TurnBoards` precomputes these when a
turn starts; `read` says what one board is in this turn. Timing, proof and
guidance live elsewhere (host/recognition/recogniser.py, host/recognition/guidance.py): this module
only matches sets, so the same answer drives what is accepted and what is lit.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move, Position


@dataclass(frozen=True)
class Progress:
    """One way a legal path explains the board as a move underway."""

    move: Move
    path: tuple[int, ...]
    removed: frozenset[int]
    lifted: bool  # the capturing piece has left its origin
    at: int | None  # index in `path` of the square it stands on, or None if in hand

    @property
    def on_destination(self) -> bool:
        """The piece stands on the move's last square (captured pieces may remain)."""
        return self.lifted and self.at == len(self.path) - 1


@dataclass(frozen=True)
class Reading:
    """What a board means in one turn.

    kind: "expected" (nothing happening), "final" (the result of `move`),
    "progress" (moves underway, `found`), "takeback" (the position before the last
    move) or "unknown". A final board that is also on the way to another move
    (`on_the_way`) must wait longer before it counts; `found` then holds the ways.
    One that the next player's start fits as well (`doubted`) waits longer still.
    """

    kind: str
    move: Move | None = None
    on_the_way: bool = False
    found: tuple[Progress, ...] = ()
    doubted: bool = False

    def landed(self) -> list[Move]:
        """The moves whose piece stands on their destination on this board."""
        if self.kind == "final" and self.move is not None:
            return [self.move]
        if self.kind == "progress":
            return list(dict.fromkeys(p.move for p in self.found if p.on_destination))
        return []

    def in_hand(self) -> list[Move]:
        """The moves underway whose piece has been lifted and has not landed for good."""
        if self.kind != "progress":
            return []
        return list(dict.fromkeys(p.move for p in self.found if p.lifted and not p.on_destination))


UNKNOWN = Reading("unknown")
EXPECTED = Reading("expected")


class TurnBoards:
    """Every board of one turn, precomputed from the position's legal moves.

    `moves` is the set of moves accepted this turn (all legal moves today; a
    computer opponent's indicated move would narrow it to one, and the boards,
    lights and acceptance follow from it unchanged)."""

    def __init__(
        self,
        position: Position,
        previous: frozenset[int] | None = None,
        moves: list[Move] | None = None,
    ) -> None:
        self.position = position
        self.expected = position.occupied()
        self.moves = position.legal_moves() if moves is None else moves
        #: only some legal moves are accepted (a computer opponent's move to carry out)
        self.restricted = moves is not None
        allowed = set(self.moves)
        self.paths = [p for p in position.legal_paths() if p in allowed]
        self.previous = previous
        self.finals: dict[frozenset[int], list[Move]] = {}
        for move in self.moves:
            self.finals.setdefault(self.final_of(move), []).append(move)
        capture = any(m.is_capture for m in self.moves)
        self.must_capture = frozenset(m.origin for m in self.moves) if capture else frozenset()
        destinations: dict[int, set[int]] = {}
        for move in self.moves:
            destinations.setdefault(move.origin, set()).add(move.destination)
        self.destinations = {o: frozenset(d) for o, d in destinations.items()}
        #: every square a legal path of this turn captures
        self.capturable = frozenset(sq for m in self.moves for sq in m.captures)

    def other_routes(self, move: Move) -> list[Move]:
        """The other moves of this turn between the same two squares (another capture
        route, other pieces taken)."""
        ends = (move.origin, move.destination)
        return [m for m in self.moves if m != move and (m.origin, m.destination) == ends]

    def final_of(self, move: Move) -> frozenset[int]:
        return (self.expected - {move.origin} - move.captures) | {move.destination}

    def progress(self, board: frozenset[int]) -> list[Progress]:
        return explain(self.expected, self.paths, board)

    def read(self, board: frozenset[int]) -> Reading:
        """What `board` (forgotten captured pieces already left out) means this turn."""
        if board == self.expected:
            return EXPECTED
        if self.previous is not None and board == self.previous:
            return Reading("takeback")
        finals = self.finals.get(board)
        found = tuple(self.progress(board))
        if finals is not None and len(finals) == 1:
            move = finals[0]
            on_the_way = any(
                p.move != move or not p.on_destination or p.removed != p.move.captures
                for p in found
            )
            return Reading("final", move, on_the_way, found)
        if found:
            return Reading("progress", found=found)
        return UNKNOWN


    def read_touched(
        self, board: frozenset[int], keep: frozenset[int] = frozenset()
    ) -> tuple[Reading, frozenset[int]]:
        """`read`, but if the board means nothing, read the other side's lifted pieces as
        touches (back on their squares): an opponent's hand is not a move. Pieces this
        turn could capture are tried last (their removal is part of a capture); squares
        in `keep` are never read as touched. Returns the reading and the squares read
        as touched."""
        reading = self.read(board)
        if reading.kind != "unknown":
            return reading, frozenset()
        position = self.position
        theirs = frozenset(
            sq
            for sq in self.expected - board - keep
            if (piece := position.piece_at(sq)) is not None and piece.color != position.turn
        )
        for touched in dict.fromkeys((theirs - self.capturable, theirs)):
            if touched:
                again = self.read(board | touched)
                if again.kind in ("expected", "final", "progress"):
                    return again, touched
        return reading, frozenset()


def explain(expected: frozenset[int], paths: list[Move], sensed: frozenset[int]) -> list[Progress]:
    """Every (path, removed set, landing) that explains `sensed` as a move underway from
    the board `expected`."""
    missing = expected - sensed
    extra = sensed - expected
    if len(extra) > 1:
        return []
    found: list[Progress] = []
    for p in paths:
        o = p.origin
        rest = missing - {o}
        if not rest <= p.captures:
            continue
        if o in missing:
            if extra:
                (sq,) = extra
                for i, landing in enumerate(p.path):
                    if landing == sq:
                        found.append(Progress(p, p.path, frozenset(rest), True, i))
            else:
                found.append(Progress(p, p.path, frozenset(rest), True, None))
        elif o == p.destination and not extra and rest and o in sensed:
            # A king capture coming back to its own square, standing there again.
            found.append(Progress(p, p.path, frozenset(rest), True, len(p.path) - 1))
        elif not extra and rest and p.is_capture:
            found.append(Progress(p, p.path, frozenset(rest), False, None))
    return found
