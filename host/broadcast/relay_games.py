"""The relay's picture of every board: messages in, checked games out.

Pure logic, no network and no files, so every rule here is tested directly:

- a message whose (epoch, seq) was seen is dropped (QoS 1 duplicates, re-sends
  after a reconnect or a board restart);
- a move is applied only if it is the next ply of the same game and legal;
  anything else waits for the retained state, which always follows;
- a correction cuts the main line back to `from_ply - 1`;
- a state replaces what the relay knew (a late or reconnecting relay needs
  nothing else);
- `--delay`: every version of a board's game is kept with its arrival time,
  and `views_at(t)` gives the newest version that arrived at or before t.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine import EngineError, Game, Move, Position, Variant, get_variant
from host.broadcast import topics


@dataclass(frozen=True)
class GameView:
    """One board's game at one moment, as spectators and files see it."""

    board_id: str
    game: str
    variant: str
    start_fen: str
    moves: tuple[Move, ...]
    move_texts: tuple[str, ...]
    fen: str
    white: str | None = None
    black: str | None = None
    event: str | None = None
    round: str | None = None
    board: int | None = None
    result: str | None = None
    reason: str | None = None
    online: bool = True
    ts: float = 0.0  # when the board made the latest change (its clock)

    @property
    def date(self) -> str:
        """PDN date from the game id (an ISO start time), else unknown."""
        text = self.game[:10]
        if len(text) == 10 and text[4] == "-" and text[7] == "-":
            return text.replace("-", ".")
        return "????.??.??"

    def to_json(self, with_diagram: bool = True) -> dict[str, Any]:
        """For spectators: the game plus a drawing of the position (see `diagram`)."""
        data = {
            "board_id": self.board_id, "game": self.game, "variant": self.variant,
            "start_fen": self.start_fen, "fen": self.fen, "moves": list(self.move_texts),
            "white": self.white, "black": self.black, "event": self.event,
            "round": self.round, "board": self.board, "result": self.result,
            "reason": self.reason, "online": self.online, "ts": self.ts,
        }
        if with_diagram:
            data["diagram"] = diagram(get_variant(self.variant), self.fen)
        return data


def diagram(variant: Variant, fen: str) -> list[str]:
    """The board as White sees it, far row first: one string per row, one character
    per square: ' ' light, '.' empty dark, 'w'/'b' men, 'W'/'B' kings. The page
    draws this without knowing any variant's numbering."""
    position = Position.from_fen(fen, variant)
    rows = [[" "] * variant.size for _ in range(variant.size)]
    for square in range(1, variant.num_squares + 1):
        file, rank = variant.square_coords(square)
        piece = position.piece_at(square)
        char = "." if piece is None else piece.color.lower()
        rows[variant.size - 1 - rank][file] = char.upper() if piece and piece.king else char
    return ["".join(row) for row in rows]


class BadGame(ValueError):
    """A state whose moves the engine does not accept."""


def replay(variant: Variant, start_fen: str, texts: list[str] | tuple[str, ...]) -> Game:
    try:
        game = Game(variant, Position.from_fen(start_fen, variant))
    except (EngineError, ValueError) as error:
        raise BadGame(f"start position: {error}") from None
    extend(game, texts)
    return game


def extend(game: Game, texts: list[str] | tuple[str, ...]) -> None:
    """Push `texts` onto `game`, all or nothing (BadGame names the first bad move)."""
    pushed = 0
    try:
        for text in texts:
            game.push(game.position.parse_move(text))
            pushed += 1
    except (EngineError, ValueError) as error:
        for _ in range(pushed):
            game.pop()
        raise BadGame(f"ply {len(game.moves) + 1} {text!r}: {error}") from None


