"""What spectators and files see: each game's shown version, rounds, and changes.

With `--delay` a game is shown as it was that many seconds ago (its newest
version that had arrived by then); without, as it is. `Views.refresh` finds
the games whose shown version moved; a change is sent to spectators as what
is new (`change`: the plies from `from_ply` on, the position, the result),
never the whole game again: a page has the whole round once, when it
connects (`round_summary`), and applies changes to it.
"""

from __future__ import annotations

from typing import Any

from engine import get_variant
from host.broadcast.relay_games import GameKey, GameView, diagram
from host.broadcast.relay_intake import Intake
from host.broadcast.relay_rounds import Slot
from host.broadcast.topics import plies_in_common


class Views:
    """The shown version of every game (one truth for files, topics and pages)."""

    def __init__(self, intake: Intake) -> None:
        self.intake = intake
        self.shown: dict[GameKey, GameView] = {}

    def refresh(self, visible_at: float) -> list[tuple[GameView | None, GameView]]:
        """(shown before, shown now) for every game whose shown version moved."""
        moved = []
        for log in self.intake.boards.logs():
            view = log.view_at(visible_at)
            key = (log.board_id, log.game_id)
            before = self.shown.get(key)
            if view is not None and view is not before:
                self.shown[key] = view
                moved.append((before, view))
        return moved

    def order(self, key: GameKey) -> tuple[int, int]:
        log = self.intake.boards.game(key)
        return log.first if log is not None and log.first is not None else (0, 0)

    def slots(self, name: str | None) -> list[Slot]:
        """The round's places that show something: paired boards (a game or their empty
        place) and every other game once a version of it is shown."""
        return [slot for slot in self.intake.rounds.layout(name, self.order)
                if slot.game is None or slot.game in self.shown
                or (slot.nth == 1 and slot.pairing is not None)]

    def entry(self, name: str | None, slot: Slot) -> dict[str, Any]:
        """One place of a round, for spectators: its game whole (or an empty place)."""
        view = self.shown.get(slot.game) if slot.game else None
        data: dict[str, Any] = (view.to_json() if view is not None
                                else {"moves": [], "result": None, "game": None})
        pairing = slot.pairing
        data.update(round=name, key=slot.key, nth=slot.nth)
        if pairing is not None:
            data.update(board=pairing.board, board_id=pairing.board_id,
                        white=pairing.white, black=pairing.black)
        return data

    def round_summary(self, name: str | None) -> dict[str, Any]:
        record = self.intake.rounds.rounds.get(name)
        rounds = [r for r in self.intake.rounds.rounds if r is not None]
        if record is None:
            return {"round": name, "event": None, "rounds": rounds, "games": []}
        return {"round": name, "event": record.event, "rounds": rounds,
                "games": [self.entry(name, slot) for slot in self.slots(name)]}

    def where(self, key: GameKey) -> tuple[str | None, Slot] | None:
        """The round and place of a filed game (None: not filed)."""
        if key not in self.intake.rounds.placed:
            return None
        name = self.intake.rounds.placed[key]
        for slot in self.intake.rounds.layout(name, self.order):
            if slot.game == key:
                return name, slot
        return None

    def change(self, before: GameView | None, now: GameView) -> dict[str, Any] | None:
        """What is new in a game for spectators (None: the game is not filed)."""
        found = self.where(now.key)
        if found is None:
            return None
        name, slot = found
        kept = plies_in_common(before.move_texts, now.move_texts) if before is not None else 0
        if before is not None and before.game != now.game:
            kept = 0
        data: dict[str, Any] = {
            "round": name, "key": slot.key, "nth": slot.nth, "board_id": now.board_id,
            "game": now.game, "variant": now.variant, "from_ply": kept + 1,
            "moves": list(now.move_texts[kept:]), "fen": now.fen,
            "diagram": diagram(get_variant(now.variant), now.fen), "result": now.result,
            "reason": now.reason, "online": now.online, "ts": now.ts, "clocks": now.clocks,
        }
        if slot.pairing is not None:
            data.update(board=slot.pairing.board, white=slot.pairing.white,
                        black=slot.pairing.black)
        else:
            data.update(board=None, white=now.white, black=now.black)
        return data
