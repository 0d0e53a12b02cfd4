"""Where PDN text comes from: a path, bytes, or a text or binary stream, read lazily.

Files are read a block at a time and handed on as lines, so an 11 MB
collection costs the memory of one block, not of the file. Bytes are decoded
line by line: UTF-8 (a BOM is dropped), else one 8-bit encoding guessed for
the whole file from its non-UTF-8 lines. Old Russian collections are in
Windows-1251 (sometimes KOI8-R or DOS 866), old Western ones in
Windows-1252/Latin-1; mixing UTF-8 and 8-bit lines (files glued together)
also happens, hence the per-line decision. The guessed encoding is kept in
`PdnSource.encoding`: a Cyrillic code page is evidence for Russian draughts
(`engine.pdn_infer`).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

BLOCK = 1 << 16
# How much of a file is looked at before the first game is read, so that the
# encoding guess (and the evidence it gives) is known from the first game on.
SNIFF_BYTES = 1 << 18

CYRILLIC_ENCODINGS = ("cp1251", "koi8_r", "cp866")
WESTERN = "cp1252"
_WORD = re.compile(r"[^\W\d_]+")
_NEUTRAL_CATEGORIES = ("P", "Z", "N", "Sc")  # punctuation, spaces, digits, currency
_NEUTRAL_SIGNS = frozenset("©®°§¶·µ±×÷¬¦")  # signs Western text uses

Source = str | os.PathLike[str] | bytes | bytearray | IO[str] | IO[bytes]


class PdnSource:
    """A source of PDN text; `lines()` yields it line by line, decoded.

    `source` is a path (`str` or `Path`), the file's bytes, or an open stream
    (text or binary). Paths are opened by `lines()` and closed when it ends;
    streams are read but left open, they belong to the caller.
    """

    def __init__(self, source: Source) -> None:
        self.source = source
        self.name = _name_of(source)
        self.encoding: str | None = None  # "ascii", "utf-8", "utf-16", "cp1251", ...
        self.bom = False

    def lines(self) -> Iterator[str]:
        source = self.source
        if isinstance(source, str | os.PathLike):
            with open(source, "rb") as handle:  # noqa: PTH123 - plain open on a PathLike
                yield from self._from_binary(handle.read)
        elif isinstance(source, bytes | bytearray):
            yield from self._from_binary(io.BytesIO(bytes(source)).read)
        elif isinstance(source, io.TextIOBase) or _reads_text(source):
            self.encoding = getattr(source, "encoding", None) or "text"
            yield from _split_lines(_blocks(source.read))
        else:
            yield from self._from_binary(source.read)

    # ---------------------------------------------------------------- binary
    def _from_binary(self, read: Any) -> Iterator[str]:
        head = read(4) or b""
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            self.encoding, self.bom = "utf-16", True
            decoder = codecs.getincrementaldecoder("utf-16")(errors="replace")
            blocks = (decoder.decode(block) for block in _chain(head, _blocks(read)))
            yield from _split_lines(blocks)
            return
        if head.startswith(codecs.BOM_UTF8):
            self.bom = True
        lines = _split_lines(_chain(head, _blocks(read)))
        yield from self._decode(lines)

    def _decode(self, raw_lines: Iterator[bytes]) -> Iterator[str]:
        """UTF-8 where a line is UTF-8, else the guessed 8-bit encoding."""
        ahead: deque[bytes] = deque()
        size = 0
        for raw in raw_lines:  # look at the start of the file before reading games
            ahead.append(raw)
            size += len(raw)
            if size >= SNIFF_BYTES:
                break
        fallback = guess_8bit(samples) if (samples := _8bit_lines(ahead)) else None
        utf8 = any(not raw.isascii() and _is_utf8(raw) for raw in ahead)
        self.encoding = _describe(utf8, fallback)
        for number, raw in enumerate(_drain(ahead, raw_lines)):
            if number == 0:
                raw = raw.removeprefix(codecs.BOM_UTF8)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                if fallback is None:  # the first 8-bit line after the sniffed start
                    fallback = guess_8bit([raw, *_read_8bit_ahead(raw_lines, ahead)])
                    self.encoding = _describe(utf8, fallback)
                text = _decode_8bit(raw, fallback)
            else:
                if not utf8 and not raw.isascii():
                    utf8 = True
                    self.encoding = _describe(utf8, fallback)
            yield text


def _describe(utf8: bool, fallback: str | None) -> str:
    if fallback is None:
        return "utf-8" if utf8 else "ascii"
    return f"utf-8 and {fallback}" if utf8 else fallback


def guess_8bit(samples: list[bytes]) -> str:
    """The 8-bit encoding that makes the most plausible words of `samples`.

    Cyrillic words are written entirely in non-ASCII letters, Western words
    mix a few accented letters into ASCII ones; read in the wrong Cyrillic
    code page, Russian words come out in mixed case or as box-drawing signs.
    Each candidate is scored on that, Windows-1252 winning ties.
    """
    text_bytes = b"\n".join(samples)[:SNIFF_BYTES]
    best, best_score = WESTERN, _plausibility(_decode_8bit(text_bytes, WESTERN))
    for encoding in CYRILLIC_ENCODINGS:
        score = _plausibility(text_bytes.decode(encoding, errors="replace"))
        if score > best_score:
            best, best_score = encoding, score
    return best


def _plausibility(text: str) -> int:
    """Letters in plausible words minus letters in implausible ones and odd signs."""
    score = 0
    for word in _WORD.findall(text):
        foreign = [c for c in word if not c.isascii()]
        if not foreign or len(word) < 2:
            continue  # single letters say nothing: wrong code pages make many of them
        cyrillic = sum("\u0400" <= c <= "\u04ff" for c in foreign)
        if cyrillic == len(word):
            plausible = word.islower() or word.isupper() or word.istitle()
        elif cyrillic:
            plausible = False  # Cyrillic and Latin letters in one word
        else:  # "João", "Müller" are plausible; a word of accented letters only is not
            plausible = len(foreign) < len(word) and len(foreign) <= 2
        score += len(word) if plausible else -len(word)
    for char in text:
        if (not char.isascii() and not char.isalpha() and char not in _NEUTRAL_SIGNS
                and not unicodedata.category(char).startswith(_NEUTRAL_CATEGORIES)):
            score -= 2  # box drawing, control characters, U+FFFD
    return score


def _decode_8bit(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:  # the five bytes Windows-1252 leaves undefined
        return raw.decode("latin-1")


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _8bit_lines(lines: Iterable[bytes]) -> list[bytes]:
    return [line for line in lines if not _is_utf8(line)]


def _read_8bit_ahead(raw_lines: Iterator[bytes], ahead: deque[bytes]) -> list[bytes]:
    """Read up to 64 KB more into `ahead` (decoded later) and return its 8-bit lines."""
    size = 0
    for raw in raw_lines:
        ahead.append(raw)
        size += len(raw)
        if size >= BLOCK:
            break
    return _8bit_lines(ahead)


def _drain(ahead: deque[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    """The looked-ahead lines, then the rest; `ahead` may grow while this runs."""
    while True:
        if ahead:
            yield ahead.popleft()
            continue
        raw = next(rest, None)
        if raw is None:
            return
        yield raw


def _blocks(read: Any) -> Iterator[Any]:
    while True:
        block = read(BLOCK)
        if not block:
            return
        yield block


def _chain(head: bytes, blocks: Iterator[bytes]) -> Iterator[bytes]:
    if head:
        yield head
    yield from blocks


def _split_lines(blocks: Iterable[Any]) -> Iterator[Any]:
    """Lines (with their newline) from blocks of bytes or text, without quadratic joins."""
    pieces: list[Any] = []
    for block in blocks:
        if not block:
            continue
        newline = "\n" if isinstance(block, str) else b"\n"
        start = 0
        while (end := block.find(newline, start)) >= 0:
            piece = block[start : end + 1]
            if pieces:
                pieces.append(piece)
                piece = piece[:0].join(pieces)
                pieces = []
            yield piece
            start = end + 1
        if start < len(block):
            pieces.append(block[start:])
    if pieces:
        yield pieces[0][:0].join(pieces)


def _reads_text(stream: Any) -> bool:
    try:
        return isinstance(stream.read(0), str)
    except (AttributeError, OSError, ValueError):
        return False


def _name_of(source: object) -> str:
    if isinstance(source, str | os.PathLike):
        return str(Path(source))
    name = getattr(source, "name", None)
    return str(name) if isinstance(name, str) else "<stream>" if hasattr(source, "read") else (
        "<bytes>"
    )
