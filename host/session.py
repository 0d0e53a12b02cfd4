"""The live session: board snapshots in, moves journaled, announced and lit.

One `Session` owns a recogniser and wires its events to the outside world in a
fixed order: journal first (fsync'd), then announcements, then LEDs, so a
power cut can never lose a move anyone has heard about. The same session runs
from a real board (`run_board`) or from a recorded event stream on a simulated
clock (`run_stream`, used by tests and the crash test).
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

from engine import Game, Move, Position, Variant, get_variant
from engine.pdn_write import write_game
from host.announce import Announcer
from host.config import Config
from host.errors import UserError
from host.hints import Hint, colour_frame
from host.journal import Journal, JournalGame, result_text, write_pdn
from host.recogniser import Event, Recogniser
from host.replay import TICK_MS, apply, parse_events

Draw = Callable[[dict[int, tuple[int, int, int]]], None]
BLINK_PERIOD = 0.4
COMMANDS = ("takeback", "new", "resign", "draw", "quit")


def rebuild(record: JournalGame) -> Game:
    """The journal's game replayed through the engine (moves matched by from/to/captures)."""
    variant = get_variant(record.variant)
    game = Game(variant, Position.from_fen(record.start_fen, variant))
    for entry in record.moves:
        key = (entry["from"], entry["to"], frozenset(entry["captures"]))
        match = [m for m in game.legal_moves() if (m.origin, m.destination, m.captures) == key]
        if len(match) != 1:
            raise UserError(f"the journal's move {entry.get('move')!r} is not legal; start anew")
        game.push(match[0])
    return game


class Session:
    """A game on the board: recogniser + journal + announcer + LED frames."""

    def __init__(
        self,
        config: Config,
        announcer: Announcer,
        *,
        draw: Draw | None = None,
        resume: bool = True,
        now: float = 0.0,
        occupied: frozenset[int] | None = None,
    ) -> None:
        """`occupied`: the board as sensed at start (None: assume it matches the game)."""
        self.config = config
        self.announcer = announcer
        self.journal = Journal(config.journal)
        self.draw = draw
        self.quit = False
        self._frame_key: tuple[object, ...] | None = None
        record = self.journal.read() if resume else None
        if record is not None and not record.finished:
            game = rebuild(record)
            self.started = record.started
            self.recogniser = Recogniser(
                game, hint_level=config.hints, start=now, touch_move=config.touch_move
            )
            self.announcer.announce("resume-offer", moves=len(game.moves))
            if occupied is not None:
                self.recogniser.observe(now, occupied)
            self._handle(self.recogniser.resume(now))
            if not self.recogniser.correcting:
                self.announcer.announce("resumed", side=game.position.turn)
        else:
            game = Game(get_variant(config.variant))
            self.started = datetime.now().isoformat(timespec="seconds")
            self.journal.start(game.variant.name, game.fen(), self.started)
            self.recogniser = Recogniser(
                game, hint_level=config.hints, start=now, touch_move=config.touch_move
            )
            if occupied is not None:
                self._handle(self.recogniser.observe(now, occupied))
        self._redraw(now)

    @property
    def game(self) -> Game:
        return self.recogniser.game

    @property
    def variant(self) -> Variant:
        return self.recogniser.variant

    # -- input -----------------------------------------------------------------

    def observe(self, now: float, occupied: frozenset[int]) -> None:
        """One snapshot in the variant's numbering."""
        self._handle(self.recogniser.observe(now, occupied))
        self._redraw(now)

    def command(self, now: float, text: str) -> None:
        """A typed command: takeback, new, resign, draw, quit. Unknown words are explained."""
        word = text.strip().lower()
        rec = self.recogniser
        if not word:
            return
        if word == "takeback":
            if rec.outcome is not None and rec.game.moves:
                self._reopen()
            self._handle(rec.take_back(now))
        elif word == "new":
            self._handle(rec.new_game(now, Game(self.variant)))
        elif word in ("resign", "draw"):
            if rec.outcome is not None:
                return
            if word == "resign":
                loser = rec.game.position.turn
                winner = "B" if loser == "W" else "W"
                self.announcer.announce("resign", side=loser)
                self._handle(rec.finish(now, winner, "resignation"))
            else:
                self.announcer.announce("draw-agreed")
                self._handle(rec.finish(now, None, "agreement"))
        elif word == "quit":
            self.quit = True
        else:
            print(f"unknown command {word!r}; commands: {', '.join(COMMANDS)}", file=sys.stderr)
        self._redraw(now)

    def board_event(self, kind: str) -> None:
        if kind in ("disconnected", "reconnected"):
            self.announcer.announce(kind)

    # -- events ------------------------------------------------------------------

    def _handle(self, events: list[Event]) -> None:
        for event in events:
            d = event.data
            if event.kind == "move":
                # Journal first: what is announced is already on disk.
                self.journal.move(d["ply"], d["move"], d["from"], d["to"], d["captures"], d["fen"])
                self.announcer.announce("move", side=d["side"], move=d["move"], fen=d["fen"])
            elif event.kind == "move-corrected":
                # The last move went on (touch-move off): it is replaced on disk, then said.
                # A power cut between the two records leaves the move taken back; the
                # board still shows it and it is read again on resume.
                self.journal.takeback(d["ply"])
                self.journal.move(d["ply"], d["move"], d["from"], d["to"], d["captures"], d["fen"])
                self.announcer.announce(
                    "move-corrected", side=d["side"], move=d["move"], fen=d["fen"]
                )
            elif event.kind == "outcome":
                self._finish(d["winner"], d["reason"])
            elif event.kind == "takeback":
                self.journal.takeback(len(self.game.moves) + 1)
                self.announcer.announce("takeback", move=d["move"])
            elif event.kind == "new-game":
                self._new_game()
                self.announcer.announce(
                    "new-game", variant=self.variant.name, side=self.game.position.turn
                )
            elif event.kind in ("crown", "crown-confirmed"):
                self.announcer.announce(event.kind, square=self._name(d["square"]))
            elif event.kind in (
                "illegal-board",
                "board-ok",
                "check-colours",
                "capture-mandatory",
                "nothing-to-take-back",
            ):
                self.announcer.announce(event.kind, **d)

    def _name(self, square: int) -> str:
        if getattr(self.variant, "notation", "numeric") == "algebraic":
            return self.variant.square_name(square)
        return str(square)

    def _finish(self, winner: str | None, reason: str) -> None:
        result = result_text(winner, self.variant.name)
        self.journal.end(result, reason)
        self._save(result)
        if reason != "agreement":  # "draw agreed" was already said
            kind = "draw" if winner is None else "win"
            self.announcer.announce(kind, side=winner or "", reason=reason)

    def _save(self, result: str) -> Path | None:
        """Write the game's PDN to the games folder (a game is never lost)."""
        record = self.journal.read()
        if record is None:
            return None
        variant = get_variant(record.variant)
        start = Position.from_fen(record.start_fen, variant)
        moves: list[Move] = list(rebuild(record).moves)
        start_fen = None if start.fen() == variant.initial_position().fen() else record.start_fen
        tags = {
            "Event": "draughtsboard",
            "Site": "draughtsboard",
            "Date": record.started[:10].replace("-", "."),
        }
        text = write_game(variant, tags, moves, result, start_fen)
        stem = record.started.replace(":", "").replace("-", "") or "game"
        try:
            return write_pdn(self.config.games_dir, f"{variant.name}-{stem}", text)
        except OSError as error:
            print(f"warning: cannot save the game: {error.strerror}", file=sys.stderr)
            return None

    def _new_game(self) -> None:
        record = self.journal.read()
        if record is not None and not record.finished and record.moves:
            self._save("*")  # the abandoned game is kept, unfinished
        self.started = datetime.now().isoformat(timespec="seconds")
        self.journal.start(self.variant.name, self.game.fen(), self.started)

    def _reopen(self) -> None:
        """Taking back after the game ended: the journal's end mark is withdrawn."""
        record = self.journal.read()
        if record is None:
            return
        self.journal.start(record.variant, record.start_fen, record.started)
        for entry in record.moves:
            self.journal.move(
                entry["ply"],
                entry["move"],
                entry["from"],
                entry["to"],
                entry["captures"],
                entry["fen"],
            )

    # -- LEDs ----------------------------------------------------------------------

    def _redraw(self, now: float) -> None:
        if self.draw is None:
            return
        hint: Hint = self.recogniser.hint
        blink_on = not hint.blink or int(now / BLINK_PERIOD) % 2 == 0
        key = (tuple(hint.roles.items()), hint.blink, blink_on)
        if key != self._frame_key:
            self._frame_key = key
            self.draw(colour_frame(hint, self.config.colours, blink_on))


