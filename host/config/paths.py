"""Where the board's files live: the system and user config files and the data folder.

Why a module of its own: the settings' defaults (`Config.data_dir`), the layering
(`config_files`) and `draughtsboard status` all need the same answers, and each
answer honours an environment variable (XDG for people, `DRAUGHTSBOARD_SYSTEM_CONFIG`
for tests and packagers) that must be read in one place only.
"""

from __future__ import annotations

import os
from pathlib import Path

SYSTEM_CONFIG = Path("/etc/draughtsboard/config.toml")


def default_config_path() -> Path:
    """`$XDG_CONFIG_HOME/draughtsboard/config.toml`, normally under `~/.config`."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "draughtsboard" / "config.toml"


def system_config_path() -> Path:
    """The service's file. `DRAUGHTSBOARD_SYSTEM_CONFIG` moves it (tests, packagers)."""
    return Path(os.environ.get("DRAUGHTSBOARD_SYSTEM_CONFIG") or SYSTEM_CONFIG)


def default_data_dir() -> Path:
    """`$XDG_DATA_HOME/draughtsboard`, normally `~/.local/share/draughtsboard`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "draughtsboard"
