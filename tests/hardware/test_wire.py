"""The wire codec: exact bytes, every message type, and a decoder that survives anything."""

from __future__ import annotations

import ast
import binascii
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hardware import wire

WIRE_SOURCE = Path(wire.__file__).read_text()
EXAMPLE_CRC = "B7 B9"


def test_crc_is_ccitt_false():
    assert wire.crc16(b"123456789") == 0x29B1  # the catalogue check value
    assert wire.crc16(b"") == 0xFFFF


@given(st.binary(max_size=300))
def test_crc_agrees_with_the_standard_library(data):
    # binascii.crc_hqx is the same polynomial, unreflected; seeded 0xFFFF it is CCITT-FALSE
    assert wire.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_frame_bytes_match_the_spec():
    # docs/protocol.md shows this exact frame as its worked example
    frame = wire.pack(wire.OCCUPANCY, 7, wire.occupancy_payload(32, [0, 9, 31]))
    body = bytes.fromhex("03 07 05 00 F0 20 01 02 00 80")
    crc = binascii.crc_hqx(body, 0xFFFF)
    assert frame == b"\xa5" + body + bytes((crc & 0xFF, crc >> 8))
    assert frame.hex(" ").upper() == "A5 03 07 05 00 F0 20 01 02 00 80 " + EXAMPLE_CRC


def test_every_message_round_trips():
    enc = wire.Encoder()
    data = (
        enc.hello(10, 5, 50, (1, 2, 3), "pico")
        + enc.query()
        + enc.occupancy(50, [0, 7, 8, 49])
        + enc.frame(128, [(1, 2, 3), (255, 0, 300), (-4, 0, 9)])
        + enc.keepalive()
        + enc.error(wire.ERR_FRAME_SIZE, "frame has 3 LEDs")
    )
    hello, query, occ, frame, keepalive, error = wire.Decoder().feed(data)
    assert (hello.rows, hello.columns, hello.leds, hello.keys) == (10, 5, 50, 50)
    assert hello.firmware == (1, 2, 3) and hello.board_name == "pico"
    assert hello.protocol == query.protocol == wire.PROTOCOL_VERSION
    assert occ.keys == 50 and occ.pressed() == [0, 7, 8, 49]
    assert frame.brightness == 128
    assert frame.colours == [(1, 2, 3), (255, 0, 255), (0, 0, 9)]  # clamped
    assert keepalive.kind == wire.KEEPALIVE and keepalive.payload == b""
    assert (error.code, error.text) == (wire.ERR_FRAME_SIZE, "frame has 3 LEDs")
    assert [m.seq for m in (hello, query, occ, frame, keepalive, error)] == [0, 1, 2, 3, 4, 5]


def test_sequence_wraps_and_gaps_are_counted():
    enc = wire.Encoder()
    frames = [enc.keepalive() for _ in range(300)]
    dec = wire.Decoder()
    got = dec.feed(b"".join(frames[:10] + frames[13:]))  # three lost on the way
    assert len(got) == 297
    assert got[-1].seq == 299 % 256
    assert dec.lost == 3


def test_byte_by_byte_feeding_gives_the_same_messages():
    enc = wire.Encoder()
    data = enc.occupancy(32, [1, 2, 3]) + enc.frame(10, [(9, 9, 9)] * 32)
    dec = wire.Decoder()
    got = []
    for b in data:
        got += dec.feed(bytes((b,)))
    assert got == wire.Decoder().feed(data)
    assert len(got) == 2 and dec.buffered == 0


def test_garbage_and_stray_markers_are_skipped():
    enc = wire.Encoder()
    good = enc.occupancy(32, [5])
    dec = wire.Decoder()
    got = dec.feed(b"\xa5\xa5noise\xa5\x00" + good + b"\xa5\xa5\xa5" + good)
    assert [m.pressed() for m in got] == [[5], [5]]
    assert dec.dropped_bytes > 0 and dec.bad_frames > 0


