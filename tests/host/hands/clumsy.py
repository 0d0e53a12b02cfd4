"""Clumsy hands: knocks, two pieces at once, an opponent's touch, hovering, illegal moves."""

from __future__ import annotations

from engine import Move

from .driver import Driver
from .habits import (
    SCAN_MAX,
    busy_squares,
    colour_squares,
    opponent,
    wrong_then_back,
)
from .moves import Hooks, Style
from .table import Table, neighbours


def _knock(d: Driver, move: Move, near: int, table: Table) -> None:
    """One or two pieces next to `near` knocked: tipped off their switch and back, or
    slid to an empty neighbour and pushed back, all at once (at the model's pace before a
    board could settle; at a human pace when a hand notices)."""
    rng = d.rng
    busy = busy_squares(d, move)
    candidates = [sq for sq in neighbours(d.variant, near) if sq in table.pieces and sq not in busy]
    if not candidates:
        return
    knocked = rng.sample(candidates, min(len(candidates), rng.choice((1, 1, 2))))
    slides: list[tuple[int, int]] = []
    rocks: list[int] = []
    taken: set[int] = set()
    for sq in knocked:
        free = [
            n
            for n in neighbours(d.variant, sq)
            if n not in table.pieces and n not in busy and n not in taken
        ]
        if free and rng.random() < 0.5:
            target = rng.choice(free)
            taken.add(target)
            slides.append((sq, target))
        else:
            rocks.append(sq)
    moved = {}
    for sq in rocks:
        moved[sq] = table.lift(sq)
        table.wait(0, 6)
    for sq, target in slides:
        table.slide(sq, target, rng.uniform(*d.timing.push))
        table.wait(0, 6)
    table.wait(*d.timing.knock_back)
    for sq, piece in moved.items():
        table.place(sq, piece)
        table.wait(0, 8)
    for sq, target in slides:
        table.slide(target, sq, rng.uniform(*d.timing.push))
        table.wait(0, 8)

def knocked(d: Driver, plies: int) -> None:
    """Knocked neighbours: one or two, put back at once or slid a square and pushed back;
    before the lift, with the piece in the air, or after it landed."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        hooks = Hooks()
        if d.rng.random() < 0.7:
            phase = d.rng.choice(("before_lift", "in_air", "landed"))
            near = move.origin if phase == "before_lift" else move.destination
            if phase == "in_air" and d.rng.random() < 0.5:
                near = move.origin
            getattr(hooks, phase).append(lambda t, m=move, n=near: _knock(d, m, n, t))
        d.play(move, hooks=hooks)
        d.pause()

def two_lifted(d: Driver, plies: int) -> None:
    """Two pieces lifted in one scan: the moving piece with a captured piece, or with a
    neighbour that is then put back."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        hooks = Hooks()
        style = Style()
        if d.rng.random() < 0.7:
            if move.captures and d.rng.random() < 0.6:
                captured = d.rng.choice(sorted(move.captures))
                style = Style(before=0.0)  # that one comes off with the lift, in one scan
                hooks.before_lift.append(lambda t, c=captured: (t.remove(c), t.wait(0, 6)))
            else:
                busy = busy_squares(d, move)
                near = [
                    sq
                    for sq in neighbours(d.variant, move.origin)
                    if sq in d.table.pieces and sq not in busy
                ]
                if near:
                    other = d.rng.choice(near)
                    held = {}

                    def grab(t: Table, sq: int = other, held: dict = held) -> None:
                        held[sq] = t.lift(sq)
                        t.wait(0, 6)

                    def put_back(t: Table, sq: int = other, held: dict = held) -> None:
                        t.wait(30, 500)
                        t.place(sq, held[sq])
                        t.wait(20, 200)

                    hooks.before_lift.append(grab)
                    hooks.in_air.append(put_back)
        d.play(move, style, hooks)
        d.pause()

