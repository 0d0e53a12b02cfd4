"""What the LEDs show, and when they are lit again.

One frame wins: a board command's menu (host/gestures/commands.py), else a frame the
computer opponent lays over the game (its hint), else the recogniser's. Kept
apart so the choice of frame, the blinking and the "leds" update the page draws
from are found in one place. A frame is published, and lit, only when it
changes (for the board, the blink phase included).

Mixed into `Session` (host/session/core.py), which holds the state it reads.
"""

from __future__ import annotations

from collections.abc import Callable

from host.hints import Hint, colour_frame

#: lights one frame on the board, square -> (r, g, b) (a session's `draw`; None: no LEDs)
Draw = Callable[[dict[int, tuple[int, int, int]]], None]
#: how long a blinking square stays on, then off (seconds)
BLINK_PERIOD = 0.4


class Leds:
    """Choose, publish and light the LED frame."""

    @property
    def hint(self) -> Hint:
        """What the LEDs show: a board command's menu over the game, else the game's hint."""
        overlay = self.gestures.hint if self.gestures is not None else None
        if overlay is None and self.overlay is not None:
            overlay = self.overlay(self._clock)
        return overlay if overlay is not None else self.recogniser.hint

    def redraw(self, now: float) -> None:
        """Light the LEDs again (an overlay appeared or went)."""
        self._clock = now
        self._redraw(now)

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
