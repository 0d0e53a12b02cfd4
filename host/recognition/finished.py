"""Was the move finished where its piece was seen, for the next player's action to
answer it? A reply proves a move only if the move's piece stopped there: it was
carried, not slid; it did not come down anywhere else before the reply's piece was
lifted (knocks, pushes and touches put back aside); the reply's piece was lifted
after the mover started; and, of several stops of one piece that one reply fits,
the one it came down on last before that lift.

Mixed into `TurnEvidence` (host/recognition/turn_evidence.py), whose records
(`reached`, `changes`, `lifted_at`) it reads.
"""

from __future__ import annotations

from engine import Move
from host.recognition.hand_paths import trajectory
from host.recognition.timing import BRUSH, SLIDE, TOGETHER
from host.recognition.turn_boards import Reading


def _replies_of(reading: Reading) -> list[Move]:
    """The next player's moves a reading of their turn stands for."""
    return [reading.move] if reading.move else [p.move for p in reading.found]


class MoveFinished:
    """The checks behind "this reply answers that move"."""

    def _stopped_last(
        self, found: list[tuple[Move, Reading, frozenset[int]]]
    ) -> list[tuple[Move, Reading, frozenset[int]]]:
        """Of several moves of one piece, each answered by the reply underway (a flying
        king takes the piece on any square of its line), the one where the piece came
        down last before the reply's piece was lifted: it stood there when taken. A
        touch-down seen after that lift is the reply's piece on its way."""
        if (
            len({move.origin for move, _, _ in found}) != 1
            or len({
                frozenset((m.origin, m.destination) for m in _replies_of(reading))
                for _, reading, _ in found
            }) != 1
        ):
            return found  # other pieces, or other replies: the evidence fits two
        before: list[tuple[float, tuple[Move, Reading, frozenset[int]]]] = []
        for item in found:
            move, reading, _ = item
            lifted = self._first_lifted(_replies_of(reading), missing=0.0)
            if self.reached[move] <= lifted + TOGETHER:
                before.append((self.reached[move], item))
        if not before:
            return found
        latest = max(t for t, _ in before)
        return [item for t, item in before if t == latest]

    def _off_the_replys_way(
        self, found: list[tuple[Move, Reading, frozenset[int]]]
    ) -> list[tuple[Move, Reading, frozenset[int]]]:
        """Drop the stops the reply's piece may have made itself (see
        `_on_the_replys_way`); all of them if none is left."""
        kept = [
            item
            for item in found
            if not self._on_the_replys_way(item[0], _replies_of(item[1]), self.reached[item[0]])
        ]
        return kept or found

    def _on_the_replys_way(self, move: Move, replies: list[Move], seen: float) -> bool:
        """Was `move`'s piece seen on its destination (at `seen`) only after the reply's
        piece was lifted, on a square that piece passes on its way (not where it
        lands)? Then it was the reply's capturer touching down, not the mover's piece
        stopping there."""
        if seen <= self._first_lifted(replies, missing=float("inf")) + TOGETHER:
            return False
        variant = self.turn.position.variant
        return any(move.destination in trajectory(variant, r) - {r.destination} for r in replies)

    def _came_down_after_reply(self, move: Move, reply: Reading) -> bool:
        """Was `move`'s piece seen on its destination only after the reply's piece was
        lifted, while the same piece had stopped on another square of its moves before
        that lift? The later touch-down may be the reply's piece on its way (hovering,
        brushing a neighbour) as much as the mover's piece going on: the evidence fits
        two, so the reply proves neither until the board shows which."""
        lifted = self._first_lifted(_replies_of(reply), missing=float("inf"))
        if self.reached.get(move, float("-inf")) <= lifted + TOGETHER:
            return False
        return any(
            other.origin == move.origin and other != move and reached <= lifted + TOGETHER
            for other, reached in self.reached.items()
        )

    def _answers(self, move: Move, reply: Reading) -> bool:
        """Could `reply` answer `move`: was its piece lifted once `move`'s piece had left
        its square? A piece of the next player's already off before the mover started
        is no reply to that move (a captured piece taken off early, a piece held out of
        turn). One lifted while the mover's piece was in the air may be: a touch that
        the player then carries on (touch-move). One whose lift the board read as the
        move underway (a piece another route captures, taken off while the mover's
        piece stood on that route) fits "the mover taking it" as well: no reply."""
        started = self._started(move)
        if reply.kind == "final" and reply.move is not None:
            replies = [reply.move]
        else:
            replies = [p.move for p in reply.found if p.lifted]
        if (
            self._went_on_elsewhere(move, replies)
            or self._brushed_past(move, replies)
            or self._held_through_and_went_on(move, replies)
        ):
            return False
        reached = self.reached.get(move)
        if started is not None and reached is not None and reached - started < SLIDE:
            return False  # slid there a moment after leaving its square: a knock
        if started is None or not replies:
            return True
        return any(
            (lift := self._reply_lifted(m.origin, started)) >= started - TOGETHER
            and self.taken_off.get(m.origin) != lift
            for m in replies
        )

    def _another_route_took(
        self, move: Move, board: frozenset[int], lifted: frozenset[int]
    ) -> bool:
        """Are the pieces lifted now captured pieces of another route of `move` (same
        squares, other pieces taken), whose final board this is but for pieces of the
        next player's lifted before the mover's piece came down (touches in the air)?
        "`move`, and the next player starting" and "the other route, its last captured
        piece taken off while the opponent still holds the touched piece" then fit the
        same switches (a touched piece read as one `move` took off early)."""
        landed = self.reached.get(move)
        if not lifted or landed is None:
            return False
        position = self.turn.position
        theirs = {sq for sq, p in position.pieces().items() if p.color != position.turn}
        for other in self.turn.other_routes(move):
            final = self.turn.final_of(other)
            touched = final - board
            if (
                lifted <= other.captures
                and touched <= theirs
                and touched
                and board <= final
                and all(self._first_lift(sq, landed) < landed for sq in touched)
            ):
                return True
        return False

    def _held_through_and_went_on(self, move: Move, replies: list[Move]) -> bool:
        """Was the reply's piece lifted before `move`'s piece came down there (a touch
        while it was in the air), and `move`'s piece lifted again before the reply's
        piece landed? No player picks their piece up again before the answer has
        landed: the mover's piece was still travelling (the landing may be its own
        touch-down), the opponent still holding what they touched. (Not when the reply
        takes that piece: taking it off empties the square.)"""
        left_at = self._left_its_end(move)
        if left_at is None or self._takes_it(move, replies):
            return False
        if self._first_lifted(replies, missing=float("inf")) >= self.reached[move]:
            return False
        return left_at < self._reply_down(replies)

    def _left_its_end(self, move: Move) -> float | None:
        """When `move`'s piece was last lifted off its destination after it was seen
        there (None if it has not been since)."""
        reached = self.reached.get(move)
        left_at = self.lifted_at.get(move.destination)
        if reached is None or left_at is None or left_at <= reached:
            return None
        return left_at

    @staticmethod
    def _takes_it(move: Move, replies: list[Move]) -> bool:
        """Does one of the replies capture `move`'s piece (emptying its square)?"""
        return any(move.destination in r.captures for r in replies)

    def _reply_down(self, replies: list[Move]) -> float:
        """When the first of the replies' pieces came down on its end square this turn
        (infinite if none has yet)."""
        downs = [t for r in replies if (t := self._first_down(r)) is not None]
        return min(downs, default=float("inf"))

    def _reply_lifted(self, origin: int, started: float) -> float:
        """When the reply's piece left `origin`: its first lift this turn after it was
        last put back there before the mover started. A piece that comes down on that
        square later is the mover's passing over it (a king touching down), not theirs
        put back, so lifting it again does not make their piece start late."""
        put_back = max(
            (t for t, sq, down in self.changes if sq == origin and down and t < started - TOGETHER),
            default=float("-inf"),
        )
        lifts = [t for t, sq, down in self.changes if sq == origin and not down and t > put_back]
        return lifts[0] if lifts else self.lifted_at.get(origin, started)

    def _first_lifted(self, replies: list[Move], *, missing: float) -> float:
        """When the first of the replies' pieces left its square (see `_first_lift`);
        infinite with no reply."""
        return min((self._first_lift(m.origin, missing) for m in replies), default=float("inf"))

    def _first_lift(self, square: int, missing: float) -> float:
        """The first lift of `square` this turn (a piece passing over that square later
        does not move it), else its last lift before the turn, else `missing`."""
        for t, changed, down in self.changes:
            if changed == square and not down:
                return t
        return self.lifted_at.get(square, missing)

    def _started(self, move: Move) -> float | None:
        """When `move`'s piece left its square: its last lift there before the piece was
        seen on its destination (a piece passing over the square later, the next
        player's king, does not move it; the lift may predate this turn in blitz)."""
        reached = self.reached.get(move, float("inf"))
        lifts = [t for t, sq, down in self.changes if sq == move.origin and not down]
        before = [t for t in lifts if t <= reached]
        if before:
            return before[-1]
        last = self.lifted_at.get(move.origin)
        return last if last is not None and last <= reached else None

    def _brushed_past(self, move: Move, replies: list[Move]) -> bool:
        """Did `move`'s piece only brush its destination (every stay there this turn
        under BRUSH) and leave it before the reply's piece was lifted? A hand hovering
        touches squares on its way; only a piece that stayed, or stood there when the
        next player started, can have been answered (unless the reply took it)."""
        square = move.destination
        if any(square in m.captures for m in replies):
            return False
        stays: list[tuple[float, float]] = []
        down: float | None = None
        for t, sq, placed in self.changes:
            if sq != square:
                continue
            if placed:
                down = t
            elif down is not None:
                stays.append((down, t))
                down = None
        if down is not None or not stays:
            return False  # standing there now (or since before this turn)
        reply_lifted = self._first_lifted(replies, missing=float("inf"))
        return stays[-1][1] <= reply_lifted and all(up - at < BRUSH for at, up in stays)

    def _went_on_elsewhere(self, move: Move, replies: list[Move]) -> bool:
        """Did a piece come down, after `move`'s piece left its destination and before
        the reply's piece landed, on another square? Before the reply's piece was
        first lifted only the mover's piece was in a hand; after, on a square off the
        reply's way, the reply's piece cannot have come down there either. Either way
        the mover's piece was still travelling (a king touching down on the way, a
        loop going on while the opponent held a touched piece), not finished there."""
        left_at = self._left_its_end(move)
        if left_at is None:
            return False
        theirs = {m.origin for m in replies}  # (put back: a bounce, a lift and return)
        reply_lifted = self._first_lifted(replies, missing=float("inf"))
        if left_at < self.placed_at.get(move.destination, left_at) <= reply_lifted:
            return False  # it came back down there (a capture passing its end twice) and stayed
        variant = self.turn.position.variant
        way = set().union(*(trajectory(variant, r) for r in replies))
        # (a reply that takes the piece emptied its square: every piece put down after
        # the reply's lift may be the reply's, held on a wrong square)
        after_lift = not self._takes_it(move, replies)
        landed = self._reply_down(replies)
        lifts = [(t, sq) for t, sq, down in self.changes if not down]
        return any(
            down
            and left_at < t < landed
            and (t < reply_lifted or (after_lift and sq not in way))
            and sq != move.destination
            and sq not in theirs
            and not self._pushed(sq, t, move.destination, lifts)
            and not any(left_at < u < t and s == sq for u, s in lifts)  # a touch put back
            for t, sq, down in self.changes
        )

    @staticmethod
    def _pushed(
        square: int, placed: float, carried_from: int, lifts: list[tuple[float, int]]
    ) -> bool:
        """Did the piece put down on `square` at `placed` leave another square just
        before (a knock sliding it, or pushing it back), rather than come from a hand
        that carried it from `carried_from`?"""
        return any(
            0 <= placed - t <= SLIDE for t, sq in lifts if sq not in (square, carried_from)
        )
