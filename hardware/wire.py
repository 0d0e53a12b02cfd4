"""The USB wire protocol between the board's microcontroller and the host.

This one file is the protocol for *both* ends: the host imports it as
`hardware.wire`, and builders copy it onto the CIRCUITPY drive as `wire.py`,
where the firmware imports it as `wire`. It is therefore written in the subset
of Python that CircuitPython runs: no dataclasses, enum or typing at run time,
no relative imports, no `del` of bytearray slices, only `struct` from the
standard library. docs/protocol.md is the human-readable specification; the
two must change together, and any change to the bytes on the wire bumps
PROTOCOL_VERSION.

Frame layout (all integers little-endian)::

    0  marker      0xA5
    1  kind        message type
    2  seq         sender's sequence number, 0..255, wrapping
    3  length      payload length, u16 (<= MAX_PAYLOAD)
    5  hdr_check   (0xFF - (kind + seq + length_lo + length_hi)) & 0xFF
    6  payload     `length` bytes
    6+length  crc  CRC-16/CCITT-FALSE of bytes 1 .. 5+length, u16

The header check lets a receiver reject a corrupted length at once instead of
waiting for a frame that will never arrive; the CRC covers everything after
the marker. A receiver that meets a bad header or CRC drops the marker byte
only and searches for the next marker, so it resynchronises after any
garbage, truncation or corruption.
"""

import struct

PROTOCOL_VERSION = 1

MARKER = 0xA5
HEADER_SIZE = 6
CRC_SIZE = 2
MAX_LEDS = 300
MAX_KEYS = 255
#: a FRAME for MAX_LEDS is the largest payload: brightness + 3 bytes per LED
MAX_PAYLOAD = 1 + 3 * MAX_LEDS
MAX_MESSAGE = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE

# Message kinds. Board -> host: HELLO, OCCUPANCY, ERROR. Host -> board: QUERY,
# FRAME. Both ways: KEEPALIVE.
HELLO = 0x01
QUERY = 0x02
OCCUPANCY = 0x03
FRAME = 0x04
KEEPALIVE = 0x05
ERROR = 0x06

KIND_NAMES = {
    HELLO: "HELLO",
    QUERY: "QUERY",
    OCCUPANCY: "OCCUPANCY",
    FRAME: "FRAME",
    KEEPALIVE: "KEEPALIVE",
    ERROR: "ERROR",
}

# ERROR codes the board reports.
ERR_VERSION = 1  # the host speaks another protocol version
ERR_MALFORMED = 2  # a message with a valid CRC but a payload that makes no sense
ERR_FRAME_SIZE = 3  # a FRAME whose LED count differs from the board's chain
ERR_UNKNOWN = 4  # a message kind this firmware does not know
ERR_OVERFLOW = 5  # the key event queue overflowed; occupancy was rebuilt
ERR_SETUP = 6  # the board cannot start as set up (settings.py, a library): text says why

_HELLO_FORMAT = "<BBBHBBB"  # struct.Struct does not exist on CircuitPython
_HELLO_SIZE = struct.calcsize(_HELLO_FORMAT)


class ProtocolError(ValueError):
    """A message whose frame is intact but whose payload breaks the protocol."""


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout).

    Check value: crc16(b"123456789") == 0x29B1. Detects every error burst up
    to 16 bits, so any single corrupted byte is always caught.
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def header_check(kind, seq, length):
    return (0xFF - ((kind + seq + (length & 0xFF) + (length >> 8)) & 0xFF)) & 0xFF


def pack(kind, seq, payload=b""):
    """One complete frame as bytes."""
    length = len(payload)
    if length > MAX_PAYLOAD:
        raise ValueError(f"payload of {length} bytes exceeds MAX_PAYLOAD {MAX_PAYLOAD}")
    kind &= 0xFF
    seq &= 0xFF
    head = bytes((MARKER, kind, seq, length & 0xFF, length >> 8, header_check(kind, seq, length)))
    body = head[1:] + bytes(payload)
    crc = crc16(body)
    return head[:1] + body + bytes((crc & 0xFF, crc >> 8))


# --- messages -------------------------------------------------------------------


