"""Hands at the moment a piece lands: a neighbour knocked in the same scan, and blitz
replies that start with the landing or take the landed piece off before the switch
has seen it.

Both families were written from the issue's description of hands the recogniser did
not yet follow (issue 20), not from its code: the knock's timing is the hand's (the
same scan as the landing, put back when a hand notices), and the reply's is a blitz
player's who prepared it while the opponent moved.
"""

from __future__ import annotations

from engine import Move, Position
from engine.position import Piece

from .driver import Driver
from .habits import busy_squares, wrong_then_back  # (the grace: the board's, documented)
from .moves import Hooks, Style
from .table import Table, neighbours
from .timing import SCAN_MAX


def knock_on_landing(d: Driver, plies: int) -> None:
    """The landing hand shoves a neighbour of the landing square onto an empty square
    next to it, in the same scan as the piece lands (up to a scan before or after,
    often the same millisecond); mostly onto a square the moving piece could also have
    gone to, or where the knocked piece could reply. It is put back (pushed back, or
    lifted and put down) by the mover before the opponent starts, by the opponent
    before replying, or, not noticed, after the board has said it is wrong. Every move
    is the one played; a knock is never a move."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        if d.rng.random() >= 0.8:
            d.play(move)
            d.pause()
            continue
        shove = _Shove(d, move)
        hooks = Hooks(landed=[shove.at_landing])
        who = d.rng.choice(("mover", "mover", "opponent", "unnoticed"))
        if d.ends(move):
            who = "mover"  # (after the last move nobody replies, and nothing is wrong)
        if who == "mover":
            hooks.landed.append(shove.put_back)
        else:
            hooks.done.append(shove.put_back if who == "opponent" else shove.after_alarm)
        d.play(move, hooks=hooks)
        d.pause()


class _Shove:
    """One knock at a landing: which piece, where to, and putting it back."""

    def __init__(self, d: Driver, move: Move) -> None:
        self.d, self.move = d, move
        self.knocked: tuple[int, int] | None = None  # (from, to)
        self.piece: Piece | None = None
        self.shown_at = 0.0

    def at_landing(self, t: Table) -> None:
        d, move = self.d, self.move
        busy = busy_squares(d, move)
        after = d.position.play(move)
        # Squares the switches could mistake the knocked piece's for: where the moving
        # piece could have gone instead, and where the knocked piece could reply to.
        others = {m.destination for m in d.moves() if m.origin == move.origin}
        replies = set()
        if not d.ends(move):
            replies = {(m.origin, m.destination) for m in after.legal_moves()}
        options = []
        for sq in neighbours(d.variant, move.destination):
            if sq not in t.pieces or sq in busy:
                continue
            for to in neighbours(d.variant, sq):
                if to not in t.pieces and to not in busy:
                    options.append((sq, to, to in others or (sq, to) in replies))
        if not options:
            return
        hard = [o for o in options if o[2]]
        sq, to, _ = d.rng.choice(hard if hard and d.rng.random() < 0.7 else options)
        landed = t.t
        offset = 0.0 if d.rng.random() < 0.4 else d.rng.uniform(-SCAN_MAX, SCAN_MAX)
        t.t = max(landed + offset, t.last_change(sq), t.last_change(to))
        self.piece = t.slide(sq, to, d.rng.uniform(0, 3))  # a shove: in the same scan
        self.knocked = (sq, to)
        self.shown_at = t.t
        t.t = max(t.t, landed)

    def put_back(self, t: Table) -> None:
        """A hand notices and puts the piece back: pushed, or lifted and set down."""
        if self.knocked is None or self.piece is None:
            return
        sq, to = self.knocked
        d = self.d
        t.t = max(t.t, self.shown_at + d.rng.uniform(*d.timing.knock_back))
        if d.rng.random() < 0.5:
            t.slide(to, sq, d.rng.uniform(*d.timing.push))
        else:
            t.lift(to)
            t.wait(*d.timing.air)
            t.place(sq, self.piece)
        t.wait(20, 200)

    def after_alarm(self, t: Table) -> None:
        """Nobody notices: the board stands wrong past the grace period and says so,
        then the piece goes back as the lights show. Nothing may be committed meanwhile
        but the move just played."""
        if self.knocked is None or self.piece is None:
            return
        sq, to = self.knocked
        wrong_then_back(self.d, self.piece, to, sq)
        t.wait(200, 600)


#: the longest run of instant replies before a player stops to think (a blitz chain)
CHAIN = 5


def instant_reply(d: Driver, plies: int) -> None:
    """Blitz replies that start with the landing: most replies (up to CHAIN in a row)
    start 0 to 100 ms after the mover's last action (a third in the same millisecond),
    the others after a pause to think; a reply that captures the piece that just landed
    takes it off first, 0 to 60 ms after it landed, often before the switch has seen it
    land. Then only the reply tells where the piece went: that is played only where the
    reply tells it (`_only_story`)."""
    snatch = False
    chain = 0
    for _ in range(plies):
        previous = d.previous_move
        instant = previous is not None and chain < CHAIN and d.rng.random() < 0.7
        takers = []
        if instant and snatch and previous is not None:
            takers = [m for m in d.moves() if previous.destination in m.captures]
        if takers:
            move = d.rng.choice(takers)
        else:
            move = d.choose(prefer=_offered(d) if d.rng.random() < 0.6 else None)
        if move is None:
            return
        apart = None
        if not instant:
            d.pause()
            chain = 0
        elif takers and previous is not None:
            # The landed piece comes off first, with the landing or just after it.
            sq = previous.destination
            landed = d.table.last_change(sq)
            d.table.t = landed + (0.0 if d.rng.random() < 0.4 else d.rng.uniform(0, 60))
            d.table.remove(sq)
            d.table.wait(0, 60)
            apart = 0.0
            chain += 1
        else:
            d.table.t += 0.0 if d.rng.random() < 0.33 else d.rng.uniform(0, 100)
            chain += 1
        # May the reply take this piece off before it is seen? Only where the switches
        # can still tell what was played; then this move's captured pieces come off
        # before it lands (its landing is its last action).
        before = 0.2
        snatch = False
        if not d.ends(move) and d.rng.random() < 0.8:
            after = d.position.play(move)
            answers = [r for r in after.legal_moves() if move.destination in r.captures]
            if answers and all(_only_story(d.position, move, r) for r in answers):
                snatch, before = True, 1.0
        style = Style(
            air=d.timing.blitz_air, removal_gap=d.timing.blitz_removal_gap, before=before
        )
        d.play(move, style, apart=apart)
    d.pause()


def _offered(d: Driver):
    """Moves whose piece the opponent could capture on its landing square."""
    position = d.position

    def offered(m: Move) -> bool:
        after = position.play(m)
        return any(m.destination in r.captures for r in after.legal_moves())

    return offered


def _only_story(position: Position, move: Move, reply: Move) -> bool:
    """If `move`'s landing is never seen (the reply takes its piece off at once), do the
    switches still tell `move` and `reply` from every other pair? They see `move`'s
    piece leave and its captured pieces go, the reply's piece leave and land, and the
    reply's other captured pieces go."""
    seen = reply.captures - {move.destination}
    for other in position.legal_moves():
        if other.origin != move.origin or other.captures != move.captures:
            continue
        for answer in position.play(other).legal_moves():
            if (other, answer) == (move, reply):
                continue
            if (
                answer.origin == reply.origin
                and answer.destination == reply.destination
                and answer.captures - {other.destination} == seen
            ):
                return False
    return True
