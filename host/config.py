"""Player and board settings: one table of keys, read from layered TOML files and flags.

Why a file and not only flags: the board lives on a shelf and is started by a
service; what a club sets once (board, language, speech, colours, how much
help the LEDs give) must survive restarts. Why one table (`SETTINGS`): each
key is declared once, with its validator and its help, and the command-line
flags, `config --check` and docs/config.md all derive from it, so a new key is
one row here and one field of `Config`.

Layering, lowest first (each layer overrides only the keys it sets; `[colours]`
colour by colour):

1. the defaults (the `Config` dataclass);
2. the system file `/etc/draughtsboard/config.toml`, if it exists (the service's);
3. `--config FILE` if given (it must exist), otherwise the user's
   `$XDG_CONFIG_HOME/draughtsboard/config.toml` (`~/.config/...`), if it exists;
4. command-line flags.

The service runs `run --config /etc/draughtsboard/config.toml`, so it reads the
system file only and never a home folder. Relative paths in a file are taken
from that file's folder. A bad value is never half-applied: every error is
collected (`ConfigError`, naming the file, the key, the value and what is
allowed) and `load_config` refuses with one line that points to
`draughtsboard config --check`.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from host.errors import UserError

LANGUAGES = ("pt-BR", "en")
HINT_LEVELS = ("off", "captures", "full")
LOG_LEVELS = ("debug", "info", "warning", "error")
#: the computer's strength; 0 means two people play (the computer opponent comes later)
COMPUTER_LEVELS = range(0, 6)
SYSTEM_CONFIG = Path("/etc/draughtsboard/config.toml")

#: Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
DEFAULT_COLOURS: dict[str, tuple[int, int, int]] = {
    "must-capture": (230, 159, 0),  # orange
    "capture-alert": (230, 159, 0),  # orange, blinking
    "destination": (0, 114, 178),  # blue
    "landing": (86, 180, 233),  # sky blue
    "remove": (213, 94, 0),  # vermillion
    "crown": (240, 228, 66),  # yellow
    "wrong": (204, 121, 167),  # reddish purple
    "last-move": (40, 40, 40),  # dim white
    "end": (0, 158, 115),  # bluish green
    # board commands (host/gestures.py)
    "command": (255, 255, 255),  # the command piece: white
    "resign": (213, 94, 0),  # vermillion, blinking
    "draw": (0, 158, 115),  # bluish green
    "takeback": (240, 228, 66),  # yellow
    "choice": (0, 114, 178),  # blue: a variant or level chosen at the start
}


def default_config_path() -> Path:
    """`$XDG_CONFIG_HOME/draughtsboard/config.toml`, normally under `~/.config`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "draughtsboard" / "config.toml"


def system_config_path() -> Path:
    """The service's file. `DRAUGHTSBOARD_SYSTEM_CONFIG` moves it (tests, packagers)."""
    return Path(os.environ.get("DRAUGHTSBOARD_SYSTEM_CONFIG") or SYSTEM_CONFIG)


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "draughtsboard"