class Message:
    """A decoded message: `kind`, the sender's `seq`, and the raw `payload`."""

    kind = -1

    def __init__(self, seq=0, payload=b""):
        self.seq = seq
        self.payload = bytes(payload)

    @property
    def name(self):
        return KIND_NAMES.get(self.kind, f"0x{self.kind:02X}")

    def __repr__(self):
        return f"<{self.name} seq={self.seq} {self.describe()}>"

    def describe(self):
        return f"{len(self.payload)} bytes"

    def __eq__(self, other):
        return (
            isinstance(other, Message) and self.kind == other.kind and self.payload == other.payload
        )

    def __hash__(self):
        return hash((self.kind, self.payload))


class Hello(Message):
    """Board -> host, at boot and in answer to QUERY: who the board is.

    Payload: protocol u8, rows u8, columns u8, leds u16, firmware major u8,
    minor u8, patch u8, then an optional UTF-8 board name (up to 32 bytes).
    """

    kind = HELLO

    def __init__(self, seq=0, payload=b""):
        Message.__init__(self, seq, payload)
        if len(payload) < _HELLO_SIZE or len(payload) > _HELLO_SIZE + 32:
            raise ProtocolError(f"HELLO payload of {len(payload)} bytes")
        fields = struct.unpack_from(_HELLO_FORMAT, payload, 0)
        self.protocol = fields[0]
        self.rows = fields[1]
        self.columns = fields[2]
        self.leds = fields[3]
        self.firmware = (fields[4], fields[5], fields[6])
        try:
            self.board_name = bytes(payload[_HELLO_SIZE:]).decode("utf-8")
        except UnicodeError as exc:
            raise ProtocolError("HELLO board name is not UTF-8") from exc
        if self.rows * self.columns > MAX_KEYS or self.leds > MAX_LEDS:
            raise ProtocolError("HELLO geometry out of range")

    @property
    def keys(self):
        return self.rows * self.columns

    @property
    def version_text(self):
        return ".".join(str(part) for part in self.firmware)

    def describe(self):
        # no adjacent f-strings and no !r: MicroPython 1.21 (CircuitPython 9.0) rejects both
        shape = f"protocol={self.protocol} {self.rows}x{self.columns} keys, {self.leds} LEDs, "
        return shape + f"firmware {self.version_text} " + repr(self.board_name)


class Query(Message):
    """Host -> board: send HELLO and a full OCCUPANCY now. Payload: protocol u8."""

    kind = QUERY

    def __init__(self, seq=0, payload=b""):
        Message.__init__(self, seq, payload)
        if len(payload) != 1:
            raise ProtocolError(f"QUERY payload of {len(payload)} bytes")
        self.protocol = payload[0]

    def describe(self):
        return f"protocol={self.protocol}"


class Occupancy(Message):
    """Board -> host: the whole switch matrix, one bit per key number.

    Payload: key count u8, then ceil(keys / 8) bytes; key k is bit (k % 8) of
    byte (k // 8). Bits at or above the key count must be zero.
    """

    kind = OCCUPANCY

    def __init__(self, seq=0, payload=b""):
        Message.__init__(self, seq, payload)
        if not payload:
            raise ProtocolError("empty OCCUPANCY")
        keys = payload[0]
        if len(payload) != 1 + (keys + 7) // 8:
            raise ProtocolError(f"OCCUPANCY of {keys} keys in {len(payload)} bytes")
        mask = 0
        for i in range(len(payload) - 1):
            mask |= payload[1 + i] << (8 * i)
        if mask >> keys:
            raise ProtocolError(f"OCCUPANCY sets a key beyond key {keys - 1}")
        self.keys = keys
        self.mask = mask

    def pressed(self):
        """The key numbers that are closed, ascending."""
        mask = self.mask
        return [k for k in range(self.keys) if (mask >> k) & 1]

    def describe(self):
        return f"keys={self.keys} pressed={self.pressed()}"


