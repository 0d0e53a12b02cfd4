"""A move that goes on: the last committed move, open to being read again.

With touch-move off (home play, the default) a player may release a piece on a
legal square and carry it on a moment later, or rest on a landing square of a
slow capture that is also the end of a shorter one, or take off one more
captured piece after a pause. The board committed what it saw; while the same
piece goes on to another legal result before the opponent acts, the board
reads the move again ("move-corrected"). A move committed on the opponent's
first lift stays open in both settings until that opponent does more: the lift
proved the move only if the piece had really come down.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Move
from host.recognition.turn_boards import Progress, Reading, TurnBoards


@dataclass(frozen=True)
class Reopened:
    """The last committed move, still open while its piece goes on."""

    turn: TurnBoards  # the turn it was played in
    move: Move
    lingering: frozenset[int]  # forgotten captured pieces on the board before it
    acted: frozenset[int]  # the next player's pieces already lifted when it was committed
    #: its captured pieces already off the board when it was committed: a piece put back
    #: on one of those squares is no move going on (the piece that goes on only leaves
    #: squares, and another result of it would need that captured piece standing)
    taken: frozenset[int] = frozenset()

    #: the squares occupied when it was committed
    standing: frozenset[int] = frozenset()

    def _touched_since(self, sensed: frozenset[int]) -> frozenset[int]:
        """The next player's pieces lifted since the move counted that no capture of
        this turn takes."""
        position = self.turn.position
        return frozenset(
            sq
            for sq in self.standing - sensed - self.turn.capturable
            if (piece := position.piece_at(sq)) is not None and piece.color != position.turn
        )

    @property
    def mover(self) -> str:
        return self.turn.position.turn

    def read(self, sensed: frozenset[int]) -> Reading | None:
        """The board as this move going on: another legal result of the same piece
        ("final"), or the piece in the hand or touching down on the way ("progress")."""
        board = (sensed - self.lingering) | self.acted
        if board & self.taken:
            return None  # a captured piece put back (or another piece there): not this move
        reading = self.turn.read(board)
        touched = self._touched_since(sensed)
        if reading.kind == "unknown" and touched:
            # The next player touching one of their pieces while it goes on (one no
            # capture takes, standing when the move counted): not part of this move.
            again = self.turn.read(board | touched)
            if again.kind == "final":
                reading = again
        origin = self.move.origin
        if reading.kind == "final" and reading.move is not None:
            if reading.move != self.move and reading.move.origin == origin:
                return reading
            return None
        if reading.kind == "progress":
            found = tuple(p for p in reading.found if p.move.origin == origin and p.lifted)
            if not found:
                # A king's capture may touch down on its own square on the way (its path
                # crosses it): the piece, which had left (the move was committed
                # elsewhere), stands there again mid-capture, not "not lifted yet".
                found = tuple(
                    Progress(p.move, p.path, p.removed, True, i)
                    for p in reading.found
                    if p.move.origin == origin
                    for i, square in enumerate(p.path[:-1])
                    if square == origin
                )
            if found:
                return Reading("progress", found=found)
        return None

    def still_open(
        self, board: frozenset[int], expected: frozenset[int], sensed: frozenset[int]
    ) -> bool:
        """Has the opponent done nothing yet? Their pieces already in the air when the
        move was committed may stay there; anything more they do (those put back
        included) closes it. The piece back on its origin (the board as before the
        move) is the mover's doing: a king sliding back along its diagonal passes its
        own square; left there, it is a takeback, carried on, the move is read again."""
        back_home = (sensed - self.lingering) | self.acted == self.turn.expected
        return board == expected - self.acted or back_home or self._more_taken(board, expected)

    def _more_taken(self, board: frozenset[int], expected: frozenset[int]) -> bool:
        """Are the only pieces off since (besides those already lifted) ones a longer
        capture by the same piece, to the same square, would also take? Taking them off
        may be the capture going on, as much as the next player starting."""
        off = expected - self.acted - board
        if not off or board - expected:
            return False
        taken = self.move.captures
        more = frozenset().union(*(
            m.captures - taken for m in self.turn.other_routes(self.move) if m.captures > taken
        ))
        return off <= more