@dataclass(frozen=True)
class Config:
    """Everything `draughtsboard run` needs to know about this board and its players."""

    variant: str = "brazilian"
    language: str = "pt-BR"
    speech: bool = True
    hints: str = "full"
    colours: dict[str, tuple[int, int, int]] = field(default_factory=lambda: dict(DEFAULT_COLOURS))
    board: str = "sim"
    layout: str | None = None
    brightness: float = 0.3
    data_dir: Path = field(default_factory=default_data_dir)
    games_dir: Path = field(default_factory=lambda: default_data_dir() / "games")
    journal: Path = field(default_factory=lambda: default_data_dir() / "journal.jsonl")
    log_level: str = "info"
    log_file: Path | None = None
    gestures: bool = True
    gesture_hold: float = 2.0
    computer_level: int = 0
    #: club play (FMJD touch-move): a piece released on a legal square has moved.
    #: Off (home play): a move whose piece goes on before the opponent acts is re-read.
    touch_move: bool = False
    # the board's page (host/web): where it is served, and the token controls need
    listen: str = "127.0.0.1:8080"
    token: str | None = None
    # broadcast (docs/broadcast.md): all None/default = no broker, nothing published
    broker: str | None = None
    board_id: str | None = None
    broker_username: str | None = None
    broker_password_file: Path | None = None
    broker_ca_file: Path | None = None
    broker_keepalive: int = 15
    broker_outbox: Path | None = None

    @property
    def broadcast(self) -> BroadcastConfig | None:
        """Where this board publishes, or None when no broker is set."""
        if self.broker is None or self.board_id is None:
            return None
        return BroadcastConfig(
            broker=self.broker,
            board_id=self.board_id,
            username=self.broker_username
            or (self.board_id if self.broker_password_file else None),
            password_file=self.broker_password_file,
            ca_file=self.broker_ca_file,
            keepalive=self.broker_keepalive,
            outbox=self.broker_outbox
            or self.journal.with_name(self.journal.stem + ".outbox.jsonl"),
        )

    @property
    def status_file(self) -> Path:
        """Where the running board writes its state for `draughtsboard status`."""
        return self.data_dir / "status.json"

    def with_overrides(self, **changes: Any) -> Config:
        """A copy with the non-None `changes` applied (no validation: use flags for that)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


# -- errors ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ConfigError:
    """One bad setting: where it came from, its key and value, and what is allowed."""

    source: str
    key: str | None
    value: Any
    allowed: str

    def __str__(self) -> str:
        if self.key is None:
            return f"{self.source}: {self.allowed}"
        return f"{self.source}: {self.key} = {_shown(self.value)}: {self.allowed}"


def _shown(value: Any) -> str:
    """A value as TOML would write it (strings quoted, booleans lower case)."""
    if isinstance(value, Path):
        value = str(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class Invalid(Exception):
    """Raised by a kind's `parse`; the message says what is allowed."""


# -- kinds of value ------------------------------------------------------------------


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
    allowed = "a shipped layout name (standard-8x8, standard-10x10) or a layout file"
    metavar = "NAME|FILE"

    def parse(self, value: Any, base: Path | None) -> Any:
        if not isinstance(value, str) or not value:
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


class Colours(Kind):
    allowed = 'a table of role = "#rrggbb" or [r, g, b] (0..255)'
    metavar = "ROLE=COLOUR"

    def parse(self, value: Any, base: Path | None) -> Any:
        raise NotImplementedError("colours are parsed colour by colour (parse_colours)")


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


@dataclass(frozen=True)
class Setting:
    """One key: its kind, what it does (docs and `--help`), and an example value."""

    key: str
    kind: Kind
    help: str
    example: str

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")


def _variants() -> tuple[str, ...]:
    from engine import VARIANTS

    return tuple(VARIANTS)


SETTINGS: tuple[Setting, ...] = (
    Setting("variant", Choice(_variants(), fold_case=True), "rules to play by", '"brazilian"'),
    Setting("language", Choice(LANGUAGES), "language of announcements and messages", '"pt-BR"'),
    Setting("speech", Boolean(), "speak announcements with espeak-ng", "true"),
    Setting(
        "hints",
        Choice(HINT_LEVELS),
        "how much the LEDs help: all hints, only capture help, or only what the board needs",
        '"full"',
    ),
    Setting("board", BoardSpec(), "which board to drive", '"gpio"'),
    Setting(
        "layout",
        LayoutRef(),
        "the board's wiring (default: standard-8x8 or standard-10x10 by the variant)",
        '"standard-8x8"',
    ),
    Setting("brightness", Number(0, 1), "LED brightness (the layout's cap still applies)", "0.3"),
    Setting(
        "colours",
        Colours(),
        "LED colour per role (see docs/play.md)",
        '{ destination = "#0072b2" }',
    ),
    Setting(
        "data_dir",
        PathValue(),
        "folder for the journal, saved games and the status file",
        '"/var/lib/draughtsboard"',
    ),
    Setting(
        "games_dir", PathValue(), "folder for finished games (default: DATA_DIR/games)", '"games"'
    ),
    Setting(
        "journal",
        PathValue(),
        "the current game's journal (default: DATA_DIR/journal.jsonl)",
        '"journal.jsonl"',
    ),
    Setting("log_level", Choice(LOG_LEVELS), "least important log message written", '"info"'),
    Setting(
        "log_file",
        PathValue(optional=True),
        'also log to this file, rotated at 1 MB, 3 kept ("" for none)',
        '"/var/log/draughtsboard/board.log"',
    ),
    Setting("gestures", Boolean(), "board commands with a spare piece (docs/play.md)", "true"),
    Setting(
        "gesture_hold",
        Number(1, 10, unit=" seconds"),
        "how long the command piece must stay still before the board answers",
        "2.0",
    ),
    Setting(
        "touch_move",
        Boolean(),
        "club play: a piece released on a legal square has moved; off (home play), a move "
        "whose piece goes on before the opponent acts is read again (docs/play.md)",
        "false",
    ),
    Setting(
        "computer_level",
        Number(COMPUTER_LEVELS.start, COMPUTER_LEVELS.stop - 1, integer=True),
        "the computer's strength, 0 for two players (also chosen on the board at the start)",
        "0",
    ),
    Setting(
        "listen",
        ListenAddress(),
        "serve the board's page here; an address other than loopback serves the LAN, "
        "where controls need the token (docs/web.md)",
        '"0.0.0.0:8080"',
    ),
    Setting(
        "token",
        Token(),
        "the token the page's controls need (default: none on loopback, a fresh one "
        "printed at start-up on the LAN)",
        '"correct-horse-9"',
    ),
)


