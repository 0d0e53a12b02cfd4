"""What the board's microcontroller does, with no hardware imports.

code.py builds the real key scanner (keyscan.py over keypad and digitalio),
NeoPixel, USB serial and watchdog objects and hands them to BoardLogic; tests
hand it look-alikes and run the very same code on CPython and on the
MicroPython unix port. The board stays dumb about squares: it reports key
numbers and lights LED indexes, and the host's layout says which square each is.

Behaviour (docs/protocol.md is the contract):
- occupancy is *level*: the whole key bitmask goes out on every change and at
  least every SNAPSHOT_INTERVAL, so a lost message costs nothing;
- QUERY is answered with HELLO then OCCUPANCY (the host's port open flushed
  whatever we said before);
- FRAME messages are whole frames, applied as they come (idempotent);
- a keepalive goes out when nothing else was sent for KEEPALIVE_INTERVAL;
- without any message from the host for HOST_TIMEOUT the LEDs go dark, so a
  crashed host never leaves stale hints lit; when a host speaks again the
  board says HELLO so it re-sends its frame;
- the key state comes from a direct read of the matrix at boot and after an
  event-queue overflow (keyscan.py says why keypad's own start-up events
  cannot be trusted), so the host never sees a board emptier than it is;
- a settings.py that cannot work (a pin this board lacks, a missing library)
  is reported, not crashed on: `SetupFault` repeats the sentence on the
  console and the data port and blinks the LED, instead of a reset loop.

Runs on CircuitPython: no typing, no dataclasses. Times are integer
milliseconds, because CircuitPython's float time.monotonic() loses
millisecond precision after a few hours of uptime.
"""

import time

import wire

FIRMWARE_VERSION = (1, 1, 0)


class SetupError(Exception):
    """The board cannot run as set up; the message says what to fix on CIRCUITPY."""


def check_settings(settings, board):
    """Return the first problem with `settings` on this `board`, in one sentence, or None."""
    named = []
    for field in ("ROW_PINS", "COLUMN_PINS"):
        pins = getattr(settings, field, None)
        if not pins:
            return "settings.py: " + field + " lists no pins"
        for name in pins:
            named.append((field, name))
    named.append(("NEOPIXEL_PIN", getattr(settings, "NEOPIXEL_PIN", None)))
    seen = {}
    for field, name in named:
        if not isinstance(name, str) or not hasattr(board, name):
            return (
                "settings.py: " + field + " names " + repr(name) + ", which this board does "
                "not have (a Pico has GP0 to GP28)"
            )
        if name in seen:
            return "settings.py: " + field + " uses " + name + ", already in " + seen[name]
        seen[name] = field
    keys = len(settings.ROW_PINS) * len(settings.COLUMN_PINS)
    if keys > wire.MAX_KEYS:
        return "settings.py: " + str(keys) + " switches is more than " + str(wire.MAX_KEYS)
    if not 0 < settings.LED_COUNT <= wire.MAX_LEDS:
        return "settings.py: LED_COUNT must be 1 to " + str(wire.MAX_LEDS)
    return None


def ticks_ms():
    return time.monotonic_ns() // 1000000


