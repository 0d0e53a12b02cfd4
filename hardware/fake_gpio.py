"""A look-alike of the RPi.GPIO module wired to a reed-switch matrix, for tests and the bench.

`FakeGPIO` knows which pins are rows and columns, which switches are closed,
whether each switch has its diode, lets a contact bounce, and lets a column
recharge after a row releases it. Reading a column walks the circuit the way
current would, so a scanner that drives two rows, forgets a pull-up, leaves
out the diodes or reads too soon gets the same wrong answers as on a real
board. It copies RPi.GPIO 0.7.1 where that is strict (see FakeGPIO), and
`LgpioError` is lgpio's exception, for rpi-lgpio's failures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from hardware.layout import Layout

Switch = tuple[int, int]  # (row, column)


#: RuntimeError texts RPi.GPIO 0.7.1 raises from setup() (source/py_gpio.c, mmap_gpio_mem).
RPI_GPIO_NO_DEV_MEM = "No access to /dev/mem.  Try running as root!"
RPI_GPIO_NO_PERI_BASE = "Cannot determine SOC peripheral base address"


class LgpioError(Exception):
    """lgpio 0.2.2.0's `lgpio.error`: a bare Exception whose str() is the repr of its text."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value

    def __str__(self) -> str:
        return repr(self.value)


LgpioError.__module__ = "lgpio"
LgpioError.__qualname__ = LgpioError.__name__ = "error"