# -- broadcast: publishing this board's games to a club's MQTT broker ----------------------
#
# A separate block on purpose: with no `broker` nothing here is used, and the MQTT
# client itself (host/broadcast/) is imported only when one is set. The password is a
# file, never a setting, so it is not shown by `draughtsboard config` nor on a
# command line.

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
    allowed = "1-32 letters, digits, '-' or '_' (it names the board's MQTT topics)"
    metavar = "ID"

    def parse(self, value: Any, base: Path | None) -> Any:
        try:
            return check_board_id(value)
        except UserError:
            raise Invalid(f"must be {self.allowed}") from None


class Text(Kind):
    allowed = 'a text, or "" for none'
    metavar = "TEXT"

    def parse(self, value: Any, base: Path | None) -> Any:
        if isinstance(value, str):
            return value or None
        raise Invalid(f"must be {self.allowed}")


BROADCAST_SETTINGS: tuple[Setting, ...] = (
    Setting("broker", BrokerUrl(),
            "publish this board's games to a club's MQTT broker (docs/broadcast.md)",
            '"mqtt://clube.local:1883"'),
    Setting("board_id", BoardId(), "this board's name on the broker (needed with broker)",
            '"b7"'),
    Setting("broker_username", Text(),
            "user at the broker (default with a password file: the board id)", '"b7"'),
    Setting("broker_password_file", PathValue(optional=True),
            "file holding the broker password (draughtsboard broker-config writes it)",
            '"broker-password"'),
    Setting("broker_ca_file", PathValue(optional=True),
            "CA certificate that signed an mqtts:// broker's certificate", '"ca.crt"'),
    Setting("broker_keepalive", Number(1, 600, integer=True, unit=" seconds"),
            "the broker shows the board offline after 1.5 times this silence", "15"),
    Setting("broker_outbox", PathValue(optional=True),
            "messages not yet acknowledged by the broker (default: beside the journal)",
            '"journal.outbox.jsonl"'),
)
SETTINGS = (*SETTINGS, *BROADCAST_SETTINGS)


@dataclass(frozen=True)
class BroadcastConfig:
    """The broadcast settings in force, as the publisher needs them (`Config.broadcast`)."""

    broker: str
    board_id: str
    username: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None
    keepalive: int = 15
    outbox: Path | None = None


SETTING_BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}
ALIASES = {"colors": "colours"}
FLAGS = "command line"
_DERIVED = {"games_dir": "games", "journal": "journal.jsonl"}


# -- reading and checking ----------------------------------------------------------------


