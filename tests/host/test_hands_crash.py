"""Nothing is lost across SIGKILL while impatient and forgetful hands play (issue 7).

Streams of the hand families (tests/host/hands) go through the real `run --events -`
in a child process, which is killed with SIGKILL after a random number of moves
were announced. The journal on disk must then hold every move announced, and only
moves that were played: a prefix of the stream's moves. Where a move may be read
again ("move-corrected": a piece that went on), the journal writes the correction
as a takeback and a move; a kill between the two leaves the move taken back (the
board still shows it and it is read again on resume), or a kill before it leaves
the first reading as the last move. Then `run` starts again on the same journal
and resumes the game without a word of error.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hands import generate

from host.records.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("blitz", "brazilian"),
    ("late-removal", "international"),
    ("goes-on", "russian"),
    ("opponent-touch", "portuguese"),
]


def _config(tmp_path: Path) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'journal = "{tmp_path / "j.jsonl"}"\ngames_dir = "{tmp_path / "g"}"\n'
        f'data_dir = "{tmp_path}"\nspeech = false\nlanguage = "en"\nlisten = "off"\n'
    )
    return cfg


def _run(cfg: Path, variant: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "host.cli", "run", "--config", str(cfg), "--variant", variant]
        + ["--events", "-", *extra],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize(("family", "variant"), CASES)
def test_sigkill_mid_hand_family_loses_nothing_announced(
    tmp_path: Path, family: str, variant: str
) -> None:
    rng = random.Random(f"crash-{family}-{variant}")
    scenario = generate(family, variant, f"crash-{rng.randint(0, 10**6)}", plies=12)
    assert len(scenario.expected) >= 3, "the stream plays some moves"
    cfg = _config(tmp_path)
    proc = _run(cfg, variant, "--new", "--fen", scenario.fen)
    assert proc.stdin is not None and proc.stdout is not None
    for event in scenario.events:
        proc.stdin.write(json.dumps(event) + "\n")
    proc.stdin.flush()
    kill_after = rng.randint(1, len(scenario.expected) - 1)
    announced = 0
    deadline = time.monotonic() + 30
    while announced < kill_after and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        announced += " played " in line  # a move, or a move corrected
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert announced == kill_after, "the child announced the moves before it was killed"

    journal = Journal(tmp_path / "j.jsonl").read()
    assert journal is not None
    on_disk = [m["fen"] for m in journal.moves]
    played = scenario.expected
    settled = on_disk[:-1] if scenario.corrections else on_disk
    assert settled == played[: len(settled)], "only moves that were played are on disk"
    assert len(on_disk) >= 1
    if not scenario.corrections:
        # Every "played" line is a move on disk (a correction replaces one, adds none).
        assert len(on_disk) >= announced

    # Power back: the game resumes from the journal, without a traceback.
    again = _run(cfg, variant)
    out, err = again.communicate("", timeout=60)
    assert again.returncode == 0, err
    assert "Traceback" not in err
    resumed = Journal(tmp_path / "j.jsonl").read()
    assert resumed is not None and [m["fen"] for m in resumed.moves] == on_disk
