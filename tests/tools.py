"""Optional system tools in tests: skip where missing, fail where CI requires them.

A developer's machine may have only Python and make; `.ci/run` installs the
tools with apt and sets `DRAUGHTSBOARD_REQUIRE` (comma-separated names, e.g.
`espeak-ng,systemd-analyze,chromium,mosquitto`), which turns those skips into failures
so CI never passes by skipping.
"""

from __future__ import annotations

import os
import shutil

import pytest


def required() -> set[str]:
    """The tools this run demands (DRAUGHTSBOARD_REQUIRE)."""
    return {t.strip() for t in os.environ.get("DRAUGHTSBOARD_REQUIRE", "").split(",") if t.strip()}


def need_tool(tool: str, available: bool, why: str) -> None:
    """Skip the test when `tool` is not `available` (`why` says what is missing), or fail
    it if this run requires the tool. For tools that are more than a program on PATH
    (a browser and the library that drives it)."""
    if available:
        return
    if tool in required():
        pytest.fail(f"{tool} is required here (DRAUGHTSBOARD_REQUIRE) but {why}")
    pytest.skip(f"{tool}: {why}")


def find(program: str) -> str | None:
    """`shutil.which`, also looking in the sbin folders a non-root PATH may lack
    (Debian puts mosquitto in /usr/sbin)."""
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin:/usr/local/sbin:/sbin"
    return shutil.which(program, path=path)


def need(program: str) -> str:
    """The program's path; skips the test if it is missing (fails if it is required)."""
    path = find(program)
    need_tool(program, path is not None, "is not installed")
    assert path is not None
    return path