def parse_values(
    data: Mapping[str, Any], source: str, base: Path | None, errors: list[ConfigError]
) -> dict[str, Any]:
    """Validate one layer (a TOML table or the flags) into {key: value}; bad keys are left
    out and reported in `errors`, every one of them."""
    values: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = ALIASES.get(raw_key, raw_key)
        setting = SETTING_BY_KEY.get(key)
        if source == FLAGS and setting is not None:
            raw_key = "--colour" if key == "colours" else setting.flag
        if setting is None:
            known = ", ".join(s.key for s in SETTINGS)
            errors.append(ConfigError(source, raw_key, value, f"unknown setting (known: {known})"))
            continue
        if key == "colours":
            colours = _parse_colours(value, source, errors)
            if colours is not None:
                values.setdefault("colours", {}).update(colours)
            continue
        try:
            values[key] = setting.kind.parse(value, base)
        except Invalid as why:
            errors.append(ConfigError(source, raw_key, value, str(why)))
    return values


def _parse_colours(
    value: Any, source: str, errors: list[ConfigError]
) -> dict[str, tuple[int, int, int]] | None:
    if not isinstance(value, dict):
        errors.append(
            ConfigError(
                source, "colours", value, 'must be a table: [colours] destination = "#0072b2"'
            )
        )
        return None
    out: dict[str, tuple[int, int, int]] = {}
    prefix = "--colour " if source == FLAGS else "colours."
    for role, colour in value.items():
        if role not in DEFAULT_COLOURS:
            known = ", ".join(DEFAULT_COLOURS)
            errors.append(
                ConfigError(source, f"{prefix}{role}", colour, f"unknown role (known: {known})")
            )
            continue
        try:
            out[role] = parse_colour(colour)
        except Invalid as why:
            errors.append(ConfigError(source, f"{prefix}{role}", colour, str(why)))
    return out


