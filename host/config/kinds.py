"""Kinds of setting value: how each is read from TOML or a flag, checked, and described.

Why kinds and not per-key code: many keys share a shape (a choice, a number in a
range, a path relative to the file it was written in), and the same object that
checks a value also writes the "allowed" text that errors, `--help` and
docs/config.md show, so the check and its description cannot drift apart.
A kind's `parse` returns the value in force or raises `Invalid` saying what is
allowed; it never half-accepts. A key whose default is "not set" takes "" for
that, so `draughtsboard config`'s output is itself a valid config file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from host.errors import UserError


class Invalid(Exception):
    """Raised by a kind's `parse`; the message says what is allowed."""


def shown(value: Any) -> str:
    """A value as TOML would write it (strings quoted, booleans lower case)."""
    if isinstance(value, Path):
        value = str(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class Kind:
    """How one setting's value is read from TOML or a flag, checked and documented."""

    allowed = ""
    metavar = "VALUE"

    def parse(self, value: Any, base: Path | None) -> Any:
        raise NotImplementedError

    def from_text(self, text: str) -> Any:
        """A flag's text as the TOML value it stands for."""
        return text


class Choice(Kind):
    def __init__(self, values: Iterable[str], *, fold_case: bool = False) -> None:
        self.values = tuple(values)
        self.fold_case = fold_case
        self.allowed = "one of " + ", ".join(f'"{v}"' for v in self.values)
        self.metavar = "{" + ",".join(self.values) + "}"

    def parse(self, value: Any, base: Path | None) -> Any:
        if isinstance(value, str):
            text = value.lower() if self.fold_case else value
            if text in self.values:
                return text
        raise Invalid(f"must be {self.allowed}")


class Boolean(Kind):
    allowed = "true or false"

    def parse(self, value: Any, base: Path | None) -> Any:
        if isinstance(value, bool):
            return value
        raise Invalid("must be true or false")


class Number(Kind):
    def __init__(self, low: float, high: float, *, integer: bool = False, unit: str = "") -> None:
        self.low, self.high, self.integer = low, high, integer
        what = "a whole number" if integer else "a number"
        self.allowed = f"{what} from {_num(low)} to {_num(high)}{unit}"
        self.metavar = "N"

    def parse(self, value: Any, base: Path | None) -> Any:
        ok_type = int if self.integer else (int, float)
        in_type = isinstance(value, ok_type) and not isinstance(value, bool)
        if in_type and self.low <= value <= self.high:
            return int(value) if self.integer else float(value)
        raise Invalid(f"must be {self.allowed}")

    def from_text(self, text: str) -> Any:
        try:
            return int(text) if self.integer else float(text)
        except ValueError:
            return text


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


class PlayerKind(Kind):
    """Who plays a side: the words of `host.players`."""

    metavar = "PLAYER"

    def __init__(self) -> None:
        from host.players import ALLOWED

        self.allowed = ALLOWED

    def parse(self, value: Any, base: Path | None) -> Any:
        from host.players import PlayerError, parse_player

        try:
            return parse_player(value)
        except PlayerError:
            raise Invalid(f"must be {self.allowed}") from None


class ClockControl(Kind):
    """A time control (host/clock/control.py): `5+3`, `0.5+1`, `5+3/2+3` or "none"."""

    allowed = (
        'minutes+increment like "5+3", "90+30" or "0.5+1", two of them for a handicap '
        '("5+3/2+3", White\'s first), or "none"'
    )
    metavar = "MIN+INC"

    def parse(self, value: Any, base: Path | None) -> Any:
        from host.clock.control import parse_time_control

        if not isinstance(value, str):
            raise Invalid(f"must be {self.allowed}")
        try:
            control = parse_time_control(value)
        except UserError:
            raise Invalid(f"must be {self.allowed}") from None
        return "none" if control is None else control.text()


class Seconds(Kind):
    """A list of times in seconds (a TOML array; on a flag, comma-separated, with or
    without the array's brackets, so the example `allowed` gives works there too)."""

    allowed = "a list of seconds above 0, like [60, 10] ([] for none)"
    metavar = "S,S"

    def parse(self, value: Any, base: Path | None) -> Any:
        if isinstance(value, list) and all(
            isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= 36000
            for v in value
        ):
            return tuple(sorted({float(v) for v in value}, reverse=True))
        raise Invalid(f"must be {self.allowed}")

    def from_text(self, text: str) -> Any:
        try:
            inside = text.replace(" ", "").removeprefix("[").removesuffix("]")
            return [float(part) for part in inside.split(",") if part]
        except ValueError:
            return text


class BoardSpec(Kind):
    allowed = '"sim", "mock", "gpio" or "serial:PORT" (e.g. "serial:/dev/ttyACM1")'
    metavar = "BOARD"

    def parse(self, value: Any, base: Path | None) -> Any:
        if value in ("sim", "mock", "gpio"):
            return value
        if isinstance(value, str) and value.startswith("serial:") and len(value) > len("serial:"):
            return value
        raise Invalid(f"must be {self.allowed}")


class LayoutRef(Kind):
    allowed = (
        'a shipped layout name (standard-8x8, standard-10x10), a layout file, '
        'or "" for the variant\'s standard one'
    )
    metavar = "NAME|FILE"

    def parse(self, value: Any, base: Path | None) -> Any:
        if value == "":
            return None
        if not isinstance(value, str):
            raise Invalid(f"must be {self.allowed}")
        path = Path(value).expanduser()
        looks_like_file = path.suffix == ".toml" or "/" in value
        if looks_like_file and not path.is_absolute() and base is not None:
            path = base / path
        return str(path) if looks_like_file else value


class PathValue(Kind):
    allowed = "a path (relative paths start at the config file's folder)"
    metavar = "PATH"

    def __init__(self, *, optional: bool = False) -> None:
        self.optional = optional
        if optional:
            self.allowed = 'a path, or "" for none (relative paths start at the file\'s folder)'

    def parse(self, value: Any, base: Path | None) -> Any:
        if not isinstance(value, str) or (not value and not self.optional):
            raise Invalid(f"must be {self.allowed}")
        if not value:
            return None
        path = Path(value).expanduser()
        if not path.is_absolute() and base is not None:
            path = base / path
        return path


class ListenAddress(Kind):
    """Where the page is served: the rules of `host.web.address.parse_listen`."""

    allowed = '"HOST:PORT" with an IP address or localhost (e.g. "0.0.0.0:8080"), or "off"'
    metavar = "HOST:PORT"

    def parse(self, value: Any, base: Path | None) -> Any:
        from host.web.address import parse_listen

        if not isinstance(value, str):
            raise Invalid(f"must be {self.allowed}")
        try:
            parse_listen(value)
        except UserError:
            raise Invalid(f"must be {self.allowed}") from None
        return value.strip()


class Token(Kind):
    allowed = 'at least 8 characters with no spaces ("" for none)'
    metavar = "TOKEN"

    def parse(self, value: Any, base: Path | None) -> Any:
        if value == "":
            return None
        if isinstance(value, str) and len(value) >= 8 and not any(c.isspace() for c in value):
            return value
        raise Invalid(f"must be {self.allowed}")


class Text(Kind):
    allowed = 'a text, or "" for none'
    metavar = "TEXT"

    def parse(self, value: Any, base: Path | None) -> Any:
        if isinstance(value, str):
            return value or None
        raise Invalid(f"must be {self.allowed}")


class Colours(Kind):
    allowed = 'a table of role = "#rrggbb" or [r, g, b] (0..255)'
    metavar = "ROLE=COLOUR"

    def parse(self, value: Any, base: Path | None) -> Any:
        raise NotImplementedError("colours are parsed colour by colour (parse_colour)")


def parse_colour(value: Any) -> tuple[int, int, int]:
    """`"#rrggbb"` or `[r, g, b]` with 0..255."""
    if isinstance(value, str):
        text = value.lstrip("#")
        if len(text) == 6:
            try:
                return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
            except ValueError:
                pass
    elif (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        return (value[0], value[1], value[2])
    raise Invalid('must be "#rrggbb" or [r, g, b] with 0..255')


# -- broadcast: the broker's address and the board's name on it --------------------------
#
# `check_broker_url` and `check_board_id` raise UserError because the broadcast tools
# (host/broadcast/) call them on values typed on their own command lines too.

BOARD_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}"


def check_broker_url(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of `mqtt://host[:port]` or `mqtts://host[:port]`, else UserError."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = -1
    if (scheme not in ("mqtt", "mqtts") or not parts.hostname or port == -1
            or parts.path not in ("", "/")):
        raise UserError(f"broker must look like mqtt://host:1883 or mqtts://host:8883, not {url!r}")
    return scheme, parts.hostname, port or (8883 if scheme == "mqtts" else 1883)


def check_board_id(value: object) -> str:
    if not isinstance(value, str) or not re.fullmatch(BOARD_ID_PATTERN, value):
        raise UserError(
            "board_id must be 1-32 letters, digits, '-' or '_' (it names MQTT topics), "
            f"not {value!r}"
        )
    return value


class BrokerUrl(Kind):
    allowed = 'mqtt://host[:port] or mqtts://host[:port], or "" for none'
    metavar = "URL"

    def parse(self, value: Any, base: Path | None) -> Any:
        if value == "":
            return None
        if isinstance(value, str):
            try:
                check_broker_url(value)
                return value
            except UserError:
                pass
        raise Invalid(f"must be {self.allowed}")


class BoardId(Kind):
    allowed = (
        "1-32 letters, digits, '-' or '_' (it names the board's MQTT topics), "
        'or "" for none'
    )
    metavar = "ID"

    def parse(self, value: Any, base: Path | None) -> Any:
        if value == "":
            return None
        try:
            return check_board_id(value)
        except UserError:
            raise Invalid(f"must be {self.allowed}") from None
