"""The recogniser: switch snapshots in, committed moves, events and LED frames out.

It keeps a small set of stories that explain the switch history since the last
certain position (host/explanation/beam.py), commits exactly the plies every
story within MARGIN agrees on (verdict.py), lights the LEDs from the best story
(lights.py) and guides a board no story explains once it has stayed GRACE.
Whole-board readings stand beside the stories: the position before the last move
set up again is a takeback, the initial position a new game, once the board has
stayed CALM; a crowned man lifted and put back confirms the king.

Time is passed in (`observe(now, occupied)`), never read, so the live session and
the deterministic replay run the same code. No I/O: the caller journals,
announces and draws what it returns. docs/play.md describes the model.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import Game, Move, Outcome, Position
from engine.position import Piece
from host.explanation import costs
from host.explanation.beam import EPS, Beam
from host.explanation.changes import ChangeLog
from host.explanation.lights import (
    capture_alert,
    correction_hint,
    done_hint,
    end_hint,
    idle_hint,
    underway_hint,
)
from host.explanation.rules import TurnRules, geometry_for, rules_for
from host.explanation.story import Ply, Story
from host.explanation.turns import Context, compatible
from host.explanation.verdict import claims, rebased, verdict
from host.hints import Hint, filter_level
from host.recognition.events import Event

#: a scan changing more squares than this is a board swept or set up: not hands
#: playing, so the stories start again from the game (pieces doubted)
SWEEP = 6
#: frames kept for a caller that never drains them
FRAMES_KEPT = 64


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
        self.game = game
        self.variant = game.variant
        self.hint_level = hint_level
        #: True: a released piece has moved (club play); False: a move may go on
        self.touch_move = touch_move
        self.geometry = geometry_for(self.variant)
        self.initial: frozenset[int] = Position.from_fen(
            self.variant.initial_fen(), self.variant
        ).occupied()
        self.outcome: Outcome | None = game.outcome()
        #: the only moves accepted this turn (None: every legal move); see `allow_only`
        self.allowed: tuple[Move, ...] | None = None
        self.crown: int | None = None
        self._crown_lifted = False
        self.correcting = False
        #: squares lit "check the colours" after a correction the switches cannot confirm
        self.check: frozenset[int] = frozenset()
        self.hint = Hint()
        self._frames: list[Hint] = []
        self._alerted = False
        self._block: frozenset[int] | None = None
        #: the squares the lights last asked to take a piece from and put one on
        self._guided: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
        self._now = start
        self.log = ChangeLog(game.position.occupied(), start)
        self.beam = Beam([self._fresh(start)])
        self._evaluate(start, [])

    # -- what it knows ---------------------------------------------------------------------

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

    def pieces(self) -> dict[int, str]:
        """Every occupied square as sensed, with the piece standing there ("W", "B",
        "WK", "BK") as the best story explains the switch history."""
        best = self.beam.best(self._now)
        shown: dict[int, str] = {}
        for square in sorted(self.sensed):
            piece = best.piece_at(square) or self.game.position.piece_at(square)
            if piece is None:
                piece = Piece(self.game.position.turn, False)
            shown[square] = piece.color + ("K" if piece.king else "")
        return shown

    # -- public calls ------------------------------------------------------------------------

    def observe(self, now: float, occupied: frozenset[int]) -> list[Event]:
        """Feed one snapshot; returns what happened (maybe nothing)."""
        events: list[Event] = []
        self._now = now
        change = self.log.record(now, frozenset(occupied))
        if change is not None:
            if self._block is not None and self.sensed != self._block:
                self._block = None
            if self.check and (change.lifted | change.placed) - self.check:
                self.check = frozenset()
            if len(change.lifted) + len(change.placed) > SWEEP:
                self.beam.replace([self._fresh(now)])
            else:
                self.beam.advance(now, change.lifted, change.placed, self._context())
                if not self.beam.stories:
                    self.beam.replace([self._fresh(now)])
            self._crowning(now, events)
        self._evaluate(now, events)
        return events

    def tick(self, now: float) -> list[Event]:
        """Let time pass with the board unchanged."""
        return self.observe(now, self.sensed)

    def drain_frames(self) -> list[Hint]:
        """The frames shown since the last call, in order."""
        frames, self._frames = self._frames, []
        return frames

    def next_deadline(self) -> float | None:
        """When something may fall due if the board stays as it is (None: at rest)."""
        if self._block == self.sensed:
            return None
        now = self._now
        found = [t for t in (self._beam_change(), self._board_level_due(), self._grace_due())
                 if t is not None and t > now + EPS]
        return min(found) if found else None

    def take_back(self, now: float) -> list[Event]:
        """The `takeback` command: undo the last move; the board is then guided back."""
        self._now = now
        if not self.game.moves:
            return [Event("nothing-to-take-back", now)]
        events: list[Event] = []
        self._undo(now, events)
        self._block = self.sensed
        self._guide_now(now, events)
        return events

    def new_game(self, now: float, game: Game) -> list[Event]:
        """The `new` command (or the initial set-up found on the board)."""
        self._now = now
        self.game = game
        self.outcome = game.outcome()
        self.crown = None
        self.check = frozenset()
        self.allowed = None
        self.beam.replace([self._fresh(now, keep_lingering=False)])
        events = [Event("new-game", now, {"fen": game.fen(), "side": game.position.turn})]
        self._block = self.sensed if self.sensed != self.expected else None
        self._guide_now(now, events)
        return events

    def finish(self, now: float, winner: str | None, reason: str) -> list[Event]:
        """End the game by resignation or agreement."""
        self._now = now
        self.outcome = Outcome(winner, reason)
        events = [Event("outcome", now, {"winner": winner, "reason": reason})]
        self._evaluate(now, [])
        return events

    def allow_only(self, now: float, moves: list[Move] | None) -> list[Event]:
        """Accept only `moves` this turn (the computer's move to carry out; `[]` while it
        thinks; None lifts it). A new turn lifts it too. The lights show the allowed
        move at every hint level: it is an instruction, not help."""
        self._now = now
        self.allowed = None if moves is None else tuple(moves)
        events: list[Event] = []
        self._evaluate(now, events)
        return events

    def set_hint_level(self, now: float, level: str) -> list[Event]:
        """Show more or less help from now on; the current frame is redrawn at once."""
        self.hint_level = level
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
        allowed = None if self.allowed is None else frozenset(self.allowed)
        take, put = self._guided if self.correcting else (frozenset(), frozenset())
        return Context(
            touch_move=self.touch_move,
            allowed=allowed,
            first_open=1 if self.game.moves else 0,
            take=take,
            put=put,
        )

    def _fresh(self, now: float, *, keep_lingering: bool = True) -> Story:
        """A story of the game as it stands, with whatever the board shows besides: the
        squares that differ are pieces put wrong (the board will be guided)."""
        from host.explanation.story import STRAY, Loose

        game = self.game
        plies: tuple[Ply, ...] = ()
        if game.moves:
            plies = (Ply(game.moves[-1], game.positions[-2], float("-inf")),)
        lingering: tuple[tuple[int, Piece], ...] = ()
        if keep_lingering and hasattr(self, "beam") and self.beam.stories:
            best = self.beam.best(now)
            lingering = tuple(
                (sq, p) for sq, p in best.lingering if sq in self.sensed and sq not in
                self.expected
            )
        board = self.expected | {sq for sq, _ in lingering}
        sensed = self.sensed
        loose = [
            Loose(STRAY, game.position.piece_at(sq), sq, None, sq, now)
            for sq in sorted(board - sensed)
            if sq in self.expected
        ]
        lingering = tuple((sq, p) for sq, p in lingering if sq in sensed)
        loose += [Loose(STRAY, None, None, sq, None, now) for sq in sorted(sensed - board)]
        return Story(plies, game.position, loose=tuple(loose), lingering=lingering,
                     acted=True, turn_began=now)

    def _beam_change(self) -> float | None:
        return self.beam.next_change(self._now)

    # -- deciding --------------------------------------------------------------------------------

    def _evaluate(self, now: float, events: list[Event]) -> None:
        """Decide what the board means now and show it."""
        if self._block == self.sensed:
            self._light(now, events)
            return
        if self._board_level(now, events):
            return
        if self.outcome is None:
            self._commit_agreed(now, events)
        self._guide(now, events)
        self._light(now, events)

    def _commit_agreed(self, now: float, events: list[Event]) -> None:
        within = self.beam.within(now)
        best = within[0]
        committed = self.game.moves[-1] if self.game.moves else None
        found = verdict(within, best, committed)
        if not found:
            return
        done: list[Move] = []
        if committed is not None:
            done.append(committed)
        if found.corrected is not None:
            move, finished = found.corrected
            self._correct(now, move, finished, events)
            done[-1] = move
        for move, finished in found.new:
            if self.outcome is not None:
                break
            self._commit(now, move, finished, events)
            done.append(move)
        kept = [s for s in (rebased(s, tuple(done)) for s in self.beam.stories) if s is not None]
        self.beam.replace(kept or [self._fresh(now)])
        self.correcting = False

    def _commit(self, now: float, move: Move, finished: float, events: list[Event]) -> None:
        before = self.game.position
        text, side = before.move_text(move), before.turn
        self.game.push(move)
        self.allowed = None
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self._alerted = False
        self.outcome = self.game.outcome()
        events.append(Event("move", now, self._move_data(text, side, move, finished)))
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())  # the start of the new turn, however short
        self._announce_outcome(now, events)

    def _correct(self, now: float, move: Move, finished: float, events: list[Event]) -> None:
        """The last move went on to `move` (same piece): replace it."""
        was = self.game.position
        undone = self.game.pop()
        before = self.game.position
        was_text = before.move_text(undone)
        del was
        text, side = before.move_text(move), before.turn
        self.game.push(move)
        self.crown = move.destination if move.promotes else None
        self._crown_lifted = False
        self.outcome = self.game.outcome()
        data = self._move_data(text, side, move, finished)
        data["was"] = was_text
        data["fen_before"] = before.fen()
        events.append(Event("move-corrected", now, data))
        if self.crown is not None:
            events.append(Event("crown", now, {"square": self.crown}))
        self._show(self._idle_hint())
        self._announce_outcome(now, events)

    def _move_data(self, text: str, side: str, move: Move, finished: float) -> dict[str, Any]:
        return {
            "move": text,
            "fen": self.game.fen(),
            "side": side,
            "from": move.origin,
            "to": move.destination,
            "captures": sorted(move.captures),
            "ply": len(self.game.moves),
            "finished": finished,
        }

    def _announce_outcome(self, now: float, events: list[Event]) -> None:
        if self.outcome is not None:
            data = {"winner": self.outcome.winner, "reason": self.outcome.reason}
            events.append(Event("outcome", now, data))

    def _undo(self, now: float, events: list[Event]) -> None:
        undone = self.game.pop()
        text = self.game.position.move_text(undone)
        self.outcome = None
        self.crown = None
        self.allowed = None
        self.beam.replace([self._fresh(now)])
        events.append(Event("takeback", now, {"move": text, "fen": self.game.fen()}))

    # -- whole-board readings ----------------------------------------------------------------------

    def _previous(self) -> frozenset[int] | None:
        game = self.game
        return game.positions[-2].occupied() if len(game.positions) >= 2 else None

    def _board_level_due(self) -> float | None:
        board = self.sensed - self.lingering
        if board == self._previous() or (
            self.sensed == self.initial and (self.game.moves or self.expected != self.initial)
        ):
            return self.log.last + costs.CALM
        return None

    def _board_level(self, now: float, events: list[Event]) -> bool:
        """The position before the last move, or the initial position, set up and left
        CALM: a takeback, or a new game. Returns whether it was."""
        if self.log.still_for(now) + EPS < costs.CALM:
            return False
        board = self.sensed - self.lingering
        if board == self._previous() and self.game.moves:
            self._undo(now, events)
        elif self.sensed == self.initial and (self.game.moves or self.expected != self.initial):
            events.extend(self.new_game(now, type(self.game)(self.variant)))
            return True
        else:
            return False
        self._evaluate(now, events)
        return True

    def _crowning(self, now: float, events: list[Event]) -> None:
        """The crowned man lifted (to stack a king on it) and put back: confirmed."""
        if self.crown is None or self.outcome is not None:
            return
        physical = self.expected | self.lingering
        if self.sensed == physical - {self.crown}:
            self._crown_lifted = True
        elif self.sensed == physical and self._crown_lifted:
            events.append(Event("crown-confirmed", now, {"square": self.crown}))
            self.crown = None
            self._crown_lifted = False

    # -- guiding -----------------------------------------------------------------------------------

    def _grace_due(self) -> float | None:
        if self.correcting or self.outcome is not None:
            return None
        return self.log.last + costs.GRACE

    def _unexplained(self, now: float) -> bool:
        """Does the board need putting right? When the best story needs a piece where
        no hand would leave it; or when two stories fit a board at rest (no ply
        underway in either) and disagree on what was played: the hands will not tell
        them apart any more."""
        if self.beam.best(now).wrong(now):
            return True
        within = self.beam.within(now)
        if any(story.ply is not None for story in within):
            return False
        runs = {claims(story) for story in within}
        return len(runs) > 1

    def _guide(self, now: float, events: list[Event]) -> None:
        if (
            not self.correcting
            and self.outcome is None
            and self.log.still_for(now) + EPS >= costs.GRACE
            and self._unexplained(now)
        ):
            self.correcting = True
            self._show(self._correction_hint(now))
            board = self.sensed - self.lingering
            missing, extra = sorted(self.expected - board), sorted(board - self.expected)
            events.append(Event("illegal-board", now, {"missing": missing, "extra": extra}))
        if self.correcting and self.sensed - self.lingering == self.expected:
            self._board_right(now, events)

    def _board_right(self, now: float, events: list[Event]) -> None:
        """The board matches the game again after a correction: say so, unless the
        standing stories disagree about whose piece stands where (check the colours)."""
        self.correcting = False
        target = self.game.position.pieces()
        doubtful = frozenset(
            sq
            for story in self.beam.within(now)
            for sq in target
            if (piece := story.piece_at(sq)) is not None and piece != target[sq]
        )
        if doubtful:
            self.check = doubtful
            events.append(Event("check-colours", now, {"squares": sorted(doubtful)}))
        else:
            events.append(Event("board-ok", now))
        self.beam.replace([self._fresh(now)])

    def _guide_now(self, now: float, events: list[Event]) -> None:
        """Re-evaluate after the game changed under a still board; guide at once if wrong."""
        self._evaluate(now, events)
        if self.sensed - self.lingering != self.expected and self.outcome is None:
            self.correcting = True
            self._show(self._correction_hint(now))

    # -- lights ------------------------------------------------------------------------------

    def _rules(self, story: Story) -> TurnRules:
        return self._context().rules(story)

    def _light(self, now: float, events: list[Event]) -> None:
        best = self.beam.best(now)
        if self.outcome is not None:
            self._show(self._idle_hint())
            return
        if self.correcting and self._unexplained(now):
            self._show(self._correction_hint(now))
            return
        ply = best.ply
        if ply is not None and (ply.lifted or ply.removed):
            rules = self._rules(best)
            if ply.lifted and ply.on is None and not compatible(rules, ply):
                self._no_move(best, rules, now, events)
                return
            self._alerted = False
            hint = underway_hint(best, rules)
        elif len(best.plies) > (1 if self.game.moves else 0):
            last = best.plies[-1]
            hint = done_hint(best, last.move, rules_for(last.before))
        else:
            self._alerted = False
            hint = self._idle_hint(best)
        self._show(self._with_forgotten(hint, now))

    def _no_move(self, best: Story, rules: TurnRules, now: float, events: list[Event]) -> None:
        """A piece that may not move is in the air: no destinations at all; while a
        capture is mandatory, the pieces that must capture flash, and it is said once."""
        ply = best.ply
        assert ply is not None
        mine = best.position.piece_at(ply.origin) if ply.origin is not None else None
        if rules.must_capture and mine is not None and mine.color == rules.side:
            if not self._alerted:
                self._alerted = True
                events.append(
                    Event("capture-mandatory", now, {"squares": sorted(rules.must_capture)})
                )
            self._show(capture_alert(rules, best.lingering_squares()))
        else:
            self._show(self._idle_hint(best))

    def _idle_hint(self, best: Story | None = None) -> Hint:
        if self.outcome is not None:
            return end_hint(self.game.position, self.outcome, self.geometry)
        story = best or self.beam.best(self._now)
        rules = rules_for(
            self.game.position, None if self.allowed is None else frozenset(self.allowed)
        )
        return idle_hint(
            rules,
            crown=self.crown,
            last_move=self.game.moves[-1] if self.game.moves else None,
            lingering=story.lingering_squares(),
            check=self.check,
            allowed=self.allowed or (),
        )

    def _correction_hint(self, now: float) -> Hint:
        """The next pair of squares to put right (kept as what the player was last told:
        a piece they then put where the lights asked is explained by it)."""
        within = self.beam.within(now)
        pieces_at: dict[int, frozenset[Piece | None]] = {}
        for square in self.sensed:
            pieces_at[square] = frozenset(story.piece_at(square) for story in within)
        hint = correction_hint(
            self.game.position.pieces(), self.sensed, self.lingering, pieces_at, self.geometry
        )
        wrong = {sq for sq, role in hint.roles.items() if role == "wrong"}
        self._guided = (frozenset(wrong & hint.blink), frozenset(wrong - hint.blink))
        return hint

    def _with_forgotten(self, hint: Hint, now: float) -> Hint:
        """`hint` with every captured piece a standing story has forgotten lit `remove`
        (where the stories disagree which capture it was, the pieces of each)."""
        extra = {
            sq for story in self.beam.within(now) for sq in story.lingering_squares()
            if sq not in hint.roles
        }
        if not extra:
            return hint
        roles = dict(hint.roles)
        roles.update(dict.fromkeys(extra, "remove"))
        return Hint(dict(sorted(roles.items())), hint.blink)

    def _show(self, hint: Hint) -> None:
        rules = rules_for(self.game.position)
        level = "full" if self.allowed else self.hint_level  # an allowed move is an order
        shown = filter_level(hint, level, bool(rules.must_capture))
        if self._frames and self._frames[-1] == shown:
            self.hint = shown
            return
        self.hint = shown
        if len(self._frames) >= FRAMES_KEPT:
            del self._frames[0]
        self._frames.append(shown)


__all__ = ["Recogniser", "Event", "claims", "replace"]