@dataclass
class BoardFeed:
    """What the relay knows of one board; `apply_*` return True when the game changed."""

    board_id: str
    epoch: str | None = None
    seq: int = 0
    game: Game | None = None
    view: GameView | None = None
    online: bool = False
    history: list[tuple[float, GameView]] = field(default_factory=list)

    def _fresh(self, data: dict[str, Any], *, may_reset: bool) -> bool:
        """Is (epoch, seq) new? A new epoch is taken only from a state (a full picture)."""
        if data["epoch"] != self.epoch:
            if not may_reset:
                return False
            self.epoch, self.seq = data["epoch"], 0
        if data["seq"] <= self.seq:
            return False
        self.seq = data["seq"]
        return True

    def apply_state(self, data: dict[str, Any]) -> bool:
        if not self._fresh(data, may_reset=True):
            return False
        variant = get_variant(data["variant"])
        game = self.game
        if (
            game is None or self.view is None or self.view.game != data["game"]
            or self.view.variant != data["variant"] or self.view.start_fen != data["start_fen"]
            or list(self.view.move_texts) != data["moves"][: len(self.view.move_texts)]
        ):
            game = replay(variant, data["start_fen"], data["moves"])
        else:  # the same game, grown: only the new moves go through the engine
            extend(game, data["moves"][len(game.moves):])
        players = data["players"] or {}
        self.game = game
        self.view = GameView(
            board_id=self.board_id, game=data["game"], variant=variant.name,
            start_fen=game.positions[0].fen(), moves=tuple(game.moves),
            move_texts=tuple(data["moves"]), fen=game.fen(),
            white=players.get("white"), black=players.get("black"), event=data["event"],
            round=data["round"], board=data["board"], result=data["result"],
            reason=data["reason"], online=self.online, ts=float(data["ts"]),
        )
        return True

    def apply_move(self, data: dict[str, Any]) -> bool:
        view, game = self.view, self.game
        if not self._fresh(data, may_reset=False) or view is None or game is None:
            return False
        if data["game"] != view.game or data["ply"] != len(game.moves) + 1:
            return False  # a gap: the state that follows every change fills it
        try:
            move = game.position.parse_move(data["move"])
            game.push(move)
        except (EngineError, ValueError):
            return False
        self.view = replace(view, moves=(*view.moves, move),
                            move_texts=(*view.move_texts, data["move"]), fen=game.fen(),
                            ts=float(data["ts"]))
        return True

    def apply_correction(self, data: dict[str, Any]) -> bool:
        view, game = self.view, self.game
        if not self._fresh(data, may_reset=False) or view is None or game is None:
            return False
        keep = data["from_ply"] - 1
        if data["game"] != view.game or not 0 <= keep < len(game.moves):
            return False
        while len(game.moves) > keep:
            game.pop()
        self.view = replace(view, moves=view.moves[:keep], move_texts=view.move_texts[:keep],
                            fen=game.fen(), result=None, reason=None, ts=float(data["ts"]))
        return True

    def apply_status(self, text: str) -> bool:
        online = text == topics.ONLINE
        changed = online != self.online
        self.online = online
        if changed and self.view is not None:
            self.view = replace(self.view, online=online)
        return changed


class Boards:
    """Every board's feed, the delayed views, and one `handle(topic, payload)` entry."""

    def __init__(self, delay: float = 0.0, log: Callable[[str], None] | None = None) -> None:
        self.delay = delay
        self.feeds: dict[str, BoardFeed] = {}
        self.log = log or (lambda text: print(f"relay: {text}", file=sys.stderr, flush=True))

    def handle(self, topic: str, payload: bytes, now: float) -> bool:
        """One broker message; True if some board's game or status changed."""
        parsed = topics.parse_board_topic(topic)
        if parsed is None:
            return False
        board_id, kind = parsed
        if kind not in topics.BOARD_KINDS:
            return False
        feed = self.feeds.setdefault(board_id, BoardFeed(board_id))
        try:
            if kind == topics.STATUS:
                changed = feed.apply_status(payload.decode("utf-8", "replace"))
            else:
                data = topics.check_message(kind, payload)
                apply = {topics.STATE: feed.apply_state, topics.MOVE: feed.apply_move,
                         topics.CORRECTION: feed.apply_correction}[kind]
                changed = apply(data)
        except (topics.BadMessage, BadGame) as error:
            self.log(f"board {board_id}: ignored a {kind} message: {error}")
            return False
        if changed and feed.view is not None:
            feed.history.append((now, feed.view))
        return changed

    def views_at(self, t: float) -> dict[str, GameView]:
        """Each board's newest game version that arrived at or before `t`."""
        views: dict[str, GameView] = {}
        for board_id, feed in self.feeds.items():
            for arrived, view in reversed(feed.history):
                if arrived <= t:
                    views[board_id] = view
                    break
        return views

    def next_due(self, t: float) -> float | None:
        """The arrival time of the oldest version not yet visible at `t` (None: none)."""
        due = [arrived for feed in self.feeds.values() for arrived, _ in feed.history
               if arrived > t]
        return min(due) if due else None

    def forget_before(self, t: float) -> None:
        """Drop versions superseded before `t` (keep the one in effect at `t`)."""
        for feed in self.feeds.values():
            visible = [i for i, (arrived, _) in enumerate(feed.history) if arrived <= t]
            if len(visible) > 1:
                del feed.history[: visible[-1]]
