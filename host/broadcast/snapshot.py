"""What a board publishes about its game: an immutable snapshot of the session.

Why a snapshot and not the session itself: the publisher works on its own
thread, so it must never read the live recogniser while the session thread
changes it. The session thread takes a snapshot (a few microseconds plus one
`move_text` per move) and hands it over; everything slow happens elsewhere.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine import Game, Move, Position
from host.clock.keeper import ms
from host.records.journal import result_text


@dataclass(frozen=True)
class GameSnapshot:
    """One moment of one game. `game` is the game's id (`Session.game_id`, from the
    journal), `started` when it began (ISO time, for the PDN's Date).

    Holds the engine's immutable positions and moves (copying two tuples of
    references is all the session thread pays); texts and FENs are computed
    on first use, on the publisher's thread.
    """

    game: str
    positions: tuple[Position, ...]
    moves: tuple[Move, ...]
    result: str | None = None
    reason: str | None = None
    ts: float = field(default_factory=time.time)
    started: str = ""
    #: a timed game's clocks (`clocks_of`), None untimed
    clocks: dict[str, Any] | None = None

    @property
    def variant(self) -> str:
        return self.positions[0].variant.name

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def start_fen(self) -> str:
        return self.positions[0].fen()

    @cached_property
    def fens(self) -> tuple[str, ...]:
        """The FEN after each move (index 0: after the first move)."""
        return tuple(position.fen() for position in self.positions[1:])

    @property
    def fen(self) -> str:
        return self.positions[-1].fen()

    @property
    def clock_course(self) -> tuple[object, ...] | None:
        """What the clocks do, not what they show (a change of it is news: a move, a take
        back, a start, a stop, the flag)."""
        clocks = self.clocks
        if clocks is None:
            return None
        after = tuple(tuple(pair) for pair in clocks["after"])
        return clocks["running"], clocks["paused"], clocks["flagged"], after

    @cached_property
    def move_texts(self) -> tuple[str, ...]:
        """The moves in the variant's notation, each written in the position it was played."""
        return tuple(p.move_text(m) for p, m in zip(self.positions, self.moves, strict=False))


def snapshot_of_game(game: Game, game_id: str, result: str | None = None,
                     reason: str | None = None, started: str = "",
                     clocks: dict[str, Any] | None = None) -> GameSnapshot:
    return GameSnapshot(game_id, tuple(game.positions), tuple(game.moves), result, reason,
                        started=started, clocks=clocks)


def clocks_of(session: object) -> dict[str, Any] | None:
    """A timed game's clocks for the broadcast: the control, both clocks now (ms left),
    which runs, stopped, whose flag fell, and both clocks after each move (`after`: the
    relay's PDN writes them as comments). None for an untimed game."""
    keeper = getattr(session, "game_clock", None)
    if keeper is None or keeper.clock is None:
        return None
    state = keeper.state(session._clock)  # type: ignore[attr-defined]
    if state is None:
        return None
    laps = keeper.clock.laps
    return {
        "control": state["control"],
        "white": state["white"],
        "black": state["black"],
        "running": state["running"],
        "paused": state["paused"],
        "flagged": state["flagged"],
        "after": [[ms(lap.white), ms(lap.black)] for lap in laps],
    }


def snapshot_of(session: object) -> GameSnapshot:
    """The snapshot of a `host.session.Session` (duck-typed: game, game_id, started,
    recogniser)."""
    game: Game = session.game  # type: ignore[attr-defined]
    outcome = session.recogniser.outcome  # type: ignore[attr-defined]
    result = reason = None
    if outcome is not None:
        result = result_text(outcome.winner, game.variant.name)
        reason = outcome.reason
    return snapshot_of_game(game, session.game_id, result, reason,  # type: ignore[attr-defined]
                            started=str(session.started),  # type: ignore[attr-defined]
                            clocks=clocks_of(session))
