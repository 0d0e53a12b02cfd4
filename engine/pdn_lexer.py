"""Tokeniser for PDN text: streaming, and lenient about everything real files contain.

Real PDN files are written by many programs and by hand: comments `{...}`,
variations `(...)`, NAGs `$n`, move strength marks (`!?`, `(!?!!!)`), `%` and
`;` line comments, numbers split by a space (`47x 9` in DUTCH96H), CRLF,
upper-case squares (`E3-D4`), zero-padded squares (`09x18`), moves without
separator (`a3b4`, `3228`), unknown moves written `-` (`41. - -`), results in
every dialect of `engine.pdn_results`, set-ups `/FEN/` in the movetext, tag
values with unescaped quotes or none at all, a DOS end-of-file mark.

The text arrives as an iterable of lines (`engine.pdn_source`) and is kept in
a buffer that is trimmed as tokens are read, so memory does not grow with the
file. Broken text (a `{` inside a comment, a comment never closed, a stray
character) becomes an ERROR token with its line and column, after which the
lexer skips to the next tag section: one broken game does not make the rest
of the file unreadable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import Enum
from typing import NamedTuple

from engine.pdn_results import TERMINATOR


class Kind(Enum):
    """What a token is; the game parser dispatches on this alone."""

    TAG = "tag"  # value: (name, value)
    MOVE = "move"  # value: move text, lower case, without spaces or strength marks
    UNKNOWN_MOVE = "unknown-move"  # value: "-"; a move the file does not know
    RESULT = "result"  # value: result text as written (`½` read as `1/2`)
    COMMENT = "comment"  # value: comment text, without braces
    SETUP = "setup"  # value: the FEN between slashes
    ERROR = "error"  # value: what is wrong; the lexer then skips to the next game


class Token(NamedTuple):
    """One meaningful piece of PDN text and where it starts (1-based)."""

    kind: Kind
    value: object
    line: int
    column: int


class PdnSyntaxError(ValueError):
    """Malformed text at a known place (turned into an ERROR token)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class _NeedMore(Exception):
    """The buffer ends inside the token being read: read more and try again."""


_WS = " \t\r\n\f\v\ufeff\xa0\x1a"  # \x1a: the DOS end-of-file mark of old files
_WS_RUN = re.compile(f"[{_WS}]+")
# A square: a number (at most two digits: 50 squares on 10x10, 72 on 12x12),
# or an algebraic square like `c3` / `J10`.
_SQUARE = r"(?:\d{1,2}|[a-z]\d{1,2})"
# Separators between squares; spaces may follow one on the same line ("47x 9",
# "1- 6" in DUTCH96H, where numbers are right-aligned in two columns).
_MOVE = re.compile(
    rf"{_SQUARE}(?:[-x:–×][ \t]*{_SQUARE})+"
    r"|[a-z]\d{1,2}(?:[a-z]\d{1,2})+"  # "a3b4": algebraic without a separator
    r"|[a-z][x:]?[a-z]\d{1,2}",  # short algebraic: "ab4", "cxe5"
    re.IGNORECASE,
)
_PACKED_MOVE = re.compile(r"\d{4}(?![\d.])")  # "3228": numeric without separator
_UNKNOWN_MOVE = re.compile(r"--?|[–—]")
_MOVE_NUMBER = re.compile(r"\d+[ \t]*\.+|\.+")
_NAG = re.compile(r"\$\d*")
_STRENGTH = re.compile(r"[!?]+")
_PAREN_STRENGTH = re.compile(r"\(\s*[!?]+\s*\)")
_SETUP = re.compile(r"/([^/\n]*)/")
_TAG_NAME = re.compile(r"[A-Za-z0-9_À-ÿ\u0100-\uffff]+")
_SEPARATOR_FORMS = str.maketrans({"–": "-", "×": "x", "X": "x"})
# A word must not run straight into letters, digits or separators (`1-10` is not `1-1`).
_END = r"(?![^\W_]|[/\-x:])"
# The common tokens in one pattern, tried in this order at each place.
_FAST = re.compile(
    rf"(?P<ws>[{_WS}]+)"
    rf"|(?P<result>{TERMINATOR.pattern}){_END}"
    rf"|(?P<move>{_MOVE.pattern}){_END}[!?]*"
    rf"|{_MOVE_NUMBER.pattern}"
    rf"|(?P<packed>{_PACKED_MOVE.pattern}){_END}"
    rf"|(?P<unknown>{_UNKNOWN_MOVE.pattern}){_END}"
    rf"|{_NAG.pattern}|{_STRENGTH.pattern}",
    re.IGNORECASE,
)

LOOKAHEAD = 1024  # characters kept ahead of the reading position when possible
_COMPACT_AT = 1 << 16  # drop the text already read once this much has piled up


