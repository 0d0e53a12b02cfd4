"""Board commands with a spare piece (host/gestures/commands.py), carried out by the session.

The gesture detector reads the same snapshots as the recogniser, which must be
shown the board without the spare piece in use. What the detector asks for
(resign, offer or accept a draw, take back, the computer's level, a hint, a
variant from the start menu) goes through the session's own calls (`resign`,
`command`, `set_players`) where there is one, so the board, the keyboard and
the page do the same thing. Kept apart because the spare piece has to be
followed across a new game too: the piece that chose a variant may still
stand on the new board.

Mixed into `Session` (host/session/core.py), which holds the state it reads.
"""

from __future__ import annotations

from engine import Variant
from host.gestures.commands import GestureDetector, GestureEvent
from host.players import computer_levels, with_level
from host.recognition.recogniser import Recogniser


class BoardCommands:
    """The spare-piece gesture detector, and the bridge from its events to the session."""

    def _gesture_detector(
        self, variant: Variant, spare: int | None = None
    ) -> GestureDetector | None:
        """A detector for `variant`; `spare`: a spare piece already standing there (the one
        that chose this variant), ignored until it is taken off."""
        if not self.config.gestures:
            return None
        detector = GestureDetector(
            variant,
            hold=self.config.gesture_hold,
            level=self.computer_level(),
            timed=self.game_clock.timed,
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
            if not self.offer_draw(now, d["side"]):  # to the computer, or between people
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
        elif event.kind == "clock":  # an arbiter's stop, or the clock running again
            clock = self.game_clock.clock
            if clock is not None:
                self.pause_clock(now, not clock.paused)
        elif event.kind == "variant":
            self.announcer.announce("variant-chosen", variant=d["variant"])
            if d["variant"] != self.variant.name:
                self.next_variant = d["variant"]
        elif event.kind in ("menu", "menu-closed"):
            self.announcer.announce(event.kind)
