"""What every family's hands have in common: helpers for squares, colours, timing.

Durations here are raw (what the hands do); the board measures them at its scan
instants, up to a scan (`SCAN_MAX`) off, so a family that means one side of a
threshold keeps `MARGIN` away from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine import Move, Position
from engine.position import Piece

from .driver import Driver
from .table import Table
from .timing import ALARM_AFTER, MARGIN, SCAN_MAX

__all__ = ["MARGIN", "SCAN_MAX"]  # (and the helpers below)


def in_ms(seconds: float) -> float:
    return seconds * 1000


def colour_squares(table: Table, colour: str, exclude: set[int]) -> list[int]:
    return sorted(sq for sq, p in table.pieces.items() if p.color == colour and sq not in exclude)


def busy_squares(d: Driver, move: Move) -> set[int]:
    """Squares a knock must not disturb: the move's own squares and forgotten pieces."""
    return {move.origin, move.destination, *move.path, *move.captures, *d.lingering}


def opponent(position: Position) -> str:
    return "B" if position.turn == "W" else "W"


def in_hand(d: Driver, origin: int) -> Piece | None:
    """The piece the mover holds (lifted from `origin`): what the engine says stood there."""
    return d.position.piece_at(origin)


def other_quiet(d: Driver, move: Move) -> list[Move]:
    """The other quiet moves of the same piece (legal squares it could be put on, unless
    a forgotten captured piece still stands there)."""
    return [
        m
        for m in d.moves()
        if m.origin == move.origin
        and m.destination != move.destination
        and not m.captures
        and m.destination not in d.lingering
    ]


def squares_of_the_piece_taken(d: Driver, move: Move) -> set[int]:
    """Where the piece `move` captures could itself have gone on the last move, or come
    back from. A capturer put down there, with that piece just taken off, leaves the
    switches the same story as "that piece went on to there" or "it was taken back":
    no board can tell."""
    last = d.previous_move
    if last is None or d.previous_position is None or last.destination not in move.captures:
        return set()
    others = {m.destination for m in d.previous_position.legal_moves() if m.origin == last.origin}
    return others | {last.origin}


def wrong_squares(d: Driver, move: Move) -> list[int]:
    """Empty squares where the moving piece may not stand: not a destination of its
    moves, not a landing square of its captures (nor where the piece it captures could
    have gone or come from: `squares_of_the_piece_taken`)."""
    reachable = {m.destination for m in d.moves() if m.origin == move.origin}
    reachable |= {sq for m in d.position.legal_paths() if m.origin == move.origin for sq in m.path}
    reachable |= squares_of_the_piece_taken(d, move)
    return [
        sq
        for sq in range(1, d.variant.num_squares + 1)
        if sq not in d.table.pieces and sq != move.destination and sq not in reachable
    ]


def rest_on(d: Driver, square: int, hold: float, origin: int) -> Callable[[Table], None]:
    """A hook: the piece in the hand is put down on `square` for `hold` ms, then lifted."""

    def hook(t: Table) -> None:
        t.place(square, in_hand(d, origin))
        t.wait(hold)
        t.lift(square)
        t.hand_at = square
        t.wait(150, 500)

    return hook


def pieces_that_go_on(d: Driver, plies: int, chance: float) -> Iterator[tuple[Move, list[Move]]]:
    """For about `chance` of the plies, a quiet move whose piece has other quiet squares
    (yielded with them, for the family to play); the other plies are played here."""
    for _ in range(plies):
        move = d.choose(prefer=lambda m: not m.captures)
        if move is None:
            return
        other = other_quiet(d, move)
        if move.captures or not other or d.rng.random() >= chance:
            d.play(move)
            d.pause()
            continue
        yield move, other


def wrong_then_back(d: Driver, piece: Piece, wrong: int, home: int) -> None:
    """`piece`, standing on `wrong` (an illegal board), stays past the grace period, then
    goes back to `home` as the lights say: one alarm, and nothing may be committed
    meanwhile."""
    t = d.table
    start = t.t
    t.wait(in_ms(ALARM_AFTER) + MARGIN + 100, in_ms(ALARM_AFTER) + 3000)
    t.lift(wrong)
    t.wait(150, 500)
    t.place(home, piece)
    d.illegal_windows.append((int(start), int(t.t)))
    d.alarms += 1
