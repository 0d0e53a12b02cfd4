"""The computer opponent at the table: it thinks, shows its move, and a person plays it.

Why a listener on the session's bus: the session stays the one owner of the
game, and the computer reacts to the same updates as every watcher. When the
side to move is the computer's (`Session.players`):

1. the recogniser accepts nothing (`Session.allow_only(now, [])`), so a hand
   cannot play the computer's side for it, and the search starts off the
   loop (`host.computer.opponent.Opponent`, a worker process);
2. its answer comes back on the loop (`post`, the loop's
   `call_soon_threadsafe`), is checked against the game as it is *now*, and
   only then lit and announced: the recogniser accepts exactly that move
   (`allow_only(now, [move])`); another legal move reads as a wrong board and
   is guided back, then to the computer's move;
3. any change of position (a move, a takeback, a new game, an end, other
   players) cancels the search at once, so a stale move is never lit.

The worker is started and made ready for the variant as soon as a game has a
computer side (`Opponent.prepare`), not at its first turn, so the first move
spends its time searching. On a game clock (the session's, host/clock) each
search's time follows the clock left, the increment, and how long hands take
to carry the computer's moves out (`time`, host/computer/turns.py).

A draw offered to the computer (`Session.offer_draw`, bus update
"draw-offer") is answered by `engine.search.offers`: from its search's score
of the position as it stands: the score of its own search if it is thinking
about its move (answered when that ends), of the search behind its lit move,
or of a `DRAW_SEARCH` seconds' search on the person's turn. Accepted, the game
ends by agreement; declined, the reason is said. A move played meanwhile
lapses the offer, as at a table.

A hint (the page's button, the board's command menu) searches the best move
for the person to move for `HINT_SEARCH` seconds and lights it over the
game's frame for `HINT_SHOW` seconds, or until the board changes. On the
computer's turn it is refused: the page is told why; on the board it is said,
and the computer's move blinks for `REFUSED_SHOW` seconds: what to do instead,
as the pieces that must capture blink when another piece is lifted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Move
from engine.search.api import Analysis
from engine.search.offers import in_opening
from host.computer.opponent import ComputerMove, Opponent, OpponentError, SearchJob
from host.computer.turns import ComputerClock, answer_offer
from host.errors import UserError
from host.hints import Hint, blinking, move_hint
from host.live.bus import Update
from host.players import computer_levels
from host.session import Session

log = logging.getLogger(__name__)

#: seconds the hint's search may take (the opponent caps it)
HINT_SEARCH = 2.0
#: seconds a hint stays lit (unless the board changes first)
HINT_SHOW = 6.0
#: seconds the computer's move blinks when a hint is refused on its turn
REFUSED_SHOW = 4.0
#: seconds the computer searches a position on the person's turn to answer a draw offer
DRAW_SEARCH = 1.0

Post = Callable[[Callable[[], None]], Any]


@dataclass(frozen=True)
class _Asked:
    """What a search was asked about: the game as it stood, and why."""

    key: tuple[object, ...]
    purpose: str  # "move", "hint" or "draw" (a draw offer's evaluation)


@dataclass(frozen=True)
class _Shown:
    """A hint on the LEDs (or the computer's move blinking: a hint refused): the move,
    its frame, until when, on which position."""

    move: Move
    hint: Hint
    until: float
    key: tuple[object, ...]
    refusal: bool = False


class ComputerPlayer:
    """Plays the sides `session.players` gives the computer, through a person's hands."""

    def __init__(
        self,
        session: Session,
        opponent: Callable[[], Opponent],
        *,
        post: Post,
        clock: Callable[[], float],
    ) -> None:
        self.session = session
        self._make_opponent = opponent
        self._opponent: Opponent | None = None
        self.post = post
        self.clock = clock
        self._job: SearchJob | None = None
        self._asked: _Asked | None = None
        #: the computer's move waiting to be carried out on the board, and its text
        self.move: Move | None = None
        self.move_text: str | None = None
        self._shown: _Shown | None = None
        #: what the search behind the lit move saw (a draw offer is answered from it)
        self._lit: tuple[tuple[object, ...], Analysis] | None = None
        #: a draw offer waiting for the search about the computer's move: its position key
        self._offer: tuple[object, ...] | None = None
        #: its clock: the session's game clock (host/clock), with the hands' time measured
        self.time = ComputerClock()
        self.time.clock_of = self._game_clock
        self._unsubscribe = session.subscribe(self._follow)
        session.overlay = self._overlay

    # -- what watchers read -----------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        return self._job is not None and self._asked is not None and self._asked.purpose == "move"

    def state(self) -> dict[str, Any]:
        """For the page: who the computer plays, whether it thinks, the move to carry out,
        the hint shown (squares in the variant's numbering)."""
        session = self.session
        shown = self._current_hint(session._clock)
        return {
            "sides": computer_levels(session.players, session.config.computer_level),
            "thinking": self.thinking,
            "move": _move_data(self.move, self.move_text),
            "hint": (
                _move_data(shown.move, self._text(shown.move))
                if shown and not shown.refusal else None
            ),
        }

    # -- starting and stopping ---------------------------------------------------------------

    def start(self) -> None:
        """Look at the game as it stands (a resumed game may be the computer's turn)."""
        self._consider()

    @property
    def opponent(self) -> Opponent:
        """The search's worker, started the first time the computer thinks (a game between
        two people never starts it)."""
        if self._opponent is None:
            self._opponent = self._make_opponent()
        return self._opponent

    def close(self) -> None:
        self._stop()
        self._unsubscribe()
        if self._opponent is not None:
            self._opponent.close()
        if self.session.overlay == self._overlay:
            self.session.overlay = None

    def request_hint(self) -> None:
        """The best move for the person to move, lit for a few seconds and announced."""
        session = self.session
        if session.recogniser.outcome is not None:
            raise UserError("the game is over: there is no move to hint")
        if self._computer_to_move():
            if self.move is None:
                raise UserError("it is the computer's turn: wait for its move")
            raise UserError("it is the computer's turn: carry out its lit move")
        if self._job is not None and self._asked is not None and self._asked.purpose == "hint":
            return  # already looking
        if self._job is not None and self._asked is not None and self._asked.purpose == "draw":
            raise UserError("the computer is thinking about the draw offer")
        self._stop()
        self._asked = _Asked(self._key(), "hint")
        self._job = self.opponent.hint(
            session.game, HINT_SEARCH, on_result=self._answer_to(self._asked)
        )
        self._publish("thinking-hint")

    # -- following the game -----------------------------------------------------------------

    def _follow(self, update: Update) -> None:
        if update.kind == "hint-request":
            try:
                self.request_hint()
            except UserError as error:
                log.info("hint refused: %s", error)
                self._refuse_hint()
            return
        if update.kind == "draw-offer":
            self._draw_offered(update.data["side"])
            return
        if update.kind == "move" and self.time.waiting:  # only its move was allowed
            self.time.carried_out(float(update.data.get("finished", update.time)))
        if update.kind == "new-game" and self._opponent is not None:
            self._opponent.new_game()
        if update.kind in ("move", "takeback", "new-game", "outcome", "settings"):
            self._consider()
        elif update.kind == "notice" and update.data.get("notice") == "illegal-board":
            if self.move is not None:  # another move was carried out: say which one to play
                self.session.announcer.announce("computer-move-again", move=self.move_text)
        elif update.kind == "board" and self._shown is not None:
            self.session.redraw(self.clock())  # a hint goes as soon as a hand moves

    def _key(self) -> tuple[object, ...]:
        """What a search answers for: the variant, the position, how far the game has gone
        and who plays; any change makes an answer stale."""
        session = self.session
        game = session.game
        players = tuple(sorted(session.players.items()))
        return (game.variant.name, game.fen(), len(game.moves), players)

    def _computer_side(self) -> str | None:
        """The side the computer plays when it plays exactly one, else None."""
        session = self.session
        levels = computer_levels(session.players, session.config.computer_level)
        return next(iter(levels)) if len(levels) == 1 else None

    def _computer_to_move(self) -> int | None:
        """The computer's level if it is to move in a game that goes on, else None."""
        session = self.session
        if session.recogniser.outcome is not None:
            return None
        levels = computer_levels(session.players, session.config.computer_level)
        return levels.get(session.game.position.turn)

    def _consider(self) -> None:
        """After any change: drop what is stale, get the worker ready for a game with the
        computer, then think if it is the computer's turn."""
        key = self._key()
        if self._asked is not None and self._asked.key != key:
            self._stop()
        if self._shown is not None and self._shown.key != key:
            self._shown = None
        if self._offer is not None and self._offer != key:
            self._offer = None  # a move was played: the offer lapsed
        self._warm_up()
        level = self._computer_to_move()
        if level is None:
            if self.move is not None or self.session.recogniser.allowed is not None:
                self.move = self.move_text = None
                self.session.allow_only(self.clock(), None)
            return
        if self._asked is not None and self._asked.key == key:
            return  # already thinking about this very position
        if self.move is not None and self.session.recogniser.allowed:
            return  # its move is lit, waiting for the hands
        self.move = self.move_text = None
        now = self.clock()
        self.session.allow_only(now, [])  # nobody plays the computer's side meanwhile
        self._asked = _Asked(key, "move")
        try:
            side = self.session.game.position.turn
            self._job = self.opponent.start(self.session.game, level,
                                            clock=self.time.for_side(side),
                                            on_result=self._answer_to(self._asked))
        except (OpponentError, OSError, ValueError) as error:
            self._asked = None
            self._job = None
            self.session.allow_only(now, None)
            log.warning("the computer cannot play: %s", error)
            return
        self._publish("thinking")

    def _game_clock(self, side: str) -> tuple[float, float] | None:
        """`side`'s time left on the game's clock now and its increment (milliseconds),
        None in a game without a clock."""
        keeper = self.session.game_clock
        if keeper.clock is None or keeper.control is None:
            return None
        left = keeper.clock.remaining(side, self.clock())
        return max(0.0, left) * 1000, keeper.control.side(side).increment * 1000

    def _warm_up(self) -> None:
        """Start the worker and build the search for this variant when a game that goes on
        has a computer side: its first move then finds everything ready."""
        session = self.session
        if session.recogniser.outcome is not None:
            return
        if not computer_levels(session.players, session.config.computer_level):
            return
        try:
            self.opponent.prepare(session.game.variant)
        except (OpponentError, OSError) as error:
            log.warning("the computer's search cannot start: %s", error)

    def _stop(self) -> None:
        """Cancel the search in flight (its answer, if it still comes, is dropped)."""
        if self._job is not None:
            self._job.cancel()
        self._job = None
        self._asked = None

    def _refuse_hint(self) -> None:
        """A hint asked on the board and refused: say why and, once the computer's move is
        known, blink it (what to do instead)."""
        if self.session.recogniser.outcome is not None:
            return  # the menu does not open after the end: nothing to add to the end's lights
        if self.move is None:
            self.session.announcer.announce("hint-refused-thinking")
            return
        self.session.announcer.announce("hint-refused", move=self.move_text)
        now = self.clock()
        frame = blinking(move_hint(self.move))
        self._shown = _Shown(self.move, frame, now + REFUSED_SHOW, self._key(), refusal=True)
        self.session.redraw(now)

    # -- draw offers --------------------------------------------------------------------------

    def _draw_offered(self, side: str) -> None:
        """`side` offered the computer a draw: answer now, when its move search ends, or
        after a short search of its own."""
        session = self.session
        computer = self._computer_side()
        if session.recogniser.outcome is not None or computer is None or computer == side:
            return
        key = self._key()
        if in_opening(session.game):
            self._answer_offer(computer, None)
            return
        asked = self._asked
        if asked is not None and asked.key == key and asked.purpose in ("move", "draw"):
            if asked.purpose == "move":
                self._offer = key  # answered when its move search ends
            return
        if self._lit is not None and self._lit[0] == key and self._lit[1].depth > 0:
            self._answer_offer(computer, self._lit[1])  # (an only move was not searched)
            return
        self._stop()  # a hint can wait: the offer is answered first
        self._asked = _Asked(key, "draw")
        try:
            self._job = self.opponent.hint(session.game, DRAW_SEARCH,
                                           on_result=self._answer_to(self._asked))
        except (OpponentError, OSError, ValueError) as error:
            self._asked = self._job = None
            log.warning("the computer cannot weigh the draw offer: %s", error)
            self._answer_offer(computer, None)

    def _answer_offer(self, computer: str, analysis: Analysis | None) -> bool:
        return answer_offer(self.session, computer, analysis, self.clock())

    # -- answers ----------------------------------------------------------------------------

    def _answer_to(self, asked: _Asked | None) -> Callable[[ComputerMove], None]:
        """The callback for the search asked as `asked` (called in the opponent's thread):
        hands the answer to the loop, tied to the question it answers."""
        def deliver(computer: ComputerMove) -> None:
            self.post(lambda: self._arrived(asked, computer))

        return deliver

    def _arrived(self, asked: _Asked | None, computer: ComputerMove) -> None:
        """On the loop: use the answer only if it answers the game as it is now."""
        if asked is None or asked is not self._asked or asked.key != self._key():
            return  # cancelled, or the game moved on meanwhile: stale
        self._job = None
        self._asked = None
        now = self.clock()
        text = self._text(computer.move)
        if asked.purpose == "draw":
            side = self._computer_side()
            if side is not None:
                self._answer_offer(side, computer.analysis)
            return
        offered = self._offer == asked.key  # a draw offered while it thought
        self._offer = None
        if offered and computer.analysis.depth > 0 and self._answer_offer(
                self.session.game.position.turn, computer.analysis):
            return  # accepted: the game is over, its move is never lit
        if asked.purpose == "hint":
            self._shown = _Shown(computer.move, move_hint(computer.move), now + HINT_SHOW,
                                 asked.key)
            self.session.announcer.announce("hint", move=text)
            self._publish("hint")
            self.session.redraw(now)
            return
        self.move, self.move_text = computer.move, text
        self._lit = (asked.key, computer.analysis)
        self.time.lit(now)
        self.session.allow_only(now, [computer.move])
        self.session.announcer.announce(
            "computer-move", side=self.session.game.position.turn, move=text,
            level=computer.level,
        )
        self._publish("move")
        if offered and computer.analysis.depth == 0:  # its only move, unsearched
            self._draw_offered(_other(self.session.game.position.turn))

    # -- the hint's frame ---------------------------------------------------------------------

    def _current_hint(self, now: float) -> _Shown | None:
        shown = self._shown
        if shown is None:
            return None
        session = self.session
        # the recogniser's view: a spare piece that asked for the hint is not a change
        rec = session.recogniser
        still = rec.sensed == rec.expected and shown.key == self._key()
        if now >= shown.until or not still:
            self._shown = None
            return None
        return shown

    def _overlay(self, now: float) -> Hint | None:
        shown = self._current_hint(now)
        return shown.hint if shown is not None else None

    # -- telling ------------------------------------------------------------------------------

    def _text(self, move: Move) -> str:
        return self.session.game.position.move_text(move)

    def _publish(self, state: str) -> None:
        self.session.bus.publish("computer", self.clock(), state=state)


def _other(side: str) -> str:
    return "B" if side == "W" else "W"


def _move_data(move: Move | None, text: str | None) -> dict[str, Any] | None:
    if move is None:
        return None
    return {
        "text": text,
        "from": move.origin,
        "to": move.destination,
        "path": list(move.path),
        "captures": sorted(move.captures),
        "captured_order": list(move.captured_order) or sorted(move.captures),
    }
