"""Which frame the LEDs show now, chosen from the best story (frames: lights.py).

`Display` keeps what the player is shown: the frame for the board's state at the
hint level (an allowed move, the computer's, is an order: shown at every level),
the frames shown since the caller last drained them, the squares whose colours to
check after a correction, and the pair of squares a correction asked for last
(a piece put where the lights asked is explained by it). Its inputs are explicit:
the committed game (record.py), the stories (beam.py) and the time.
"""

from __future__ import annotations

from engine.position import Piece
from host.hints import Hint, filter_level
from host.recognition.beam import Beam
from host.recognition.events import Event
from host.recognition.lights import (
    capture_alert,
    correction_hint,
    done_hint,
    end_hint,
    idle_hint,
    underway_hint,
)
from host.recognition.record import GameRecord
from host.recognition.rules import Geometry, rules_for
from host.recognition.story import Story
from host.recognition.turns import Context, compatible

#: frames kept for a caller that never drains them
FRAMES_KEPT = 64


class Display:
    """The frame shown, and the frames since the last drain."""

    def __init__(self, hint_level: str, geometry: Geometry) -> None:
        self.hint_level = hint_level
        self.geometry = geometry
        self.hint = Hint()
        self.frames: list[Hint] = []
        #: squares lit "check the colours" after a correction the switches cannot confirm
        self.check: frozenset[int] = frozenset()
        #: the squares a correction last asked to take a piece from and put one on
        self.guided: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
        self._alerted = False

    def show(self, hint: Hint, record: GameRecord) -> None:
        """Show `hint` at the hint level (its frame kept for the caller to drain)."""
        capture_turn = bool(rules_for(record.game.position).must_capture)
        level = "full" if record.allowed else self.hint_level
        shown = filter_level(hint, level, capture_turn)
        self.hint = shown
        if self.frames and self.frames[-1] == shown:
            return
        if len(self.frames) >= FRAMES_KEPT:
            del self.frames[0]
        self.frames.append(shown)

    def drain(self) -> list[Hint]:
        frames, self.frames = self.frames, []
        return frames

    def idle(self, record: GameRecord, lingering: frozenset[int]) -> Hint:
        """Nothing underway: the game's own frame (or its end pattern)."""
        if record.outcome is not None:
            return end_hint(record.game.position, record.outcome, self.geometry)
        allowed = None if record.allowed is None else frozenset(record.allowed)
        return idle_hint(
            rules_for(record.game.position, allowed),
            crown=record.crown,
            last_move=record.last,
            lingering=lingering,
            check=self.check,
            allowed=record.allowed or (),
        )

    def correction(self, record: GameRecord, beam: Beam, sensed: frozenset[int],
                   now: float) -> Hint:
        """The next pair of squares to put right, the piece lifted going where that very
        piece belongs (as the standing stories have it); kept as what was asked."""
        within = beam.within(now)
        pieces_at: dict[int, frozenset[Piece | None]] = {
            square: frozenset(story.piece_at(square) for story in within) for square in sensed
        }
        lingering = beam.best(now).lingering_squares()
        hint = correction_hint(
            record.game.position.pieces(), sensed, lingering, pieces_at, self.geometry
        )
        wrong = {sq for sq, role in hint.roles.items() if role == "wrong"}
        self.guided = (frozenset(wrong & hint.blink), frozenset(wrong - hint.blink))
        return hint

    def current(self, record: GameRecord, beam: Beam, ctx: Context, now: float) -> list[Event]:
        """Show the frame for the best story now (the game's end pattern once over);
        returns the capture alert when it is said."""
        best = beam.best(now)
        if record.outcome is not None:
            self.show(self.idle(record, best.lingering_squares()), record)
            return []
        ply = best.ply
        events: list[Event] = []
        if ply is not None and (ply.lifted or ply.removed):
            rules = ctx.rules(best)
            if ply.lifted and ply.on is None and not compatible(rules, ply):
                return self._no_move(record, best, ctx, now)
            hint = underway_hint(best, rules)
        elif len(best.plies) > ctx.first_open:
            last = best.plies[-1]
            hint = done_hint(best, last.move, rules_for(last.before))
        else:
            hint = self.idle(record, best.lingering_squares())
        self._alerted = False
        self.show(_with_forgotten(hint, beam.within(now)), record)
        return events

    def _no_move(self, record: GameRecord, best: Story, ctx: Context, now: float) -> list[Event]:
        """A piece that may not move is in the air: no destinations at all; while a
        capture is mandatory, the pieces that must capture flash, and it is said once."""
        ply = best.ply
        assert ply is not None and ply.origin is not None
        rules = ctx.rules(best)
        piece = best.position.piece_at(ply.origin)
        if not rules.must_capture or piece is None or piece.color != rules.side:
            self.show(self.idle(record, best.lingering_squares()), record)
            return []
        self.show(capture_alert(rules, best.lingering_squares()), record)
        if self._alerted:
            return []
        self._alerted = True
        return [Event("capture-mandatory", now, {"squares": sorted(rules.must_capture)})]


def _with_forgotten(hint: Hint, within: list[Story]) -> Hint:
    """`hint` with every captured piece a standing story has forgotten lit `remove`
    (where the stories disagree which capture it was, the pieces of each)."""
    extra = {
        sq for story in within for sq in story.lingering_squares() if sq not in hint.roles
    }
    if not extra:
        return hint
    roles = dict(hint.roles)
    roles.update(dict.fromkeys(extra, "remove"))
    return Hint(dict(sorted(roles.items())), hint.blink)
