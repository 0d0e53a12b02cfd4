"""What the board's microcontroller does, with no hardware imports.

code.py builds the real keypad, NeoPixel, USB serial and watchdog objects and
hands them to BoardLogic; tests hand it look-alikes and run the very same
code on CPython. The board stays dumb about squares: it reports key numbers
and lights LED indexes, and the host's layout says which square each is.

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
- no occupancy is sent until the scanner has had time to report every key
  (after boot and after an event-queue overflow), so the host never sees a
  board emptier than it is.

Runs on CircuitPython: no typing, no dataclasses. Times are integer
milliseconds, because CircuitPython's float time.monotonic() loses
millisecond precision after a few hours of uptime.
"""

import time

import wire

FIRMWARE_VERSION = (1, 0, 0)


def ticks_ms():
    return time.monotonic_ns() // 1000000


class BoardLogic:
    """One board: `keys` (keypad-like), `pixels` (NeoPixel-like), `port` (usb_cdc-like).

    `settings` is the settings module (or any object with the same attributes).
    """

    def __init__(self, keys, pixels, port, settings, clock=ticks_ms, watchdog=None):
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
        # the scanner needs a few intervals to report keys already closed
        self.settle_ms = int(settings.SCAN_INTERVAL * 1000 * (settings.DEBOUNCE_THRESHOLD + 2))
        self.encoder = wire.Encoder()
        self.decoder = wire.Decoder(stale_after=500)
        self.mask = 0
        now = clock()
        self._hold_until = now + self.settle_ms
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
        if now >= self._hold_until:
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
        changed = False
        if events.overflowed:
            # Events were lost, so the mask is unknown: rebuild it from scratch.
            # reset() makes the scanner report every closed key as a new press.
            events.clear()
            events.overflowed = False
            self.mask = 0
            self.keys.reset()
            self._hold_until = now + self.settle_ms
            self._send(self.encoder.error(wire.ERR_OVERFLOW, "key events lost; rescanning"), now)
            return True
        while True:
            event = events.get()
            if event is None:
                return changed
            bit = 1 << event.key_number
            if event.pressed:
                self.mask |= bit
            else:
                self.mask &= ~bit
            changed = True

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
