"""The hand families of issue 7: what impatient, clumsy and forgetful hands do.

Each family is a function `(driver, plies) -> None` that plays a stretch of a
game on the table with one habit added to normal play, and records what a
correct board must make of it (the moves, the alarms, where a correction is
allowed, where switches cannot tell). Timings are drawn from ranges that
straddle the recogniser's thresholds where a family is about a threshold;
otherwise they stay on the side the family describes (a knock is put back at
once: before a final board could settle). Where a family is ambiguous to
switches the verdict is "commit neither and guide" (the scenario says so in
`ambiguous`); see tests/host/test_hands.py for the ones written by hand.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Move, Position
from host.recogniser import CALM, GRACE, HOLD, SETTLE

from .driver import Driver
from .moves import Hooks, Style
from .positions import find, long_king_capture, promotes, rest_stops, ring_capture
from .table import Table, neighbours

Family = Callable[[Driver, int], None]

#: the largest scan interval: a duration measured by the board is off by up to this
SCAN_MAX = 20
#: margin (ms) kept from a threshold on the side a family means
MARGIN = SCAN_MAX + 12


def _ms(seconds: float) -> float:
    return seconds * 1000


# -- helpers ---------------------------------------------------------------------------


def _colour_squares(table: Table, colour: str, exclude: set[int]) -> list[int]:
    return sorted(sq for sq, p in table.pieces.items() if p.color == colour and sq not in exclude)


def _busy(d: Driver, move: Move) -> set[int]:
    """Squares a knock must not disturb: the move's own squares and forgotten pieces."""
    return {move.origin, move.destination, *move.path, *move.captures, *d.lingering}


def _knock(d: Driver, move: Move, near: int, table: Table) -> None:
    """One or two pieces next to `near` knocked: rocked off their switch and back, or
    slid to an empty neighbour and pushed back, all at once (under the settle time)."""
    rng = d.rng
    busy = _busy(d, move)
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
        table.slide(sq, target, rng.uniform(10, 50))
        table.wait(0, 6)
    # Put back at once: the whole knock is shorter than a final board needs to settle.
    table.wait(30, _ms(SETTLE) - MARGIN - 60)
    for sq, piece in moved.items():
        table.place(sq, piece)
        table.wait(0, 8)
    for sq, target in slides:
        table.slide(target, sq, rng.uniform(10, 50))
        table.wait(0, 8)


def _opponent(position: Position) -> str:
    return "B" if position.turn == "W" else "W"


# -- families --------------------------------------------------------------------------


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
                busy = _busy(d, move)
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
        theirs = _colour_squares(d.table, _opponent(before), _busy(d, move))
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
        if kind == "reply" and (not replies or move.captures):
            kind = "hold"
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


def held_wrong(d: Driver, plies: int) -> None:
    """A piece held on a wrong square for 0.3 to 3 s, then moved on: an illegal square
    (no alarm before the grace period) or another legal destination (committed, then
    re-read when it goes on; with touch-move on, see `touch_move_club`)."""
    for _ in range(plies):
        move = d.choose(prefer=lambda m: not m.captures)
        if move is None:
            return
        legal_from = {m.destination for m in d.moves() if m.origin == move.origin}
        on_the_way = {sq for m in d.position.legal_paths() if m.origin == move.origin
                      for sq in m.path}
        empty = [
            sq
            for sq in range(1, d.variant.num_squares + 1)
            if sq not in d.table.pieces and sq != move.destination
        ]
        wrong = [sq for sq in empty if sq not in legal_from and sq not in on_the_way]
        other = [
            m.destination
            for m in d.moves()
            if m.origin == move.origin and m.destination != move.destination and not m.captures
        ]
        hooks = Hooks()
        if other and not move.captures and d.rng.random() < 0.5:
            w = d.rng.choice(other)
            d.corrections = True
            hold = d.rng.uniform(300, 1500)
        elif wrong and d.rng.random() < 0.8:
            w = d.rng.choice(wrong)
            hold = d.rng.uniform(300, _ms(GRACE) - MARGIN - 50)
        else:
            d.play(move)
            d.pause()
            continue

        def rest_on_wrong(t: Table, sq: int = w, ms: float = hold, o: int = move.origin) -> None:
            piece = t.pieces.get(sq)
            assert piece is None
            t.place(sq, _in_hand(d, o))
            t.wait(ms)
            t.lift(sq)
            t.wait(150, 500)

        hooks.in_air.append(rest_on_wrong)
        d.play(move, hooks=hooks)
        d.pause()


