"""Forgetful hands and big moves: captured pieces left on the board, crowning at any
moment, long king captures, a king capture ending on its own square."""

from __future__ import annotations

from engine import Move, Position

from .driver import Driver
from .habits import (
    colour_squares,
    opponent,
)
from .moves import Hooks, Style
from .positions import find, long_king_capture, promotes, ring_capture
from .table import Table


def late_removal(d: Driver, plies: int) -> None:
    """Captured pieces left on the board: the opponent starts, and they come off later:
    during the reply, after it landed, or a move later, by either player."""
    for _ in range(plies):
        move = d.choose(prefer=lambda m: bool(m.captures))
        if move is None:
            return
        leave = 0
        if move.captures and not _determined(d.position, move) and d.rng.random() < 0.5:
            _undetermined_then_reply(d, move)
            return
        if move.captures and _determined(d.position, move) and d.rng.random() < 0.8:
            leave = d.rng.randint(1, len(move.captures))
        style = Style(leave=leave, before=0.0, during=0.0)
        when = d.rng.choice(("in_air", "done", "later"))
        hooks = Hooks()
        if d.lingering and when != "later":
            getattr(hooks, when).append(lambda t: _remove_some(d, t))
        d.play(move, style, hooks)
        d.pause(200, 2000)

def _undetermined_then_reply(d: Driver, move: Move) -> None:
    """The capture lands where another capture of the same piece also ends, with every
    captured piece still on the board, and the opponent starts: which pieces were
    taken? Switches cannot tell, so nothing may be committed (the stream ends here)."""
    before = d.position
    d.play(move, Style(leave=len(move.captures), before=0.0, during=0.0))
    d.expected.pop()
    d.table.wait(300, 1000)
    theirs = colour_squares(d.table, opponent(before), set(move.captures))
    if theirs:
        d.table.lift(d.rng.choice(theirs))
    d.table.wait(500, 2000)
    d.ambiguous = (
        f"{before.move_text(move)} landed where another capture of the same piece ends, "
        "with the captured pieces still on the board"
    )

def _remove_some(d: Driver, table: Table) -> None:
    if not d.lingering:
        return
    for _ in range(d.rng.randint(1, len(d.lingering))):
        table.wait(100, 900)
        d.remove_lingering(d.rng.choice(d.lingering))

def _determined(position: Position, move: Move) -> bool:
    """Only one legal capture of this piece ends on this square: landing there with the
    captured pieces still on the board says which capture it is."""
    return (
        sum(
            1
            for m in position.legal_moves()
            if m.origin == move.origin and m.destination == move.destination
        )
        == 1
    )

def crowning(d: Driver, plies: int) -> None:
    """Crowning done early (the new king lifted and put back before the move settled),
    late (after the opponent started), by the opponent, or not at all."""
    found = find(d.variant, d.rng, promotes)
    if found is None:
        return
    position, move = found
    d.reset(position)
    when = d.rng.choice(("early", "late", "opponent", "never"))
    hooks = Hooks()
    if when == "early":

        def early(t: Table, sq: int = move.destination) -> None:
            t.wait(40, 150)
            piece = t.lift(sq)
            t.wait(300, 900)
            t.place(sq, piece)

        hooks.done.append(early)
    d.play(move, hooks=hooks)
    d.pause(300, 1200)
    crowned = move.destination
    for ply in range(plies):
        reply = d.choose()
        if reply is None:
            return
        hooks = Hooks()
        if ply == 0 and when in ("late", "opponent") and crowned in d.table.pieces:

            def crown(t: Table, sq: int = crowned) -> None:
                if sq not in t.pieces:
                    return  # captured before anyone crowned it
                t.wait(100, 500)
                piece = t.lift(sq)
                t.wait(300, 900)
                t.place(sq, piece)
                t.wait(100, 400)

            (hooks.in_air if when == "late" else hooks.before_lift).append(crown)
        d.play(reply, hooks=hooks)
        d.pause()

def long_king(d: Driver, plies: int) -> None:
    """Long king captures (10x10 and the 8x8 flying-king variants): touch-downs on every
    landing or a jump to the end, slides brushing the squares passed over, removals in
    any order and at any moment."""
    least = 3 if d.variant.size == 10 else 2
    found = find(d.variant, d.rng, long_king_capture(least), sparse_first=True)
    if found is None:
        return
    position, move = found
    d.reset(position)
    d.play(move, Style(touch=0.7, brush=0.8, before=0.25, during=0.4))
    d.pause()
    for _ in range(plies - 1):
        reply = d.choose(prefer=lambda m: bool(m.captures))
        if reply is None:
            return
        d.play(reply, Style(brush=0.8))
        d.pause()

def ring(d: Driver, plies: int) -> None:
    """A king capture ending on its own square, with touch-downs and removals in any
    order (before the king is lifted included)."""
    found = find(d.variant, d.rng, ring_capture, sparse_first=True)
    if found is None:
        return
    position, move = found
    d.reset(position)
    d.play(move, Style(touch=0.8, before=0.4, during=0.3))
    d.pause()
    for _ in range(plies - 1):
        reply = d.choose()
        if reply is None:
            return
        d.play(reply)
        d.pause()
