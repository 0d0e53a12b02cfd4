"""The relay's picture of every board's games: messages in, checked games out.

Pure logic, no network and no files, so every rule here is tested directly.
A game is named by its board and the board's own id for it (`game` in every
message), never by a slot in a round, so a board's next game never touches
its last one. Within a game, messages are merged by their key (epoch, seq),
whatever order they arrive in:

- the state with the highest key is the game as the board knew it then
  (a state is the whole game); anything with a lower key adds nothing;
- moves and corrections with a higher key apply on top, in key order; a move
  applies when it is the next ply (a later one waits for what is missing, and
  a newer state replaces them all);
- a correction cuts the main line back to `from_ply - 1` (and the result).

So nothing a board sent is thrown away because something newer came first:
a restarted board's new game cannot hide the end of the game before it.

Every message either changes a game, or is one the relay has (duplicate), or
is refused with a reason (`Refused`): an unknown variant, an illegal move, a
start position the engine rejects. A refusal costs that message only.

`--delay`: every version of every game is kept with its arrival time, and
`views_at(t)` gives each game's newest version that arrived at or before t.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import EngineError, Game, Move, Position, Variant, get_variant

#: (epoch's index on its board, seq): the order of a board's messages
Key = tuple[int, int]
#: (board id, game id): a game, everywhere in the relay
GameKey = tuple[str, str]


class Refused(ValueError):
    """A message the relay will not apply; the text says why (for the log and status)."""

    def __init__(self, reason: str, category: str, key: Key | None = None) -> None:
        super().__init__(reason)
        self.category = category
        self.key = key  # the refused message's key, once it is known


@dataclass(frozen=True)
class GameView:
    """One game of one board at one moment, as the board told it.

    `white`, `black`, `event`, `round`, `board` are the board's own claims (from
    its assignment); files and spectators take names from the organiser's
    pairings wherever the game is paired."""

    board_id: str
    game: str
    variant: str
    start_fen: str
    moves: tuple[Move, ...]
    move_texts: tuple[str, ...]
    fen: str
    started: str = ""
    white: str | None = None
    black: str | None = None
    event: str | None = None
    round: str | None = None
    board: int | None = None
    result: str | None = None
    reason: str | None = None
    online: bool = True
    ts: float = 0.0  # when the board made the latest change (its clock)
    #: a timed game's clocks as the board's state said them (host/broadcast/snapshot.py
    #: `clocks_of`: control, ms left, which runs, both clocks after each move), else None
    clocks: dict[str, Any] | None = None

    @property
    def key(self) -> GameKey:
        return self.board_id, self.game

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def date(self) -> str:
        """PDN date from when the game started (or an id that is an ISO time), else unknown."""
        for text in (self.started[:10], self.game[:10]):
            if len(text) == 10 and text[4] == "-" and text[7] == "-":
                return text.replace("-", ".")
        digits = self.game[:8]
        if len(digits) == 8 and digits.isdigit():
            return f"{digits[:4]}.{digits[4:6]}.{digits[6:]}"
        return "????.??.??"

    def to_json(self, with_diagram: bool = True) -> dict[str, Any]:
        """For spectators: the game plus a drawing of the position (see `diagram`)."""
        data: dict[str, Any] = {
            "board_id": self.board_id, "game": self.game, "variant": self.variant,
            "start_fen": self.start_fen, "fen": self.fen, "moves": list(self.move_texts),
            "started": self.started, "white": self.white, "black": self.black,
            "event": self.event, "round": self.round, "board": self.board,
            "result": self.result, "reason": self.reason, "online": self.online, "ts": self.ts,
            "clocks": self.clocks,
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


def replay(variant: Variant, start_fen: str, texts: list[str] | tuple[str, ...]) -> Game:
    """The game from its start through `texts`; `Refused` names the first bad move."""
    try:
        game = Game(variant, Position.from_fen(start_fen, variant))
    except (EngineError, ValueError) as error:
        raise Refused(f"start position {start_fen!r}: {error}", "bad position") from None
    extend(game, texts)
    return game


def extend(game: Game, texts: list[str] | tuple[str, ...]) -> None:
    """Push `texts` onto `game`, all or nothing (`Refused` names the first bad move)."""
    pushed = 0
    try:
        for text in texts:
            game.push(game.position.parse_move(text))
            pushed += 1
    except (EngineError, ValueError) as error:
        for _ in range(pushed):
            game.pop()
        raise Refused(f"ply {len(game.moves) + 1} {text!r}: {error}", "illegal move") from None


def variant_of(name: str) -> Variant:
    try:
        return get_variant(name)
    except (EngineError, ValueError):
        raise Refused(f"unknown variant {name!r}", "unknown variant") from None


@dataclass(frozen=True)
class Received:
    """One message of a game, as it arrived (kept: a restarted relay replays it)."""

    key: Key
    kind: str  # state, move or correction
    data: dict[str, Any]
    arrived: float  # the relay's monotonic clock


class GameLog:
    """Everything the relay holds of one game: its newest state and the moves and
    corrections after it, merged by key; `view` is the game they make."""

    def __init__(self, board_id: str, game_id: str) -> None:
        self.board_id = board_id
        self.game_id = game_id
        self.state: Received | None = None
        self.after: dict[Key, Received] = {}  # moves and corrections newer than the state
        self.first: Key | None = None  # the lowest key seen: orders a board's games
        self.view: GameView | None = None
        self.versions: list[tuple[float, GameView]] = []  # (arrived, view) for --delay
        self._game: Game | None = None
        self._applied: list[Key] = []  # keys of `after` in the view, in order
        self._late: list[Refused] = []  # earlier messages found bad once their turn came
        self._fens: dict[int, tuple[Position, str]] = {}  # FEN by position (the last two)
        self._start: tuple[Position, str] | None = None

    def take_refusals(self) -> list[Refused]:
        """Messages that waited for an earlier one and, applied at last, were refused."""
        late, self._late = self._late, []
        return late

    def has(self, key: Key) -> bool:
        return (self.state is not None and key <= self.state.key) or key in self.after

    def add(self, message: Received, online: bool) -> bool:
        """Merge one message not seen before; True if the game changed (`Refused`: the
        message is not kept and nothing changed)."""
        if self.first is None or message.key < self.first:
            self.first = message.key
        if message.kind == "state":
            if self.state is not None and message.key <= self.state.key:
                return False  # a newer state has it all
            before = self.view
            self._take_state(message, online)
            return self._changed(before, message.arrived)
        if self.state is not None and message.key <= self.state.key:
            return False
        before = self.view
        self.after[message.key] = message
        on_top = (self._game is not None and len(self._applied) == len(self.after) - 1
                  and (not self._applied or message.key > self._applied[-1]))
        if on_top:
            try:
                self._apply_on_top(message)
            except Refused:
                del self.after[message.key]
                raise
        else:
            self._rebuild(online)
            own = [error for error in self._late if error.key == message.key]
            if own:
                self._late.remove(own[0])
                raise own[0]
        return self._changed(before, message.arrived)

    def set_online(self, online: bool, arrived: float) -> bool:
        if self.view is None or self.view.online == online:
            return False
        before = self.view
        self.view = replace(self.view, online=online)
        return self._changed(before, arrived)

    # -- building the view -------------------------------------------------------------

    def _take_state(self, message: Received, online: bool) -> None:
        data = message.data
        variant = variant_of(data["variant"])
        texts = data["moves"]
        game = self._game
        state_game = None
        if self.state is not None and game is not None:
            # The game as the previous state had it (what is on top comes off first).
            while len(game.moves) > len(self.state.data["moves"]):
                game.pop()
            old = self.state.data
            if (old["variant"] == data["variant"] and old["start_fen"] == data["start_fen"]
                    and old["moves"] == texts[: len(old["moves"])]):
                extend(game, texts[len(old["moves"]):])  # all or nothing
                state_game = game
        if state_game is None:
            state_game = replay(variant, data["start_fen"], texts)
        self.state = message
        self.after = {k: m for k, m in self.after.items() if k > message.key}
        self._game = state_game
        self._applied = []
        self.view = self._view_of_state(online)
        self._apply_pending()

    def _fen(self, position: Position) -> str:
        """FEN of a position, written once (a move and the state after it share one)."""
        known = self._fens.get(id(position))
        if known is not None and known[0] is position:
            return known[1]
        text = position.fen()
        if len(self._fens) >= 2:
            self._fens.pop(next(iter(self._fens)))
        self._fens[id(position)] = (position, text)
        return text

    def _start_fen(self, position: Position) -> str:
        if self._start is None or self._start[0] is not position:
            self._start = (position, position.fen())
        return self._start[1]

    def _view_of_state(self, online: bool) -> GameView:
        assert self.state is not None and self._game is not None
        data, game = self.state.data, self._game
        players = data.get("players") or {}
        return GameView(
            board_id=self.board_id, game=self.game_id, variant=game.variant.name,
            start_fen=self._start_fen(game.positions[0]), moves=tuple(game.moves),
            move_texts=tuple(data["moves"]), fen=self._fen(game.position),
            started=str(data.get("started") or ""),
            white=players.get("white"), black=players.get("black"), event=data["event"],
            round=data["round"], board=data["board"], result=data["result"],
            reason=data["reason"], online=online, ts=float(data["ts"]),
            clocks=data.get("clocks") if isinstance(data.get("clocks"), dict) else None,
        )

    def _rebuild(self, online: bool) -> None:
        """From the state again, then every later message that fits, in key order."""
        if self.state is None:
            return
        data = self.state.data
        self._game = replay(variant_of(data["variant"]), data["start_fen"], data["moves"])
        self._applied = []
        self.view = self._view_of_state(online)
        self._apply_pending()

    def _apply_pending(self) -> None:
        for key in sorted(self.after):
            if not self._fits(self.after[key]):
                break  # something before it is missing: it waits
            try:
                self._apply_on_top(self.after[key])
            except Refused as error:
                del self.after[key]
                self._late.append(error)

    def _fits(self, message: Received) -> bool:
        assert self._game is not None
        plies = len(self._game.moves)
        if message.kind == "move":
            return bool(message.data["ply"] == plies + 1)
        return bool(0 <= message.data["from_ply"] - 1 <= plies)

    def _apply_on_top(self, message: Received) -> None:
        game, view = self._game, self.view
        assert game is not None and view is not None
        data = message.data
        if not self._fits(message):
            return  # waits for what comes before it
        if message.kind == "move":
            try:
                move = game.position.parse_move(data["move"])
                game.push(move)
            except (EngineError, ValueError) as error:
                raise Refused(f"ply {data['ply']} {data['move']!r}: {error}",
                              "illegal move", message.key) from None
            self.view = replace(view, moves=(*view.moves, move),
                                move_texts=(*view.move_texts, data["move"]),
                                fen=self._fen(game.position), ts=float(data["ts"]))
        else:
            keep = data["from_ply"] - 1
            while len(game.moves) > keep:
                game.pop()
            self.view = replace(view, moves=view.moves[:keep], move_texts=view.move_texts[:keep],
                                fen=game.fen(), result=None, reason=None, ts=float(data["ts"]))
        self._applied.append(message.key)

    def _changed(self, before: GameView | None, arrived: float) -> bool:
        if self.view is None or self.view == before:
            return False
        self.versions.append((arrived, self.view))
        return True

    def view_at(self, t: float) -> GameView | None:
        for arrived, view in reversed(self.versions):
            if arrived <= t:
                return view
        return None

    def forget_before(self, t: float) -> None:
        """Drop versions superseded before `t` (keep the one in effect at `t`)."""
        visible = [i for i, (arrived, _) in enumerate(self.versions) if arrived <= t]
        if len(visible) > 1:
            del self.versions[: visible[-1]]


@dataclass
class SeqRun:
    """Which seqs of one board's epoch the relay has handled: all up to `high`, and
    `above` beyond a gap. The relay acknowledges `high` to the board."""

    high: int
    above: set[int] = field(default_factory=set)
    gap_since: float | None = None  # when the first seq beyond a gap arrived

    def mark(self, seq: int, now: float) -> None:
        if seq <= self.high or seq in self.above:
            return
        self.above.add(seq)
        while self.high + 1 in self.above:
            self.high += 1
            self.above.discard(self.high)
        self.gap_since = (self.gap_since or now) if self.above else None

    def give_up(self, now: float, patience: float) -> list[int]:
        """Seqs that never came although later ones did, for `patience` seconds: counted
        as lost so the acknowledgement can move on (the board stops holding the rest)."""
        if self.gap_since is None or now - self.gap_since < patience:
            return []
        first = min(self.above)
        missing = list(range(self.high + 1, first))
        self.high = first - 1
        while self.high + 1 in self.above:
            self.high += 1
            self.above.discard(self.high)
        self.gap_since = now if self.above else None
        return missing


class BoardFeed:
    """One board: its games by id, whether it is online, and the seqs handled."""

    def __init__(self, board_id: str) -> None:
        self.board_id = board_id
        self.online = False
        self.epochs: list[str] = []
        self.games: dict[str, GameLog] = {}
        self.seqs: dict[str, SeqRun] = {}

    def key(self, epoch: str, seq: int) -> Key:
        if epoch not in self.epochs:
            self.epochs.append(epoch)
        return self.epochs.index(epoch), seq

    def mark(self, epoch: str, seq: int, now: float) -> None:
        """The relay has dealt with (epoch, seq), whatever became of it."""
        run = self.seqs.get(epoch)
        if run is None:  # the first seq seen of an epoch: nothing before it is awaited
            self.seqs[epoch] = run = SeqRun(seq - 1)
        run.mark(seq, now)

    def ordered(self) -> list[GameLog]:
        """The board's games in the order it played them."""
        return sorted(self.games.values(), key=lambda log: log.first or (0, 0))