def read_file(path: Path, errors: list[ConfigError]) -> dict[str, Any]:
    """One file's valid settings; every problem (unreadable, not TOML, bad keys) in `errors`."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        errors.append(ConfigError(str(path), None, None, "the file does not exist"))
        return {}
    except OSError as error:
        errors.append(ConfigError(str(path), None, None, f"cannot read it: {error.strerror}"))
        return {}
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        errors.append(ConfigError(str(path), None, None, f"not valid TOML: {error}"))
        return {}
    return parse_values(data, str(path), path.parent, errors)


def config_files(path: Path | str | None = None) -> list[Path]:
    """The files that apply, lowest layer first (see the module docstring)."""
    files = []
    system = system_config_path()
    if system.is_file():
        files.append(system)
    if path is not None:
        files.append(Path(path))
    elif default_config_path().is_file():
        files.append(default_config_path())
    return files


def build(layers: Iterable[dict[str, Any]]) -> Config:
    """Merge validated layers over the defaults; unset journal and games folder follow
    `data_dir`."""
    merged: dict[str, Any] = {}
    colours = dict(DEFAULT_COLOURS)
    for layer in layers:
        for key, value in layer.items():
            if key == "colours":
                colours.update(value)
            else:
                merged[key] = value
    data_dir = merged.get("data_dir", default_data_dir())
    for key, name in _DERIVED.items():
        merged.setdefault(key, data_dir / name)
    merged["data_dir"] = data_dir
    merged["colours"] = colours
    known = {f.name for f in fields(Config)}
    return Config(**{k: v for k, v in merged.items() if k in known})


def cross_check(config: Config, source: str) -> list[ConfigError]:
    """What no single key shows: a layout that cannot be read or does not fit the variant."""
    from engine import get_variant
    from hardware.layout import LayoutError, load_layout

    if config.broker is not None and config.board_id is None:
        return [ConfigError(source, None, None, "board_id is needed when broker is set")]
    if config.layout is None:
        return []
    try:
        layout = load_layout(config.layout)
    except LayoutError as error:
        return [ConfigError(source, "layout", config.layout, str(error))]
    variant = get_variant(config.variant)
    if layout.squares != variant.num_squares:
        return [
            ConfigError(
                source,
                "layout",
                config.layout,
                f"has {layout.squares} squares but {config.variant} is played on "
                f"{variant.size}x{variant.size} ({variant.num_squares} squares)",
            )
        ]
    return []


def check_files(paths: Iterable[Path], flags: Mapping[str, Any] | None = None) -> list[ConfigError]:
    """Every error in these files (and flags), layered as `run` would read them."""
    errors: list[ConfigError] = []
    paths = list(paths)
    layers = [read_file(p, errors) for p in paths]
    if flags:
        layers.append(parse_values(flags, FLAGS, None, errors))
    if not errors:
        errors.extend(cross_check(build(layers), str(paths[-1]) if paths else "command line"))
    return errors


def load_config(path: Path | str | None = None, flags: Mapping[str, Any] | None = None) -> Config:
    """The settings in force: system file, then `path` (or the user's file), then `flags`
    (a mapping of key -> TOML-like value, see `flag_values`). Any error refuses them all."""
    files = config_files(path)
    errors: list[ConfigError] = []
    layers = [read_file(p, errors) for p in files]
    if flags:
        layers.append(parse_values(flags, FLAGS, None, errors))
    config = build(layers) if not errors else None
    if config is not None:
        errors.extend(cross_check(config, str(files[-1]) if files else "command line"))
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        hint = (
            f"; see: draughtsboard config --check {first.source}" if first.source != FLAGS else ""
        )
        raise UserError(f"config: {first}{more}{hint}")
    assert config is not None
    return config


# -- command-line flags --------------------------------------------------------------------


def add_setting_flags(parser: Any, *, skip: Iterable[str] = ()) -> None:
    """One flag per setting (`--brightness`, `--speech/--no-speech`, `--colour ROLE=COLOUR`...)."""
    import argparse

    skipped = set(skip)
    for setting in SETTINGS:
        if setting.key in skipped:
            continue
        dest = f"setting_{setting.key}"
        shows_itself = isinstance(setting.kind, Choice | PathValue | LayoutRef)
        help_text = setting.help if shows_itself else f"{setting.help} ({setting.kind.allowed})"
        if isinstance(setting.kind, Boolean):
            parser.add_argument(
                setting.flag, dest=dest, action=argparse.BooleanOptionalAction, help=setting.help
            )
        elif isinstance(setting.kind, Colours):
            parser.add_argument(
                "--colour",
                "--color",
                dest=dest,
                action="append",
                metavar="ROLE=COLOUR",
                help="LED colour for one role, e.g. destination=#0072b2 (repeatable)",
            )
        else:
            parser.add_argument(
                setting.flag, dest=dest, metavar=setting.kind.metavar, help=help_text
            )


def flag_values(args: Any) -> dict[str, Any]:
    """The flags given on the command line, as TOML-like values for `load_config`."""
    out: dict[str, Any] = {}
    for setting in SETTINGS:
        value = getattr(args, f"setting_{setting.key}", None)
        if value is None:
            continue
        if isinstance(setting.kind, Colours):
            table: dict[str, Any] = {}
            for item in value:
                role, _, colour = item.partition("=")
                table[role.strip()] = colour.strip()
            out["colours"] = table
        elif isinstance(value, str):
            out[setting.key] = setting.kind.from_text(value)
        else:
            out[setting.key] = value
    return out


# -- documentation -----------------------------------------------------------------------------


def _default_text(setting: Setting) -> str:
    defaults: dict[str, Callable[[], str]] = {
        "layout": lambda: "standard-NxN for the variant",
        "data_dir": lambda: "~/.local/share/draughtsboard",
        "games_dir": lambda: "DATA_DIR/games",
        "journal": lambda: "DATA_DIR/journal.jsonl",
        "colours": lambda: "Okabe-Ito (below)",
        "log_file": lambda: "none",
        "token": lambda: "none",
        "broker": lambda: "none",
        "board_id": lambda: "none",
        "broker_username": lambda: "none",
        "broker_password_file": lambda: "none",
        "broker_ca_file": lambda: "none",
        "broker_outbox": lambda: "JOURNAL.outbox.jsonl",
    }
    if setting.key in defaults:
        return defaults[setting.key]()
    return _shown(getattr(Config(), setting.key))


def settings_table() -> str:
    """The Markdown table of every key, as docs/config.md shows it (a test keeps them equal)."""
    rows = ["| key | flag | allowed | default | what it does |", "|---|---|---|---|---|"]
    for s in SETTINGS:
        flag = "--colour ROLE=COLOUR" if s.key == "colours" else s.flag
        if isinstance(s.kind, Boolean):
            flag = f"{s.flag} / --no-{s.flag[2:]}"
        allowed = s.kind.allowed.replace("|", "\\|")
        rows.append(f"| `{s.key}` | `{flag}` | {allowed} | `{_default_text(s)}` | {s.help} |")
    return "\n".join(rows)
