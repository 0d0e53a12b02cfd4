"""Changing the game: commit a move, correct the last one (a move that went on),
take one back, and the events that report each change.

Kept apart from reading and timing so that every change of the game, and every
event the session journals for it, is made in one place: captured pieces left
on the board become `lingering`, the move stays open for a re-read (touch-move
off, or a move proved by a reply), the new turn starts.

Mixed into `Recogniser` (host/recognition/recogniser.py), which holds the state it reads.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine import Move
from engine.position import Piece
from host.recognition.events import Event
from host.recognition.reread import Reopened
from host.recognition.timing import SETTLE, SLIDE, TOGETHER


class Finishing(NamedTuple):
    """The last move while its mover may still act on it: what its finish is read from
    (the board after it, when its mover's time began) and the finish said so far."""

    move: Move
    after: frozenset[int]
    since: float
    finished: float


class GameChanges:
    """Commit, correct and take back moves."""

    def _commit(
        self,
        now: float,
        move: Move,
        events: list[Event],
        *,
        left: frozenset[int] = frozenset(),
        acted: frozenset[int] = frozenset(),
        by_reply: bool = False,
        taken_at: float | None = None,
    ) -> None:
        """Play `move`. `left`: its captured pieces still on the board (forgotten);
        `acted`: the next player's pieces already in the air; `taken_at`: its landing no
        switch saw, the next player's capturer left its square then (it was finished)."""
        before = self.game.position
        turn_before, lingering_before = self.turn, self.lingering
        text = before.move_text(move)
        side = before.turn
        after = self.evidence.after(move)
        if taken_at is None:
            finished = self._finished(move, after.expected, self._began, now)
        else:
            finished = min(now, max(self._began, taken_at))
        self._reopened_began, self._began = self._began, finished
        self.change_log.forget_before(self._reopened_began)
        self.game.push(move)
        self._finishing = Finishing(move, after.expected, self._reopened_began, finished)
        left = left & self.sensed  # (one may have come off meanwhile)
        for square in left:
            self._lingering_pieces[square] = before.piece_at(square)  # type: ignore[assignment]
        self.lingering = self.lingering | left
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self._new_turn(after)
        if (not self.touch_move or by_reply) and self.outcome is None:
            theirs = frozenset(
                sq
                for sq in acted - move.captures
                if (p := before.piece_at(sq)) is not None and p.color != side
            )
            taken = move.captures - self.sensed
            self._reopened = Reopened(
                turn_before, move, lingering_before, theirs, taken, standing=self.sensed
            )
        events.append(Event("move", now, self._move_data(text, side, move, finished)))
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())  # the start of the new turn, however short
        self._announce_outcome(now, events)

    def _correct(self, now: float, move: Move, events: list[Event]) -> None:
        """The last move went on to `move` (same piece): replace it."""
        reopened = self._reopened
        assert reopened is not None
        was = reopened.turn.position.move_text(reopened.move)
        self.game.pop()
        before = self.game.position
        text = before.move_text(move)
        side = before.turn
        self.game.push(move)
        finished = self._finished(move, self.game.position.occupied(), self._reopened_began, now)
        self._began = finished
        self._finishing = Finishing(
            move, self.game.position.occupied(), self._reopened_began, finished
        )
        left = move.captures & self.sensed
        for square in left:
            self._lingering_pieces[square] = before.piece_at(square)  # type: ignore[assignment]
        self.lingering = reopened.lingering | left
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self.outcome = None
        self._new_turn()
        taken = move.captures - self.sensed
        self._reopened = Reopened(
            reopened.turn, move, reopened.lingering, reopened.acted, taken, reopened.standing
        )
        data = self._move_data(text, side, move, finished)
        data["was"] = was
        data["fen_before"] = before.fen()
        events.append(Event("move-corrected", now, data))
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())
        self._announce_outcome(now, events)

    def _move_data(self, text: str, side: str, move: Move, finished: float) -> dict[str, Any]:
        return {
            "move": text,
            "fen": self.game.fen(),
            "side": side,
            "from": move.origin,
            "to": move.destination,
            "captures": sorted(move.captures),
            "ply": len(self.game.moves),
            # the mover's last action of the move (host/recognition/finish_time.py): the
            # clock charges the move up to here, not up to its proof
            "finished": finished,
        }

    def _finished_later(self, now: float, events: list[Event]) -> None:
        """The last move's mover acted on it again before the next player started (its
        piece lifted and put down on the same square, a captured piece taken off after
        it counted): it was finished later than said. When its piece comes down on its
        end square again or one of its captured pieces comes off, a `move-finished`
        event says when, so the clock charges the move to its real end."""
        last = self._finishing
        if last is None or not self.game.moves or self.game.moves[-1] != last.move:
            return
        move = last.move
        now_changed = {(sq, down) for t, sq, down in self.change_log.changes if t == now}
        landing = (move.destination, True) in now_changed
        if not landing and not any((square, False) in now_changed for square in move.captures):
            return  # only a landing or a captured piece taken off can finish it later
        finished = self.change_log.finished(
            self.variant, move, last.since, last.after, settle=SETTLE, together=TOGETHER,
            slide=SLIDE,
        )
        if finished is None or finished <= last.finished + 1e-9:
            return
        finished = min(now, finished)
        self._finishing = last._replace(finished=finished)
        self._began = finished
        side = "B" if self.game.position.turn == "W" else "W"  # who made the last move
        events.append(
            Event(
                "move-finished", now,
                {"ply": len(self.game.moves), "side": side, "finished": finished},
            )
        )

    def _finished(self, move: Move, after: frozenset[int], since: float, now: float) -> float:
        """When `move` (its mover's time began at `since`) was finished, at the latest `now`;
        with no landing seen, the last change on its squares."""
        finished = self.change_log.finished(
            self.variant, move, since, after, settle=SETTLE, together=TOGETHER, slide=SLIDE
        )
        if finished is None:
            own = {move.origin, move.destination, *move.captures, *move.path}
            finished = self.change_log.last_change(own, since)
        return min(now, finished)

    def _announce_outcome(self, now: float, events: list[Event]) -> None:
        if self.outcome is not None:
            events.append(
                Event(
                    "outcome", now, {"winner": self.outcome.winner, "reason": self.outcome.reason}
                )
            )

    def _undo(self, now: float, events: list[Event]) -> None:
        """Take the last move back in the game. The board is not touched: the pieces that
        stand on it are still those of the move (the tracker goes on knowing them), so
        the guidance sends each one back to its own square."""
        standing = self._standing_pieces()
        before = self.game.moves[-1]
        self.game.pop()
        text = self.game.position.move_text(before)
        self.outcome = None
        self.crown = None
        self.lingering -= before.captures  # back in the game
        self._new_turn()
        self.tracker.reset(standing, self.sensed, in_air=False)
        self._began = self._reopened_began = now
        self._finishing = None
        events.append(Event("takeback", now, {"move": text, "fen": self.game.fen()}))

    def _standing_pieces(self) -> dict[int, Piece]:
        """The piece on each sensed square where the tracker is sure of it."""
        standing: dict[int, Piece] = {}
        for square in self.sensed:
            seen = self.tracker.pieces_at(square)
            if len(seen) == 1 and (piece := next(iter(seen))) is not None:
                standing[square] = piece
        return standing