def opponent_touch(d: Driver, plies: int) -> None:
    """The opponent lifts or touches one of their pieces while the mover's piece is in
    the air: put back before the landing, after it, or played on as their reply
    (impatient). The reply is put down at least 100 ms after the mover's piece: the
    first piece put down is the mover's (the game's order), so the crossed reading
    (each piece on the other's square) never arises; when both land in one scan the
    switches cannot tell, see test_hands.py."""
    ply = 0
    while ply < plies:
        move = d.choose()
        if move is None:
            return
        ply += 1
        if d.rng.random() >= 0.7:
            d.play(move)
            d.pause()
            continue
        before = d.position
        theirs = colour_squares(d.table, opponent(before), busy_squares(d, move))
        if not theirs:
            d.play(move)
            d.pause()
            continue
        # Mostly a piece near the action: one that could answer the move (or a move the
        # mover might have made), which is where a lift is easiest to misread.
        near = {n for m in d.moves() if m.origin == move.origin
                for sq in (m.destination, *m.path) for n in neighbours(d.variant, sq)}
        close = [sq for sq in theirs if sq in near]
        x = d.rng.choice(close if close and d.rng.random() < 0.8 else theirs)
        held = {}
        hooks = Hooks()

        def lift_x(t: Table, sq: int = x, held: dict = held) -> None:
            t.wait(0, 200)
            held[sq] = t.lift(sq)

        hooks.in_air.append(lift_x)
        kind = d.rng.choice(("touch", "hold", "reply"))
        after = before.play(move)
        replies = [
            r
            for r in after.legal_moves()
            if r.origin == x and not r.captures and r.destination not in d.lingering
        ]
        if kind == "reply" and (not replies or move.captures or d.ends(move)):
            kind = "hold"  # (no reply after a move that ends the game: a draw by a limit)
        if kind == "touch":

            def back_in_air(t: Table, sq: int = x, held: dict = held) -> None:
                t.wait(50, 600)
                t.place(sq, held[sq])
                t.wait(50, 300)

            hooks.in_air.append(back_in_air)
            d.play(move, hooks=hooks)
            d.pause()
            continue
        if kind == "hold":

            def back_after(t: Table, sq: int = x, held: dict = held) -> None:
                t.wait(50, 800)
                t.place(sq, held[sq])

            hooks.done.append(back_after)
            d.play(move, hooks=hooks)
            d.pause()
            continue
        reply = d.rng.choice(replies)

        def play_reply(
            t: Table, sq: int = x, to: int = reply.destination, held: dict = held
        ) -> None:
            t.wait(100, 600)
            t.place(to, held[sq])

        hooks.done.append(play_reply)
        d.play(move, hooks=hooks, check=False)
        d.advance(reply)
        ply += 1
        d.pause()

def hover(d: Driver, plies: int) -> None:
    """Hovering and brushing squares for 30 to 190 ms (legal destinations included)."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        hooks = Hooks()
        if d.rng.random() < 0.8:

            def brushes(t: Table, m: Move = move) -> None:
                around = {
                    n
                    for sq in (m.origin, m.destination, *m.path)
                    for n in neighbours(d.variant, sq)
                }
                around |= {x.destination for x in d.moves() if x.origin == m.origin}
                free = sorted(sq for sq in around if sq not in t.pieces)
                last = None
                for _ in range(d.rng.randint(1, 4)):
                    # Another square each time, at least two scans apart: two brushes
                    # of one square a scan apart are one long touch to the board.
                    choices = [sq for sq in free if sq != last]
                    if not choices:
                        return
                    last = d.rng.choice(choices)
                    t.brush(last, d.rng.uniform(30, 190))
                    t.wait(2 * SCAN_MAX, 120)

            hooks.in_air.append(brushes)
        d.play(move, Style(brush=0.8), hooks)
        d.pause()

def illegal_held(d: Driver, plies: int) -> None:
    """Illegal moves held past the grace period: the board complains, the player follows
    the lights back, then plays a legal move. Nothing illegal is ever accepted."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        if d.rng.random() < 0.5:
            _illegal_attempt(d)
        d.play(move)
        d.pause()

def _illegal_attempt(d: Driver) -> None:
    position = d.position
    legal = {(m.origin, sq) for m in position.legal_paths() for sq in m.path}
    pieces = position.pieces()
    empty = [
        sq
        for sq in range(1, d.variant.num_squares + 1)
        if sq not in d.table.pieces
    ]
    previous = d.previous_move
    # (the board is read without the captured pieces still standing: forgotten)
    on_table = frozenset(d.table.pieces) - frozenset(d.lingering)
    # A board set up as at the start is a new game, and one that another result of the
    # last move (or the position before it) would leave is that move read again or
    # taken back, whatever the hands meant: no board can tell.
    readable = {d.variant.initial_position().occupied()}
    if d.previous_position is not None:
        before = d.previous_position
        readable |= {before.occupied()} | {before.play(m).occupied() for m in before.legal_moves()}
    tries = [
        (a, b)
        for a in pieces
        for b in empty
        if (a, b) not in legal
        and a not in d.lingering
        # The piece just moved may go on (re-read) or back (takeback): not illegal.
        and not (previous and a == previous.destination)
        and (on_table - {a}) | {b} not in readable
    ]
    if not tries:
        return
    a, b = d.rng.choice(tries)
    t = d.table
    piece = t.lift(a)
    t.wait(200, 500)
    t.place(b, piece)
    wrong_then_back(d, piece, b, a)
    t.wait(400, 900)