def _in_hand(d: Driver, origin: int):
    """The piece the mover holds (lifted from `origin`): what the engine says stood there."""
    return d.position.piece_at(origin)


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


def slow(d: Driver, plies: int) -> None:
    """Very slow play: long air time, captured pieces removed 0.6 to 2.5 s apart."""
    style = Style(air=(1000, 4000), removal_gap=(600, 2500), before=0.3, during=0.2)
    for _ in range(plies):
        move = d.choose(prefer=lambda m: bool(m.captures))
        if move is None:
            return
        if _partial_finals(d.position, move):
            d.corrections = True  # a pause on a shorter capture's board may commit it first
        d.play(move, style)
        d.pause(1500, 4000)


def _partial_finals(position: Position, move: Move) -> bool:
    """Does the board of `move` with only some captured pieces off equal another legal
    capture's final board (same piece, same square, fewer pieces)?"""
    return any(
        m != move
        and m.origin == move.origin
        and m.destination == move.destination
        and m.captures < move.captures
        for m in position.legal_moves()
    )


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
    theirs = _colour_squares(d.table, _opponent(before), set(move.captures))
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


def blitz(d: Driver, plies: int) -> None:
    """Blitz: each reply starts 0 to 150 ms after the last change, some in the same scan."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        d.play(move, Style(air=(120, 400), removal_gap=(30, 200)))
        d.table.wait(0, 0) if d.rng.random() < 0.25 else d.table.wait(0, 150)


def thresholds(d: Driver, plies: int) -> None:
    """Timings just on the quiet side of every threshold: a legal final board brushed for
    just under the settle time and under 200 ms, an illegal square held just under the
    grace period, the position before the last move shown just under the calm time, a
    touch-down just under the hold time."""
    for _ in range(plies):
        move = d.choose()
        if move is None:
            return
        hooks = Hooks()
        choice = d.rng.choice(("settle", "transient", "grace", "calm", "hold"))
        others = [
            m.destination
            for m in d.moves()
            if m.origin == move.origin and m.destination != move.destination and not m.captures
        ]
        if choice in ("settle", "transient") and others:
            ms = (
                d.rng.uniform(_ms(SETTLE) - MARGIN - 15, _ms(SETTLE) - MARGIN)
                if choice == "settle"
                else d.rng.uniform(200 - MARGIN - 15, 200 - MARGIN + 10)
            )
            w = d.rng.choice(others)
            hooks.in_air.append(lambda t, sq=w, ms=ms: (t.brush(sq, ms), t.wait(60, 200)))
        elif choice == "grace":
            legal_from = {m.destination for m in d.moves() if m.origin == move.origin}
            on_the_way = {
                sq for m in d.position.legal_paths() if m.origin == move.origin for sq in m.path
            }
            wrong = [
                sq
                for sq in range(1, d.variant.num_squares + 1)
                if sq not in d.table.pieces and sq not in legal_from and sq not in on_the_way
            ]
            if wrong:
                w = d.rng.choice(wrong)
                ms = d.rng.uniform(_ms(GRACE) - MARGIN - 40, _ms(GRACE) - MARGIN)

                def hold_wrong(t: Table, sq: int = w, ms: float = ms, o: int = move.origin):
                    t.place(sq, _in_hand(d, o))
                    t.wait(ms)
                    t.lift(sq)
                    t.wait(150, 400)

                hooks.in_air.append(hold_wrong)
        elif choice == "hold":
            touch_time = (_ms(HOLD) - MARGIN - 30, _ms(HOLD) - MARGIN)
            d.play(move, Style(touch=1.0, touch_time=touch_time))
            d.pause()
            continue
        elif choice == "calm" and not move.captures:
            d.play(move)
            d.pause(400, 900)
            # The piece just moved is put back on its square for just under the calm time,
            # then carried to the destination again.
            piece = d.table.lift(move.destination)
            d.table.wait(150, 400)
            d.table.place(move.origin, piece)
            d.table.wait(_ms(CALM) - MARGIN - 40, _ms(CALM) - MARGIN)
            d.table.lift(move.origin)
            d.table.wait(150, 400)
            d.table.place(move.destination, piece)
            d.pause()
            continue
        d.play(move, hooks=hooks)
        d.pause()


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
    tries = [
        (a, b)
        for a in pieces
        for b in empty
        if (a, b) not in legal
        and a not in d.lingering
        # The piece just moved may go on (re-read) or back (takeback): not illegal.
        and not (previous and a == previous.destination)
    ]
    if not tries:
        return
    a, b = d.rng.choice(tries)
    t = d.table
    piece = t.lift(a)
    t.wait(200, 500)
    t.place(b, piece)
    start = t.t
    t.wait(_ms(GRACE) + MARGIN + 100, _ms(GRACE) + 3000)
    t.lift(b)
    t.wait(200, 500)
    t.place(a, piece)
    d.illegal_windows.append((int(start), int(t.t)))
    d.alarms += 1
    t.wait(400, 900)


def goes_on(d: Driver, plies: int) -> None:
    """A move that goes on (touch-move off): a piece released on a legal square and moved
    on 0.3 to 1.5 s later, or a slow capture resting on a landing square where a
    shorter legal capture ends (free-choice variants). The board re-reads the move."""
    found = None
    if d.variant.capture_rule == "free" and d.rng.random() < 0.5:
        found = find(d.variant, d.rng, lambda p, m: bool(rest_stops(p, m)), sparse_first=True)
    if found is not None:
        position, move = found
        d.reset(position)
        i, captured = d.rng.choice(rest_stops(position, move))
        _rest_on_the_way(d, move, i, captured)
        d.corrections = True
        d.pause()
    for _ in range(plies):
        move = d.choose(prefer=lambda m: not m.captures)
        if move is None:
            return
        other = [
            m
            for m in d.moves()
            if m.origin == move.origin and m.destination != move.destination and not m.captures
        ]
        if move.captures or not other or d.rng.random() < 0.4:
            d.play(move)
            d.pause()
            continue
        first = d.rng.choice(other)
        d.play(first)
        if d.over:
            return  # the game ended with it: nothing goes on after the end
        d.went_on()
        d.table.wait(300, 1500)
        piece = d.table.lift(first.destination)
        d.table.wait(150, 600)
        d.table.place(move.destination, piece)
        d.advance(move)
        d.corrections = True
        d.pause()


def _rest_on_the_way(d: Driver, move: Move, stop: int, captured: frozenset[int]) -> None:
    """Play `move` touching down on every landing, resting on `move.path[stop]` with
    `captured` taken off (the final board of a shorter capture), then going on."""
    t = d.table
    piece = t.lift(move.origin)
    t.wait(300, 900)
    for i, landing in enumerate(move.path):
        t.place(landing, piece)
        if i == stop:
            for c in sorted(captured):
                t.wait(100, 300)
                t.remove(c)
            t.wait(600, 2000)
        elif i != len(move.path) - 1:
            t.wait(150, 400)
        if i != len(move.path) - 1:
            t.lift(landing)
            t.wait(200, 500)
    for c in sorted(move.captures - captured):
        t.wait(200, 700)
        t.remove(c)
    d.advance(move)


def touch_move_club(d: Driver, plies: int) -> None:
    """Touch-move on (club play): a piece released on a legal square has moved. Moving it
    on is refused; after the grace period the lights bring it back."""
    d.touch_move = True
    for _ in range(plies):
        move = d.choose(prefer=lambda m: not m.captures)
        if move is None:
            return
        other = [
            m
            for m in d.moves()
            if m.origin == move.origin and m.destination != move.destination and not m.captures
        ]
        if move.captures or not other or d.rng.random() < 0.5:
            d.play(move)
            d.pause()
            continue
        d.play(move)
        if d.over:
            return  # the game is over: a piece moved after it is no move at all
        t = d.table
        t.wait(400, 1500)
        went_on = d.rng.choice(other).destination
        piece = t.lift(move.destination)
        t.wait(150, 600)
        t.place(went_on, piece)
        start = t.t
        t.wait(_ms(GRACE) + MARGIN + 100, _ms(GRACE) + 2000)
        t.lift(went_on)
        t.wait(150, 500)
        t.place(move.destination, piece)
        d.illegal_windows.append((int(start), int(t.t)))
        d.alarms += 1
        d.pause()


FAMILIES: dict[str, Family] = {
    "knocked": knocked,
    "two-lifted": two_lifted,
    "opponent-touch": opponent_touch,
    "held-wrong": held_wrong,
    "hover": hover,
    "slow": slow,
    "late-removal": late_removal,
    "blitz": blitz,
    "thresholds": thresholds,
    "crowning": crowning,
    "long-king": long_king,
    "ring": ring,
    "illegal-held": illegal_held,
    "goes-on": goes_on,
    "touch-move-club": touch_move_club,
}
