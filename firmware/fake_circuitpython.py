"""Look-alikes of the CircuitPython modules the firmware uses, over one simulated switch matrix.

Not copied to the board. The simulator (simulator.py), the CPython tests and
the MicroPython unix-port check all build the firmware's hardware from these,
so each copies the real module's behaviour, checked against the CircuitPython
sources (adafruit/circuitpython, tags 9.0.0, 9.1.0, 9.2.0, 9.2.1, 10.0.0):

- `keypad` (shared-bindings and shared-module/keypad): KeyMatrix scans every
  `interval` from construction; 9.0 has no `debounce_threshold` (TypeError)
  and reports a change at the next scan; 9.1+ integrates each key over
  `debounce_threshold` scans, starts every counter at 0 (so keys closed at
  start are never reported) and reset() sets the counters to +threshold
  (9.1.0-9.2.0) or -threshold (9.2.1+). EventQueue drops events when full and
  sets `overflowed`, which is read-only; clear() empties it and clears the flag.
- `digitalio`: DigitalInOut claims its pin ("GP2 in use" ValueError, as
  shared-bindings/microcontroller/Pin.c), reads a column through the matrix.
- `usb_cdc` data port: `connected` is the host's DTR (read-only); writes while
  no host reads fill a small FIFO and then return 0 after `write_timeout`.
- `board`: pins GP0..GP28, LED (= GP25); any other name is an AttributeError.

Plain Python with no imports beyond `collections`, so MicroPython runs it too.
Time comes from `clock` (integer milliseconds), shared with the firmware.
"""

# --- the wires ------------------------------------------------------------------------------


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


class Board:
    """The `board` module of a Raspberry Pi Pico."""

    def __init__(self):
        for number in range(29):
            setattr(self, "GP" + str(number), Pin("GP" + str(number)))
        self.LED = self.GP25  # one pin, two names (ports/raspberrypi/boards/raspberry_pi_pico)


class SwitchMatrix:
    """Reed switches between row and column wires; `closed` holds key numbers."""

    def __init__(self, row_names, column_names, closed=()):
        self.row_names = list(row_names)
        self.column_names = list(column_names)
        self.closed = set(closed)
        self.claimed = {}  # pin name -> owner
        self.levels = {}  # row pin name -> level it is driven to (absent: not driven)

    def key(self, row, column):
        return row * len(self.column_names) + column

    def is_closed(self, row, column):
        return self.key(row, column) in self.closed

    def claim(self, pin, owner):
        if pin.name in self.claimed:
            raise ValueError(pin.name + " in use")
        self.claimed[pin.name] = owner

    def release(self, pin):
        self.claimed.pop(pin.name, None)
        self.levels.pop(pin.name, None)

    def column_level(self, column, pull_up):
        """A column input: pulled to its resting level unless a driven row pulls it over."""
        for row, name in enumerate(self.row_names):
            level = self.levels.get(name)
            if level is None or not self.is_closed(row, column):
                continue
            if pull_up and level is False:  # diode anode at the column: row low sinks it
                return False
            if not pull_up and level is True:  # rows to anodes: row high lifts it
                return True
        return pull_up


# --- digitalio ------------------------------------------------------------------------------


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


class DigitalInOut:
    def __init__(self, pin, matrix):
        matrix.claim(pin, self)
        self.pin = pin
        self.matrix = matrix
        self.direction = Direction.INPUT
        self.pull = None
        self._value = False
        self.deinited = False

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self._value = bool(value)
        self.matrix.levels[self.pin.name] = self._value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull
        self.matrix.levels.pop(self.pin.name, None)

    @property
    def value(self):
        if self.direction == Direction.OUTPUT:
            return self._value
        names = self.matrix.column_names
        if self.pin.name in names:
            return self.matrix.column_level(names.index(self.pin.name), self.pull == Pull.UP)
        return self.pull == Pull.UP

    @value.setter
    def value(self, level):
        if self.direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self.switch_to_output(level)

    def deinit(self):
        if not self.deinited:
            self.deinited = True
            self.matrix.release(self.pin)


def digitalio_module(matrix):
    """A `digitalio` namespace whose DigitalInOut reads `matrix`."""

    class Module:
        pass

    module = Module()
    module.Direction = Direction
    module.Pull = Pull
    module.DriveMode = DriveMode
    module.DigitalInOut = lambda pin: DigitalInOut(pin, matrix)
    return module


# --- keypad ---------------------------------------------------------------------------------


