"""The physical board as hands change it, and what its switch scan can see of that.

Hands act on real pieces (colour, king) in continuous time; each reed switch
follows its square, chattering for a few milliseconds when a magnet arrives or
leaves. The board never sees that directly: it samples every switch once per
scan (every 10-20 ms on the real scanner) and reports the differences. So a
stream here is built in two steps: the hands write a raw switch timeline, and
`Table.events` samples it at the scan instants into the replay input format
(`{"t": ms, "lift": sq}` / `{"t": ms, "place": sq}`). Whatever happens between
two scans (a bounce, a brush shorter than a scan) is invisible, exactly as on
the board.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from engine import Position, Variant
from engine.position import Piece

#: ms within which a switch changing again is its contact chattering (`_switch`)
CHATTER = 10
#: how late a busy host reads the switches, in ms (a slow recognition step, an SD card's
#: fsync, a garbage collection, a Pi Zero 2 under load: judgement)
STALLS = (40.0, 300.0)


@dataclass
class Table:
    """Pieces on squares, the hands' clock (ms) and the raw switch timeline."""

    variant: Variant
    rng: random.Random
    pieces: dict[int, Piece]
    t: float = 0.0
    #: chance that a switch chatters (closes/opens again within a few ms) on each change
    bounce: float = 0.3
    #: (time, square, closed) for every raw switch change, in order
    changes: list[tuple[float, int, bool]] = field(default_factory=list)
    #: pieces off the board: the hand and the box (captured pieces)
    box: list[Piece] = field(default_factory=list)
    #: where the moving piece last touched down, when a habit put it somewhere on the
    #: way (it travels on from there)
    hand_at: int | None = None

    @classmethod
    def from_position(
        cls, position: Position, rng: random.Random, *, t: float = 0.0, bounce: float = 0.3
    ) -> Table:
        return cls(position.variant, rng, dict(position.pieces()), t=t, bounce=bounce)

    # -- time ----------------------------------------------------------------------

    def wait(self, low: float, high: float | None = None) -> None:
        """Let `low`..`high` ms pass (exactly `low` if `high` is None)."""
        self.t += low if high is None else self.rng.uniform(low, high)

    # -- hands -----------------------------------------------------------------------

    def _switch(self, square: int, closed: bool, *, chatter: bool = True) -> None:
        # A new change ends any chatter still pending on this switch.
        self.changes = [c for c in self.changes if c[1] != square or c[0] <= self.t]
        self.changes.append((self.t, square, closed))
        if chatter and self.rng.random() < self.bounce:
            a = self.t + self.rng.uniform(0.5, 4)
            b = a + self.rng.uniform(0.5, 5)
            self.changes.append((a, square, not closed))
            self.changes.append((b, square, closed))

    def lift(self, square: int) -> Piece:
        """Take the piece on `square` into the hand."""
        piece = self.pieces.pop(square)
        self._switch(square, False)
        return piece

    def place(self, square: int, piece: Piece) -> None:
        """Put `piece` down on the empty `square`."""
        assert square not in self.pieces, f"square {square} is occupied"
        self.pieces[square] = piece
        self._switch(square, True)

    def remove(self, square: int) -> None:
        """Take a (captured) piece off the board into the box."""
        self.box.append(self.lift(square))

    def brush(self, square: int, duration: float) -> None:
        """The piece in the hand touches an empty square for `duration` ms (no chatter:
        a brush is one short closure), and the clock moves past it."""
        assert square not in self.pieces
        self.changes = [c for c in self.changes if c[1] != square or c[0] <= self.t]
        self.changes.append((self.t, square, True))
        self.changes.append((self.t + duration, square, False))
        self.t += duration

    def slide(self, origin: int, target: int, duration: float) -> Piece:
        """A piece pushed along the board from `origin` to the empty `target` (a knock):
        the origin opens, the target closes `duration` ms later."""
        piece = self.lift(origin)
        self.t += duration
        self.place(target, piece)
        return piece

    # -- what the board sees -----------------------------------------------------------

    def last_change(self, square: int) -> float:
        """When the switch of `square` last changed (-inf if never)."""
        times = [t for t, sq, _ in self.changes if sq == square and t <= self.t]
        return max(times, default=float("-inf"))

    def occupied(self) -> frozenset[int]:
        return frozenset(self.pieces)

    def events(
        self,
        start: frozenset[int],
        scan: float,
        phase: float = 0.0,
        *,
        stall: float = 0.0,
        stalls: tuple[float, float] = STALLS,
    ) -> list[dict[str, Any]]:
        """Sample the raw timeline every `scan` ms (first instant `phase`): one event per
        square whose level differs from the previous sample, stamped with the instant and
        with the instant of the read before (`since`: the change happened between them).

        A change at exactly a scan instant is seen at that instant. A busy host (with
        chance `stall` for each read that would see a change) reads late, `stalls` ms
        later: the changes made meanwhile are seen together, stamped with the late read,
        and the reads go on every `scan` from there (a piece may have gone and come back
        unseen meanwhile); a late read that saw no change is a line of the whole board
        (`occupied`) saying `since`."""
        stalling = random.Random(self.rng.random()) if stall > 0 else None
        level = {sq: True for sq in start}
        seen = dict(level)
        out: list[dict[str, Any]] = []
        ordered = sorted(self.changes, key=lambda c: c[0])
        i = 0
        while i < len(ordered):
            instant = phase + math.ceil((ordered[i][0] - phase) / scan) * scan
            before = instant - scan
            late = stalling is not None and stalling.random() < stall
            if late:
                instant += stalling.uniform(*stalls)  # type: ignore[union-attr]
                phase = instant  # (the scan loop starts its grid again after a late read)
            while i < len(ordered) and ordered[i][0] <= instant + 1e-9:
                _, square, closed = ordered[i]
                level[square] = closed
                i += 1
            t = int(round(instant))
            since = max(0, min(t, int(round(before))))
            read = len(out)
            for square in sorted(level):
                if level[square] != seen.get(square, False):
                    seen[square] = level[square]
                    kind = "place" if level[square] else "lift"
                    out.append({"t": t, kind: square, "since": since})
            if late and len(out) == read and (not out or out[-1]["t"] <= t):
                # (a late read that saw no change still says the switches went unread)
                board = sorted(sq for sq, closed in level.items() if closed)
                out.append({"t": t, "occupied": board, "since": since})
        return out


def neighbours(variant: Variant, square: int) -> list[int]:
    """The dark squares diagonally next to `square`."""
    f, r = variant.square_coords(square)
    found = []
    for df in (-1, 1):
        for dr in (-1, 1):
            sq = variant.square_at(f + df, r + dr)
            if sq is not None:
                found.append(sq)
    return found


def between(variant: Variant, a: int, b: int) -> list[int]:
    """Squares strictly between `a` and `b` on a diagonal (none if not on one)."""
    (fa, ra), (fb, rb) = variant.square_coords(a), variant.square_coords(b)
    df, dr = fb - fa, rb - ra
    if abs(df) != abs(dr) or df == 0:
        return []
    sf, sr = df // abs(df), dr // abs(dr)
    squares = (variant.square_at(fa + sf * k, ra + sr * k) for k in range(1, abs(df)))
    return [sq for sq in squares if sq is not None]
