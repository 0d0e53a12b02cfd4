"""The switch matrix: keypad.KeyMatrix reports changes, a direct read gives the whole state.

keypad only ever reports changes, and what it reports for keys that are
already closed when it starts depends on the CircuitPython version
(shared-module/keypad in the CircuitPython sources):

- 9.0.x: a press for each closed key, at the first scan;
- 9.1.0 to 9.2.0: nothing at start, and reset() reports a *release* for
  every open key and nothing for the closed ones;
- 9.2.1 and later: nothing at start; reset() reports a press per closed key.

So the firmware never relies on it. Before (re)starting keypad it reads the
matrix itself, row by row as keypad does, until two reads agree, and takes
that as the state; keypad's debounced events then change it. keypad's
`debounce_threshold` exists only from CircuitPython 9.1: on 9.0 the scanner
is made without it (one agreeing scan, and the host debounces again).

No imports: the CircuitPython modules are handed in, so tests run this file
on CPython and on the MicroPython unix port with look-alikes.
"""

# Microseconds between driving a row and reading the columns (see docs/hardware.md).
SETTLE_US = 10
# Reads until two agree; a switch still bouncing after this many is read as it is.
MAX_READS = 8


class KeyScanner:
    """One switch matrix. `start()` returns the closed keys as a bitmask and starts keypad."""

    def __init__(
        self,
        keypad,
        digitalio,
        row_pins,
        column_pins,
        columns_to_anodes=True,
        interval=0.02,
        debounce_threshold=1,
        max_events=64,
        delay_us=None,
    ):
        self.keypad = keypad
        self.digitalio = digitalio
        self.row_pins = tuple(row_pins)
        self.column_pins = tuple(column_pins)
        self.columns_to_anodes = columns_to_anodes
        self.interval = interval
        self.debounce_threshold = debounce_threshold
        self.max_events = max_events
        self.delay_us = delay_us
        self.keys = None

    @property
    def events(self):
        return self.keys.events

    def start(self):
        """(Re)start keypad from a fresh direct read; return that read as a key bitmask."""
        if self.keys is not None:
            self.keys.deinit()
            self.keys = None
        mask = self.read()
        self.keys = self._keymatrix()
        return mask

    def read(self):
        """Read the matrix directly until two reads agree (or MAX_READS)."""
        previous = self._read_once()
        for _ in range(MAX_READS - 1):
            current = self._read_once()
            if current == previous:
                break
            previous = current
        return previous

    def deinit(self):
        if self.keys is not None:
            self.keys.deinit()
            self.keys = None

    def _keymatrix(self):
        options = {
            "columns_to_anodes": self.columns_to_anodes,
            "interval": self.interval,
            "max_events": self.max_events,
            "debounce_threshold": self.debounce_threshold,
        }
        try:
            return self.keypad.KeyMatrix(self.row_pins, self.column_pins, **options)
        except TypeError:  # CircuitPython 9.0: "unexpected keyword argument 'debounce_threshold'"
            del options["debounce_threshold"]
            self.debounce_threshold = 1
            return self.keypad.KeyMatrix(self.row_pins, self.column_pins, **options)

    def _read_once(self):
        dio = self.digitalio
        # columns_to_anodes: rows driven low, columns pulled up (keypad's default wiring)
        drive = not self.columns_to_anodes
        pull = dio.Pull.UP if self.columns_to_anodes else dio.Pull.DOWN
        rows = []
        columns = []
        try:
            for pin in self.row_pins:
                rows.append(dio.DigitalInOut(pin))
            for pin in self.column_pins:
                column = dio.DigitalInOut(pin)
                columns.append(column)
                column.switch_to_input(pull=pull)
            mask = 0
            width = len(columns)
            for r in range(len(rows)):
                rows[r].switch_to_output(value=drive)
                if self.delay_us is not None:
                    self.delay_us(SETTLE_US)
                for c in range(width):
                    if columns[c].value == drive:
                        mask |= 1 << (r * width + c)
                rows[r].switch_to_input()
            return mask
        finally:
            for io in rows + columns:
                io.deinit()