class Frame(Message):
    """Host -> board: a whole LED frame. Payload: brightness u8 (0..255), then
    r, g, b (u8 each) for every LED index of the chain, in chain order."""

    kind = FRAME

    def __init__(self, seq=0, payload=b""):
        Message.__init__(self, seq, payload)
        if not payload or (len(payload) - 1) % 3:
            raise ProtocolError(f"FRAME payload of {len(payload)} bytes")
        self.brightness = payload[0]
        self.colours = [
            (payload[i], payload[i + 1], payload[i + 2]) for i in range(1, len(payload), 3)
        ]

    def describe(self):
        return f"brightness={self.brightness} leds={len(self.colours)}"


class Keepalive(Message):
    """Both ways: "I am still here" when nothing else was sent for a while."""

    kind = KEEPALIVE

    def __init__(self, seq=0, payload=b""):
        Message.__init__(self, seq, payload)
        if payload:
            raise ProtocolError("KEEPALIVE with a payload")

    def describe(self):
        return ""


class Error(Message):
    """Board -> host: something the board could not do. Payload: code u8, UTF-8 text."""

    kind = ERROR

    def __init__(self, seq=0, payload=b""):
        Message.__init__(self, seq, payload)
        if not payload:
            raise ProtocolError("empty ERROR")
        self.code = payload[0]
        try:
            self.text = bytes(payload[1:]).decode("utf-8")
        except UnicodeError as exc:
            raise ProtocolError("ERROR text is not UTF-8") from exc

    def describe(self):
        return f"code={self.code} " + repr(self.text)


MESSAGE_TYPES = {
    HELLO: Hello,
    QUERY: Query,
    OCCUPANCY: Occupancy,
    FRAME: Frame,
    KEEPALIVE: Keepalive,
    ERROR: Error,
}


def parse(kind, seq, payload):
    """Build the typed message; ProtocolError for unknown kinds or bad payloads."""
    cls = MESSAGE_TYPES.get(kind)
    if cls is None:
        raise ProtocolError(f"unknown message kind 0x{kind:02X}")
    return cls(seq, payload)


# --- payload builders -------------------------------------------------------------


def hello_payload(rows, columns, leds, firmware=(0, 0, 0), board_name=""):
    name = board_name.encode("utf-8")[:32]
    return (
        struct.pack(
            _HELLO_FORMAT,
            PROTOCOL_VERSION,
            rows,
            columns,
            leds,
            firmware[0],
            firmware[1],
            firmware[2],
        )
        + name
    )


def occupancy_payload(keys, pressed):
    """`pressed`: an iterable of key numbers, or an int bitmask."""
    if isinstance(pressed, int):
        mask = pressed
    else:
        mask = 0
        for k in pressed:
            if k < 0 or k >= keys:
                raise ValueError(f"key {k} outside 0..{keys - 1}")
            mask |= 1 << k
    if keys > MAX_KEYS or mask >> keys:
        raise ValueError(f"occupancy mask does not fit {keys} keys")
    size = (keys + 7) // 8
    out = bytearray(1 + size)
    out[0] = keys
    for i in range(size):
        out[1 + i] = (mask >> (8 * i)) & 0xFF
    return bytes(out)


def frame_payload(brightness, colours):
    """`colours`: (r, g, b) per LED index; components are clamped to 0..255."""
    if len(colours) > MAX_LEDS:
        raise ValueError(f"{len(colours)} LEDs exceed MAX_LEDS {MAX_LEDS}")
    out = bytearray(1 + 3 * len(colours))
    out[0] = _clamp(brightness)
    i = 1
    for colour in colours:
        out[i] = _clamp(colour[0])
        out[i + 1] = _clamp(colour[1])
        out[i + 2] = _clamp(colour[2])
        i += 3
    return bytes(out)


def error_payload(code, text):
    return bytes((code & 0xFF,)) + text.encode("utf-8")[: MAX_PAYLOAD - 1]


def _clamp(value):
    value = int(value)
    return 0 if value < 0 else 255 if value > 255 else value