class Boards:
    """Every board's games, and one `apply` for each message a board sent."""

    def __init__(self) -> None:
        self.feeds: dict[str, BoardFeed] = {}

    def feed(self, board_id: str) -> BoardFeed:
        feed = self.feeds.get(board_id)
        if feed is None:
            feed = self.feeds[board_id] = BoardFeed(board_id)
        return feed

    def apply(self, board_id: str, kind: str, data: dict[str, Any],
              arrived: float) -> GameLog | None:
        """One checked message (`topics.check_message`) of a board: the game it changed,
        or None (it had it already, or it waits); `Refused` with the reason. Either way
        its seq counts as dealt with."""
        feed = self.feed(board_id)
        key = feed.key(data["epoch"], data["seq"])
        feed.mark(data["epoch"], data["seq"], arrived)
        log = feed.games.get(data["game"])
        if log is not None and log.has(key):
            return None
        if log is None:
            log = GameLog(board_id, data["game"])
        try:
            changed = log.add(Received(key, kind, data, arrived), feed.online)
        finally:
            if log.first is not None and (log.state is not None or log.after):
                feed.games.setdefault(data["game"], log)
        return log if changed else None

    def set_online(self, board_id: str, online: bool, arrived: float) -> list[GameLog]:
        """The board came or went: its current game (its latest) shows it."""
        feed = self.feed(board_id)
        feed.online = online
        games = feed.ordered()
        return [games[-1]] if games and games[-1].set_online(online, arrived) else []

    def game(self, key: GameKey) -> GameLog | None:
        feed = self.feeds.get(key[0])
        return feed.games.get(key[1]) if feed else None

    def logs(self) -> list[GameLog]:
        return [log for feed in self.feeds.values() for log in feed.games.values()]

    def next_due(self, t: float) -> float | None:
        """The arrival time of the oldest version not yet visible at `t` (None: none)."""
        due = [arrived for log in self.logs() for arrived, _ in log.versions if arrived > t]
        return min(due) if due else None

    def forget_before(self, t: float) -> None:
        for log in self.logs():
            log.forget_before(t)
