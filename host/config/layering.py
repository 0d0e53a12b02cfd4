"""Reading the settings in force: layered TOML files and flags, every error collected.

Layering, lowest first (each layer overrides only the keys it sets; `[colours]`
colour by colour):

1. the defaults (the `Config` dataclass);
2. the system file `/etc/draughtsboard/config.toml`, if it exists (the service's);
3. `--config FILE` if given (it must exist), otherwise the user's
   `$XDG_CONFIG_HOME/draughtsboard/config.toml` (`~/.config/...`), if it exists;
4. command-line flags.

The service runs `run --config /etc/draughtsboard/config.toml`, so it reads the
system file only and never a home folder. Relative paths in a file are taken
from that file's folder. Why every error is collected rather than the first
raised: a bad value is never half-applied, and the person at the board should
mend a file in one go. `check_files` returns them all (`config --check`, the
service's ExecStartPre); `load_config` refuses with one line that points to
`draughtsboard config --check`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from host.config.kinds import Invalid, parse_colour, shown
from host.config.paths import default_config_path, default_data_dir, system_config_path
from host.config.settings import ALIASES, DEFAULT_COLOURS, SETTING_BY_KEY, SETTINGS, Config
from host.errors import UserError

#: the source named in errors about flags
FLAGS = "command line"
#: paths that follow `data_dir` unless set: key -> name inside it
_DERIVED = {"games_dir": "games", "journal": "journal.jsonl"}


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
        return f"{self.source}: {self.key} = {shown(self.value)}: {self.allowed}"


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


def _read_layers(
    paths: list[Path], flags: Mapping[str, Any] | None
) -> tuple[Config | None, list[ConfigError]]:
    """The files then the flags, as `run` reads them: the settings (None if any layer has
    an error) and every error, the cross-checks included."""
    errors: list[ConfigError] = []
    layers = [read_file(p, errors) for p in paths]
    if flags:
        layers.append(parse_values(flags, FLAGS, None, errors))
    if errors:
        return None, errors
    config = build(layers)
    errors.extend(cross_check(config, str(paths[-1]) if paths else FLAGS))
    return config, errors


def check_files(paths: Iterable[Path], flags: Mapping[str, Any] | None = None) -> list[ConfigError]:
    """Every error in these files (and flags), layered as `run` would read them."""
    return _read_layers(list(paths), flags)[1]


def load_config(path: Path | str | None = None, flags: Mapping[str, Any] | None = None) -> Config:
    """The settings in force: system file, then `path` (or the user's file), then `flags`
    (a mapping of key -> TOML-like value, see `flag_values`). Any error refuses them all."""
    config, errors = _read_layers(config_files(path), flags)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        hint = (
            f"; see: draughtsboard config --check {first.source}" if first.source != FLAGS else ""
        )
        raise UserError(f"config: {first}{more}{hint}")
    assert config is not None
    return config
