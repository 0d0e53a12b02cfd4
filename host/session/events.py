"""What the recogniser's events do outside it: the journal, the saved games, the
announcer and the update bus.

Kept in one place because their order is the session's promise: a move is on
disk (the journal, fsync'd) before anyone is told of it, by the bus or by the
announcer, and before the LEDs change (the caller redraws after `_handle`), so a
power cut can never lose a move anyone has heard about. A finished game is also
saved to the games folder here, and an abandoned one kept unfinished (`*`).

Mixed into `Session` (host/session/core.py), which holds the state it reads.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from host.clock.keeper import GameClock
from host.players import pdn_tags, resolved
from host.recognition.events import Event
from host.recognition.view import board_is_wrong
from host.records.games import save_game
from host.records.journal import result_text
from host.voice.announce import Announcement
from host.voice.move_reasons import board_mistake

#: recogniser events published on the bus as "notice" updates
NOTICES = (
    "crown",
    "crown-confirmed",
    "illegal-board",
    "board-ok",
    "check-colours",
    "capture-mandatory",
    "nothing-to-take-back",
)


class EventHandling:
    """Journal, save, announce and publish what the recogniser reports."""

    def _handle(self, events: list[Event]) -> None:
        publish = self.bus.publish
        # The clock first: it charges each move, and a move finished after the flag fell
        # is no move (host/clock/keeper.py).
        events = self.game_clock.follow(events, self.recogniser, self._clock)
        for event in events:
            d = event.data
            if event.kind == "move":
                # Journal first: what is announced is already on disk.
                self.journal.move(
                    d["ply"], d["move"], d["from"], d["to"], d["captures"], d["fen"],
                    clock=d.get("clock"), took=d.get("took"),
                )
                publish("move", event.time, **d)
                self.announcer.announce("move", side=d["side"], move=d["move"], fen=d["fen"])
            elif event.kind == "move-corrected":
                # The last move went on (touch-move off): it is replaced on disk, then said.
                # A power cut between the two records leaves the move taken back; the
                # board still shows it and it is read again on resume.
                self.journal.takeback(d["ply"])
                self.journal.move(
                    d["ply"], d["move"], d["from"], d["to"], d["captures"], d["fen"],
                    clock=d.get("clock"), took=d.get("took"),
                )
                # Watchers see the same: the first reading taken back, the move played.
                publish("takeback", event.time, move=d["was"], fen=d["fen_before"])
                publish("move", event.time, **d)
                self.announcer.announce(
                    "move-corrected", side=d["side"], move=d["move"], fen=d["fen"]
                )
            elif event.kind == "move-finished":
                if "clock" in d:  # the clocks re-charged: on disk too
                    self.journal.finished_later(d["ply"], d["clock"], d["took"])
            elif event.kind == "outcome":
                if d["reason"] == "time" and "side" in d:
                    self.announcer.announce("flag", side=d["side"])
                self._finish(d["winner"], d["reason"])
                result = result_text(d["winner"], self.variant.name)
                publish("outcome", event.time, result=result, **d)
            elif event.kind == "takeback":
                self.journal.takeback(len(self.game.moves) + 1)
                publish("takeback", event.time, **d)
                self.announcer.announce("takeback", move=d["move"])
            elif event.kind == "new-game":
                self._new_game()
                side = self.game.position.turn
                publish("new-game", event.time, variant=self.variant.name, fen=d["fen"], side=side,
                        game_id=self.game_id)
                self.announcer.announce("new-game", variant=self.variant.name, side=side)
            elif event.kind == "clock-warning":
                publish("notice", event.time, notice=event.kind, **d)
                self.announcer.announce("clock-warning", side=d["side"], seconds=d["seconds"])
            elif event.kind in NOTICES:
                publish("notice", event.time, notice=event.kind, **d)
                if event.kind in ("crown", "crown-confirmed"):
                    self.announcer.announce(event.kind, square=self._name(d["square"]))
                elif event.kind == "illegal-board" and (why := self.mistake()) is not None:
                    self.announcer.announce("illegal-move", why=why)  # the engine's reason
                else:
                    self.announcer.announce(event.kind, **d)
        if events:
            self._publish_clock(self._clock)

    def mistake(self) -> dict[str, Any] | None:
        """Why the board is no move, when one piece went where it cannot (the engine's
        reason as code and params, host/voice/move_reasons.py), else None."""
        rec = self.recogniser
        if not board_is_wrong(rec):
            return None
        error = board_mistake(rec.game.position, rec.expected, rec.sensed - rec.lingering)
        return None if error is None else {"code": error.code, "params": dict(error.params)}

    def _journal_trouble(self, problem: str | None) -> None:
        """The journal (or the games folder) stopped taking writes, or takes them again
        (host/records/journal.py logs why): said, so nobody trusts a card that is not written."""
        self.announcer.announce("storage-failed" if problem else "storage-ok")

    def _announced(self, item: Announcement) -> None:
        self.recent.append(item)
        self.announced += 1
        self.bus.publish(
            "announcement", self._clock, kind=item.kind, text=item.text, params=item.params
        )

    def _publish_settings(self, now: float) -> None:
        self.bus.publish(
            "settings", now, hints=self.hint_level, language=self.language,
            players=dict(self.players),
        )

    def _name(self, square: int) -> str:
        if getattr(self.variant, "notation", "numeric") == "algebraic":
            return self.variant.square_name(square)
        return str(square)

    def _finish(self, winner: str | None, reason: str) -> None:
        result = result_text(winner, self.variant.name)
        self.journal.end(result, reason)
        self._save(result)
        if reason == "time" and winner is None:
            self.announcer.announce("draw-on-time")
        elif reason != "agreement":  # "draw agreed" was already said
            kind = "draw" if winner is None else "win"
            self.announcer.announce(kind, side=winner or "", reason=reason)

    def _save(self, result: str) -> Path | None:
        """Write the journal's game to the games folder."""
        record = self.journal.read()
        if record is None:
            return None
        # the players that game was played by (the next game's may be set already)
        tags = self.tags(record.players)
        return save_game(record, result, self.config.games_dir, tags, self.journal)

    def tags(self, players: dict[str, str] | None = None) -> dict[str, str]:
        """The saved game's extra PDN tags: the computer's sides (`players`, by default
        the current ones), then a club's pairings."""
        sides = pdn_tags(players or self.players, self.config.computer_level)
        return {**sides, **self.game_tags}

    def _recorded(self) -> dict[str, str]:
        """The players as the journal keeps them (plain `computer` at its level)."""
        return resolved(self.players, self.config.computer_level)

    def _new_game(self) -> None:
        record = self.journal.read()
        if record is not None and not record.finished and record.moves:
            self._save("*")  # the abandoned game is kept, unfinished
        self.started = datetime.now().isoformat(timespec="seconds")
        self.game_id = self.journal.start(
            self.variant.name, self.game.fen(), self.started, self._recorded(), self._control()
        )
        # The new game's clock: the control chosen for it, started by its first change.
        self.game_clock = GameClock(self.clock_control, self.config.clock_warnings)
        self._clock_waits: str | None = "change"
        if self.gestures is not None:  # the menu offers the clock in a timed game only
            self.gestures.timed = self.game_clock.timed
