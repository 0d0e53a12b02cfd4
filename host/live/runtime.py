"""The live runtime of `draughtsboard run`: one asyncio loop for everything.

Why one loop: the board's scans, the session's timers, the web page's sockets
and typed commands all change the same game. Running them as tasks of one
event loop (never threads) means the session is only ever touched by one
piece of code at a time, with no locks, and a slow web client can never delay
a scan.

- The board is scanned every scan period on a fixed grid; each snapshot goes
  to the session, which also runs its settle timers and blinking then.
- A board that is not there yet (`LiveBoard.ready` False: a USB board plugged
  in later, SPI or a permission not applied yet) is waited for: the runtime
  says so (log, console, voice, page, status file), tries to open it every
  `BOARD_RETRY` seconds off the loop (the page and the computer go on), and
  once it opens, the session is shown its first settled reading and play
  starts; after `wait_for_board` seconds (if given) it gives up with
  `DeviceNotReady`.
- Typed commands are read from standard input only when it is a terminal; a
  service (systemd) or a pipe gets no console, and `run` keeps going.
- SIGTERM and SIGINT stop it cleanly: tasks cancelled, web server closed, LEDs
  blanked, exit status 0. The journal is written and fsync'd move by move, so
  nothing is left open.
- Controls (simulated hands, new game, takeback, resign, draw, hint level,
  language) come from the web page or the console through `Runtime`, which
  checks them and says why in one line (`Refused`) when it cannot obey. The
  board's own commands (a spare piece, host/gestures/commands.py) reach the same
  `Session` methods from the scans; a variant chosen on the board starts a new
  game of it here, on the board renumbered for it, as the page's "new game"
  does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from engine import VARIANTS, FenError, Position, Variant, get_variant
from hardware.base import Snapshot
from hardware.board import Board
from host.clock.control import PRESETS, ClockError
from host.computer.opponent import Opponent
from host.computer.player import ComputerPlayer
from host.errors import DeviceNotReady, UserError
from host.live.board import HandsRefused, LiveBoard
from host.live.bus import Listener
from host.live.controls import CONTROLS, refusals
from host.live.state import game_state
from host.players import PlayerError, computer_levels, parse_player
from host.session import Session
from host.voice.messages import COMMAND_WORDS, VARIANT_NAMES
from host.voice.request_errors import RequestError, error_text

log = logging.getLogger(__name__)

#: how long a simulated hand waits for the debouncer to accept its change
SEEN_TIMEOUT = 1.0
#: the least time a simulated hand takes to carry a piece it lifted to a square (a real
#: one takes 0.1-0.2 s for one square, tests/host/hands/timing.py); a piece down sooner
#: would read as shoved by a knock, never as a move (docs/play.md)
CARRY = 0.1
#: seconds between two tries at opening a board that is not there yet
BOARD_RETRY = 1.0


class Refused(RequestError):
    """A control or a hand that cannot be obeyed now: `code` and `params` say why
    (host/voice/request_errors.py), `status` is the HTTP status that fits (409 unless
    given)."""

    @classmethod
    def from_error(cls, error: UserError | RequestError) -> Refused:
        """The refusal for an error met on the way: its own code when it has one, else
        its English line as the detail of "not-now"."""
        if isinstance(error, RequestError):
            return cls(error.code, error.status, **error.params)
        if isinstance(error, ClockError):
            return cls(error.code, 400, **error.params)
        return cls("not-now", detail=str(error))


@dataclass(frozen=True)
class Hands:
    """One simulated hand action: `lift` or `place` on a square (variant numbering);
    `piece` says what a placing hand holds ("W", "B", "WK", "BK"), when it knows.
    `hold` (with a lift): the piece stays in the page's hand, so it goes back if the
    page disappears; `drop`: the hand let go of it off the board (no switch changes)."""

    action: str
    square: int
    piece: str | None = None
    hold: bool = False


@dataclass(frozen=True)
class Control:
    """A control of the game: new (optionally another variant), takeback, resign, draw,
    hints (level), language, pause or resume the clock."""

    command: str
    variant: str | None = None
    value: str | None = None
    fen: str | None = None  # a new game from this position
    players: dict[str, str] | None = None  # a new game's players (host/players.py)
    clock: str | None = None  # a new game's time control ("5+3", "none"; host/clock)


class Runtime:
    """A session on a live board, driven in real time."""

    def __init__(
        self,
        session: Session,
        board: LiveBoard,
        *,
        clock: Callable[[], float] = time.monotonic,
        opponent: Callable[[], Opponent] | None = Opponent,
        wait_for_board: float | None = None,
    ) -> None:
        """`opponent`: how to start the computer's search worker (None: no computer, the
        players setting is then refused). `wait_for_board`: how many seconds a board that
        is not there yet is waited for (None: as long as it takes)."""
        self.session = session
        self.board = board
        self.clock = clock
        self.wait_for_board = wait_for_board
        self._scanned = asyncio.Condition()
        self._stopping: asyncio.Event | None = None
        self._services: list[Callable[[], Awaitable[None]]] = []
        self._periodic: list[Callable[[], Coroutine[Any, Any, None]]] = []
        self._make_opponent = opponent
        #: when the simulated hands last lifted a piece (see `CARRY`)
        self._lifted_at = float("-inf")
        #: the computer opponent, while `run` runs (it needs the loop)
        self.computer: ComputerPlayer | None = None
        session.draw = self._draw
        board.on_event(lambda event: session.board_event(event.kind))

    # -- what watchers read ------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self.session.subscribe(listener)

    @property
    def simulated(self) -> bool:
        return self.board.simulated

    def state(self) -> dict[str, Any]:
        """The whole state of the game and the board (see `host.live.state`)."""
        state = game_state(self.session)
        state["mode"] = "sim" if self.simulated else "companion"
        state["players"] = dict(self.session.players)
        state["computer"] = self.computer.state() if self.computer is not None else None
        state["controls"] = self.refusals()
        state["resigning"] = self.session.resigning_side()
        # the time controls the new-game dialog offers (host/clock/control.py)
        state["clock_presets"] = [{"key": p.key, "control": p.control} for p in PRESETS]
        labels = VARIANT_NAMES[self.session.language]
        state["variants"] = [
            {
                "name": name,
                "label": labels.get(name, name),
                "size": variant.size,
                "playable": self.board.can_play(variant) is None,
            }
            for name, variant in VARIANTS.items()
        ]
        return state

    def refusals(self) -> dict[str, str | None]:
        """Why each game control cannot be used now (host/live/controls.py), None if it can."""
        session = self.session
        levels = computer_levels(session.players, session.config.computer_level)
        return refusals(
            session,
            computer=self.computer is not None,
            computer_to_move=session.game.position.turn in levels,
        )

    def piece_on(self, square: int) -> str | None:
        """The piece standing on `square` as drawn ("W", "B", "WK", "BK"), or None."""
        return self.session.pieces().get(square)

    # -- controls ------------------------------------------------------------------------

    async def hands(self, hands: Hands) -> None:
        """Do one simulated hand action and return once the board's scans have seen it."""
        board = self.board
        try:
            if hands.action == "drop":  # only the page's hand changes: no switch does
                board.refuse_if_real()
                return
            if hands.action == "lift":
                board.lift(hands.square)
                self._lifted_at = self.clock()
            else:
                # A hand carrying the piece it just lifted needs a moment to get there.
                await asyncio.sleep(max(0.0, self._lifted_at + CARRY - self.clock()))
                board.place(hands.square)
                if hands.piece is not None:  # (told before the next scan sees it)
                    self.session.placing(hands.square, hands.piece)
        except HandsRefused as error:
            raise Refused.from_error(error) from None
        truth = board.truth
        async with self._scanned:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._scanned.wait_for(lambda: self.session.sensed == truth),
                    SEEN_TIMEOUT,
                )

    def control(self, control: Control) -> None:
        """Obey a control at once (they touch only the session and, for a new game on the
        simulator, the simulated pieces)."""
        now = self.clock()
        session = self.session
        try:
            if control.command == "new":
                variant = get_variant(control.variant or session.variant.name)
                start = None
                if control.fen is not None:
                    try:
                        start = Position.from_fen(control.fen, variant)
                    except FenError as error:
                        raise Refused("bad-fen", 400, detail=str(error)) from None
                if control.clock is not None:
                    session.set_clock(control.clock)
                self._new_game(now, variant, start, control.players)
            elif control.command in CONTROLS and (why := self.refusals()[control.command]):
                raise Refused(why)
            elif control.command == "hint":
                assert self.computer is not None  # else refused above
                self.computer.request_hint()
            elif control.command == "hints":
                session.set_hints(now, control.value or "")
            elif control.command == "language":
                session.set_language(now, control.value or "")
            elif control.command in ("takeback", "resign", "draw"):
                session.command(now, control.command)
            elif control.command in ("pause", "resume"):
                if session.game_clock.clock is None:
                    raise Refused("no-clock")
                session.pause_clock(now, control.command == "pause")
            else:
                raise Refused("unknown-command", 400, command=repr(control.command))
        except (UserError, HandsRefused) as error:
            raise Refused.from_error(error) from None

    def typed(self, line: str) -> None:
        """A command typed on the console, in English or Portuguese (`Session.command`);
        a new game goes through `control`, as the page's does."""
        text = line.strip()
        if COMMAND_WORDS.get(text.lower()) == "new":
            self.control(Control("new"))
        elif text:
            self.session.command(self.clock(), text)
        if self.session.quit:
            self.stop()

    def stop(self) -> None:
        if self._stopping is not None:
            self._stopping.set()

    # -- running -------------------------------------------------------------------------

    def add_service(self, stop: Callable[[], Awaitable[None]]) -> None:
        """Something started alongside (the web server): `stop` is awaited on the way out."""
        self._services.append(stop)

    def every(self, seconds: float, action: Callable[[], object]) -> None:
        """Call `action` every `seconds` while the runtime runs (the status file); call
        before `run`. An action that fails is reported once and not called again."""

        async def repeat() -> None:
            while True:
                await asyncio.sleep(seconds)
                try:
                    action()
                except Exception as error:  # housekeeping must never stop the game
                    log.warning("a periodic task failed and was stopped: %s", error)
                    return

        self._periodic.append(repeat)

    async def run(self, *, console: bool | None = None) -> None:
        """Scan and serve until stopped (SIGTERM, SIGINT, `quit`, or end of typed input).
        `console`: read typed commands (default: only if stdin is a terminal)."""
        loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.stop)
        if console is None:
            console = sys.stdin is not None and sys.stdin.isatty()
        if console:
            loop.add_reader(sys.stdin.fileno(), self._read_console)
        if self._make_opponent is not None:
            self.computer = ComputerPlayer(self.session, self._make_opponent,
                                           post=loop.call_soon_threadsafe, clock=self.clock)
            self.computer.start()
        scanning = asyncio.create_task(self._scan_forever())
        stopping = asyncio.create_task(self._stopping.wait())
        periodic = [asyncio.create_task(repeat()) for repeat in self._periodic]
        try:
            # Scanning only ends by failing (a board that broke): then stop, and say why.
            await asyncio.wait({scanning, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            failed: BaseException | None = None
            if scanning.done():
                failed = None if scanning.cancelled() else scanning.exception()
            else:
                scanning.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await scanning
            for task in periodic:
                task.cancel()
            await asyncio.gather(*periodic, return_exceptions=True)
            if console:
                loop.remove_reader(sys.stdin.fileno())
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.remove_signal_handler(sig)
            for stop in reversed(self._services):
                with contextlib.suppress(Exception):
                    await stop()
            if self.computer is not None:
                self.computer.close()
                self.computer = None
            self.board.close()
            log.info("stopped: LEDs off; every move is in the journal")
        if failed is not None:
            raise failed

    async def _scan_forever(self) -> None:
        """Scan on a fixed grid; a late scan restarts the grid instead of bursting."""
        if not self.board.ready:
            await self._wait_for_board()
        period = self.board.scan_period
        deadline = self.clock()
        while True:
            self._scan_once()
            async with self._scanned:
                self._scanned.notify_all()
            deadline += period
            now = self.clock()
            if now >= deadline:
                deadline = now
                await asyncio.sleep(0)
            else:
                await asyncio.sleep(deadline - now)

    async def _wait_for_board(self) -> None:
        """Try to open the board until it opens, saying why it waits each time the reason
        changes; then show the session the board's first settled reading."""
        board = self.board
        started = self.clock()
        said: str | None = None
        while True:
            reason = board.waiting or "not open"
            if reason != said:
                log.warning("waiting for the board: %s", reason)
                if said is None:
                    self.session.board_event("waiting-for-board")
                said = reason
            waited = self.clock() - started
            if self.wait_for_board is not None and waited >= self.wait_for_board:
                raise DeviceNotReady(f"no board after waiting {waited:.0f} s: {reason}")
            try:
                opened, snapshot = await self._open_off_the_loop()
            except DeviceNotReady as error:
                board.waiting = str(error)
                await asyncio.sleep(BOARD_RETRY)
                continue
            break
        board.install(opened)
        log.info("the board is ready after %.0f s: play starts", self.clock() - started)
        self.session.board_event("board-found")
        self.session.observe(snapshot.time, board.squares.occupied(snapshot.occupied))

    async def _open_off_the_loop(self) -> tuple[Board, Snapshot]:
        """`LiveBoard.open_settled` on a worker thread (a USB handshake takes seconds); a
        board opened after the runtime gave up waiting is closed again."""
        future = asyncio.get_running_loop().run_in_executor(None, self.board.open_settled)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            future.add_done_callback(_close_if_opened)
            raise

    def _scan_once(self) -> None:
        snapshot = self.board.read()
        now = snapshot.time
        self.session.observe(now, snapshot.occupied, snapshot.since)
        if self.session.next_variant is not None:
            self._variant_chosen(now, self.session.next_variant)

    def _variant_chosen(self, now: float, name: str) -> None:
        """A variant chosen on the board (the start menu): a new game of it, on the board
        renumbered for it (the spare piece that chose it is ignored until taken off)."""
        try:
            self._new_game(now, get_variant(name))
        except Refused as error:  # the menu offers only this board's size: never expected
            self.session.next_variant = None
            log.warning("cannot play %s: %s", name, error)

    def _read_console(self) -> None:
        line = sys.stdin.readline()
        if not line:  # end of input typed (Ctrl-D): stop as `quit` would
            self.stop()
            return
        try:
            self.typed(line)
        except Refused as error:  # said in the board's language, as the page says it
            print(error_text(error.code, error.params, self.session.language), file=sys.stderr)

    # -- inside ----------------------------------------------------------------------------

    def _new_game(self, now: float, variant: Variant, start: Position | None = None,
                  players: dict[str, str] | None = None) -> None:
        """A new game: on the simulator, the pieces are set up first (as a person would),
        then the game starts on a board that already matches it; `players` for it."""
        board = self.board
        refusal = board.can_play(variant)
        if refusal is not None:
            raise Refused.from_error(refusal)
        if players is not None:
            chosen = self._players(players)
            self.session.set_players(now, chosen, tell=False)  # said with the new game
        board.use(variant)
        position = start if start is not None else variant.initial_position()
        if board.simulated:
            occupied = board.set_up(position.occupied())
        else:  # a real board is never reopened here (same size only): its scans are settled
            _, occupied = board.poll()
        self.session.new_game(now, variant, occupied, start)

    def _players(self, players: dict[str, str]) -> dict[str, str]:
        chosen = dict(self.session.players)
        try:
            chosen.update({side: parse_player(who) for side, who in players.items()})
        except PlayerError as error:
            raise Refused("not-now", 400, detail=str(error)) from None
        if self._make_opponent is None and any(who != "human" for who in chosen.values()):
            raise Refused("no-computer-opponent")
        return chosen

    def _draw(self, frame: dict[int, tuple[int, int, int]]) -> None:
        self.board.show(frame)


def _close_if_opened(future: asyncio.Future[tuple[Board, Snapshot]]) -> None:
    if not future.cancelled() and future.exception() is None:
        future.result()[0].close()
