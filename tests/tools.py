"""Optional system tools in tests: skip where missing, fail where CI requires them.

A developer's machine may have only Python and make; `.ci/run` installs the
tools with apt and sets `DRAUGHTSBOARD_REQUIRE` (comma-separated program
names, e.g. `espeak-ng,systemd-analyze`), which turns those skips into
failures so CI never passes by skipping.
"""

from __future__ import annotations

import os
import shutil

import pytest


def required() -> set[str]:
    return {t.strip() for t in os.environ.get("DRAUGHTSBOARD_REQUIRE", "").split(",") if t.strip()}


def need(program: str) -> str:
    """The program's path; skips the test if it is missing (fails if it is required)."""
    path = shutil.which(program)
    if path is None:
        if program in required():
            pytest.fail(f"{program} is required here (DRAUGHTSBOARD_REQUIRE) but not installed")
        pytest.skip(f"{program} is not installed")
    return path
