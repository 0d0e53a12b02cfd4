"""The settings table of docs/config.md, generated from the settings table.

Why generated: the documentation of a key must say exactly what the code
accepts. tests/host/test_config.py checks that docs/config.md contains
`settings_table()` verbatim, so a new or changed setting fails the tests until
the page is regenerated:

    python -c 'from host.config import settings_table; print(settings_table())'
"""

from __future__ import annotations

from host.config.kinds import Boolean, shown
from host.config.settings import SETTINGS, Config, Setting


def documented_default(setting: Setting) -> str:
    """The default as the docs word it: the row's own words, else "none" or the value."""
    if setting.documented_default is not None:
        return setting.documented_default
    value = getattr(Config(), setting.key)
    return "none" if value is None else shown(value)


def settings_table() -> str:
    """The Markdown table of every key, as docs/config.md shows it (a test keeps them equal)."""
    rows = ["| key | flag | allowed | default | what it does |", "|---|---|---|---|---|"]
    for s in SETTINGS:
        flag = "--colour ROLE=COLOUR" if s.key == "colours" else s.flag
        if isinstance(s.kind, Boolean):
            flag = f"{s.flag} / --no-{s.flag[2:]}"
        allowed = s.kind.allowed.replace("|", "\\|")
        rows.append(f"| `{s.key}` | `{flag}` | {allowed} | `{documented_default(s)}` | {s.help} |")
    return "\n".join(rows)
