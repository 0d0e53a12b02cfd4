"""Installing the package builds the compiled capture search where a C compiler exists,
and installs without it where none does (setup.py declares an optional extension):
a board installed either way lists the same moves.

Each test installs the checkout's files with pip into a folder of its own (the build
backend comes from PyPI, so these run where the run requires `pypi`, as CI does), then
lists the moves of the benchmark's worst positions in a fresh interpreter that imports
only that folder (no site-packages: the engine needs nothing else).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.engine_bench import WORST_POSITIONS
from engine import Position, get_variant
from tests.paths import REPO
from tests.tools import find, need_tool, required

SOURCES = ("pyproject.toml", "setup.py", "README.md", "engine", "hardware", "host")

LIST_MOVES = """
import json, sys
from engine import Position, get_variant, native_captures
rows = json.loads(sys.argv[1])
import engine
print(json.dumps({"from": engine.__file__, "compiled": native_captures.available(), "moves": [
    [[m.origin, m.destination, sorted(m.captures), list(m.path), [list(p) for p in m.paths],
      m.promotes, list(m.captured_order)]
     for m in Position.from_fen(fen, get_variant(name)).legal_moves()]
    for name, fen in rows]}))
"""


def installed(tmp_path: Path, compiler: str | None) -> dict:
    """What a fresh interpreter lists after `pip install` of a copy of the checkout, with
    `compiler` as CC (None: the default one)."""
    need_tool("pypi", "pypi" in required(), "set DRAUGHTSBOARD_REQUIRE=pypi to ask PyPI (CI does)")
    source, target = tmp_path / "source", tmp_path / "site"
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(REPO / name, source / name)
    env = {k: v for k, v in os.environ.items() if k != "DRAUGHTSBOARD_PURE_PYTHON"}
    if compiler is not None:
        env["CC"] = compiler
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
         str(target), str(source)],
        capture_output=True, text=True, timeout=600, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [[name, fen] for name, fen, _ in WORST_POSITIONS if name in ("international",
                                                                         "brazilian")]
    listed = subprocess.run(
        # -S: without site-packages, where the checkout's own editable install would be found
        [sys.executable, "-S", "-c", LIST_MOVES, json.dumps(rows)], capture_output=True,
        text=True,
        timeout=120, cwd=tmp_path, env={**env, "PYTHONPATH": str(target)}, check=False)
    assert listed.returncode == 0, listed.stderr[-3000:]
    found = json.loads(listed.stdout)
    assert Path(found["from"]).is_relative_to(target)
    found["built"] = sorted(p.name for p in (target / "engine").glob("_capture_search*"))
    found["expected"] = [
        [[m.origin, m.destination, sorted(m.captures), list(m.path), [list(p) for p in m.paths],
          m.promotes, list(m.captured_order)]
         for m in Position.from_fen(fen, get_variant(name)).legal_moves()]
        for name, fen in rows]
    return found


def test_an_install_without_a_c_compiler_searches_in_python(tmp_path: Path) -> None:
    found = installed(tmp_path, "/nonexistent/cc")
    assert found["built"] == [] and found["compiled"] is False
    assert found["moves"] == found["expected"]


def test_an_install_with_a_c_compiler_builds_the_compiled_search(tmp_path: Path) -> None:
    need_tool("cc", find("cc") is not None or find("gcc") is not None,
         "no C compiler (gcc) is installed")
    found = installed(tmp_path, None)
    assert len(found["built"]) == 1 and found["compiled"] is True
    assert found["moves"] == found["expected"]


def test_the_checkout_does_not_track_a_built_library() -> None:
    tracked = subprocess.run(["git", "ls-files", "engine"], capture_output=True, text=True,
                             cwd=REPO, check=False).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    assert not [name for name in tracked if name.endswith((".so", ".o"))]