class FakeGPIO:
    """An RPi.GPIO-compatible module simulating a switch matrix electrically.

    Strict where the real library is (RPi.GPIO 0.7.1 source/py_gpio.c): setup()
    checks its arguments with the same ValueError texts, an output set up
    without `initial` keeps the level its latch last had (HIGH here before any
    write) rather than going LOW, and `fail` makes setmode() or setup() raise
    what a misconfigured Pi raises. Physics the tests need: a column pulled low
    by a driven row needs `column_settle` seconds to read high again once the
    row is released. Time is the fake's own, advanced only by `wait` (give the
    scanner `wait=gpio.wait`), or real time when a `clock` is given (dry runs).
    """

    BCM = 11
    BOARD = 10
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_DOWN = 21
    PUD_UP = 22

    def __init__(
        self,
        layout: Layout,
        *,
        diodes: bool = True,
        column_settle: float = 5e-6,
        fail: tuple[str, BaseException] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.layout = layout
        self.diodes = diodes
        self.column_settle = column_settle
        self.fail = fail
        self.mode: int | None = None
        self.closed: set[Switch] = set()
        self.setup_calls = 0
        self.most_rows_driven = 0
        self.cleaned: list[int] = []
        self._clock = clock
        self._virtual = 0.0
        self._row_of_pin = {pin: r for r, pin in enumerate(layout.row_pins)}
        self._column_of_pin = {pin: c for c, pin in enumerate(layout.column_pins)}
        self._direction: dict[int, int] = {}
        self._pull: dict[int, int] = {}
        self._level: dict[int, int] = {}
        self._latch: dict[int, int] = {}
        self._released_at: dict[int, float] = {}  # column -> when its last sink let go
        self._bounce: dict[Switch, tuple[int, int]] = {}  # switch -> (scans left, total)
        self._flipped: set[Switch] = set()

    @property
    def now(self) -> float:
        return self._clock() if self._clock is not None else self._virtual

    def wait(self, seconds: float) -> None:
        """Time passes on the fake's clock (the scanner's settle wait in tests)."""
        if self._clock is None:
            self._virtual += seconds
            return
        end = self._clock() + seconds
        while self._clock() < end:
            pass

    # -- the hands' side -----------------------------------------------------------

    def switch_of_square(self, square: int) -> Switch:
        index = self.layout.sensor_squares.index(square)
        return divmod(index, self.layout.columns)

    def set_squares(self, squares: Iterable[int]) -> None:
        """Close exactly the switches under `squares` (no bounce)."""
        self.closed = {self.switch_of_square(s) for s in squares}

    def close_switch(self, square: int, bounce: int = 0) -> None:
        """A magnet arrives over `square`; the contact chatters for `bounce` row scans."""
        switch = self.switch_of_square(square)
        self.closed.add(switch)
        if bounce:
            self._bounce[switch] = (bounce, bounce)

    def open_switch(self, square: int, bounce: int = 0) -> None:
        """A magnet leaves `square`; the contact chatters for `bounce` row scans."""
        switch = self.switch_of_square(square)
        self.closed.discard(switch)
        if bounce:
            self._bounce[switch] = (bounce, bounce)

    # -- the RPi.GPIO API ------------------------------------------------------------

    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        self._maybe_fail("setmode")
        if self.mode is not None and mode != self.mode:
            raise ValueError("A different mode has already been set!")
        if mode not in (self.BCM, self.BOARD):
            raise ValueError("An invalid mode was passed to setmode()")
        self.mode = mode

    def getmode(self) -> int | None:
        return self.mode

    def setup(
        self,
        channel: int | Sequence[int],
        direction: int,
        pull_up_down: int = PUD_OFF,
        initial: int | None = -1,
    ) -> None:
        self._maybe_fail("setup")
        if self.mode is None:
            raise RuntimeError(
                "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                "GPIO.setmode(GPIO.BCM)"
            )
        given = initial is not None and initial != -1
        if direction not in (self.IN, self.OUT):
            raise ValueError("An invalid direction was passed to setup()")
        if direction == self.OUT and pull_up_down != self.PUD_OFF:
            raise ValueError("pull_up_down parameter is not valid for outputs")
        if direction == self.IN and given:
            raise ValueError("initial parameter is not valid for inputs")
        if pull_up_down not in (self.PUD_OFF, self.PUD_UP, self.PUD_DOWN):
            raise ValueError(
                "Invalid value for pull_up_down - should be either PUD_OFF, PUD_UP or PUD_DOWN"
            )
        channels = [channel] if isinstance(channel, int) else list(channel)
        for pin in channels:
            if not isinstance(pin, int):
                raise ValueError("Channel must be an integer")
            self.setup_calls += 1
            was_driving = self._direction.get(pin) == self.OUT
            if was_driving and direction == self.IN:
                self._release(pin)
            self._direction[pin] = direction
            self._pull[pin] = pull_up_down
            if direction == self.OUT:
                # RPi.GPIO writes the level only when `initial` is given; otherwise the
                # pin drives whatever its output latch last held.
                level = int(bool(initial)) if given else self._latch.get(pin, self.HIGH)
                self._set_output(pin, level)
            else:
                self._level.pop(pin, None)

    def output(self, channel: int, value: int) -> None:
        if self._direction.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        if not value:
            self._set_output(channel, self.LOW)
        else:
            self._release(channel)
            self._set_output(channel, self.HIGH)

    def input(self, channel: int) -> int:
        if channel not in self._direction:
            raise RuntimeError("You must setup() the GPIO channel first")
        if self._direction[channel] == self.OUT:
            return self._level[channel]
        column = self._column_of_pin.get(channel)
        if column is not None and self._sinks_to_low_row(column):
            return self.LOW
        recharging = column is not None and (
            self.now - self._released_at.get(column, -1.0) < self.column_settle
        )
        if recharging:
            return self.LOW  # still recharging through the pull-up after the last row let go
        if self._pull[channel] == self.PUD_UP:
            return self.HIGH
        raise RuntimeError(f"GPIO{channel} is floating: an input with no pull-up reads noise")

    def cleanup(self, channel: int | Sequence[int] | None = None) -> None:
        pins = (
            list(self._direction)
            if channel is None
            else ([channel] if isinstance(channel, int) else list(channel))
        )
        for pin in pins:
            if self._direction.get(pin) == self.OUT:
                self._release(pin)
            self._direction.pop(pin, None)
            self._level.pop(pin, None)
            self.cleaned.append(pin)

    # -- the circuit ---------------------------------------------------------------

    def _maybe_fail(self, call: str) -> None:
        if self.fail is not None and self.fail[0] == call:
            raise self.fail[1]

    def _release(self, pin: int) -> None:
        """A row stops sinking: the columns it held low start recharging now."""
        row = self._row_of_pin.get(pin)
        if row is None or self._level.get(pin) != self.LOW:
            return
        for r, c in self._contacts():
            if r == row:
                self._released_at[c] = self.now

    def _set_output(self, pin: int, level: int) -> None:
        self._level[pin] = level
        self._latch[pin] = level
        row = self._row_of_pin.get(pin)
        if row is not None and level == self.LOW:
            self._advance_bounce(row)
        driven = sum(
            1
            for p, r in self._row_of_pin.items()
            if self._direction.get(p) == self.OUT and self._level.get(p) == self.LOW
        )
        self.most_rows_driven = max(self.most_rows_driven, driven)

    def _advance_bounce(self, row: int) -> None:
        """A row scan samples its bouncing contacts: new level, old, new... then at rest."""
        self._flipped -= {s for s in self._flipped if s[0] == row}
        for switch, (left, total) in list(self._bounce.items()):
            if switch[0] != row:
                continue
            if (total - left) % 2 == 1:
                self._flipped.add(switch)
            if left <= 1:
                del self._bounce[switch]
            else:
                self._bounce[switch] = (left - 1, total)

    def _contacts(self) -> set[Switch]:
        return self.closed ^ self._flipped

    def _low_rows(self) -> set[int]:
        return {
            r
            for p, r in self._row_of_pin.items()
            if self._direction.get(p) == self.OUT and self._level.get(p) == self.LOW
        }

    def _sinks_to_low_row(self, column: int) -> bool:
        """Does current flow from this pulled-up column into a row driven low?"""
        contacts = self._contacts()
        low = self._low_rows()
        if self.diodes:  # current flows column -> row only, through the switch's own diode
            return any((r, column) in contacts for r in low)
        seen_rows: set[int] = set()
        seen_columns = {column}
        frontier = [("c", column)]
        while frontier:
            kind, index = frontier.pop()
            for r, c in contacts:
                if kind == "c" and c == index and r not in seen_rows:
                    if r in low:
                        return True
                    seen_rows.add(r)
                    frontier.append(("r", r))
                elif kind == "r" and r == index and c not in seen_columns:
                    seen_columns.add(c)
                    frontier.append(("c", c))
        return False
