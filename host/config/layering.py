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
mend a file in one go. `check_files` returns them all in one pass
(`config --check`, the service's ExecStartPre): each bad value; then, on the
settings with the bad values left out, every check across settings whose keys
are all good (`cross_check`), and every folder and file the board needs
(`host.config.places`), each named with the file that set it. `load_config`
refuses with one line that points to `draughtsboard config --check`; it does not
look at the disk (`run` checks the places itself, with `place_errors`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from host.config.kinds import Invalid, parse_colour, shown
from host.config.paths import default_config_path, default_data_dir, system_config_path
from host.config.settings import (
    ALIASES,
    DEFAULT_COLOURS,
    RETIRED,
    SETTING_BY_KEY,
    SETTINGS,
    Config,
)
from host.errors import UserError

#: the source named in errors about flags
FLAGS = "command line"
#: the source named in errors about a setting left at its default
DEFAULTS = "the defaults"
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
    data: Mapping[str, Any],
    source: str,
    base: Path | None,
    errors: list[ConfigError],
    ignored: list[ConfigError] | None = None,
) -> dict[str, Any]:
    """Validate one layer (a TOML table or the flags) into {key: value}; bad keys are left
    out and reported in `errors`, every one of them. A retired key (settings.RETIRED) is
    no error: it is left out too, and reported in `ignored` (when given)."""
    values: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = ALIASES.get(raw_key, raw_key)
        if key in RETIRED:
            if ignored is not None:
                ignored.append(ConfigError(source, raw_key, value, RETIRED[key]))
            continue
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


def read_file(
    path: Path, errors: list[ConfigError], ignored: list[ConfigError] | None = None
) -> dict[str, Any]:
    """One file's valid settings; every problem (unreadable, not TOML, bad keys) in `errors`,
    every retired key in `ignored`."""
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
    return parse_values(data, str(path), path.parent, errors, ignored)


def ignored_settings(paths: Iterable[Path]) -> list[ConfigError]:
    """The retired keys these files still hold (settings.RETIRED): accepted and ignored,
    each with why, for the owner to be told. Unreadable files are `check_files`'s to
    report."""
    ignored: list[ConfigError] = []
    for path in paths:
        read_file(path, [], ignored)
    return ignored


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


def cross_check(
    config: Config, source: str | dict[str, str], bad: frozenset[str] = frozenset()
) -> list[ConfigError]:
    """What no single key shows: a broker without a board id, a layout that cannot be
    read or does not fit the variant. Checks involving a key in `bad` (already reported)
    are left out. `source`: one source for all, or the source of each key."""
    from engine import get_variant
    from hardware.layout import LayoutError, load_layout

    def where(key: str) -> str:
        return source if isinstance(source, str) else source.get(key, DEFAULTS)

    errors = []
    if config.broker is not None and config.board_id is None and not {"broker", "board_id"} & bad:
        errors.append(
            ConfigError(where("broker"), None, None, "board_id is needed when broker is set")
        )
    if config.layout is None or {"layout", "variant"} & bad:
        return errors
    try:
        layout = load_layout(config.layout)
    except LayoutError as error:
        return [*errors, ConfigError(where("layout"), "layout", config.layout, str(error))]
    variant = get_variant(config.variant)
    if layout.squares != variant.num_squares:
        errors.append(
            ConfigError(
                where("layout"),
                "layout",
                config.layout,
                f"has {layout.squares} squares but {config.variant} is played on "
                f"{variant.size}x{variant.size} ({variant.num_squares} squares)",
            )
        )
    return errors


def place_errors(
    config: Config, sources: Mapping[str, str] | None = None, bad: frozenset[str] = frozenset()
) -> list[ConfigError]:
    """Every folder and file `config` needs that this user cannot use (host.config.places),
    named with the source that set it; places whose key is in `bad` are left out."""
    from host.config.places import needed_places, problem

    errors = []
    for place in needed_places(config):
        if place.key in bad or (place.key in _DERIVED and "data_dir" in bad):
            continue
        trouble = problem(place)
        if trouble is not None:
            where = (sources or {}).get(place.key, DEFAULTS)
            errors.append(ConfigError(where, place.key, place.path, trouble))
    return errors


@dataclass
class _Layers:
    """The files and flags as read: the settings in force with the bad values left out,
    where each key was set, the keys with a bad value, and every error."""

    config: Config
    sources: dict[str, str]
    bad: frozenset[str]
    errors: list[ConfigError]


def _read_layers(paths: list[Path], flags: Mapping[str, Any] | None) -> _Layers:
    """The files then the flags, as `run` reads them, every error of their own collected;
    the settings are built from the good values whatever the errors."""
    errors: list[ConfigError] = []
    layers: list[dict[str, Any]] = []
    sources: dict[str, str] = {}
    bad: set[str] = set()
    named = [(read_file(p, errors), str(p)) for p in paths]
    if flags:
        named.append((parse_values(flags, FLAGS, None, errors), FLAGS))
    for values, source in named:
        layers.append(values)
        for key in values:
            sources[key] = source
    for error in errors:
        if error.key is not None:
            key = error.key.removeprefix("--").replace("-", "_").split(".")[0].split(" ")[0]
            bad.add(ALIASES.get(key, key))
    for key, _ in _DERIVED.items():  # an unset journal or games folder follows data_dir
        if key not in sources and "data_dir" in sources:
            sources[key] = sources["data_dir"]
    if "broker_outbox" not in sources and "journal" in sources:
        sources["broker_outbox"] = sources["journal"]
    return _Layers(build(layers), sources, frozenset(bad), errors)


def check_files(
    paths: Iterable[Path], flags: Mapping[str, Any] | None = None, *, places: bool = True
) -> list[ConfigError]:
    """Every error in these files (and flags), layered as `run` would read them, in one
    pass: bad values, then the checks across settings and (unless `places` is False: a
    file for another machine) the folders and files needed, for this user."""
    read = _read_layers(list(paths), flags)
    if any(error.key is None for error in read.errors):  # a file unread: its settings unknown
        return read.errors
    errors = [*read.errors, *cross_check(read.config, read.sources, read.bad)]
    if places:
        errors += place_errors(read.config, read.sources, read.bad)
    return errors


def load_config(path: Path | str | None = None, flags: Mapping[str, Any] | None = None) -> Config:
    """The settings in force: system file, then `path` (or the user's file), then `flags`
    (a mapping of key -> TOML-like value, see `flag_values`). Any error refuses them all.
    The disk is not looked at: see `place_errors`."""
    read = _read_layers(config_files(path), flags)
    errors = read.errors or cross_check(read.config, read.sources)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        hint = (
            f"; see: draughtsboard config --check {first.source}"
            if first.source not in (FLAGS, DEFAULTS)
            else ""
        )
        raise UserError(f"config: {first}{more}{hint}")
    return read.config


def config_sources(
    path: Path | str | None = None, flags: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """Where each key in force was set (a file, or the command line); unset keys are absent."""
    return _read_layers(config_files(path), flags).sources
