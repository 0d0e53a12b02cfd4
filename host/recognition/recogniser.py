"""The recogniser: switch snapshots in, committed moves, events and LED frames out.

It keeps a small set of stories that explain the switch history since the last
certain position (beam.py), commits exactly the plies every story within MARGIN
of the best agrees on (verdict.py) into the game (record.py), lights the LEDs
from the best story (display.py) and guides a board no story explains once it
has stayed GRACE (guide.py). Whole-board readings stand beside the stories: the
position before the last move set up again is a takeback, the initial position a
new game, once the board has stayed CALM; a crowned man lifted and put back
confirms the king.

Time is passed in (`observe(now, occupied, since)`), never read, so the live session and
the deterministic replay run the same code. No I/O: the caller journals,
announces and draws what it returns. docs/play.md describes the model.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Game, Move, Outcome, Position
from engine.position import Piece
from host.hints import Hint
from host.recognition import costs
from host.recognition.beam import EPS, Beam
from host.recognition.changes import ChangeLog
from host.recognition.codes import code_of, piece_of
from host.recognition.display import Display
from host.recognition.events import Event
from host.recognition.guide import Guide, unexplained
from host.recognition.record import GameRecord
from host.recognition.rules import geometry_for
from host.recognition.story import STRAY, Loose, Ply, Story
from host.recognition.turns import Context
from host.recognition.verdict import claims, rebased, verdict

#: a scan changing more squares than this is a board swept or set up: not hands
#: playing, so the stories start again from the game
SWEEP = 6


class Recogniser:
    """Follows one game from occupancy snapshots (squares in the variant's numbering)."""

    def __init__(
        self,
        game: Game,
        *,
        hint_level: str = "full",
        start: float = 0.0,
        touch_move: bool = False,
    ) -> None:
        self.variant = game.variant
        #: True: a released piece has moved (club play); False: a move may go on
        self.touch_move = touch_move
        self.record = GameRecord(game)
        self.display = Display(hint_level, geometry_for(self.variant))
        self.guide = Guide()
        self.log = ChangeLog(game.position.occupied(), start)
        self.initial = Position.from_fen(self.variant.initial_fen(), self.variant).occupied()
        #: the board a takeback command left to be put right (nothing read until it changes)
        self._block: frozenset[int] | None = None
        self._now = start
        #: until when the switches' reads have been accounted for (`observe`'s `since`)
        self._seen = start
        #: pieces a hand said it puts down next on a square (the simulator's tray)
        self._told: dict[int, Piece] = {}
        self.beam = Beam([self._fresh(start)])
        self._evaluate(start, [])

    # -- what it knows -----------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.record.game

    @property
    def outcome(self) -> Outcome | None:
        return self.record.outcome

    @property
    def allowed(self) -> tuple[Move, ...] | None:
        return self.record.allowed

    @property
    def correcting(self) -> bool:
        return self.guide.correcting

    @property
    def hint(self) -> Hint:
        return self.display.hint

    @property
    def now(self) -> float:
        """The time of the last call: the stories are ranked as of then."""
        return self._now

    @property
    def sensed(self) -> frozenset[int]:
        """The board as the switches show it."""
        return self.log.board

    @property
    def expected(self) -> frozenset[int]:
        """The squares the game says are occupied (forgotten captured pieces aside)."""
        return self.game.position.occupied()

    @property
    def lingering(self) -> frozenset[int]:
        """Captured pieces still on the board (forgotten), as the best story has them."""
        return self.beam.best(self._now).lingering_squares()

    @property
    def most_held(self) -> int:
        """The most stories held at once since the recogniser was made (a memory witness)."""
        return self.beam.most_held

    def pieces(self) -> dict[int, str]:
        """Every occupied square as sensed, with the piece standing there ("W", "B",
        "WK", "BK") as the best story explains the switch history (a piece from outside
        the game: the one the game has there, else a man of the side to move). A man
        just crowned is a man until the king is stacked on it (the crowning confirmed):
        the switches cannot see the king before."""
        best = self.beam.best(self._now)
        position = self.game.position
        shown: dict[int, str] = {}
        for square in sorted(self.sensed):
            piece = best.piece_at(square) or position.piece_at(square) or Piece(
                position.turn, False
            )
            if square == self.record.crown and piece.king:
                piece = Piece(piece.color, False)
            shown[square] = code_of(piece)
        return shown

    def placing(self, square: int, code: str) -> None:
        """A hand says the next piece it puts down on `square` is `code` ("W", "B", "WK",
        "BK"): the simulator's tray. A piece from outside the game put there is that one
        in every story. Raises ValueError for another code."""
        self._told[square] = piece_of(code)

    def forget_told(self, square: int) -> None:
        """`square` was emptied where this recogniser was not looking (a spare piece
        hidden from it): what a hand said it would put there is no longer news."""
        self._told.pop(square, None)

    def told(self, square: int) -> str | None:
        """The piece a hand said it puts down next on `square`, if it has not yet."""
        piece = self._told.get(square)
        return None if piece is None else code_of(piece)

    def awaiting_proof(self) -> bool:
        """Would a move be committed if the board stayed as it is? (A standing story has
        played more than is committed.) The clock waits for that before a flag falls."""
        if self._block == self.sensed or self.outcome is not None:
            return False
        first_open = self._context().first_open
        return any(len(claims(s)) > first_open for s in self.beam.within(self._now))

    # -- public calls --------------------------------------------------------------------------

    def observe(self, now: float, occupied: frozenset[int], since: float | None = None
                ) -> list[Event]:
        """Feed one snapshot; returns what happened (maybe nothing). Its changes happened
        after `since` (the last read of the switches without them), or at `now` (None)."""
        events: list[Event] = []
        self._now = now
        if since is not None:  # (the unread time, past a moment, proves no stillness)
            unseen = now - max(since, self._seen) - costs.TOGETHER
            self._seen = now
            if unseen > EPS:
                self.beam.unread(now, unseen)
        change = self.log.record(now, frozenset(occupied))
        if change is not None:
            if self._block is not None and self.sensed != self._block:
                self._block = None
            if self.display.check and (change.lifted | change.placed) - self.display.check:
                self.display.check = frozenset()  # play goes on: the reminder has done
            told = tuple(
                (sq, self._told.pop(sq)) for sq in sorted(change.placed) if sq in self._told
            )
            if len(change.lifted) + len(change.placed) > SWEEP:
                self.beam.replace([self._fresh(now)])
            else:
                lead = 0.0 if since is None else max(0.0, now - since)
                context = replace(self._context(), told=told, lead=lead)
                self.beam.advance(now, change.lifted, change.placed, context)
                if not self.beam.stories:
                    self.beam.replace([self._fresh(now)])
            physical = self.expected | self.lingering
            events += self.record.crowning(now, self.sensed, physical)
        self._evaluate(now, events)
        return events

    def tick(self, now: float) -> list[Event]:
        """Let time pass with the board unchanged."""
        return self.observe(now, self.sensed)

    def drain_frames(self) -> list[Hint]:
        """The frames shown since the last call, in order (a frame may last no time at
        all, e.g. the start-of-turn frame when the reply had already begun)."""
        return self.display.drain()

    def next_deadline(self) -> float | None:
        """When something may fall due if the board stays as it is (None: at rest)."""
        if self._block == self.sensed:
            return None
        due = [self.beam.next_change(self._now), self._board_level_due()]
        if not self.correcting and self.outcome is None:
            due.append(self.log.last + costs.GRACE)
        found = [t for t in due if t is not None and t > self._now + EPS]
        return min(found) if found else None

    def take_back(self, now: float) -> list[Event]:
        """The `takeback` command: undo the last move; the board is then guided back."""
        self._now = now
        if not self.game.moves:
            return [Event("nothing-to-take-back", now)]
        events = self.record.undo(now)
        self.beam.replace([self._fresh(now)])
        self._block = self.sensed
        self._guide_now(now, events)
        return events

    def new_game(self, now: float, game: Game) -> list[Event]:
        """The `new` command (or the initial set-up found on the board)."""
        self._now = now
        events = self.record.restart(now, game)
        self.display.check = frozenset()
        self.beam.replace([self._fresh(now, keep_lingering=False)])
        self._block = self.sensed if self.sensed != self.expected else None
        self._guide_now(now, events)
        return events

    def finish(self, now: float, winner: str | None, reason: str) -> list[Event]:
        """End the game by resignation or agreement."""
        self._now = now
        events = self.record.finish(now, winner, reason)
        self._evaluate(now, [])
        return events

    def allow_only(self, now: float, moves: list[Move] | None) -> list[Event]:
        """Accept only `moves` this turn (the computer's move to carry out; `[]` while it
        thinks; None lifts it). A committed move lifts it too. The lights show the
        allowed move at every hint level: it is an instruction, not help."""
        self._now = now
        self.record.allowed = None if moves is None else tuple(moves)
        if self.beam.reexplain(self._context().allowed) and not self.beam.stories:
            self.beam.replace([self._fresh(now)])
        events: list[Event] = []
        self._evaluate(now, events)
        return events

    def set_hint_level(self, now: float, level: str) -> list[Event]:
        """Show more or less help from now on; the current frame is redrawn at once."""
        self.display.hint_level = level
        events: list[Event] = []
        self._evaluate(now, events)
        return events

    def resume(self, now: float) -> list[Event]:
        """After a restart: guide the board to the journal's position straight away."""
        self._now = now
        self.beam.replace([self._fresh(now)])
        events: list[Event] = []
        self._guide_now(now, events)
        return events

    # -- the stories ---------------------------------------------------------------------------

    def _context(self) -> Context:
        allowed = self.record.allowed
        take, put = self.display.guided if self.correcting else (frozenset(), frozenset())
        return Context(
            touch_move=self.touch_move,
            allowed=None if allowed is None else frozenset(allowed),
            first_open=1 if self.game.moves else 0,
            take=take,
            put=put,
        )

    def _fresh(self, now: float, *, keep_lingering: bool = True) -> Story:
        """A story of the game as it stands, the board's other differences read as
        pieces put wrong (the board will be guided); forgotten captured pieces still
        standing are kept as such."""
        game, sensed, expected = self.game, self.sensed, self.expected
        plies: tuple[Ply, ...] = ()
        if game.moves:
            plies = (Ply(game.moves[-1], game.positions[-2], float("-inf")),)
        lingering: tuple[tuple[int, Piece], ...] = ()
        if keep_lingering and hasattr(self, "beam") and self.beam.stories:
            lingering = tuple(
                (sq, piece) for sq, piece in self.beam.best(now).lingering
                if sq in sensed and sq not in expected
            )
        board = expected | {sq for sq, _ in lingering}
        loose = [
            Loose(STRAY, game.position.piece_at(sq), sq, None, sq, now)
            for sq in sorted(expected - sensed)
        ]
        loose += [Loose(STRAY, None, None, sq, None, now) for sq in sorted(sensed - board)]
        return Story(plies, game.position, loose=tuple(loose), lingering=lingering,
                     acted=True, turn_began=now)

    # -- deciding --------------------------------------------------------------------------------

    def _evaluate(self, now: float, events: list[Event]) -> None:
        """Decide what the board means now and show it."""
        if self._block != self.sensed:
            if self._board_level(now, events):
                return
            if self.outcome is None:
                self._commit_agreed(now, events)
            found, right = self.guide.review(
                self.record, self.beam, self.display, self.sensed, self.log.still_for(now), now
            )
            events += found
            if right:
                events += self._finished_when_put_right(now)
                self.beam.replace([self._fresh(now)])
        if self.correcting and unexplained(self.beam, now):
            self.display.show(self.display.correction(self.record, self.beam, self.sensed, now),
                              self.record)
        else:
            events += self.display.current(self.record, self.beam, self._context(), now)

    def _commit_agreed(self, now: float, events: list[Event]) -> None:
        """Commit the plies the standing stories agree on; the stories that disagree
        with them are dropped, the rest counted from the last committed ply."""
        committed = self.record.last
        found = verdict(self.beam.within(now), committed)
        if found.kept is not None:
            events += self.record.finished_later(now, found.kept)
        if not found:
            return
        done: list[Move] = [] if committed is None else [committed]
        if found.corrected is not None:
            move, finished = found.corrected
            events += self.record.correct(now, move, finished)
            self._show_idle(now)
            done[-1] = move
        for move, finished in found.new:
            if self.outcome is not None:
                break
            events += self.record.commit(now, move, finished)
            self._show_idle(now)  # the start of the new turn, however short
            done.append(move)
        kept = [s for s in (rebased(s, tuple(done)) for s in self.beam.stories) if s is not None]
        self.beam.replace(kept or [self._fresh(now)])
        self.guide.correcting = False

    def _finished_when_put_right(self, now: float) -> list[Event]:
        """The board is right again and the stories start afresh: the last move was
        finished at the latest time a standing story says (its mover may have put it
        right; a piece of it back on its end square finishes it there), as a ply is
        committed (verdict.py)."""
        last = self.record.last
        if last is None:
            return []
        times = []
        for story in self.beam.within(now):
            if story.plies and story.plies[0].move == last:
                times.append(story.plies[0].finished)
            ply = story.ply
            if ply is not None and ply.was == last and ply.on == last.destination:
                times.append(ply.since)
        return self.record.finished_later(now, max(times)) if times else []

    def _show_idle(self, now: float) -> None:
        self.display.show(self.display.idle(self.record, self.lingering), self.record)

    def _guide_now(self, now: float, events: list[Event]) -> None:
        """Re-evaluate after the game changed under a still board; guide at once if wrong."""
        self._evaluate(now, events)
        if self.sensed - self.lingering != self.expected and self.outcome is None:
            self.guide.correcting = True
            self.display.show(self.display.correction(self.record, self.beam, self.sensed, now),
                              self.record)

    # -- whole-board readings ----------------------------------------------------------------------

    def _board_level_due(self) -> float | None:
        """When the takeback or new game the board shows would be read (CALM after it
        stopped changing), if it shows one."""
        board = self.sensed - self.lingering
        if board == self.record.previous() or self._set_up():
            return self.log.last + costs.CALM
        return None

    def _set_up(self) -> bool:
        """Does the board show the initial position, and the game is not it?"""
        return self.sensed == self.initial and (
            bool(self.game.moves) or self.expected != self.initial
        )

    def _board_level(self, now: float, events: list[Event]) -> bool:
        """The position before the last move, or the initial position, set up and left
        CALM: a takeback, or a new game. Returns whether it was."""
        if self.log.still_for(now) + EPS < costs.CALM:
            return False
        if self.sensed - self.lingering == self.record.previous() and self.game.moves:
            events += self.record.undo(now)
            self.beam.replace([self._fresh(now)])
            self._evaluate(now, events)
            return True
        if self._set_up():
            events += self.new_game(now, type(self.game)(self.variant))
            return True
        return False
