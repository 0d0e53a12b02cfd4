"""Tokeniser for PDN text, lenient about everything real files contain.

Real PDN files are written by many programs and by hand: comments `{...}`,
variations `(...)`, NAGs `$n`, move strength marks (`!?`, `(!?!!!)`), `%` and
`;` line comments, numbers split by a space (`47x 9` in DUTCH96H), CRLF. The
lexer turns all of that into a flat list of tokens the game parser can read
without caring about layout; only genuinely broken text (a `{` inside a
comment, an unclosed comment, a stray character) raises `PdnSyntaxError` with
the line and column, which the parser turns into a `PdnError` naming the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """What a token is; the parser dispatches on this alone."""

    TAG = "tag"  # value: (name, value)
    MOVE = "move"  # value: move text, strength marks removed
    RESULT = "result"  # value: normalised result text
    COMMENT = "comment"  # value: comment text, without braces


@dataclass(frozen=True)
class Token:
    """One meaningful piece of PDN text and where it starts (1-based)."""

    kind: Kind
    value: object
    line: int
    column: int


class PdnSyntaxError(ValueError):
    """Malformed text at a known place; the parser adds the game number."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.tokens: list[Token] = []  # what was read before the error


# Game terminators. `0-0` appears in some old files for a game given as lost
# to both (e.g. a forfeit); `2-0 1-1 0-2` are the FMJD match-point forms.
RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*", "2-0", "1-1", "0-2", "0-0"})
_RESULT_ALIASES = {"½-½": "1/2-1/2"}

_WS = " \t\r\n\f\v\ufeff\xa0"
# A square: a number, or an algebraic square like `c3` / `j10`.
_SQUARE = r"(?:\d+|[a-z]\d{1,2})"
# Separators between squares; spaces may follow one on the same line ("47x 9",
# "1- 6" in DUTCH96H, where numbers are right-aligned in two columns).
_MOVE = re.compile(
    rf"{_SQUARE}(?:[-x:X][ \t]*{_SQUARE})+"
    r"|[a-z]\d{1,2}(?:[a-z]\d{1,2})+"  # "a3b4": algebraic without a separator
    r"|[a-z][x:]?[a-z]\d{1,2}"  # short algebraic: "ab4", "cxe5"
)
_MOVE_NUMBER = re.compile(r"\d+\s*\.+|\.+")
_RESULT = re.compile(r"1/2-1/2|½-½|[0-2]-[0-2](?!\d)|\*")
_NAG = re.compile(r"\$\d+")
_STRENGTH = re.compile(r"[!?]+")
_PAREN_STRENGTH = re.compile(r"\(\s*[!?]+\s*\)")
_TAG_NAME = re.compile(r"[A-Za-z0-9_À-ÿ\u0100-\uffff]+")