class Event:
    def __init__(self, key_number, pressed, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = timestamp


class EventQueue:
    """keypad.EventQueue: bounded; a full queue drops the event and sets `overflowed`."""

    def __init__(self, max_events):
        self._events = []
        self._max = max_events
        self._overflowed = False

    @property
    def overflowed(self):  # read-only, as in shared-bindings/keypad/EventQueue.c
        return self._overflowed

    def record(self, event):
        if len(self._events) >= self._max:
            self._overflowed = True
        else:
            self._events.append(event)

    def get(self):
        return self._events.pop(0) if self._events else None

    def clear(self):
        self._events = []
        self._overflowed = False

    def __len__(self):
        return len(self._events)

    def __bool__(self):
        return bool(self._events)


class KeyMatrix:
    """keypad.KeyMatrix of one CircuitPython version, scanning `matrix` on `clock`."""

    def __init__(self, matrix, clock, version, row_pins, column_pins, **options):
        allowed = ("columns_to_anodes", "interval", "max_events")
        if version >= (9, 1, 0):
            allowed += ("debounce_threshold",)
        for name in options:
            if name not in allowed:
                raise TypeError("unexpected keyword argument '" + name + "'")
        self.version = version
        self.matrix = matrix
        self.clock = clock
        self.row_pins = tuple(row_pins)
        self.column_pins = tuple(column_pins)
        self.columns_to_anodes = options.get("columns_to_anodes", True)
        self.interval_ms = int(options.get("interval", 0.020) * 1000)
        self.threshold = options.get("debounce_threshold", 1)
        if not 1 <= self.threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        for pin in self.row_pins + self.column_pins:
            matrix.claim(pin, self)
        self.key_count = len(self.row_pins) * len(self.column_pins)
        self._events = EventQueue(options.get("max_events", 64))
        self._pressed = [False] * self.key_count  # 9.0: currently_pressed
        self._counter = [0] * self.key_count  # 9.1+: debounce_counter, zeroed memory
        self.scans = 0
        self.deinited = False
        self._scan_now(clock())

    @property
    def events(self):
        self._catch_up()
        return self._events

    def reset(self):
        if self.version >= (9, 2, 1):
            self._counter = [-self.threshold] * self.key_count
        elif self.version >= (9, 1, 0):
            self._counter = [self.threshold] * self.key_count  # the bug 9.2.1 fixed
        else:
            self._pressed = [False] * self.key_count
        self._scan_now(self.clock())

    def deinit(self):
        if not self.deinited:
            self.deinited = True
            for pin in self.row_pins + self.column_pins:
                self.matrix.release(pin)

    def _catch_up(self):
        now = self.clock()
        while not self.deinited and self._next_scan <= now:
            self._scan_now(self._next_scan)

    def _scan_now(self, now):
        self._next_scan = now + self.interval_ms
        self.scans += 1
        width = len(self.column_pins)
        for key in range(self.key_count):
            current = self.matrix.is_closed(key // width, key % width)
            if self._changed(key, current):
                self._events.record(Event(key, current, now))

    def _changed(self, key, current):
        if self.version < (9, 1, 0):
            previous = self._pressed[key]
            self._pressed[key] = current
            return previous != current
        counter = self._counter
        threshold = self.threshold
        if current:
            if counter[key] < threshold:
                counter[key] += 1
                if counter[key] == 0:
                    counter[key] = threshold
                    return True
        elif counter[key] > -threshold:
            counter[key] -= 1
            if counter[key] == 0:
                counter[key] = -threshold
                return True
        return False


def keypad_module(matrix, clock, version):
    class Module:
        pass

    module = Module()
    module.Event = Event
    module.EventQueue = EventQueue
    module.KeyMatrix = lambda rows, columns, **options: KeyMatrix(
        matrix, clock, version, rows, columns, **options
    )
    return module


# --- neopixel, usb_cdc, watchdog --------------------------------------------------------------


class NeoPixel:
    """neopixel.NeoPixel that records what `show()` put on the wire."""

    def __init__(self, pin, n, brightness=1.0, auto_write=True, pixel_order="GRB"):
        self.pin = pin
        self.n = n
        self.brightness = brightness
        self.auto_write = auto_write
        self.pixel_order = pixel_order
        self._buffer = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n
        self.shown_brightness = 0.0
        self.shows = 0

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        colour = tuple(colour)
        for level in colour:
            if not 0 <= level <= 255:
                raise ValueError("byte must be in range(0, 256)")
        self._buffer[index] = colour
        if self.auto_write:
            self.show()

    def __getitem__(self, index):
        return self._buffer[index]

    def fill(self, colour):
        if isinstance(colour, int):
            colour = (colour >> 16, (colour >> 8) & 0xFF, colour & 0xFF)
        self._buffer = [tuple(colour)] * self.n
        if self.auto_write:
            self.show()

    def show(self):
        self.shown = list(self._buffer)
        self.shown_brightness = self.brightness
        self.shows += 1


class DataPort:
    """usb_cdc.data: bytes from the host queued in `incoming`, what is written goes to `sent`.

    `connected` follows the host's DTR. While no host reads, written bytes fill
    TinyUSB's FIFO (`FIFO` bytes); after that a write returns 0, having waited
    `write_timeout` (counted in `stalls`), as shared-module/usb_cdc/Serial.c does.
    """

    FIFO = 64

    def __init__(self):
        self.incoming = bytearray()
        self.sent = bytearray()
        self.dtr = True
        self.timeout = 1.0
        self.write_timeout = None
        self.unread = 0
        self.stalls = 0

    @property
    def connected(self):
        return self.dtr

    @property
    def in_waiting(self):
        return len(self.incoming)

    def read(self, size=1):
        data = bytes(self.incoming[:size])
        self.incoming = self.incoming[size:]
        return data

    def write(self, data):
        if self.dtr:
            self.sent += data
            return len(data)
        room = self.FIFO - self.unread
        if room <= 0:
            self.stalls += 1
            return 0
        taken = min(room, len(data))
        self.unread += taken
        return taken


class Watchdog:
    def __init__(self):
        self.timeout = 0.0
        self.mode = None
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"
