"""The live session: board snapshots in, moves journaled, announced and lit.

One `Session` owns a recogniser and wires its events to the outside world in a
fixed order: journal first (fsync'd), then announcements, then LEDs, so a
power cut can never lose a move anyone has heard about. Every change is also
published on the session's update bus (`subscribe`), which the web page, and
later a status file, an MQTT publisher or a computer opponent, listen to.

The session reads no clock and does no I/O of its own beyond the journal: the
live runtime (`host.live`) feeds it snapshots and commands on the real clock,
`host.stream.run_stream` feeds it a recorded stream on a simulated clock
(tests, the crash test, bug reports).
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from engine import Game, Move, Position, Variant, get_variant
from engine.pdn_write import write_game
from host.announce import Announcement, Announcer
from host.bus import Listener, UpdateBus
from host.config import HINT_LEVELS, LANGUAGES, Config
from host.errors import UserError
from host.hints import Hint, colour_frame
from host.journal import Journal, JournalGame, result_text, write_pdn
from host.recogniser import Event, Recogniser

Draw = Callable[[dict[int, tuple[int, int, int]]], None]
BLINK_PERIOD = 0.4
RECENT = 8
COMMANDS = ("takeback", "new", "resign", "draw", "quit")
#: recogniser events published on the bus as "notice" updates
NOTICES = (
    "crown",
    "crown-confirmed",
    "illegal-board",
    "board-ok",
    "capture-mandatory",
    "nothing-to-take-back",
)


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


def resumable_game(config: Config) -> Game | None:
    """The unfinished game in the journal, rebuilt, or None: what `Session` will resume.
    The live runtime asks first, to open the board for that game's variant."""
    record = Journal(config.journal).read()
    if record is None or record.finished:
        return None
    return rebuild(record)


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
        start: Position | None = None,
    ) -> None:
        """`occupied`: the board as sensed at start (None: assume it matches the game).
        `start`: a new game begins from this position (a problem, a lesson), not resumed."""
        self.config = config
        self.announcer = announcer
        self.journal = Journal(config.journal)
        self.draw = draw
        self.quit = False
        self.hint_level = config.hints
        self.bus = UpdateBus()
        self._frame_key: tuple[object, ...] | None = None
        self._leds_key: tuple[object, ...] | None = None
        self._move_texts: list[tuple[Move, str]] = []
        self._clock = now
        #: the latest announcements, and how many there have been (watchers speak the new ones)
        self.recent: deque[Announcement] = deque(maxlen=RECENT)
        self.announced = 0
        announcer.subscribe(self._announced)
        record = self.journal.read() if resume and start is None else None
        if record is not None and not record.finished:
            game = rebuild(record)
            self.started = record.started
            self.recogniser = Recogniser(game, hint_level=self.hint_level, start=now)
            self.announcer.announce("resume-offer", moves=len(game.moves))
            if occupied is not None:
                self.recogniser.observe(now, occupied)
            self._handle(self.recogniser.resume(now))
            if not self.recogniser.correcting:
                self.announcer.announce("resumed", side=game.position.turn)
        else:
            game = Game(start.variant, start) if start else Game(get_variant(config.variant))
            self.started = datetime.now().isoformat(timespec="seconds")
            self.journal.start(game.variant.name, game.fen(), self.started)
            self.recogniser = Recogniser(game, hint_level=self.hint_level, start=now)
            if occupied is not None:
                self._handle(self.recogniser.observe(now, occupied))
        self._redraw(now)

    @property
    def game(self) -> Game:
        return self.recogniser.game

    @property
    def variant(self) -> Variant:
        return self.recogniser.variant

    @property
    def language(self) -> str:
        return self.announcer.language

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Receive every change (see `host.bus`); returns a function that unsubscribes."""
        return self.bus.subscribe(listener)

    def move_texts(self) -> list[str]:
        """The game's moves in the variant's notation (cached: only new moves are spelt)."""
        game = self.game
        cache = self._move_texts
        keep = 0
        while keep < min(len(cache), len(game.moves)) and cache[keep][0] is game.moves[keep]:
            keep += 1
        del cache[keep:]
        for ply in range(keep, len(game.moves)):
            move = game.moves[ply]
            cache.append((move, game.positions[ply].move_text(move)))
        return [text for _, text in cache]

    def pdn(self) -> str:
        """The game as it stands, as PDN (result `*` while it goes on)."""
        record = self.journal.read()
        if record is None:
            raise UserError("there is no game in the journal")
        return self._pdn_text(record, record.result or "*")

    # -- input -----------------------------------------------------------------

    def observe(self, now: float, occupied: frozenset[int]) -> None:
        """One snapshot in the variant's numbering."""
        self._clock = now
        before = self.recogniser.sensed
        self._handle(self.recogniser.observe(now, occupied))
        if self.recogniser.sensed != before:
            self.bus.publish("board", now, occupied=sorted(self.recogniser.sensed))
        self._redraw(now)

    def new_game(
        self,
        now: float,
        variant: Variant | None = None,
        occupied: frozenset[int] | None = None,
        start: Position | None = None,
    ) -> None:
        """Start a new game, of another variant if given (the unfinished one is saved),
        from the initial position or from `start`.

        `occupied`: the board as sensed now, in the new variant's numbering; needed when
        the variant changes, since the old sensed squares were numbered for the old one.
        """
        self._clock = now
        before = self.recogniser.sensed
        variant = start.variant if start is not None else variant
        if variant is None or variant == self.variant:
            if occupied is not None:
                self._handle(self.recogniser.observe(now, occupied))
            self._handle(self.recogniser.new_game(now, Game(self.variant, start)))
        else:
            fresh = Recogniser(Game(variant, start), hint_level=self.hint_level, start=now)
            if occupied is not None:
                fresh.observe(now, occupied)  # a fresh game: nothing to report yet
            self.recogniser = fresh
            before = frozenset({-1})  # other squares altogether: always tell the watchers
            self._handle(fresh.new_game(now, fresh.game))
        if self.recogniser.sensed != before:
            self.bus.publish("board", now, occupied=sorted(self.recogniser.sensed))
        self._redraw(now)

    def set_hints(self, now: float, level: str) -> None:
        """Change how much the LEDs help (`HINT_LEVELS`); the lights change at once."""
        if level not in HINT_LEVELS:
            raise UserError(f"hint level must be one of {', '.join(HINT_LEVELS)}, not {level!r}")
        self.hint_level = level
        self._handle(self.recogniser.set_hint_level(now, level))
        self._publish_settings(now)
        self._redraw(now)

    def set_language(self, now: float, language: str) -> None:
        """Say everything from now on in `language` (`LANGUAGES`)."""
        if language not in LANGUAGES:
            raise UserError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.announcer.language = language
        self._publish_settings(now)

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
            self.new_game(now)
            return
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
            self.bus.publish("device", self._clock, event=kind)
            self.announcer.announce(kind)

    # -- events ------------------------------------------------------------------

    def _handle(self, events: list[Event]) -> None:
        publish = self.bus.publish
        for event in events:
            d = event.data
            if event.kind == "move":
                # Journal first: what is announced is already on disk.
                self.journal.move(d["ply"], d["move"], d["from"], d["to"], d["captures"], d["fen"])
                publish("move", event.time, **d)
                self.announcer.announce("move", side=d["side"], move=d["move"], fen=d["fen"])
            elif event.kind == "outcome":
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
                publish("new-game", event.time, variant=self.variant.name, fen=d["fen"], side=side)
                self.announcer.announce("new-game", variant=self.variant.name, side=side)
            elif event.kind in NOTICES:
                publish("notice", event.time, notice=event.kind, **d)
                if event.kind in ("crown", "crown-confirmed"):
                    self.announcer.announce(event.kind, square=self._name(d["square"]))
                else:
                    self.announcer.announce(event.kind, **d)

    def _announced(self, item: Announcement) -> None:
        self.recent.append(item)
        self.announced += 1
        self.bus.publish(
            "announcement", self._clock, kind=item.kind, text=item.text, params=item.params
        )

    def _publish_settings(self, now: float) -> None:
        self.bus.publish("settings", now, hints=self.hint_level, language=self.language)

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

    def _pdn_text(self, record: JournalGame, result: str) -> str:
        variant = get_variant(record.variant)
        start = Position.from_fen(record.start_fen, variant)
        moves: list[Move] = list(rebuild(record).moves)
        start_fen = None if start.fen() == variant.initial_position().fen() else record.start_fen
        tags = {
            "Event": "draughtsboard",
            "Site": "draughtsboard",
            "Date": record.started[:10].replace("-", "."),
        }
        return write_game(variant, tags, moves, result, start_fen)

    def _save(self, result: str) -> Path | None:
        """Write the game's PDN to the games folder (a game is never lost)."""
        record = self.journal.read()
        if record is None:
            return None
        variant = get_variant(record.variant)
        text = self._pdn_text(record, result)
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
        hint: Hint = self.recogniser.hint
        leds_key = (tuple(hint.roles.items()), hint.blink)
        if leds_key != self._leds_key:
            self._leds_key = leds_key
            self.bus.publish(
                "leds", now, leds=dict(hint.roles), blink=sorted(hint.blink)
            )
        if self.draw is None:
            return
        blink_on = not hint.blink or int(now / BLINK_PERIOD) % 2 == 0
        key = (tuple(hint.roles.items()), hint.blink, blink_on)
        if key != self._frame_key:
            self._frame_key = key
            self.draw(colour_frame(hint, self.config.colours, blink_on))
