"""Time controls: how much time each side gets, and the Fischer increment after each move.

Written as players and clubs write them: `5+3` (minutes + seconds added after each
move), `90+30`, `0.5+1`, `none`, and `5+3/2+3` for a handicap game (White's first).
PDN's `TimeControl` tag says the same in seconds (`300+3`), as lidraughts writes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from host.errors import UserError
from host.voice.request_errors import error_text

#: the longest main time and increment accepted (a day's play, a minute a move and then some)
MAX_MINUTES = 600
MAX_INCREMENT = 600
#: words meaning "no clock"
NONE_WORDS = ("none", "off", "no", "")

SIDES = ("W", "B")


class ClockError(UserError):
    """A time control that is not one: `code` (a key of host/voice/request_errors.py's
    `ERRORS`, "clock-...") and `params` say why, so a page says it in its own language."""

    def __init__(self, code: str, clock: str, **limits: object) -> None:
        self.code = code
        self.params: dict[str, object] = {"clock": clock, **limits}
        super().__init__(error_text(code, self.params))


@dataclass(frozen=True)
class SideTime:
    """One side's time: `main` seconds to start with, `increment` seconds after each move."""

    main: float
    increment: float

    def text(self) -> str:
        return f"{_number(self.main / 60)}+{_number(self.increment)}"

    def pdn(self) -> str:
        return f"{_number(self.main)}+{_number(self.increment)}"


@dataclass(frozen=True)
class TimeControl:
    """The time control of a game: White's time and Black's (the same unless handicapped)."""

    white: SideTime
    black: SideTime

    def side(self, colour: str) -> SideTime:
        return self.white if colour == "W" else self.black

    def text(self) -> str:
        """As `parse` reads it: `5+3`, or `5+3/2+3` when the sides differ."""
        if self.white == self.black:
            return self.white.text()
        return f"{self.white.text()}/{self.black.text()}"

    def pdn(self) -> str:
        """The PDN `TimeControl` tag (White's time when the sides differ)."""
        return self.white.pdn()

    def __str__(self) -> str:
        return self.text()


def parse_time_control(text: str | None) -> TimeControl | None:
    """`5+3`, `90+30`, `0.5+1`, `5` (no increment), `5+3/2+3` (White's, then Black's) or
    `none` (None: no clock). Raises `UserError` saying what is accepted."""
    if text is None:
        return None
    words = str(text).strip().lower()
    if words in NONE_WORDS:
        return None
    parts = words.replace(" ", "").split("/")
    if len(parts) > 2:
        raise ClockError("clock-too-many", str(text))
    sides = [_side(part, text) for part in parts]
    return TimeControl(sides[0], sides[-1])


def _side(part: str, original: str) -> SideTime:
    minutes, plus, increment = part.partition("+")
    try:
        main = float(minutes) * 60
        extra = float(increment) if plus else 0.0
    except ValueError:
        raise ClockError("clock-format", original) from None
    if not (math.isfinite(main) and math.isfinite(extra)):
        raise ClockError("clock-not-finite", original)
    if not 0 < main <= MAX_MINUTES * 60:
        raise ClockError("clock-main", original, max=MAX_MINUTES)
    if not 0 <= extra <= MAX_INCREMENT:
        raise ClockError("clock-increment", original, max=MAX_INCREMENT)
    return SideTime(main, extra)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def parse_pdn_time_control(text: str | None) -> TimeControl | None:
    """A PDN `TimeControl` tag (`300+3`, seconds; `-` or `?` for none), or None when it
    is not one this board can keep (periods of moves, `40/9000`, are not)."""
    if text is None:
        return None
    words = text.strip()
    if words in ("", "-", "?"):
        return None
    main, plus, increment = words.partition("+")
    try:
        seconds = float(main)
        extra = float(increment) if plus else 0.0
    except ValueError:
        return None
    if not (0 < seconds <= MAX_MINUTES * 60 and 0 <= extra <= MAX_INCREMENT):
        return None
    side = SideTime(seconds, extra)
    return TimeControl(side, side)


@dataclass(frozen=True)
class Preset:
    """A control offered by name in the page's new-game dialog."""

    key: str
    control: str
    source: str


#: The controls the page offers (docs/rules.md "Timed games" says where each comes from).
PRESETS: tuple[Preset, ...] = (
    Preset("classical", "80+60", "FMJD competition rules, Fischer rate: 1 h 20 min + 1 min a move"),
    Preset("rapid", "15+5", "rapid: 15 min + 5 s a move"),
    Preset("blitz", "5+3", "FMJD World Blitz Championship: 5 min + 3 s a move"),
    Preset("lightning", "3+2", "FMJD blitz play-offs and online cups: 3 min + 2 s a move"),
)
