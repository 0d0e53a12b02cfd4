"""A board that stays still, read with what the hands did before it: two plies only
a move and its finished reply explain (in an order hands can play them), up to
eight plies that explain every square where fewer would need pieces held in the
air since before they started, and a capture's final board that is only on the
way to another route.

Mixed into `TurnEvidence` (host/recognition/turn_evidence.py), whose records
(`lifted_at`, `placed_at`, `emptied`, `filled`, `changes`, `empty_at_start`,
`lifted_before`), readings and first lifts (`MoveFinished._first_lift`) it uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import inf

from engine import Move, Position
from host.recognition.hand_paths import trajectory
from host.recognition.timing import TOGETHER

#: squares a ply of a run put a piece on -> when that piece left its own square (a
#: lift of the square counts for that piece only from then on)
Since = Mapping[int, float]
NONE: Since = {}
#: the longest run of plies a still board is explained by (blitz hands that never
#: waited for the board: a chain of eight plies, each started before the last one
#: counted, still reads; WIDEST keeps the search small, every ply's piece must have
#: left and landed this turn, in order)
DEEPEST = 8
#: runs followed at once, beyond which a board is too busy to explain
WIDEST = 200


class StillBoard:
    """Two plies on a still board, and final boards on another route's way."""

    def two_plies(self, board: frozenset[int]) -> tuple[Move, frozenset[int], Move] | None:
        """The one move of this turn whose reply's final board this is, both pieces
        seen to leave their squares and land this turn (the move, its captured pieces
        read as left on the board, the reply).

        A piece that touched down on several squares of its moves before the reply
        took it (a king sliding on, captured by a flying king that may take it on any
        of them) stood last where it came down last: a move ending on a square it had
        already left, with another of its squares filled after that and before the
        reply started, would have the mover's piece come down twice."""
        found: list[tuple[Move, frozenset[int], Move]] = []
        for move in self.turn.moves:
            if move.origin not in self.emptied:
                continue
            reading, left = self.read_after(move, board)
            reply = reading.move
            if (
                reading.kind == "final"
                and reply is not None
                and (move.destination in reply.captures or not self._unseen_before(move, reply))
                and reply.origin in self.emptied
                and reply.destination in self.filled
                and self._in_order(move, reply)
                and not self._went_on_elsewhere(move, [reply])
                and not self._left_before_the_reply(move, reply, board)
            ):
                found.append((move, left, reply))
        found = [
            f
            for f in found
            if not self._unseen_before(f[0], f[2]) or self._on_the_runs_way([f[0], f[2]], board)
        ]
        if len(found) > 1:
            # (a landing seen is a better story than one taken off unseen)
            found = [f for f in found if not self._unseen_before(f[0], f[2])] or found
        if len(found) > 1:
            found = [f for f in found if not self._reply_touched_down(f[0], f[2])] or found
        if len(found) > 1:
            found = [f for f in found if not self._came_down_again(f[0], f[2], found)]
        if len(found) != 1:
            return None
        move, left, reply = found[0]
        return move, left, reply

    def plies_explaining(self, board: frozenset[int]) -> list[Move] | None:
        """The one shortest run of two to DEEPEST plies, from a move of this turn, after
        which the position is exactly `board`: every ply's piece seen leaving its
        square and landing this turn, each ply in an order hands can play after the
        one before. None if no run does, or several of that length.

        For a board that one move (or a move and its reply) explains only with
        pieces held in the air since before it started: hands that did not wait
        (a man moved and taken at once, the next move made meanwhile) leave every
        square explained by the plies they played."""
        if self.turn.restricted:
            return None  # a computer's move to carry out: no other plies are accepted
        emptied, filled = self.emptied, self.filled

        def seen_or_taken(move: Move) -> bool:
            # Landed where it was seen, or never seen there (to be taken off by the
            # next ply in the very scan it landed).
            return move.destination in filled or move.destination not in board

        level: list[tuple[Position, list[Move], Since, int]] = [
            (self.turn.position.play(m), [m], {m.destination: self._left_at(m.origin)}, 0)
            for m in self.turn.moves
            if m.origin in emptied and seen_or_taken(m)
        ]
        # (a ply whose landing nobody saw before the next ply's piece left must be taken
        # by that ply: `_unseen_before`; a piece a ply put down leaves that square for
        # the next ply only after it arrived: `since`; each run counts its unseen
        # landings, and fewer is the better story)
        for _ in range(DEEPEST - 1):
            found: list[tuple[list[Move], int]] = []
            deeper: list[tuple[Position, list[Move], Since, int]] = []
            for position, run, since, unseen in level:
                last = run[-1]
                for move in position.legal_moves():
                    if move.origin not in emptied or not seen_or_taken(move):
                        continue
                    hidden = self._unseen_before(last, move, since)
                    if (
                        (hidden and last.destination not in move.captures)
                        or not self._in_order(last, move, since, taken=True)
                        or self._took_before_it_landed(last, move, since)
                    ):
                        continue
                    after = position.play(move)
                    if after.occupied() == board:
                        # (the last ply's piece stands there: it was seen landing)
                        answered = self._left_at(move.origin, since)
                        if self._down_after(move.destination, answered) is not None:
                            found.append(([*run, move], unseen + hidden))
                    else:
                        arrived = {**since, move.destination: self._left_at(move.origin, since)}
                        deeper.append((after, [*run, move], arrived, unseen + hidden))
            # A landing nobody saw is a story only if every square filled meanwhile is
            # on the run's way (brushed, touched down on): nothing else was going on.
            found = [(r, n) for r, n in found if not n or self._on_the_runs_way(r, board)]
            if found:
                fewest = min(unseen for _, unseen in found)
                runs = [run for run, unseen in found if unseen == fewest]
                if len(runs) > 1:
                    # A piece the next ply took stood where it was taken when the taker
                    # started; a square filled only after that may be the taker touching
                    # down.
                    runs = [r for r in runs if all(map(self._stood_before, r, r[1:]))]
                return runs[0] if len(runs) == 1 else None
            if len(deeper) > WIDEST:
                return None  # hands everywhere: too many stories to pick one
            level = deeper
        return None

    def _reply_touched_down(self, move: Move, reply: Move) -> bool:
        """Was `move`'s destination first filled, after its piece left its square, only
        once `reply`'s piece was lifted, on that piece's way? (See
        `MoveFinished._on_the_replys_way`.)"""
        landed = self._first_down(move)
        return landed is not None and self._on_the_replys_way(move, [reply], landed)

    def _unseen_before(self, move: Move, taker: Move, since: Since = NONE) -> bool:
        """Was `move`'s piece never seen on its destination between leaving its square
        and `taker`'s piece leaving its own? A piece the next player takes off in the
        very scan it lands never shows (blitz): only a taker that captures it explains
        it (the square filled after that is the taker passing over it)."""
        square = move.destination
        if square == move.origin or square in self.filled_at_start:
            return False
        start = self._left_at(move.origin, since)
        end = self._left_at(taker.origin, since) + TOGETHER
        return not any(
            down and sq == square and start <= t <= end for t, sq, down in self.changes
        )

    def _on_the_runs_way(self, run: list[Move], board: frozenset[int]) -> bool:
        """Is every square filled this turn and empty again on the way of a ply of `run`
        (a square its piece passes over or lands on)?"""
        variant = self.turn.position.variant
        way = set().union(*(trajectory(variant, ply) for ply in run))
        return self.filled - board <= way

    def taken_unseen(self, run: list[Move]) -> list[float | None]:
        """For each ply of `run` but the last: when the next ply's piece left its square,
        if that ply took this one's piece before any switch saw it land; else None."""
        found: list[float | None] = []
        since: dict[int, float] = {}
        for move, taker in zip(run, run[1:], strict=False):
            since[move.destination] = self._left_at(move.origin, since)
            hidden = self._unseen_before(move, taker, since)
            found.append(self._left_at(taker.origin, since) if hidden else None)
        return found

    def unseen_first(self, run: list[Move]) -> bool:
        """Does `run` start with a ply whose landing only the next ply's capture tells?"""
        return len(run) > 1 and self._unseen_before(run[0], run[1])

    def _first_down(self, move: Move) -> float | None:
        """When a piece first came down on `move`'s destination this turn after
        `move`'s piece left its square (None if none did this turn)."""
        started = self._left_at(move.origin)
        return next(
            (t for t, sq, down in self.changes if down and sq == move.destination and t >= started),
            None,
        )

    def _in_order(
        self, move: Move, reply: Move, since: Since = NONE, *, taken: bool = False
    ) -> bool:
        """Could the hands have played `move`, then `reply`? Each piece came down after
        it first left its square, and the reply's after the move's (or in the same
        moment): a square filled before the piece meant to land there was lifted holds
        another piece (the king landed there, the opponent's piece held somewhere
        else). A first lift counts: a king passing over the square later, touching
        down on it, lifts "its" piece again without moving the start. Each piece was
        carried: one down within SLIDE of leaving its square was shoved (a knock). A
        landing nobody saw (taken off in the very scan it came down) has no time: its
        piece left before the taker's did; the reply's may be such a landing only if
        `taken` (a ply after it may take it)."""
        started = self._left_at(move.origin, since)
        answered = self._left_at(reply.origin, since)
        # (each piece's own landing: the first fill of its square after it left, not the
        # last, which may be a later ply's piece coming down there)
        reply_down = self._down_after(reply.destination, answered)
        if self._unseen_before(move, reply, since):
            ordered = started <= answered + TOGETHER
        else:
            move_down = self._down_after(move.destination, started)
            if move_down is None:
                return False
            ordered = (
                started <= move_down
                and (reply_down is None or move_down <= reply_down + TOGETHER)
                and self.carried(move, move_down)
            )
        if reply_down is None:
            return ordered and taken  # (its landing unseen too: the next ply must take it)
        return (
            ordered
            and answered <= reply_down
            and self.carried(reply, reply_down)
        )

    def _down_after(self, square: int, after: float) -> float | None:
        """When `square` was first filled at or after `after` (this turn, or before it
        began if it was already filled then); None if it was not."""
        if square in self.filled_at_start:
            before = self.placed_before.get(square)
            if before is not None and before >= after:
                return before
        return next(
            (t for t, sq, down in self.changes if down and sq == square and t >= after), None
        )

    def _left_before_the_reply(self, move: Move, reply: Move, board: frozenset[int]) -> bool:
        """Is `move`'s piece off its destination again, lifted before the reply's piece
        was? Its next move cannot start before the reply did: it was still travelling
        (a king touching down on its way). Unless the reply takes it (a captured piece
        is often taken off before the capturer is lifted)."""
        if move.destination in board or move.destination in reply.captures:
            return False
        again = self.lifted_at.get(move.destination)
        return again is not None and again < self._left_at(reply.origin) - TOGETHER

    def _took_before_it_landed(self, move: Move, reply: Move, since: Since = NONE) -> bool:
        """Does `reply` capture `move`'s piece with a piece lifted before that piece came
        down? Nobody starts taking a piece that is not there yet: the piece that came
        down was the taker on its way (a king touching down), not `move`'s."""
        if move.destination not in reply.captures or self._unseen_before(move, reply, since):
            return False
        if move.destination in self.filled_at_start:
            landed = self.placed_before.get(move.destination)  # (before this turn began)
        else:
            landed = self._first_down(move)
        if landed is None:
            landed = self.placed_at.get(move.destination)
        return landed is not None and self._left_at(reply.origin, since) < landed - TOGETHER

    def _stood_before(self, move: Move, reply: Move) -> bool:
        """Was `move`'s piece seen on its destination before `reply`'s piece left its
        square (after its own piece left its square)?"""
        started, answered = self._left_at(move.origin), self._left_at(reply.origin) + TOGETHER
        downs = [t for t, sq, down in self.changes if down and sq == move.destination]
        if not downs:  # (put down before this turn)
            return self.placed_at.get(move.destination, answered) <= answered
        return any(started <= t <= answered for t in downs)

    def _left_at(self, square: int, since: Since = NONE) -> float:
        """When the piece moving from `square` left it: before this turn if the square
        was already empty when the turn began (lifted in the turn before, or in the
        very scan the last move counted), else its first lift this turn. A piece an
        earlier ply of a run put there (`since`: when that ply's piece left its own
        square) left it at the first lift after that."""
        if square in since:
            after = since[square]
            lifts = (t for t, sq, down in self.changes if sq == square and not down and t >= after)
            return next(lifts, inf)
        if square in self.empty_at_start:
            return self.lifted_before.get(square, 0.0)
        return self._first_lift(square, 0.0)

    def _came_down_again(
        self, move: Move, reply: Move, found: list[tuple[Move, frozenset[int], Move]]
    ) -> bool:
        """Did the piece of `move` come down on another candidate's square after it left
        its own destination, before `reply` started (see `two_plies`)?"""
        left_at = self.lifted_at.get(move.destination)
        started = self.lifted_at.get(reply.origin)
        if left_at is None or started is None:
            return False
        return any(
            other.origin == move.origin
            and left_at < self.placed_at.get(other.destination, -1.0) < started
            for other, _, _ in found
            if other != move
        )

    def off_route(self, move: Move, board: frozenset[int]) -> bool:
        """Did the mover's piece come down this turn on a square `move` never passes,
        while another capture between the same two squares passes them all? A king that
        touched down on the other route's landings and stands at the common end, with
        that route's captured pieces still to come off (or the opponent touching one of
        this route's), shows this route's final board without having played it."""
        routes = self.turn.other_routes(move)
        started = self.lifted_at.get(move.origin)
        if not routes or started is None:
            return False
        touched_down = {
            sq
            for sq in self.filled - board - self.turn.expected
            if self.placed_at.get(sq, started) > started
        }
        variant = self.turn.position.variant
        if touched_down <= trajectory(variant, move):
            return False
        return any(touched_down <= trajectory(variant, route) for route in routes)
