"""Player and board settings: one table of keys, read from layered TOML files and flags.

Why a file and not only flags: the board lives on a shelf and is started by a
service; what a club sets once (board, language, speech, colours, how much
help the LEDs give) must survive restarts.

The package, one job per module:

- `settings`: the table (`SETTINGS`) and `Config`. A new key is one row there
  and one field of `Config`, in that one file; flags, `config --check` and
  docs/config.md follow from the row.
- `kinds`: the kinds of value (a choice, a number in a range, a path...), how
  each is checked and how what it allows is worded.
- `paths`: where the system file, the user's file and the data folder live.
- `layering`: reading the files and flags in layers (system, then `--config`
  or the user's file, then flags), every error collected (`ConfigError`); keys
  an earlier version read (`RETIRED`) are accepted, ignored and reported
  (`ignored_settings`).
- `places`: the folders and files a board needs on disk, checked for the user
  who runs it (`place_errors`: `config --check` and `run` at start).
- `flags`: a command-line flag per setting.
- `docs`: the table of docs/config.md.

Everything the rest of the code uses is imported from here (`from host.config
import Config, load_config`), so callers need not know which module holds it.
"""

from host.config.docs import settings_table
from host.config.flags import add_config_argument, add_setting_flags, flag_values
from host.config.kinds import (
    BOARD_ID_PATTERN,
    Invalid,
    Kind,
    Token,
    check_board_id,
    check_broker_url,
    parse_colour,
)
from host.config.layering import (
    DEFAULTS,
    FLAGS,
    ConfigError,
    build,
    check_files,
    config_files,
    config_sources,
    cross_check,
    ignored_settings,
    load_config,
    parse_values,
    place_errors,
    read_file,
)
from host.config.paths import (
    SYSTEM_CONFIG,
    default_config_path,
    default_data_dir,
    system_config_path,
)
from host.config.settings import (
    ALIASES,
    COMPUTER_LEVELS,
    DEFAULT_COLOURS,
    HINT_LEVELS,
    LANGUAGES,
    LOG_LEVELS,
    RETIRED,
    SETTING_BY_KEY,
    SETTINGS,
    BroadcastConfig,
    Config,
    Setting,
)

__all__ = [
    "ALIASES",
    "BOARD_ID_PATTERN",
    "COMPUTER_LEVELS",
    "DEFAULTS",
    "DEFAULT_COLOURS",
    "FLAGS",
    "HINT_LEVELS",
    "LANGUAGES",
    "LOG_LEVELS",
    "RETIRED",
    "SETTINGS",
    "SETTING_BY_KEY",
    "SYSTEM_CONFIG",
    "BroadcastConfig",
    "Config",
    "ConfigError",
    "Invalid",
    "Kind",
    "Setting",
    "Token",
    "add_config_argument",
    "add_setting_flags",
    "build",
    "check_board_id",
    "check_broker_url",
    "check_files",
    "config_files",
    "config_sources",
    "cross_check",
    "ignored_settings",
    "default_config_path",
    "default_data_dir",
    "flag_values",
    "load_config",
    "parse_colour",
    "parse_values",
    "place_errors",
    "read_file",
    "settings_table",
    "system_config_path",
]