@pytest.mark.parametrize("position", range(13))  # every byte of a 32-key OCCUPANCY
def test_any_corrupted_byte_loses_only_that_frame(position):
    enc = wire.Encoder()
    bad = bytearray(enc.occupancy(32, [0, 31]))
    assert len(bad) == 13
    bad[position] ^= 0x5A
    after = enc.occupancy(32, [4])
    got = wire.Decoder().feed(bytes(bad) + after, now=0.0)
    assert [m.pressed() for m in got] == [[4]]


def test_truncated_frame_releases_what_follows_once_stale():
    enc = wire.Encoder()
    cut = enc.frame(50, [(1, 1, 1)] * 32)[:20]
    after = enc.occupancy(32, [9])
    dec = wire.Decoder(stale_after=0.5)
    # the cut frame's header promises 97 bytes: the next message waits inside it...
    assert dec.feed(cut + after, now=10.0) == []
    assert dec.feed(b"", now=10.2) == []
    # ...until the partial frame is too old to be anything but a glitch
    assert [m.pressed() for m in dec.feed(b"", now=10.6)] == [[9]]
    assert dec.buffered == 0


def test_oversized_length_is_rejected_at_the_header():
    head = bytes((wire.MARKER, wire.FRAME, 0, 0xFF, 0xFF, wire.header_check(wire.FRAME, 0, 0xFFFF)))
    dec = wire.Decoder()
    got = dec.feed(head + wire.Encoder().keepalive())
    assert [m.kind for m in got] == [wire.KEEPALIVE]


@pytest.mark.parametrize(
    ("kind", "payload", "complaint"),
    [
        (wire.OCCUPANCY, b"", "empty"),
        (wire.OCCUPANCY, b"\x20\x00\x00\x00", "32 keys in 4 bytes"),
        (wire.OCCUPANCY, b"\x04\x10", "beyond key 3"),
        (wire.FRAME, b"\x10\x01\x02", "FRAME payload of 3"),
        (wire.HELLO, b"\x01\x08", "HELLO payload of 2"),
        (wire.HELLO, bytes((1, 20, 20, 0, 0, 1, 0, 0)), "out of range"),
        (wire.QUERY, b"", "QUERY payload"),
        (wire.KEEPALIVE, b"x", "KEEPALIVE with a payload"),
        (wire.ERROR, b"\x01\xff\xfe", "not UTF-8"),
        (0x7F, b"", "unknown message kind 0x7F"),
    ],
)
def test_intact_frames_with_bad_payloads_are_rejected_not_raised(kind, payload, complaint):
    dec = wire.Decoder()
    assert dec.feed(wire.pack(kind, 0, payload) + wire.pack(wire.KEEPALIVE, 1))[0].kind == (
        wire.KEEPALIVE
    )
    assert dec.rejected == 1
    assert complaint in dec.last_error


def test_builders_refuse_what_cannot_be_sent():
    with pytest.raises(ValueError, match="outside"):
        wire.occupancy_payload(32, [32])
    with pytest.raises(ValueError, match="exceed MAX_LEDS"):
        wire.frame_payload(1, [(0, 0, 0)] * (wire.MAX_LEDS + 1))
    with pytest.raises(ValueError, match="MAX_PAYLOAD"):
        wire.pack(wire.FRAME, 0, bytes(wire.MAX_PAYLOAD + 1))


def test_largest_frame_fits():
    colours = [(i % 256, 0, 1) for i in range(wire.MAX_LEDS)]
    (frame,) = wire.Decoder().feed(wire.Encoder().frame(255, colours))
    assert frame.colours == colours


def test_buffer_stays_bounded_whatever_is_fed():
    dec = wire.Decoder()
    # a valid header promising the largest payload, then endless bytes that never complete it
    head = wire.pack(wire.FRAME, 0, bytes(wire.MAX_PAYLOAD))[: wire.HEADER_SIZE]
    for _ in range(50):
        dec.feed(head + b"\xa5" * 997)
        assert dec.buffered <= wire.MAX_MESSAGE
    dec.feed(bytes(1_000_000))
    assert dec.buffered == 0


