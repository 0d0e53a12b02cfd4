"""The live session: board snapshots in, moves journaled, announced and lit.

One `Session` owns a recogniser and wires its events to the outside world in a
fixed order: journal first (fsync'd), then announcements, then LEDs, so a
power cut can never lose a move anyone has heard about. Board commands with a
spare piece (host/gestures.py) are read from the same snapshots and carried
out by the same methods as typed commands and the page's controls. Every
change is also published on the session's update bus (`subscribe`), which the
web page, the status file and the club's MQTT publisher (host/broadcast) listen
to, and so does the computer opponent (host/computer_player.py), which plays
through `allow_only`, `players` and `overlay`.

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
from host.announce import Announcement, Announcer
from host.bus import Listener, UpdateBus
from host.config import HINT_LEVELS, LANGUAGES, Config
from host.errors import UserError
from host.games import pdn_text, rebuild, save_game
from host.gestures import GestureDetector, GestureEvent
from host.hints import Hint, colour_frame
from host.journal import Journal, JournalGame, result_text
from host.messages import COMMAND_WORDS
from host.players import computer_levels, pdn_tags, resolved, with_level
from host.recognition.recogniser import Event, Recogniser

Draw = Callable[[dict[int, tuple[int, int, int]]], None]
BLINK_PERIOD = 0.4
RECENT = 8
COMMANDS = ("takeback", "new", "resign", "draw", "quit")
#: the same, as a Portuguese speaker types them
COMANDOS = ("desfazer", "nova", "desistir", "empate", "sair")
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


class Session:
    """A game on the board: recogniser + journal + announcer + LED frames."""

    def __init__(
        self,
        config: Config,
        announcer: Announcer,
        *,
        draw: Draw | None = None,
        resume: bool = True,
        insist_variant: bool = False,
        now: float = 0.0,
        occupied: frozenset[int] | None = None,
        start: Position | None = None,
    ) -> None:
        """`occupied`: the board as sensed at start (None: assume it matches the game).
        `insist_variant`: the variant was asked for (a flag), so an unfinished game of
        another variant is saved (result `*`) instead of resumed.
        `start`: a new game begins from this position (a problem, a lesson), not resumed."""
        self.config = config
        self.announcer = announcer
        self.journal = Journal(config.journal)
        self.draw = draw
        self.quit = False
        self.hint_level = config.hints
        #: who plays each side ("human", "computer", "computer:N"; host/players.py)
        self.players = {"W": config.white, "B": config.black}
        #: a frame shown over the game's (the computer's hint); set by host/computer_player.py
        self.overlay: Callable[[float], Hint | None] | None = None
        self.bus = UpdateBus()
        self._frame_key: tuple[object, ...] | None = None
        self._leds_key: tuple[object, ...] | None = None
        self._move_texts: list[tuple[Move, str]] = []
        self._clock = now
        #: the latest announcements, and how many there have been (watchers speak the new ones)
        self.recent: deque[Announcement] = deque(maxlen=RECENT)
        self.announced = 0
        announcer.subscribe(self._announced)
        #: PDN tags for the saved game beyond the board's own (players, event, round from a
        #: club's pairings, host/broadcast); set with `set_tags`
        self.game_tags: dict[str, str] = {}
        record = self.journal.read() if resume and start is None else None
        if record is not None and not record.finished and record.variant != config.variant:
            record = self._set_aside(record) if insist_variant else record
        if record is not None and not record.finished:
            game = rebuild(record)
            self.started = record.started
            if record.players is not None:  # the game's own players, not the config's
                self.players = dict(record.players)
            self.recogniser = Recogniser(
                game, hint_level=self.hint_level, start=now, touch_move=config.touch_move
            )
            self.announcer.announce(
                "resume-offer", moves=len(game.moves), variant=game.variant.name
            )
            if occupied is not None:
                self.recogniser.observe(now, occupied)
            self._handle(self.recogniser.resume(now))
            if not self.recogniser.correcting:
                self.announcer.announce("resumed", side=game.position.turn)
        else:
            game = Game(start.variant, start) if start else Game(get_variant(config.variant))
            self.started = datetime.now().isoformat(timespec="seconds")
            self.journal.start(game.variant.name, game.fen(), self.started, self._recorded())
            self.recogniser = Recogniser(
                game, hint_level=self.hint_level, start=now, touch_move=config.touch_move
            )
            if occupied is not None:
                self._handle(self.recogniser.observe(now, occupied))
        #: the board as its switches see it (a spare piece in use included; the recogniser
        #: is shown the board without it)
        self.sensed = frozenset(occupied) if occupied is not None else self.recogniser.sensed
        #: board commands with a spare piece (host/gestures.py); None when switched off
        self.gestures = self._gesture_detector(self.variant)
        #: a variant chosen on the board (start menu): the runtime starts a new game of it,
        #: since only the runtime knows how the board is numbered for that variant
        self.next_variant: str | None = None
        self._redraw(now)

    def _set_aside(self, record: JournalGame) -> None:
        """An unfinished game of another variant: saved with result `*`, said, not resumed
        (a game with no move yet is simply replaced)."""
        if not record.moves:
            return None
        path = self._save("*")
        self.announcer.announce(
            "unfinished-saved", variant=record.variant, moves=len(record.moves), path=path or ""
        )
        return None

    @property
    def game(self) -> Game:
        return self.recogniser.game

    @property
    def variant(self) -> Variant:
        return self.recogniser.variant

    @property
    def language(self) -> str:
        return self.announcer.language

    @property
    def hint(self) -> Hint:
        """What the LEDs show: a board command's menu over the game, else the game's hint."""
        overlay = self.gestures.hint if self.gestures is not None else None
        if overlay is None and self.overlay is not None:
            overlay = self.overlay(self._clock)
        return overlay if overlay is not None else self.recogniser.hint

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
        return pdn_text(record, record.result or "*", self.tags())

    # -- input -----------------------------------------------------------------

    def observe(self, now: float, occupied: frozenset[int]) -> None:
        """One snapshot in the variant's numbering."""
        self._clock = now
        before, self.sensed = self.sensed, frozenset(occupied)
        self._handle(self.recogniser.observe(now, self._board_commands(now, self.sensed)))
        if self.sensed != before:
            self.bus.publish("board", now, occupied=sorted(self.sensed))
        self._redraw(now)

    def next_deadline(self) -> float | None:
        """When something happens if the board stays as it is (None: at rest)."""
        times = [self.recogniser.next_deadline()]
        if self.gestures is not None:
            times.append(self.gestures.next_deadline())
        pending = [t for t in times if t is not None]
        return min(pending) if pending else None

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
        self.next_variant = None
        before = self.sensed
        if occupied is not None:
            self.sensed = frozenset(occupied)
        variant = start.variant if start is not None else variant
        if variant is None or variant == self.variant:
            if occupied is not None:
                self._handle(self.recogniser.observe(now, self._masked(occupied)))
            self._handle(self.recogniser.new_game(now, Game(self.variant, start)))
        else:
            fresh = Recogniser(
                Game(variant, start),
                hint_level=self.hint_level,
                start=now,
                touch_move=self.config.touch_move,
            )
            spare = self._spare_in_hand(occupied, fresh)
            self.gestures = self._gesture_detector(variant, spare)
            if occupied is not None:
                fresh.observe(now, self._masked(occupied, fresh))  # nothing to report yet
            self.recogniser = fresh
            before = frozenset({-1})  # other squares altogether: always tell the watchers
            self._handle(fresh.new_game(now, fresh.game))
        if self.sensed != before:
            self.bus.publish("board", now, occupied=sorted(self.sensed))
        self._redraw(now)

    def set_hints(self, now: float, level: str) -> None:
        """Change how much the LEDs help (`HINT_LEVELS`); the lights change at once."""
        if level not in HINT_LEVELS:
            raise UserError(f"hint level must be one of {', '.join(HINT_LEVELS)}, not {level!r}")
        self.hint_level = level
        self._handle(self.recogniser.set_hint_level(now, level))
        self._publish_settings(now)
        self._redraw(now)

    def set_players(self, now: float, players: dict[str, str], *, tell: bool = True) -> None:
        """Who plays each side from now on (checked words, host/players.py), kept in the
        journal so a resumed game goes on with them; `tell=False` when a new game follows
        at once and records them and tells the watchers itself."""
        if players != self.players:
            self.players = dict(players)
            if self.gestures is not None:  # the level square counts on from here
                self.gestures.level = self.computer_level()
            if tell:  # else the new game's journal header records them
                self.journal.players(self._recorded())
                self._publish_settings(now)

    def allow_only(self, now: float, moves: list[Move] | None) -> None:
        """Accept only `moves` this turn (`Recogniser.allow_only`): the computer's."""
        self._handle(self.recogniser.allow_only(now, moves))
        self._redraw(now)

    def redraw(self, now: float) -> None:
        """Light the LEDs again (an overlay appeared or went)."""
        self._clock = now
        self._redraw(now)

    def set_language(self, now: float, language: str) -> None:
        """Say everything from now on in `language` (`LANGUAGES`)."""
        if language not in LANGUAGES:
            raise UserError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.announcer.language = language
        self._publish_settings(now)

    def command(self, now: float, text: str) -> None:
        """A typed command, in English or Portuguese: takeback (desfazer), new (nova), resign
        (desistir), draw (empate), quit (sair). Unknown words are explained."""
        word = COMMAND_WORDS.get(text.strip().lower(), text.strip().lower())
        rec = self.recogniser
        if not word:
            return
        if word == "takeback":
            if rec.outcome is not None and rec.game.moves:
                self.journal.reopen()
            self._handle(rec.take_back(now))
        elif word == "new":
            self.new_game(now)
            return
        elif word in ("resign", "draw"):
            if rec.outcome is not None:
                return
            if word == "resign":
                self.resign(now, rec.game.position.turn)
            else:
                self.announcer.announce("draw-agreed")
                self._handle(rec.finish(now, None, "agreement"))
        elif word == "quit":
            self.quit = True
        else:
            known = ", ".join(f"{en}/{pt}" for en, pt in zip(COMMANDS, COMANDOS, strict=True))
            print(f"unknown command {text.strip()!r}; commands: {known}", file=sys.stderr)
        self._redraw(now)

    def resign(self, now: float, side: str) -> None:
        """`side` gives up the game (typed, from the page, or chosen on the board)."""
        if self.recogniser.outcome is not None:
            return
        self.announcer.announce("resign", side=side)
        self._handle(self.recogniser.finish(now, "B" if side == "W" else "W", "resignation"))

    def set_tags(self, tags: dict[str, str]) -> None:
        """The game's players (and event, round) as a club's pairings name them: saved in its
        PDN and shown to watchers. Empty when the game has no assignment."""
        if tags != self.game_tags:
            self.game_tags = dict(tags)
            self.bus.publish("tags", self._clock, tags=dict(tags))

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
            elif event.kind == "move-corrected":
                # The last move went on (touch-move off): it is replaced on disk, then said.
                # A power cut between the two records leaves the move taken back; the
                # board still shows it and it is read again on resume.
                self.journal.takeback(d["ply"])
                self.journal.move(d["ply"], d["move"], d["from"], d["to"], d["captures"], d["fen"])
                # Watchers see the same: the first reading taken back, the move played.
                publish("takeback", event.time, move=d["was"], fen=d["fen_before"])
                publish("move", event.time, **d)
                self.announcer.announce(
                    "move-corrected", side=d["side"], move=d["move"], fen=d["fen"]
                )
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
        if reason != "agreement":  # "draw agreed" was already said
            kind = "draw" if winner is None else "win"
            self.announcer.announce(kind, side=winner or "", reason=reason)

    def _save(self, result: str) -> Path | None:
        """Write the journal's game to the games folder."""
        record = self.journal.read()
        if record is None:
            return None
        # the players that game was played by (the next game's may be set already)
        tags = self.tags(record.players)
        return save_game(record, result, self.config.games_dir, tags)

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
        self.journal.start(self.variant.name, self.game.fen(), self.started, self._recorded())

    # -- board commands (host/gestures.py) ---------------------------------------------

    def _gesture_detector(
        self, variant: Variant, spare: int | None = None
    ) -> GestureDetector | None:
        """A detector for `variant`; `spare`: a spare piece already standing there (the one
        that chose this variant), ignored until it is taken off."""
        if not self.config.gestures:
            return None
        detector = GestureDetector(
            variant, hold=self.config.gesture_hold, level=self.computer_level()
        )
        if spare is not None:
            detector.ignore_until_lifted(spare)
        return detector

    def computer_level(self) -> int:
        """The computer's level (the highest, if it plays both sides), 0 if it plays none."""
        return max(computer_levels(self.players, self.config.computer_level).values(), default=0)

    def _spare_in_hand(self, occupied: frozenset[int] | None, fresh: Recogniser) -> int | None:
        """The spare piece that carried out a board command, if it still stands alone on
        a square the new game leaves empty (so the new game does not read it as wrong)."""
        if occupied is None or self.gestures is None or not self.gestures.spent:
            return None
        extra = occupied - fresh.expected
        return next(iter(extra)) if len(extra) == 1 and occupied > fresh.expected else None

    def _masked(self, occupied: frozenset[int], rec: Recogniser | None = None) -> frozenset[int]:
        """The snapshot without a spare piece in use, as the recogniser must see it."""
        if self.gestures is None:
            return occupied
        return self.gestures.mask(occupied, rec or self.recogniser)

    def _board_commands(self, now: float, occupied: frozenset[int]) -> frozenset[int]:
        """Run the gesture detector on the snapshot; returns it without the spare piece."""
        if self.gestures is None:
            return occupied
        for event in self.gestures.observe(now, occupied, self.recogniser):
            self._gesture(now, event)
        return self._masked(occupied)

    def _gesture(self, now: float, event: GestureEvent) -> None:
        d = event.data
        if event.kind == "resign":
            self.resign(now, d["side"])
        elif event.kind == "draw-offer":
            other = "B" if d["side"] == "W" else "W"
            self.announcer.announce("draw-offer", side=d["side"], other=other)
        elif event.kind == "draw-accept":
            self.command(now, "draw")
        elif event.kind == "takeback":
            self.command(now, "takeback")
        elif event.kind == "level":
            self.set_players(now, with_level(self.players, d["level"]))
            self.announcer.announce("level" if d["level"] else "level-off", level=d["level"])
        elif event.kind == "hint":
            self.bus.publish("hint-request", now)
        elif event.kind == "variant":
            self.announcer.announce("variant-chosen", variant=d["variant"])
            if d["variant"] != self.variant.name:
                self.next_variant = d["variant"]
        elif event.kind in ("menu", "menu-closed"):
            self.announcer.announce(event.kind)

    # -- LEDs ----------------------------------------------------------------------

    def _redraw(self, now: float) -> None:
        """Publish and light what the LEDs show (a board command's menu included)."""
        hint = self.hint
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