class Encoder:
    """Numbers outgoing frames. One per sending side of a link."""

    def __init__(self):
        self.seq = 0

    def encode(self, kind, payload=b""):
        data = pack(kind, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFF
        return data

    def hello(self, rows, columns, leds, firmware=(0, 0, 0), board_name=""):
        return self.encode(HELLO, hello_payload(rows, columns, leds, firmware, board_name))

    def query(self):
        return self.encode(QUERY, bytes((PROTOCOL_VERSION,)))

    def occupancy(self, keys, pressed):
        return self.encode(OCCUPANCY, occupancy_payload(keys, pressed))

    def frame(self, brightness, colours):
        return self.encode(FRAME, frame_payload(brightness, colours))

    def keepalive(self):
        return self.encode(KEEPALIVE)

    def error(self, code, text):
        return self.encode(ERROR, error_payload(code, text))


# --- decoding ---------------------------------------------------------------------


class Decoder:
    """Incremental decoder: feed it byte chunks of any size, get whole messages.

    Only messages whose header check and CRC are valid and whose payload makes
    sense come out; everything else is counted in the statistics and skipped
    by searching for the next marker. The buffer never holds more than one
    message's worth of bytes (MAX_MESSAGE), whatever is fed in.

    A frame cut short by a glitch would hold back the frames after it until
    enough bytes arrive to fail its CRC; pass `now` (seconds) to `feed` and a
    partial frame older than `stale_after` is abandoned too.
    """

    def __init__(self, stale_after=0.5):
        self.stale_after = stale_after
        self._buf = bytearray()
        self._partial_since = None
        self._last_seq = None
        self.messages = 0
        self.dropped_bytes = 0  # bytes skipped while searching for a marker
        self.bad_frames = 0  # header check or CRC failures
        self.rejected = 0  # intact frames with an unknown kind or a bad payload
        self.lost = 0  # gaps in the sender's sequence numbers
        self.last_error = ""

    def reset(self):
        """Forget buffered bytes (for example after reopening the port)."""
        self._buf = bytearray()
        self._partial_since = None
        self._last_seq = None

    @property
    def buffered(self):
        return len(self._buf)

    def feed(self, data, now=None):
        out = []
        step = MAX_MESSAGE
        for start in range(0, len(data), step):
            self._buf += data[start : start + step]
            self._drain(out)
        if not data:
            self._drain(out)
        if self._buf:
            if now is not None:
                if self._partial_since is None:
                    self._partial_since = now
                elif now - self._partial_since > self.stale_after:
                    self._skip(1)
                    self.bad_frames += 1
                    self.last_error = "incomplete frame abandoned"
                    self._partial_since = None
                    self._drain(out)
                    if self._buf:
                        self._partial_since = now
        else:
            self._partial_since = None
        return out

    def _skip(self, n):
        self._buf = self._buf[n:]

    def _drain(self, out):
        buf = self._buf
        while buf:
            i = _find(buf, MARKER)
            if i < 0:
                self.dropped_bytes += len(buf)
                self._buf = buf = bytearray()
                self._partial_since = None
                return
            if i:
                self.dropped_bytes += i
                self._buf = buf = buf[i:]
                self._partial_since = None
            if len(buf) < HEADER_SIZE:
                return
            kind = buf[1]
            seq = buf[2]
            length = buf[3] | (buf[4] << 8)
            if buf[5] != header_check(kind, seq, length) or length > MAX_PAYLOAD:
                self.bad_frames += 1
                self.last_error = "bad header"
                self._buf = buf = buf[1:]
                continue
            end = HEADER_SIZE + length + CRC_SIZE
            if len(buf) < end:
                return
            crc = buf[end - 2] | (buf[end - 1] << 8)
            if crc16(memoryview(buf)[1 : end - 2]) != crc:
                self.bad_frames += 1
                self.last_error = "bad CRC"
                self._buf = buf = buf[1:]
                continue
            payload = bytes(buf[HEADER_SIZE : end - 2])
            self._buf = buf = buf[end:]
            self._partial_since = None
            try:
                message = parse(kind, seq, payload)
            except ProtocolError as exc:
                self.rejected += 1
                self.last_error = str(exc)
                continue
            if self._last_seq is not None and seq != (self._last_seq + 1) & 0xFF:
                self.lost += (seq - self._last_seq - 1) & 0xFF
            self._last_seq = seq
            self.messages += 1
            out.append(message)


def _find(buf, byte):
    try:
        return buf.find(bytes((byte,)))
    except AttributeError:  # pragma: no cover - bytearray.find is missing on some ports
        for i in range(len(buf)):
            if buf[i] == byte:
                return i
        return -1
