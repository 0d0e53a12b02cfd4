"""Player settings, read from one TOML file.

Why a file and not flags: the board lives on a shelf and is started by a
service; what a family sets once (language, speech, colours, how much help the
LEDs give) must survive restarts. A missing file means defaults; a bad value is
one clear `UserError` naming the key, never a traceback.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from host.errors import UserError

LANGUAGES = ("pt-BR", "en")
HINT_LEVELS = ("off", "captures", "full")

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
}


def default_config_path() -> Path:
    """`$XDG_CONFIG_HOME/draughtsboard/config.toml`, normally under `~/.config`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "draughtsboard" / "config.toml"


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
    games_dir: Path = field(default_factory=lambda: default_data_dir() / "games")
    journal: Path = field(default_factory=lambda: default_data_dir() / "journal.jsonl")
    #: club play (FMJD touch-move): a piece released on a legal square has moved.
    #: Off (home play): a move whose piece goes on before the opponent acts is re-read.
    touch_move: bool = False

    def with_overrides(self, **changes: Any) -> Config:
        """A copy with the non-None `changes` applied (command-line flags win over the file)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _colour(key: str, value: Any) -> tuple[int, int, int]:
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
    raise UserError(
        f'config: colours.{key} must be "#rrggbb" or [r, g, b] with 0..255, not {value!r}'
    )


def parse_config(data: dict[str, Any], base_dir: Path | None = None) -> Config:
    """Validate a TOML table into a `Config`; relative paths are taken from `base_dir`."""
    known = {
        "variant",
        "language",
        "speech",
        "hints",
        "colours",
        "colors",
        "board",
        "layout",
        "brightness",
        "games_dir",
        "journal",
        "touch_move",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        raise UserError(
            f"config: unknown setting {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    cfg = Config()
    changes: dict[str, Any] = {}
    if "variant" in data:
        from engine import VARIANTS

        name = data["variant"]
        if not isinstance(name, str) or name.lower() not in VARIANTS:
            raise UserError(f"config: variant must be one of {', '.join(VARIANTS)}, not {name!r}")
        changes["variant"] = name.lower()
    if "language" in data:
        if data["language"] not in LANGUAGES:
            raise UserError(f'config: language must be "pt-BR" or "en", not {data["language"]!r}')
        changes["language"] = data["language"]
    if "speech" in data:
        if not isinstance(data["speech"], bool):
            raise UserError(f"config: speech must be true or false, not {data['speech']!r}")
        changes["speech"] = data["speech"]
    if "touch_move" in data:
        if not isinstance(data["touch_move"], bool):
            raise UserError(
                f"config: touch_move must be true or false, not {data['touch_move']!r}"
            )
        changes["touch_move"] = data["touch_move"]
    if "hints" in data:
        if data["hints"] not in HINT_LEVELS:
            raise UserError(
                f'config: hints must be "off", "captures" or "full", not {data["hints"]!r}'
            )
        changes["hints"] = data["hints"]
    colours_in = data.get("colours", data.get("colors"))
    if colours_in is not None:
        if not isinstance(colours_in, dict):
            raise UserError(
                'config: colours must be a table, e.g. [colours] destination = "#0072b2"'
            )
        colours = dict(DEFAULT_COLOURS)
        for key, value in colours_in.items():
            if key not in DEFAULT_COLOURS:
                raise UserError(
                    f"config: unknown colour {key!r} (known: {', '.join(DEFAULT_COLOURS)})"
                )
            colours[key] = _colour(key, value)
        changes["colours"] = colours
    for key in ("board", "layout"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise UserError(f"config: {key} must be a non-empty string, not {data[key]!r}")
            changes[key] = data[key]
    if "brightness" in data:
        value = data["brightness"]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise UserError(f"config: brightness must be a number from 0 to 1, not {value!r}")
        changes["brightness"] = float(value)
    for key in ("games_dir", "journal"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise UserError(f"config: {key} must be a path, not {data[key]!r}")
            path = Path(data[key]).expanduser()
            if not path.is_absolute() and base_dir is not None:
                path = base_dir / path
            changes[key] = path
    return replace(cfg, **changes)


def load_config(path: Path | str | None = None) -> Config:
    """Read `path` (or the default location). A missing default file gives defaults;
    a missing file named explicitly is an error (the user meant that file)."""
    explicit = path is not None
    file = Path(path) if path is not None else default_config_path()
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        if explicit:
            raise UserError(f"config file {file} does not exist") from None
        return Config()
    except OSError as error:
        raise UserError(f"cannot read config file {file}: {error.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UserError(f"config file {file} is not valid TOML: {error}") from None
    return parse_config(data, base_dir=file.parent)
