"""The organiser's rounds, and where each game is filed. Pure logic.

A round is what `draughtsboard pairings` published: its name, event and
pairings (board number, board id, players). The relay trusts the organiser
for all of it and a board for nothing but its own games: a board's state may
claim a round and board number (from the assignment it received), and the
claim is taken only if the pairings agree (`check_claim`); anything else is
refused. Names and the event always come from the pairings.

Where a game goes (`place`), decided once and kept:

- a game claiming a round and board (checked) goes to that round;
- a game claiming nothing goes to the current round if its board is paired
  there, else to the unpaired games (round None);
- a game with no move yet is filed only as its board's first game of the
  round (a board reset, or restarted, after its game shows nothing new);
- a filed game stays where it is, except an unfinished one whose board later
  claims another round for it (a game started before the next round's
  pairings arrived, then tagged by the board): it moves there. A finished game
  never moves.

A round's file (`layout`) lists the paired boards in number order, each with
its first game of the round (or its empty place), then every other game of
the round in the order it was filed: a board's second game, a game of a board
paired later. Nothing that is in the file ever moves up or down because of a
game filed later, which is what lidraughts' position matching needs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from host.broadcast.relay_games import GameKey, GameView, Key, Refused

UNPAIRED: None = None


@dataclass(frozen=True)
class Pairing:
    board: int
    board_id: str
    white: str | None
    black: str | None


@dataclass
class RoundRecord:
    """One round: the organiser's pairings and the games filed in it, in filing order."""

    name: str | None
    event: str | None = None
    pairings: dict[int, Pairing] = field(default_factory=dict)
    filed: list[GameKey] = field(default_factory=list)

    def pairing_of(self, board_id: str) -> Pairing | None:
        return next((p for p in self.pairings.values() if p.board_id == board_id), None)


@dataclass(frozen=True)
class Slot:
    """One place in a round's file: `key` is `7` (board 7's first game), `7.2` (its
    second), or a board id (`b9`, `b9.2`) for a board that is not paired there."""

    key: str
    pairing: Pairing | None
    game: GameKey | None
    nth: int = 1

    @property
    def file_stem(self) -> str:
        base, _, nth = self.key.partition(".")
        stem = f"board-{int(base):02d}" if base.isdigit() else f"board-{base}"
        return f"{stem}-{nth}" if nth else stem


class Rounds:
    """Every round seen, the current one (the latest pairings), and where games are."""

    def __init__(self) -> None:
        self.rounds: dict[str | None, RoundRecord] = {}
        self.current: str | None = None
        self.placed: dict[GameKey, str | None] = {}

    def round(self, name: str | None) -> RoundRecord:
        record = self.rounds.get(name)
        if record is None:
            record = self.rounds[name] = RoundRecord(name)
        return record

    def set_pairings(self, name: str, event: str | None, pairings: list[Pairing]) -> None:
        record = self.round(name)
        record.event = event
        record.pairings = {p.board: p for p in pairings}
        self.current = name

    def check_claim(self, board_id: str, round_name: str | None, board: int | None) -> None:
        """`Refused` unless the claim (from a board's state) is that board's pairing."""
        if round_name is None and board is None:
            return
        claim = f"round {round_name} board {board}"
        record = self.rounds.get(round_name)
        if round_name is None or board is None or record is None or not record.pairings:
            raise Refused(f"claims {claim}, a round whose pairings the relay does not have",
                          "unknown round")
        pairing = record.pairings.get(board)
        if pairing is None or pairing.board_id != board_id:
            own = record.pairing_of(board_id)
            where = f"it is paired on board {own.board}" if own else "it is not paired there"
            raise Refused(f"claims {claim}, but {where}", "not its pairing")

    def place(self, view: GameView) -> set[str | None]:
        """File (or move) the game of `view`, whose claim was checked; the rounds changed."""
        key = view.key
        claimed = view.round is not None
        if claimed:
            target = view.round
        else:
            if key in self.placed:
                return set()
            current = self.rounds.get(self.current) if self.current is not None else None
            paired = current is not None and current.pairing_of(view.board_id) is not None
            target = self.current if paired else UNPAIRED
        if key not in self.placed:
            if not view.moves and (not claimed or self._has_game(target, view.board_id)):
                return set()  # nothing to show yet beside what the board already has
            self.file(key, target)
            return {target}
        where = self.placed[key]
        if where == target or view.finished:
            return set()
        self.rounds[where].filed.remove(key)
        self.file(key, target)
        return {where, target}

    def _has_game(self, name: str | None, board_id: str) -> bool:
        record = self.rounds.get(name)
        return record is not None and any(key[0] == board_id for key in record.filed)

    def file(self, key: GameKey, name: str | None) -> None:
        self.round(name).filed.append(key)
        self.placed[key] = name

    def layout(self, name: str | None, order: Callable[[GameKey], Key]) -> list[Slot]:
        """The round's games in file order (see the module's docstring); `order` gives
        each game's place in its board's play (its first key), which numbers them."""
        record = self.round(name)
        mine: dict[str, list[GameKey]] = {}
        for key in record.filed:
            mine.setdefault(key[0], []).append(key)
        for games in mine.values():
            games.sort(key=order)
        slots: list[Slot] = []
        placed_first: set[GameKey] = set()
        for number, pairing in sorted(record.pairings.items()):
            games = mine.get(pairing.board_id, [])
            slots.append(Slot(str(number), pairing, games[0] if games else None))
            placed_first.update(games[:1])
        for key in record.filed:
            if key in placed_first:
                continue
            paired = record.pairing_of(key[0])
            nth = mine[key[0]].index(key) + 1
            base = str(paired.board) if paired else key[0]
            slots.append(Slot(base if nth == 1 else f"{base}.{nth}", paired, key, nth))
        return slots