class BoardLogic:
    """One board: `keys` (keypad-like), `pixels` (NeoPixel-like), `port` (usb_cdc-like).

    `settings` is the settings module (or any object with the same attributes).
    """

    def __init__(self, keys, pixels, port, settings, clock=ticks_ms, watchdog=None):
        """`keys` is a keyscan.KeyScanner (or look-alike): `start()` and `events`."""
        self.keys = keys
        self.pixels = pixels
        self.port = port
        self.clock = clock
        self.watchdog = watchdog
        self.rows = len(settings.ROW_PINS)
        self.columns = len(settings.COLUMN_PINS)
        self.key_count = self.rows * self.columns
        self.led_count = len(pixels)
        self.max_brightness = settings.MAX_BRIGHTNESS
        self.board_name = getattr(settings, "BOARD_NAME", "draughtsboard")
        self.snapshot_ms = int(settings.SNAPSHOT_INTERVAL * 1000)
        self.keepalive_ms = int(settings.KEEPALIVE_INTERVAL * 1000)
        self.host_timeout_ms = int(settings.HOST_TIMEOUT * 1000)
        self.encoder = wire.Encoder()
        self.decoder = wire.Decoder(stale_after=500)
        self.mask = keys.start()
        now = clock()
        self._snapshot_due = True
        self._hello_due = True  # announce ourselves at boot
        self._last_snapshot = now
        self._last_tx = now
        self._last_rx = now
        self._host_present = False
        self._rejected_seen = 0
        self.frames_applied = 0
        self.blank()

    # --- one turn of the main loop ---------------------------------------------

    def step(self):
        now = self.clock()
        if self._poll_keys(now):
            self._snapshot_due = True
        self._poll_port(now)
        if self._hello_due:
            self._hello_due = False
            self._send(self.encoder.hello(*self._hello_args()), now)
            self._snapshot_due = True
        if self._snapshot_due or now - self._last_snapshot >= self.snapshot_ms:
            self._send_snapshot(now)
        if now - self._last_tx >= self.keepalive_ms:
            self._send(self.encoder.keepalive(), now)
        if self._host_present and now - self._last_rx >= self.host_timeout_ms:
            self._host_present = False
            self.blank()
        if self.watchdog is not None:
            self.watchdog.feed()

    def _hello_args(self):
        return (self.rows, self.columns, self.led_count, FIRMWARE_VERSION, self.board_name)

    def _poll_keys(self, now):
        events = self.keys.events
        if events.overflowed:
            # Events were lost, so the mask is unknown: read the matrix again. clear()
            # is the supported way to drop the queue and its (read-only) overflow flag.
            events.clear()
            self.mask = self.keys.start()
            self._send(self.encoder.error(wire.ERR_OVERFLOW, "key events lost; rescanned"), now)
            return True
        before = self.mask
        while True:
            event = events.get()
            if event is None:
                return self.mask != before  # 9.0 repeats presses the direct read already saw
            bit = 1 << event.key_number
            if event.pressed:
                self.mask |= bit
            else:
                self.mask &= ~bit

    def _poll_port(self, now):
        data = b""
        try:
            waiting = self.port.in_waiting
            if waiting:
                data = self.port.read(waiting) or b""
        except OSError:
            data = b""
        for message in self.decoder.feed(data, now):
            self._last_rx = now
            if not self._host_present:
                self._host_present = True
                if message.kind != wire.QUERY:
                    # a host came back without asking: tell it who we are so it resyncs
                    self._hello_due = True
            self._handle(message, now)
        if self.decoder.rejected != self._rejected_seen:
            self._rejected_seen = self.decoder.rejected
            self._send(self.encoder.error(wire.ERR_UNKNOWN, self.decoder.last_error), now)

    def _handle(self, message, now):
        kind = message.kind
        if kind == wire.QUERY:
            if message.protocol != wire.PROTOCOL_VERSION:
                text = f"host speaks protocol {message.protocol}, board {wire.PROTOCOL_VERSION}"
                self._send(self.encoder.error(wire.ERR_VERSION, text), now)
            self._hello_due = True
            self._snapshot_due = True
        elif kind == wire.FRAME:
            if len(message.colours) != self.led_count:
                text = f"frame has {len(message.colours)} LEDs, chain has {self.led_count}"
                self._send(self.encoder.error(wire.ERR_FRAME_SIZE, text), now)
                return
            self.show(message.brightness, message.colours)
        elif kind != wire.KEEPALIVE:
            name = message.name
            self._send(self.encoder.error(wire.ERR_MALFORMED, f"{name} is board-to-host"), now)

    # --- outputs ------------------------------------------------------------------

    def show(self, brightness, colours):
        pixels = self.pixels
        pixels.brightness = min(brightness / 255, self.max_brightness)
        for i in range(len(colours)):
            pixels[i] = colours[i]
        pixels.show()
        self.frames_applied += 1

    def blank(self):
        self.pixels.fill((0, 0, 0))
        self.pixels.show()

    def _send_snapshot(self, now):
        self._snapshot_due = False
        self._last_snapshot = now
        self._send(self.encoder.occupancy(self.key_count, self.mask), now)

    def _send(self, data, now):
        self._last_tx = now
        if not getattr(self.port, "connected", True):
            return  # no host has the port open: nobody to tell
        try:  # noqa: SIM105 - CircuitPython has no contextlib
            self.port.write(data)
        except OSError:
            pass  # a half-written frame is resynchronised by the host's decoder


def run(logic, should_stop=None, idle=0.002):
    """The main loop. `should_stop` (a callable) lets tests end it; the board never does."""
    while should_stop is None or not should_stop():
        logic.step()
        time.sleep(idle)


class SetupFault:
    """What the board does when it cannot start: say why, over and over, and blink.

    Every `repeat_ms` the sentence goes to the console (print) and, when a host
    holds the data port open, to the host as an ERR_SETUP message, which the
    host shows instead of "no answer". Anything the host sends gets the same
    answer at once. The LED blinks three times, then pauses. There is no reset:
    a reset cannot fix settings.py, and a reset loop hides the message.
    """

    PATTERN = (200, 200, 200, 200, 200, 1000)  # on, off, on, off, on, off (ms)

    def __init__(self, text, port=None, led=None, clock=ticks_ms, say=print):
        self.text = text
        self.port = port
        self.led = led
        self.clock = clock
        self.say = say
        self.encoder = wire.Encoder()
        self.decoder = wire.Decoder(stale_after=500)
        self.repeat_ms = 2000
        self.started = clock()
        self._next = self.started

    def step(self):
        now = self.clock()
        asked = False
        port = self.port
        if port is not None:
            try:
                waiting = port.in_waiting
                if waiting:
                    asked = bool(self.decoder.feed(port.read(waiting) or b"", now))
            except OSError:
                pass
        if asked or now >= self._next:
            self._next = now + self.repeat_ms
            if not asked:
                self.say("draughtsboard: " + self.text)
            if port is not None and getattr(port, "connected", True):
                try:  # noqa: SIM105 - CircuitPython has no contextlib
                    port.write(self.encoder.error(wire.ERR_SETUP, self.text))
                except OSError:
                    pass
        if self.led is not None:
            self.led.value = self._lit(now)

    def _lit(self, now):
        phase = (now - self.started) % sum(self.PATTERN)
        for i in range(len(self.PATTERN)):
            if phase < self.PATTERN[i]:
                return i % 2 == 0
            phase -= self.PATTERN[i]
        return False