class _Lexer:
    """Single pass over the text, keeping line/column for every token."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.tokens: list[Token] = []

    # -- position bookkeeping -------------------------------------------------
    @property
    def column(self) -> int:
        return self.pos - self.line_start + 1

    def _advance_to(self, end: int) -> None:
        """Move to `end`, counting the newlines crossed."""
        chunk = self.text[self.pos : end]
        newlines = chunk.count("\n")
        if newlines:
            self.line += newlines
            self.line_start = self.pos + chunk.rindex("\n") + 1
        self.pos = end

    def _where(self, pos: int) -> tuple[int, int]:
        """Line and column of an earlier or later offset (for error reports)."""
        line = self.text.count("\n", 0, pos) + 1
        start = self.text.rfind("\n", 0, pos) + 1
        return line, pos - start + 1

    def _error(self, message: str, pos: int | None = None) -> PdnSyntaxError:
        line, column = self._where(self.pos if pos is None else pos)
        return PdnSyntaxError(message, line, column)

    def _emit(self, kind: Kind, value: object, end: int) -> None:
        self.tokens.append(Token(kind, value, self.line, self.column))
        self._advance_to(end)

    def _at_line_start(self) -> bool:
        return self.text[self.line_start : self.pos].strip(_WS) == ""

    # -- main loop ------------------------------------------------------------
    def run(self) -> list[Token]:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in _WS:
                self._advance_to(self.pos + 1)
            elif (char == "%" and self._at_line_start()) or char == ";":
                end = text.find("\n", self.pos)
                self._advance_to(len(text) if end < 0 else end)
            elif char == "[":
                self._tag()
            elif char == "{":
                self._comment()
            elif char == "(":
                self._variation()
            else:
                self._word()
        return self.tokens

    def _tag(self) -> None:
        """`[Name "value"]`; `\\"` and `\\\\` are escapes inside the value."""
        text, start = self.text, self.pos
        pos = _skip_ws(text, start + 1)
        name_match = _TAG_NAME.match(text, pos)
        if not name_match:
            raise self._error("expected a tag name after '['", pos)
        pos = _skip_ws(text, name_match.end())
        if pos >= len(text) or text[pos] != '"':
            raise self._error(f"expected '\"' to open the value of tag {name_match.group()}", pos)
        value, pos = _read_string(text, pos + 1)
        if pos < 0:
            raise self._error(f"unterminated value of tag {name_match.group()}", start)
        pos = _skip_ws(text, pos)
        if pos >= len(text) or text[pos] != "]":
            raise self._error(f"expected ']' to close tag {name_match.group()}", pos)
        self._emit(Kind.TAG, (name_match.group(), value), pos + 1)

    def _comment(self) -> None:
        """`{...}`: PDN comments do not nest, so an inner `{` is an error."""
        text, start = self.text, self.pos
        pos = start + 1
        while pos < len(text):
            if text[pos] == "}":
                self._emit(Kind.COMMENT, text[start + 1 : pos].strip(), pos + 1)
                return
            if text[pos] == "{":
                raise self._error("'{' inside a comment (comments cannot be nested)", pos)
            pos += 1
        raise self._error("comment opened with '{' is never closed", start)

    def _variation(self) -> None:
        """Skip `(...)` with nesting and comments; `(!?)` is a strength mark."""
        text, start = self.text, self.pos
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
                close = text.find("}", pos + 1)
                inner = text.find("{", pos + 1)
                if close < 0:
                    raise self._error("comment opened with '{' is never closed", pos)
                if 0 <= inner < close:
                    raise self._error("'{' inside a comment (comments cannot be nested)", inner)
                pos = close
            pos += 1
        raise self._error("variation opened with '(' is never closed", start)

    def _word(self) -> None:
        """A result, move number, move, NAG or strength mark."""
        text, pos = self.text, self.pos
        for pattern, kind in ((_RESULT, Kind.RESULT), (_MOVE, Kind.MOVE)):
            match = pattern.match(text, pos)
            if match and _ends_word(text, match.end()):
                if kind is Kind.RESULT:
                    value = _RESULT_ALIASES.get(match.group(), match.group())
                else:
                    value = re.sub(r"\s+", "", match.group())
                self._emit(kind, value, match.end())
                strength = _STRENGTH.match(text, self.pos)
                if kind is Kind.MOVE and strength:
                    self._advance_to(strength.end())
                return
        for pattern in (_MOVE_NUMBER, _NAG, _STRENGTH):
            match = pattern.match(text, pos)
            if match:
                self._advance_to(match.end())
                return
        if text[pos] == "}":
            raise self._error("unexpected '}' outside a comment")
        if text[pos] == ")":
            raise self._error("unexpected ')' outside a variation")
        word = re.match(r"[^\s{}()\[\]]+", text[pos:])
        shown = word.group() if word else text[pos]
        raise self._error(f"unexpected {shown!r}")


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _read_string(text: str, pos: int) -> tuple[str, int]:
    """Read up to the closing quote; return (value, offset after it) or -1."""
    out: list[str] = []
    while pos < len(text):
        char = text[pos]
        if char == "\\" and pos + 1 < len(text) and text[pos + 1] in '"\\':
            out.append(text[pos + 1])
            pos += 2
            continue
        if char == '"':
            return "".join(out), pos + 1
        if char == "\n":
            return "", -1
        out.append(char)
        pos += 1
    return "", -1


def _ends_word(text: str, end: int) -> bool:
    """A token must not run straight into letters or digits (`1-10` is not `1-1`)."""
    return end >= len(text) or not (text[end].isalnum() or text[end] in "/-x:")


def tokenize(text: str) -> list[Token]:
    """Split PDN text into tokens; raise `PdnSyntaxError` on broken text."""
    lexer = _Lexer(text)
    try:
        return lexer.run()
    except PdnSyntaxError as error:
        error.tokens = lexer.tokens
        raise