def test_codec_stays_in_the_circuitpython_subset():
    """The board runs this file: no imports beyond struct, no dataclasses/typing/enum."""
    tree = ast.parse(WIRE_SOURCE)
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module)])
    }
    assert imported == {"struct"}
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.Attribute) and node.attr == "Struct")  # not on CP
        if isinstance(node, ast.Delete):
            assert not any(isinstance(t, ast.Subscript) for t in node.targets)


# --- fuzzing -------------------------------------------------------------------------

messages = st.one_of(
    st.builds(
        lambda keys, bits: (wire.OCCUPANCY, wire.occupancy_payload(keys, bits % (1 << keys))),
        st.integers(1, 100),
        st.integers(0, (1 << 100) - 1),
    ),
    st.builds(
        lambda b, cs: (wire.FRAME, wire.frame_payload(b, cs)),
        st.integers(0, 255),
        st.lists(st.tuples(*[st.integers(0, 255)] * 3), max_size=60),
    ),
    st.just((wire.KEEPALIVE, b"")),
    st.builds(lambda r, c, n: (wire.HELLO, wire.hello_payload(r, c, n)), *[st.integers(1, 10)] * 3),
)

# One piece of the stream: an intact frame (expected out), or damage (expected nothing).
pieces = st.one_of(
    st.tuples(st.just("intact"), messages),
    st.tuples(st.just("garbage"), st.binary(max_size=40)),
    st.tuples(st.just("truncated"), messages, st.integers(1, 10_000)),
    st.tuples(st.just("corrupted"), messages, st.integers(0, 10_000), st.integers(1, 255)),
    st.tuples(st.just("duplicated"), messages),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pieces, max_size=25), st.lists(st.integers(1, 64), min_size=1))
def test_decoder_recovers_every_intact_frame_and_nothing_else(stream, chunk_sizes):
    enc = wire.Encoder()
    data = bytearray()
    expected = []
    cut_tails = []  # (where a truncated frame stops, the bytes it lacks)
    for piece in stream:
        if piece[0] == "garbage":
            data += piece[1]
            continue
        kind, payload = piece[1]
        frame = enc.encode(kind, payload)
        if piece[0] == "truncated":
            cut = 1 + piece[2] % (len(frame) - 1)  # at least one byte short
            data += frame[:cut]
            cut_tails.append((len(data), frame[cut:]))
        elif piece[0] == "corrupted":
            bad = bytearray(frame)
            bad[piece[2] % len(bad)] ^= piece[3]
            data += bad
        else:
            copies = 2 if piece[0] == "duplicated" else 1
            data += frame * copies
            expected += [(kind, payload)] * copies
    # A frame cut short whose missing bytes are exactly the bytes sent next (say its
    # last CRC byte is 0xA5, the marker the next frame starts with) is, to any
    # decoder without byte stuffing, that frame whole: no protocol can tell.
    assume(not any(data[end : end + len(tail)] == tail for end, tail in cut_tails))
    dec = wire.Decoder()
    got = []
    i = n = 0
    while i < len(data):  # the stream arrives in chunks of arbitrary sizes, all at once
        size = chunk_sizes[n % len(chunk_sizes)]
        got += dec.feed(bytes(data[i : i + size]), now=0.0)
        assert dec.buffered <= wire.MAX_MESSAGE
        i += size
        n += 1
    later = 1.0
    while dec.buffered and later < 1e6:  # then silence: cut-off frames go stale
        got += dec.feed(b"", now=later)
        later += 1.0
    assert dec.buffered == 0
    # Every frame that arrived whole came out, in order, and nothing else did: bytes
    # after a damaged header or CRC are examined again, so damage costs only itself.
    assert [(m.kind, m.payload) for m in got] == expected


@settings(max_examples=300)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_and_never_invent_messages(data):
    dec = wire.Decoder()
    for start in range(0, len(data), 97):
        dec.feed(data[start : start + 97], now=start / 10)
        assert dec.buffered <= wire.MAX_MESSAGE
    # a CRC-16 and a header check make a valid frame in random noise vanishingly rare
    assert dec.messages == 0