class Lexer:
    """Single pass over the lines of a PDN text, keeping line and column of every token."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self.text = ""
        self.pos = 0
        self.eof = False
        self.line = 1
        self.line_start = 0  # buffer offset of the current line (negative once trimmed)
        self._line_has_text = False  # something other than blanks before `pos` on this line

    def tokens(self) -> Iterator[Token]:
        """All tokens, in order; broken text gives an ERROR token, then reading resumes."""
        while True:
            if self.pos >= _COMPACT_AT:
                self._compact()
            if len(self.text) - self.pos < LOOKAHEAD and not self.eof:
                self._fill(self.pos + LOOKAHEAD)
            if self.pos >= len(self.text):
                return
            try:
                token = self._next()
            except _NeedMore:
                self._fill(len(self.text) + max(len(self.text) - self.pos, LOOKAHEAD))
                continue
            except PdnSyntaxError as error:
                yield Token(Kind.ERROR, error.message, error.line, error.column)
                self._resync()
                continue
            if token is not None:
                yield token

    # -- buffer -------------------------------------------------------------------
    def _fill(self, end: int) -> None:
        """Read lines until the buffer reaches `end` characters or the text ends."""
        pieces, size = [self.text], len(self.text)
        while size < end:
            line = next(self._lines, None)
            if line is None:
                self.eof = True
                break
            pieces.append(line)
            size += len(line)
        self.text = "".join(pieces)

    def _compact(self) -> None:
        self.text = self.text[self.pos :]
        self.line_start -= self.pos
        self.pos = 0

    def _need(self, end: int) -> None:
        """Make sure the text up to `end` is in the buffer (or the text ends before)."""
        if end >= len(self.text) and not self.eof:
            raise _NeedMore

    # -- position bookkeeping ----------------------------------------------------
    @property
    def column(self) -> int:
        return self.pos - self.line_start + 1

    def _advance_to(self, end: int) -> None:
        """Move to `end`, counting the newlines crossed."""
        chunk = self.text[self.pos : end]
        newlines = chunk.count("\n")
        if newlines:
            last = chunk.rindex("\n")
            self.line += newlines
            self.line_start = self.pos + last + 1
            self._line_has_text = bool(chunk[last + 1 :].strip(_WS))
        elif not self._line_has_text:
            self._line_has_text = bool(chunk.strip(_WS))
        self.pos = end

    def _where(self, pos: int) -> tuple[int, int]:
        """Line and column of an offset at or after the reading position."""
        line = self.line + self.text.count("\n", self.pos, pos)
        start = self.text.rfind("\n", self.pos, pos)
        return line, pos - (self.line_start if start < 0 else start + 1) + 1

    def _error(self, message: str, pos: int | None = None) -> PdnSyntaxError:
        line, column = self._where(self.pos if pos is None else pos)
        return PdnSyntaxError(message, line, column)

    def _token(self, kind: Kind, value: object, end: int) -> Token:
        token = Token(kind, value, self.line, self.column)
        self._advance_to(end)
        return token

    # -- dispatch ----------------------------------------------------------------
    def _next(self) -> Token | None:
        """The next token; blanks, move numbers, NAGs and strength marks are passed over."""
        text, size = self.text, len(self.text)
        while True:
            pos = self.pos
            if pos >= size:
                return None
            fast = _FAST.match(text, pos)
            if fast is None:
                break
            end = fast.end()
            if end >= size and not self.eof:
                raise _NeedMore  # the word may go on in the text not read yet
            group = fast.lastgroup
            if group == "move":
                value = "".join(fast.group("move").split()).translate(_SEPARATOR_FORMS)
                return self._token(Kind.MOVE, value.lower(), end)
            if group == "result":
                return self._token(Kind.RESULT, fast.group("result").replace("½", "1/2"), end)
            if group == "packed":
                packed = fast.group("packed")
                return self._token(Kind.MOVE, f"{packed[:2]}-{packed[2:]}", end)
            if group == "unknown":
                return self._token(Kind.UNKNOWN_MOVE, "-", end)
            self._advance_to(end)  # blanks, a move number, a NAG or a strength mark
        char = text[pos]
        if (char == "%" and not self._line_has_text) or char == ";":
            end = text.find("\n", pos)
            if end < 0:
                self._need(len(text))
                end = len(text)
            self._advance_to(end)
            return None
        if char == "[":
            return self._tag()
        if char == "{":
            return self._comment()
        if char == "(":
            return self._variation()
        if char == "/":
            return self._setup()
        return self._word()

    def _tag(self) -> Token:
        """`[Name "value"]`, leniently: `\\"` and `\\\\` escapes, stray quotes, no quotes."""
        text, start = self.text, self.pos
        line_end = text.find("\n", start)
        if line_end < 0:
            self._need(len(text))
            line_end = len(text)
        pos = _skip_ws(text, start + 1, line_end)
        name_match = _TAG_NAME.match(text, pos, line_end)
        if not name_match:
            raise self._error("expected a tag name after '['", pos)
        name = name_match.group()
        pos = _skip_ws(text, name_match.end(), line_end)
        if pos < line_end and text[pos] == '"':
            value, end = _read_string(text, pos + 1, line_end)
            if end < 0:
                raise self._error(f"unterminated value of tag {name}", start)
            close = _skip_ws(text, end, line_end)
            if close >= line_end or text[close] != "]":
                # Unescaped quotes inside the value: `[Event "The "Big" Match"]`.
                last = text.rfind('"]', pos + 1, line_end)
                if last < 0:
                    raise self._error(f"expected ']' to close tag {name}", close)
                value, close = _unescape(text[pos + 1 : last]), last + 1
        else:  # no quotes: `[Round 5]`
            close = text.find("]", pos, line_end)
            if close < 0:
                raise self._error(f"expected '\"' to open the value of tag {name}", pos)
            value = text[pos:close].strip(_WS)
            if len(value) > 1 and value[0] == value[-1] == "'":
                value = value[1:-1]
        return self._token(Kind.TAG, (name, value), close + 1)

    def _comment(self) -> Token:
        """`{...}`: kept, without the braces."""
        start = self.pos
        close = self._comment_end(start)
        return self._token(Kind.COMMENT, self.text[start + 1 : close].strip(), close + 1)

    def _comment_end(self, start: int) -> int:
        """Where the comment opened at `start` closes; PDN comments do not nest."""
        text = self.text
        close = text.find("}", start + 1)
        if close < 0:
            self._need(len(text))
        inner = text.find("{", start + 1, close if close >= 0 else len(text))
        if inner >= 0:
            raise self._error("'{' inside a comment (comments cannot be nested)", inner)
        if close < 0:
            raise self._error("comment opened with '{' is never closed", start)
        return close

    def _variation(self) -> None:
        """Skip `(...)` with nesting and comments; `(!?)` is a strength mark."""
        text, start = self.text, self.pos
        self._need(start + 16)
        strength = _PAREN_STRENGTH.match(text, start)
        if strength:
            self._advance_to(strength.end())
            return
        depth, pos = 0, start
        while pos < len(text):
            char = text[pos]
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    self._advance_to(pos + 1)
                    return
            elif char == "{":
                pos = self._comment_end(pos)
            pos += 1
        self._need(len(text))
        raise self._error("variation opened with '(' is never closed", start)

    def _setup(self) -> Token:
        """`/W:W31-50:B1-20/`: a position set up in the movetext (PDN 3.0 SETUP)."""
        if self.text.find("\n", self.pos) < 0:
            self._need(len(self.text))
        match = _SETUP.match(self.text, self.pos)
        if not match:
            raise self._error("'/' opens a set-up that is never closed")
        return self._token(Kind.SETUP, match.group(1).strip(), match.end())

    def _word(self) -> Token | None:
        """Text that is no token (`_FAST` read every token that is): say what it is."""
        text, pos = self.text, self.pos
        if text[pos] == "}":
            raise self._error("unexpected '}' outside a comment")
        if text[pos] == ")":
            raise self._error("unexpected ')' outside a variation")
        self._need(pos + 40)
        word = re.compile(r"[^\s{}()\[\]]{1,40}").match(text, pos)
        shown = word.group() if word else text[pos]
        raise self._error(f"unexpected {shown!r}")

    # -- recovery ----------------------------------------------------------------
    def _resync(self) -> None:
        """Skip to the next tag section: a line starting with `[` after a line that does not.

        Called after an error: the rest of the broken game is skipped, so the
        games after it can still be read.
        """
        previous_is_tag = self._current_line().lstrip(_WS).startswith("[")
        while True:
            newline = self.text.find("\n", self.pos)
            while newline < 0 and not self.eof:
                self._fill(len(self.text) + max(len(self.text) - self.pos, LOOKAHEAD))
                newline = self.text.find("\n", self.pos)
            if newline < 0:
                self._advance_to(len(self.text))
                return
            self._advance_to(newline + 1)
            if self.pos >= _COMPACT_AT:
                self._compact()
            line = self._current_line()
            is_tag = line.lstrip(_WS).startswith("[")
            if is_tag and not previous_is_tag:
                return
            previous_is_tag = is_tag

    def _current_line(self) -> str:
        """The current line from its start (or from the buffer's start) to its end."""
        end = self.text.find("\n", self.pos)
        while end < 0 and not self.eof:
            self._fill(len(self.text) + LOOKAHEAD)
            end = self.text.find("\n", self.pos)
        return self.text[max(self.line_start, 0) : end if end >= 0 else len(self.text)]


def _skip_ws(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos] in _WS:
        pos += 1
    return pos


def _read_string(text: str, pos: int, end: int) -> tuple[str, int]:
    """Read up to the closing quote; return (value, offset after it), or offset -1."""
    out: list[str] = []
    while pos < end:
        char = text[pos]
        if char == "\\" and pos + 1 < end and text[pos + 1] in '"\\':
            out.append(text[pos + 1])
            pos += 2
            continue
        if char == '"':
            return "".join(out), pos + 1
        out.append(char)
        pos += 1
    return "", -1


def _unescape(raw: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", raw)


def tokenize(lines: Iterable[str] | str) -> Iterator[Token]:
    """Tokens of PDN text given whole (`str`) or as lines; see `Lexer.tokens`."""
    return Lexer([lines] if isinstance(lines, str) else lines).tokens()
