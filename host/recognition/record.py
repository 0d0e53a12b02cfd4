"""The committed game: what the stories agreed on, and the events that report it.

`GameRecord` holds the game (the position, its history, its outcome), the moves
only some of which are accepted this turn (a computer's move to carry out) and the
man waiting to be crowned. Every change of the committed game goes through it and
comes back as events for the session to journal, announce and draw: a move, a
move read again (it went on), a takeback, a new game, an outcome, a crowning.
It knows nothing of stories or switches.
"""

from __future__ import annotations

from typing import Any

from engine import Game, Move, Outcome
from host.recognition.events import Event


class GameRecord:
    """The game as committed, and its announcements."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.outcome: Outcome | None = game.outcome()
        #: the only moves accepted this turn (None: every legal move)
        self.allowed: tuple[Move, ...] | None = None
        #: a man crowned by the last move, until a lift-and-return confirms the king
        self.crown: int | None = None
        self.crown_lifted = False
        #: when the last move was finished, as its events said (None: no move yet)
        self.finished: float | None = None

    @property
    def last(self) -> Move | None:
        return self.game.moves[-1] if self.game.moves else None

    def previous(self) -> frozenset[int] | None:
        """The board before the last move (what a takeback by hand sets up)."""
        positions = self.game.positions
        return positions[-2].occupied() if len(positions) >= 2 else None

    def commit(self, now: float, move: Move, finished: float) -> list[Event]:
        """Play `move`, finished (its mover's last action) at `finished`."""
        before = self.game.position
        text, side = before.move_text(move), before.turn
        self.game.push(move)
        self.allowed = None
        self.finished = finished
        events = [Event("move", now, self._data(text, side, move, finished))]
        return events + self._after(now, move)

    def finished_later(self, now: float, finished: float) -> list[Event]:
        """The last move, read as it was, was finished at `finished`: later than its
        event said (its mover acted on it again before the next player began), a
        `move-finished` event says so, for the clock."""
        if self.finished is None or not self.game.moves or finished <= self.finished + 1e-9:
            return []
        self.finished = finished
        side = "B" if self.game.position.turn == "W" else "W"  # who made the last move
        data = {"ply": len(self.game.moves), "side": side, "finished": finished}
        return [Event("move-finished", now, data)]

    def correct(self, now: float, move: Move, finished: float) -> list[Event]:
        """The last move went on to `move` (the same piece): replace it."""
        undone = self.game.pop()
        before = self.game.position
        data = self._data(before.move_text(move), before.turn, move, finished)
        self.game.push(move)
        self.finished = finished
        data["fen"] = self.game.fen()
        data["ply"] = len(self.game.moves)
        data["was"] = before.move_text(undone)
        data["fen_before"] = before.fen()
        return [Event("move-corrected", now, data), *self._after(now, move)]

    def undo(self, now: float) -> list[Event]:
        """Take the last move back."""
        undone = self.game.pop()
        text = self.game.position.move_text(undone)
        self.finished = None  # (the move before: its time is counted already)
        self.outcome = None
        self.crown = None
        self.allowed = None
        return [Event("takeback", now, {"move": text, "fen": self.game.fen()})]

    def restart(self, now: float, game: Game) -> list[Event]:
        """A new game."""
        self.game = game
        self.outcome = game.outcome()
        self.finished = None
        self.crown = None
        self.allowed = None
        return [Event("new-game", now, {"fen": game.fen(), "side": game.position.turn})]

    def finish(self, now: float, winner: str | None, reason: str) -> list[Event]:
        """The game ends by resignation or agreement."""
        self.outcome = Outcome(winner, reason)
        return [Event("outcome", now, {"winner": winner, "reason": reason})]

    def crowning(self, now: float, sensed: frozenset[int], physical: frozenset[int]) -> list[
        Event
    ]:
        """The crowned man lifted (to stack a king on it) and put back: confirmed.
        `physical`: the board the game and its forgotten pieces make."""
        if self.crown is None or self.outcome is not None:
            return []
        if sensed == physical - {self.crown}:
            self.crown_lifted = True
        elif sensed == physical and self.crown_lifted:
            square, self.crown, self.crown_lifted = self.crown, None, False
            return [Event("crown-confirmed", now, {"square": square})]
        return []

    def _after(self, now: float, move: Move) -> list[Event]:
        """What follows a move: the man to crown, the outcome."""
        self.crown = move.destination if move.promotes else None
        self.crown_lifted = False
        self.outcome = self.game.outcome()
        events = []
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        if self.outcome is not None:
            data = {"winner": self.outcome.winner, "reason": self.outcome.reason}
            events.append(Event("outcome", now, data))
        return events

    def _data(self, text: str, side: str, move: Move, finished: float) -> dict[str, Any]:
        return {
            "move": text,
            "fen": self.game.fen(),
            "side": side,
            "from": move.origin,
            "to": move.destination,
            "captures": sorted(move.captures),
            "ply": len(self.game.moves),
            "finished": finished,
        }
