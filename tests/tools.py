"""Optional system tools in tests: skip where missing, fail where CI requires them.

`.ci/run` installs the tools with apt and sets `DRAUGHTSBOARD_REQUIRE` (a comma
list such as `mosquitto,espeak-ng`): a test needing a listed tool then fails
instead of skipping, so a broken install step can never pass as a skip.
"""

from __future__ import annotations

import os
import shutil

import pytest


def required(tool: str) -> bool:
    names = os.environ.get("DRAUGHTSBOARD_REQUIRE", "")
    return tool in {name.strip() for name in names.split(",")}


def need(tool: str, *executables: str) -> None:
    """Skip (or fail, if required) unless every executable is on PATH (or in /usr/sbin)."""
    missing = [exe for exe in executables or (tool,) if find(exe) is None]
    if not missing:
        return
    message = f"{tool} is not installed (missing {', '.join(missing)})"
    if required(tool):
        pytest.fail(f"{message}, but DRAUGHTSBOARD_REQUIRE names it")
    pytest.skip(message)


def find(executable: str) -> str | None:
    """`shutil.which`, also looking in the sbin folders a non-root PATH may lack."""
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin:/usr/local/sbin:/sbin"
    return shutil.which(executable, path=path)