def run_stream(session: Session, lines: Iterable[str], *, commands: bool = True) -> None:
    """Drive the session from replay-format events on a simulated clock. Lines of the
    form {"t": ms, "command": "takeback"} are typed commands."""
    occupied = session.recogniser.expected
    now = 0
    for raw in lines:
        text = raw.strip()
        if commands and '"command"' in text:
            record = json.loads(text)
            t = int(record["t"])
            while now + TICK_MS < t:
                now += TICK_MS
                session.observe(now / 1000, occupied)
            now = max(now, t)
            session.command(now / 1000, str(record["command"]))
            occupied = session.recogniser.sensed
            if session.quit:
                return
            continue
        for event in parse_events([text], session.variant):
            while now + TICK_MS < event.t:
                now += TICK_MS
                session.observe(now / 1000, occupied)
            now = max(now, event.t)
            occupied = apply(occupied, event)
            session.observe(now / 1000, occupied)
    limit = now + 10_000
    while session.recogniser.next_deadline() is not None and now < limit:
        now += TICK_MS
        session.observe(now / 1000, occupied)


def _stdin_commands(lines: queue.Queue[str]) -> None:
    for line in sys.stdin:
        lines.put(line)
    lines.put("quit")


def run_board(session: Session, board: object, squares: object, *, poll: float = 0.01) -> None:
    """The live loop: poll the board, feed snapshots, read typed commands from stdin."""
    typed: queue.Queue[str] = queue.Queue()
    if sys.stdin is not None:
        threading.Thread(target=_stdin_commands, args=(typed,), daemon=True).start()
    while not session.quit:
        snapshot = board.poll()  # type: ignore[attr-defined]
        session.observe(snapshot.time, squares.occupied(snapshot.occupied))  # type: ignore[attr-defined]
        while not typed.empty():
            session.command(snapshot.time, typed.get())
        time.sleep(poll)
