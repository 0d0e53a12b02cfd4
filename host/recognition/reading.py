"""Which reading of the sensed board holds, as the hands go on: matching boards to
moves over time.

A board alone can mean several things: the move underway, the opponent touching
a piece, the last move going on (touch-move off), or the next player's reply
already underway on top of a move whose piece was seen on its destination. This
module decides which, from the turn's boards (host/recognition/turn_boards.py), what the
hands did and what it proves (host/recognition/turn_evidence.py) and which piece may stand
where (host/recognition/piece_identity.py), then hands the result to the lights. A move is
committed here only on a reply's proof; a settled board is the timers' job.

Mixed into `Recogniser` (host/recognition/recogniser.py), which holds the state it reads.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Move
from host.recognition.events import Event
from host.recognition.guidance import progress_hint
from host.recognition.reread import Reopened
from host.recognition.timing import SETTLE
from host.recognition.turn_boards import UNKNOWN, Reading


class BoardReading:
    """Reads each new board in the light of the turn so far."""

    def _board(self) -> frozenset[int]:
        """The sensed board without the forgotten captured pieces (known extras)."""
        return self.sensed - self.lingering

    def _read_turn(self, board: frozenset[int]) -> tuple[Reading, frozenset[int]]:
        """The board in the current turn, reading the next player's lifted pieces as
        touches (back on their squares) when that is the only way to explain it.
        Returns the reading and the touched squares."""
        turn = self.turn
        if board == turn.expected:
            return Reading("expected"), frozenset()
        if turn.previous is not None and board == turn.previous:
            return Reading("takeback"), frozenset()
        if board == self.initial and (self.game.moves or turn.expected != self.initial):
            return Reading("new-game"), frozenset()
        if self.outcome is not None:
            return UNKNOWN, frozenset()
        return turn.read_touched(board)

    def _proved_by_reply(
        self, now: float, lifted: frozenset[int], placed: frozenset[int]
    ) -> tuple[Move, frozenset[int], bool] | None:
        if (
            self.outcome is not None
            or self._block == self.sensed
            or self._restoring
            or self._source != "turn"
        ):
            return None
        return self.evidence.proved_by_reply(self.reading, self._board(), now, lifted, placed)

    def _reply_lands(self, now: float, placed: frozenset[int], events: list[Event]) -> None:
        """A reply was underway on top of a move seen on its destination, and one of the
        reply's pieces in the hand lands now: the move was finished. Commit it, so that
        this change is read in the reply's turn (where the one after may already start)."""
        if self._source != "reply" or self._reply is None:
            return
        move, left, reply = self._reply
        if self._movers_landing(self._read_turn(self._board())[0], now):
            return  # the mover's piece came down on a square of its own move: theirs
        landing = [m for m in reply.in_hand() if m.destination in placed or set(m.path) & placed]
        if any(self.evidence.carried(m, now) for m in landing):
            self._commit(now, move, events, left=left, by_reply=True)
            self.reading, self._source = reply, "turn"

    def _shoved_there(self, origin: int, square: int) -> bool:
        """Did the piece on `square` come down there within SLIDE of leaving `origin`
        (pushed along the board by a knock, not carried by a hand)?"""
        evidence = self.evidence
        return square != origin and not evidence.carried_from(
            origin, evidence.placed_at.get(square, float("inf"))
        )

    def _refilled_capture(self, reading: Reading) -> bool:
        """Does `reading` have a captured piece still standing on a square that was
        emptied and filled again this turn?"""
        again = self.evidence.emptied & self.evidence.filled
        return any((p.move.captures - p.removed) & again for p in reading.found)

    def _landed_after(self, reply: Reading, move: Move) -> bool:
        """Did `reply`'s piece come down after `move`'s piece reached its square? A
        square filled before the move landed is no reply to it (a knocked neighbour
        slid onto the move's square, the mover's own piece elsewhere)."""
        placed = self.evidence.placed_at
        landed = placed.get(move.destination)
        if reply.move is None or landed is None:
            return False
        return placed.get(reply.move.destination, landed) > landed

    @staticmethod
    def _landings(reading: Reading) -> list[int]:
        """The squares where `reading` has a piece come down."""
        if reading.kind == "final" and reading.move is not None:
            return [reading.move.destination]
        return [p.path[p.at] for p in reading.found if p.lifted and p.at is not None]

    def _movers_landing(self, reading: Reading, now: float) -> bool:
        """Does `reading` land the mover's piece, plausibly (it could have got there in
        time, and the piece put down there is plausibly of the mover's colour)?"""
        if not self.evidence.mover_landed(reading, now):
            return False
        side = self.game.position.turn
        return all(
            self.tracker.plausible_colour(m.destination) in (None, side) for m in reading.landed()
        )

    def _stopped_on_its_way(self, reading: Reading, move: Move, now: float) -> bool:
        """Does `reading` have the mover's piece down on squares of its paths other than
        `move`'s end (a king touching down further on its way), where it could have got
        by now? Then the piece seen on `move`'s end was passing: whatever proved that
        move then (an opponent's touch at the very moment it landed) proves nothing."""
        landings = self._landings(reading)
        return (
            reading.kind == "progress"
            and bool(landings)
            and move.destination not in landings
            and self.evidence.could_reach(self.game.position.turn, landings, now)
        )

    def _touch_also_captures(
        self, reading: Reading, touched: frozenset[int], board: frozenset[int]
    ) -> bool:
        """Does a final board with the next player's pieces read as touched fit another
        move as well, answered (the reply finished, or its capturer touching down here
        on its way)? A piece they lifted before the mover's
        piece came down is a touch, never a start, so it must still be in the hand;
        but if the mover's piece had already rested on a square of another move before
        that lift, "it went on to here" and "it stopped there and was captured by the
        lifted piece, landing here" fit the same switches (a king 32-5 taken by 1x14,
        read as 32-14 with Black holding the king from 1). The evidence fits two
        moves, so neither is committed while the hands go on; a board that then stays
        still is read as two plies when only one move and its finished reply explain
        it (`TurnEvidence.two_plies`), or else guided. A reply that started before the
        other move's piece came down answers nothing: no such doubt."""
        move = reading.move
        placed, lifted = self.evidence.placed_at, self.evidence.lifted_at
        landed = placed.get(move.destination) if move else None
        if reading.kind != "final" or move is None or landed is None:
            return False
        if any(lifted.get(square, landed) >= landed for square in touched):
            return False  # lifted once the piece was down: the next player starting
        if self.tracker.plausible_colour(move.destination) == self.game.position.turn:
            return False  # surely the mover's piece that came down
        for other, rested in self.evidence.reached.items():
            if other == move or other.origin != move.origin:
                continue
            after, _ = self.evidence.read_after(other, board)
            if after.kind == "final" and after.move is not None:
                ways = [(after.move, after.move.captures)]
            elif after.kind == "progress":
                # (the capturer still touching down on its way: it came down here)
                ways = [(p.move, p.removed) for p in after.found if p.lifted and p.at is not None]
            else:
                continue
            for reply, taken in ways:
                started = [lifted.get(sq, rested) for sq in (reply.origin, *taken)]
                if min(started) >= rested:
                    return True
        return False

    @staticmethod
    def _more_taken(open_move: Reopened, reopened: Reading) -> frozenset[int]:
        """The captured pieces the last move's re-read takes beyond it, when it differs
        from it only by those (same piece, same square); else none."""
        move, again = open_move.move, reopened.move
        if reopened.kind != "final" or again is None:
            return frozenset()
        if (again.origin, again.destination) != (move.origin, move.destination):
            return frozenset()
        return again.captures - move.captures

    def _put_back_after_it_landed(self, reading: Reading, now: float) -> bool:
        """Is `reading` a final board only because a piece came down now on a square the
        move leaves standing, one lifted after the move's piece landed? Read as this
        move, that is a piece touched and put back; but another route may have taken
        it off, and the next player's piece landed there (a capture's last piece taken
        off, their reply onto its square): the reply, if one is underway, decides."""
        move = reading.move
        if reading.kind != "final" or move is None:
            return False
        landed = self.evidence.placed_at.get(move.destination)
        placed = self.evidence.changed_at(now, down=True)
        return landed is not None and any(
            square not in (move.origin, move.destination)
            and square in self.turn.expected - move.captures
            and self.evidence.lifted_at.get(square, landed) > landed
            for square in placed
        )

    def _removal_also_starts(self, open_move: Reopened, reopened: Reading) -> bool:
        """Does the last move's re-read differ from it only by captured pieces taken off
        (same piece, same square) that are pieces the next player may move now?"""
        more = self._more_taken(open_move, reopened)
        if self._off_besides(open_move, more):
            return False  # another of their pieces lifted: those were captured pieces
        return bool(more) and more <= {m.origin for m in self.turn.moves}

    def _removal_then_start(self, open_move: Reopened, reopened: Reading) -> bool:
        """Does the last move's re-read differ from it only by captured pieces taken off,
        with another of the next player's pieces lifted since it counted? They started:
        those pieces were the capture's, taken off (the capture went on)."""
        more = self._more_taken(open_move, reopened)
        position = self.game.position
        return bool(more) and any(
            (piece := position.piece_at(sq)) is not None and piece.color == position.turn
            for sq in self._off_besides(open_move, more)
        )

    def _off_besides(self, open_move: Reopened, more: frozenset[int]) -> frozenset[int]:
        """The squares off the board since the last move counted, beyond the pieces
        its re-read takes (`more`) and those already lifted when it counted."""
        return self.turn.expected - self._board() - more - open_move.acted

    @staticmethod
    def _lands_both_ways(reading: Reading, reopened: Reading) -> bool:
        """Does the piece that came down where the last move would have gone on also
        finish a move of the next player's (read in this turn) on that square?"""
        if reopened.kind != "final" or reopened.move is None:
            return False
        square = reopened.move.destination
        return any(m.destination == square for m in reading.landed())

    def _evaluate(self, now: float, events: list[Event]) -> None:
        """Read the board as it is now and show what it means (see the module docstring)."""
        board = self._board()
        turn = self.turn
        physical = turn.expected | self.lingering
        # The crowned man lifted to stack a king: not a move, just confirmation on return.
        if self.crown is not None and self.outcome is None:
            if self.sensed == physical - {self.crown}:
                self._crown_lifted = True
                self.reading, self._source = Reading("crowning"), "turn"
                self._show(self._idle_hint())
                return
            if self.sensed == physical and self._crown_lifted:
                events.append(Event("crown-confirmed", now, {"square": self.crown}))
                self.crown = None
                self._crown_lifted = False
        self._reply = None
        if self._restoring:
            # After a takeback nothing is read as a move, however the board looks on its
            # way back (a move, a reply landed on it): it is put right, or the position.
            reading, _ = self._read_turn(board)
            self.reading = reading if reading.kind == "expected" else UNKNOWN
            self._source, self._two_ply_due = "turn", None
            self._light(now, events)
            return
        if self._pending is not None:
            move = self._pending[0]
            mine, _ = self._read_turn(board)
            if self._movers_landing(mine, now) and move not in mine.landed():
                self._pending = None  # its piece came down elsewhere: it was on its way
            elif self._stopped_on_its_way(mine, move, now):
                self._pending = None  # it touched down further on: still travelling
            elif self.turn.read(board).kind != "unknown":
                self._pending = None  # a plain board of this turn: settling takes over
            else:
                # Proved, waiting for its piece to have stayed (or for the reply to land).
                reply, left = self.evidence.read_after(move, board)
                if (
                    move.destination not in board
                    and self.evidence.reply_landed(reply, now)
                    and self._landed_after(reply, move)
                ):
                    # Its piece is off again (the mover's next capture) and the reply's
                    # piece, carried by a hand, came down after it: the move was finished.
                    self._pending = None
                    self._commit(now, move, events, left=left, by_reply=True)
                    self._evaluate(now, events)
                    return
                self.reading, self._source = UNKNOWN, "reply"
                self._reply = (move, left, reply)
                if reply.kind in ("progress", "final"):
                    self._show(progress_hint(reply.found, self.lingering | left))
                return
        reading, touched = self._read_turn(board)
        source = "turn"
        if reading.kind in ("final", "progress") and self.tracker.contradicts(
            reading, turn.position
        ):
            reading, touched = UNKNOWN, frozenset()
        if reading.kind == "final" and reading.move is not None and self._shoved_there(
            reading.move.origin, reading.move.destination
        ):
            # Its piece came down within a moment of leaving its square: shoved, not
            # carried. A knocked piece is no move however long it stands.
            reading, touched = UNKNOWN, frozenset()
        if (
            reading.kind == "final"
            and reading.move is not None
            and not reading.on_the_way
            and self.evidence.off_route(reading.move, board)
        ):
            # Another route's board on the way (its captured pieces still to come off):
            # this one counts only if it stays as long as a touch-down would not.
            reading = replace(reading, on_the_way=True)
        seen = reading  # the move's piece was seen on its destination all the same
        # A piece read as touched may also stand where the mover's seems to: shoved
        # there as it left (a knock). Either way two stories fit.
        two_fit = bool(touched) and (
            self._touch_also_captures(reading, touched, board)
            or any(self.evidence.shoved(square, board) for square in touched)
        )
        if two_fit:
            reading, touched = UNKNOWN, frozenset()  # neither proved: a still board decides
        if reading.kind == "expected" and touched and self.correcting:
            reading = UNKNOWN  # putting the board right: their piece must come back too
        open_move = self._reopened
        reopened = open_move.read(self.sensed) if open_move else None
        if reopened is not None and open_move and (
            self.tracker.contradicts(reopened, open_move.turn.position)
            or (
                bool(self._landings(reopened))
                and not self.evidence.could_reach(open_move.mover, self._landings(reopened), now)
            )
            or (
                reopened.kind == "final"
                and reopened.move is not None
                and self._shoved_there(open_move.move.destination, reopened.move.destination)
            )
        ):
            reopened = None  # (a piece shoved on from where the move ended: a knock)
        if reopened is not None and open_move and self._removal_also_starts(open_move, reopened):
            # "One more captured piece taken off" and "the next player lifting that
            # piece to move it" fit the same switches: the re-read waits until the
            # piece lands (their move) or the board has stayed so a long while.
            reopened = replace(reopened, doubted=True)
        elif reopened is not None and open_move and self._removal_then_start(open_move, reopened):
            # One more captured piece off, then the next player starting with another
            # piece: the capture went on, read at once (their piece may come down on a
            # square it emptied, which would hide the capture again).
            self._correct(now, reopened.move, events)
            self._evaluate(now, events)
            return
        if reopened is not None and self._lands_both_ways(reading, reopened):
            # "The last move went on to here" and "the next player's piece, already in
            # the air, came down here" fit the same switches: neither, until the board
            # shows which (the last mover's lifted piece put back, or theirs landing).
            reopened = None
            reading, touched = UNKNOWN, frozenset()
        if reopened is not None and open_move and (
            reading.kind == "unknown"
            or reopened.kind == "final"
            or self.tracker.hand_holds(open_move.mover)
        ):
            reading, source = reopened, "reread"
        elif open_move is not None and not open_move.still_open(board, turn.expected, self.sensed):
            self._reopened = None  # the opponent acted: the move stands
        # The next player's move is looked for when the board means nothing in this turn,
        # or only with their pieces read as touched and no piece of the mover landed.
        maybe_touch = (
            reading.kind == "unknown"
            or (touched and not self._movers_landing(reading, now))
            or self._put_back_after_it_landed(reading, now)
        )
        if (
            source == "turn"
            and maybe_touch
            and not two_fit
            and self.outcome is None
            and self.evidence.reached
        ):
            # Is the next player's move already underway on top of a move whose piece
            # was seen on its destination?
            underway = self.evidence.reply_underway(board)
            if underway is not None:
                move, reply, left = underway
                if self.evidence.reply_landed(reply, now):
                    # The next player's piece has landed: the move was surely finished.
                    taken_at = self.evidence.taken_by(move, reply)
                    self._commit(now, move, events, left=left, by_reply=True, taken_at=taken_at)
                    self._evaluate(now, events)
                    return
                side = self.game.position.turn
                next_player = "B" if side == "W" else "W"
                if reading.kind == "unknown" or self.tracker.hand_holds(next_player):
                    reading, source = UNKNOWN, "reply"
                    self._reply = (move, left, reply)
        self.reading, self._source = reading, source
        if source == "turn":
            self.evidence.note(seen if two_fit else reading, now, touched)
        # (A capture still "underway" because a captured piece's square, emptied this
        # turn, is filled again while the next player's piece is in the air may be
        # finished, that piece landing there: a still board decides, as for an
        # unexplained one.)
        unexplained = reading.kind == "unknown" or (
            bool(touched) and (not reading.landed() or self._refilled_capture(reading))
        )
        self._two_ply_due = (
            self.since + SETTLE
            if unexplained and source != "reread" and self.evidence.filled and not self.outcome
            else None
        )
        self._light(now, events)

