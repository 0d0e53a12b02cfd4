"""The `Session` itself: its state, starting or resuming a game, and its public calls.

Kept apart from what it does with the recogniser's events (events.py), the board
commands made with a spare piece (board_commands.py) and the LEDs (leds.py), so
this module reads as the session's interface: what the runtime, the page, the
typed console and the computer opponent may ask of it (observe a snapshot, a new
game, hints, players, language, tags, a typed command, resign), and how a game is
started or resumed from the journal when the session is made.

The mixins (listed in host/session/__init__.py) read the state set up here.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from datetime import datetime

from engine import Game, Move, Position, Variant, get_variant
from host.clock.control import TimeControl, parse_time_control
from host.clock.keeper import GameClock
from host.clock.model import Lap
from host.config import HINT_LEVELS, LANGUAGES, Config
from host.errors import UserError
from host.hints import Hint
from host.live.bus import Listener, UpdateBus
from host.players import computer_levels
from host.recognition.recogniser import Recogniser
from host.records.games import pdn_text, rebuild
from host.records.journal import Journal, JournalGame
from host.session.board_commands import BoardCommands
from host.session.events import EventHandling
from host.session.leds import Draw, Leds
from host.voice.announce import Announcement, Announcer
from host.voice.messages import COMMAND_WORDS

RECENT = 8
#: what the board itself can say about its device (`board_event`)
DEVICE_EVENTS = ("disconnected", "reconnected", "waiting-for-board", "board-found")
COMMANDS = ("takeback", "new", "resign", "draw", "quit")
#: the same, as a Portuguese speaker types them
COMANDOS = ("desfazer", "nova", "desistir", "empate", "sair")


class Session(BoardCommands, EventHandling, Leds):
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
        self.journal = Journal(config.journal, on_trouble=self._journal_trouble)
        self.draw = draw
        self.quit = False
        self.hint_level = config.hints
        #: who plays each side ("human", "computer", "computer:N"; host/players.py)
        self.players = {"W": config.white, "B": config.black}
        #: a frame shown over the game's (the computer's hint); set by host/computer/player.py
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
        #: the time control of new games (the config's, or the page's new-game dialog's)
        self.clock_control: TimeControl | None = parse_time_control(config.clock)
        #: the game's clock (host/clock), fed every recogniser event before anyone else
        self.game_clock = GameClock(self.clock_control, config.clock_warnings)
        #: what starts the clock: the first switch change of a new game ("change"), or a
        #: resumed game's board put right ("board"); None once it runs
        self._clock_waits: str | None = "change"
        self._clock_key: tuple[object, ...] | None = None
        record = self.journal.read() if resume and start is None else None
        if record is not None and not record.finished and record.variant != config.variant:
            record = self._set_aside(record) if insist_variant else record
        if record is not None and not record.finished:
            game = rebuild(record)
            self.started = record.started
            #: the game's own id (host/records/journal.py): what the broadcast names it by
            self.game_id = record.id
            if record.players is not None:  # the game's own players, not the config's
                self.players = dict(record.players)
            if record.clock is not None:  # the game's own time control, not the config's
                self.game_clock = GameClock(
                    parse_time_control(record.clock), config.clock_warnings
                )
            self.game_clock.restore(journal_laps(record.moves, game))
            self._clock_waits = "board"
            self.recogniser = self._recogniser(game, now)
            if occupied is not None:
                self.recogniser.observe(now, occupied)
            guidance = self.recogniser.resume(now)
            # "put the lit squares right" only where the board does not stand as the game
            # does (the simulator, or pieces left where they stood, need nothing done)
            self.announcer.announce(
                "resume-offer" if self.recogniser.correcting else "resume-found",
                moves=len(game.moves), variant=game.variant.name,
            )
            self._handle(guidance)
            if not self.recogniser.correcting:
                self.announcer.announce("resumed", side=game.position.turn)
        else:
            game = Game(start.variant, start) if start else Game(get_variant(config.variant))
            self.started = datetime.now().isoformat(timespec="seconds")
            self.game_id = self.journal.start(
                game.variant.name, game.fen(), self.started, self._recorded(), self._control()
            )
            self.recogniser = self._recogniser(game, now)
            if occupied is not None:
                self._handle(self.recogniser.observe(now, occupied))
        #: the board as its switches see it (a spare piece in use included; the recogniser
        #: is shown the board without it)
        self.sensed = frozenset(occupied) if occupied is not None else self.recogniser.sensed
        #: board commands with a spare piece (host/gestures/commands.py); None when switched off
        self.gestures = self._gesture_detector(self.variant)
        #: a variant chosen on the board (start menu): the runtime starts a new game of it,
        #: since only the runtime knows how the board is numbered for that variant
        self.next_variant: str | None = None
        self._redraw(now)

    def _recogniser(self, game: Game, now: float) -> Recogniser:
        """The recogniser for `game`, with the session's hint level and touch-move rule."""
        return Recogniser(
            game, hint_level=self.hint_level, start=now, touch_move=self.config.touch_move
        )

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

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Receive every change (see `host.live.bus`); returns a function that unsubscribes."""
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

    def pieces(self) -> dict[int, str]:
        """Every occupied square as sensed, with the piece standing there ("W", "B", "WK",
        "BK"): recognition's account (`Recogniser.pieces`), the one every display reads.
        A spare piece held on a square for a board command, which the recogniser is not
        shown, is the piece the hand said it put there, else a man of the side to move."""
        rec = self.recogniser
        shown = rec.pieces()
        for square in self.sensed - rec.sensed:
            shown[square] = rec.told(square) or rec.game.position.turn
        return dict(sorted(shown.items()))

    def placing(self, square: int, piece: str) -> None:
        """A hand says the next piece it puts down on `square` is `piece` ("W", "B", "WK",
        "BK"): the simulator's tray. Raises ValueError for another code."""
        self.recogniser.placing(square, piece)

    def pdn(self) -> str:
        """The game as it stands, as PDN (result `*` while it goes on)."""
        record = self.journal.read()
        if record is None:
            raise UserError("there is no game in the journal")
        return pdn_text(record, record.result or "*", self.tags())

    # -- input -----------------------------------------------------------------

    def observe(
        self, now: float, occupied: frozenset[int], since: float | None = None
    ) -> None:
        """One snapshot in the variant's numbering; `since`: the last time the switches
        were read without its changes, if known (`Recogniser.observe`)."""
        self._clock = now
        before, self.sensed = self.sensed, frozenset(occupied)
        if (
            self._clock_waits == "change"
            and self.sensed != before
            and before == self.recogniser.expected
        ):
            # A new game's time starts with its first switch change on a board set up
            # right (setting the pieces up is nobody's time).
            self.start_clock(now)
        board = self._board_commands(now, self.sensed)
        self._handle(self.recogniser.observe(now, board, since))
        for square in before - self.sensed:
            self.recogniser.forget_told(square)  # (a spare the recogniser was not shown)
        if self._clock_waits == "board" and not self.recogniser.correcting:
            self.start_clock(now)  # a resumed game's time runs again once its board is right
        self._handle(self.game_clock.tick(now, self.recogniser))
        if self.sensed != before:
            self.bus.publish("board", now, occupied=sorted(self.sensed))
        self._redraw(now)

    # -- the clock -------------------------------------------------------------------

    def start_clock(self, now: float) -> None:
        """Start the side to move's time (the first switch change, the page's start, the
        computer starting to think, a resumed board put right); nothing if it runs."""
        rec = self.recogniser
        if rec.outcome is None:
            self.game_clock.start(rec.game.position.turn, now)
            self._clock_waits = None
            self._publish_clock(now)

    def pause_clock(self, now: float, paused: bool) -> None:
        """An arbiter's stop (`paused`), or the clock running again: no time is charged
        meanwhile. Said aloud and shown."""
        clock = self.game_clock.clock
        if clock is None or clock.paused == paused or self.recogniser.outcome is not None:
            return
        if paused:
            self.game_clock.pause(now)
        else:
            self.game_clock.resume(now)
            if self._clock_waits is not None:
                self.start_clock(now)
        self.announcer.announce("clock-paused" if paused else "clock-resumed")
        self._publish_clock(now)

    def set_clock(self, control: str) -> None:
        """The time control of the next new game (`5+3`, `none`...; host/clock/control.py)."""
        self.clock_control = parse_time_control(control)

    def _control(self) -> str | None:
        """The time control new games are played with, as the journal keeps it."""
        return None if self.clock_control is None else self.clock_control.text()

    def _publish_clock(self, now: float) -> None:
        """Tell the watchers both clocks whenever what they show changes course (a move,
        a take back, a start or stop, the flag)."""
        state = self.game_clock.state(now)
        clock = self.game_clock.clock
        key = None if clock is None else (
            clock.running, clock.paused, len(clock.laps), self.game_clock.fell,
            clock.left["W"], clock.left["B"],
        )
        if state is not None and key != self._clock_key:
            self._clock_key = key
            self.bus.publish("clock", now, **state)

    def next_deadline(self) -> float | None:
        """When something happens if the board stays as it is (None: at rest)."""
        times = [self.recogniser.next_deadline(), self.game_clock.next_deadline()]
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
            fresh = self._recogniser(Game(variant, start), now)
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
        """Accept only `moves` this turn (`Recogniser.allow_only`): the computer's. The
        computer starting to think starts a new game's clock."""
        if moves is not None and self._clock_waits == "change":
            self.start_clock(now)
        self._handle(self.recogniser.allow_only(now, moves))
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
            self._take_back(now)
        elif word == "new":
            self.new_game(now)
            return
        elif word in ("resign", "draw"):
            if rec.outcome is not None:
                return
            if word == "resign":
                self.resign(now, self.resigning_side())
            elif not self.offer_draw(now):
                self.agree_draw(now)
        elif word == "quit":
            self.quit = True
        else:
            known = ", ".join(f"{en}/{pt}" for en, pt in zip(COMMANDS, COMANDOS, strict=True))
            print(f"unknown command {text.strip()!r}; commands: {known}", file=sys.stderr)
        self._redraw(now)

    def takeback_plies(self) -> int:
        """How many plies one take back undoes. Between two people, the last one. Against
        the computer, the person's last move and the computer's replies after it, so the
        person is to move again where they were (lichess does the same): two plies once
        the computer has replied, one while it thinks or waits for its move to be carried
        out, none when the person has not moved yet. 0 too after a resignation or an agreed
        draw: those are not undone by taking a move back."""
        game = self.game
        outcome = self.recogniser.outcome
        if outcome is not None and outcome.reason in ("resignation", "agreement"):
            return 0
        computer = computer_levels(self.players, self.config.computer_level)
        if len(computer) != 1:  # two people, or the computer against itself
            return min(1, len(game.moves))
        for ply in range(len(game.moves) - 1, -1, -1):
            if game.positions[ply].turn not in computer:
                return len(game.moves) - ply
        return 0

    def _take_back(self, now: float) -> None:
        """Undo `takeback_plies` plies; the board is then guided back to the position
        before them (both pieces' way back lit when the computer's reply goes too)."""
        rec = self.recogniser
        plies = self.takeback_plies()
        if not rec.game.moves:
            self._handle(rec.take_back(now))  # the recogniser says there is nothing
            return
        if plies == 0:
            if rec.outcome is not None:
                self.announcer.announce("takeback-after-end", reason=rec.outcome.reason)
            else:
                self.announcer.announce("no-move-of-yours")
            return
        if rec.outcome is not None:
            self.journal.reopen()
        for _ in range(plies):
            self._handle(rec.take_back(now))

    def offer_draw(self, now: float, side: str | None = None) -> bool:
        """A draw offered to the computer by the person playing it (`side`, or None: the
        side that is not the computer's): said, and put to the computer (bus update
        "draw-offer"), which answers with `agree_draw` or a spoken refusal
        (host/computer/player.py). False, and nothing done, when the computer does not
        play exactly the other side: then a draw is the players' own agreement."""
        levels = computer_levels(self.players, self.config.computer_level)
        if self.recogniser.outcome is not None or len(levels) != 1:
            return False
        human = "B" if "W" in levels else "W"
        if side is not None and side != human:
            return False
        self.announcer.announce("draw-offer-computer", side=human)
        self.bus.publish("draw-offer", now, side=human)
        return True

    def agree_draw(self, now: float) -> None:
        """The game ends drawn by agreement (both players, or the computer accepting)."""
        if self.recogniser.outcome is not None:
            return
        self.announcer.announce("draw-agreed")
        self._handle(self.recogniser.finish(now, None, "agreement"))
        self._redraw(now)

    def resigning_side(self) -> str:
        """The side a resign control (typed, or the page's button) gives up for: the
        person's when the computer plays exactly one side, whoever is to move (a person
        pressing resign while the computer thinks resigns for themselves, never for the
        computer); else the side to move."""
        levels = computer_levels(self.players, self.config.computer_level)
        if len(levels) == 1:
            return "B" if "W" in levels else "W"
        return self.recogniser.game.position.turn

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
        """Something about the device, said and told to watchers: disconnected,
        reconnected, waiting-for-board (not there yet at start), board-found."""
        if kind in DEVICE_EVENTS:
            self.bus.publish("device", self._clock, event=kind)
            self.announcer.announce(kind)


def journal_laps(entries: list[dict[str, object]], game: Game) -> list[Lap]:
    """The clocks after each move as the journal kept them (a journal of an untimed game,
    or one written before clocks were kept, has none: the clocks start full)."""
    laps: list[Lap] = []
    for ply, entry in enumerate(entries):
        clock = entry.get("clock")
        if not isinstance(clock, dict):
            return []
        side = game.positions[ply].turn
        took = entry.get("took", 0)
        laps.append(
            Lap(
                side, 0.0, 0.0, float(took) / 1000 if isinstance(took, int | float) else 0.0,
                float(clock["white"]) / 1000, float(clock["black"]) / 1000,
            )
        )
    return laps
