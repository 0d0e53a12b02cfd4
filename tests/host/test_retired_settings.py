"""A key an earlier version read and that does nothing now (host/config/settings.py:
RETIRED) never stops a board: `recogniser`, from the weeks the board had two ways of
reading hands, is accepted by `config --check` and `run`, ignored, and the owner is told
once, in plain words. The one recogniser plays the shared example stream to exactly its
recorded moves, through the real commands a user runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import main
from host.config import Config, load_config
from tests.paths import REPO as ROOT
from tests.paths import SHARED

EVENTS = SHARED / "examples" / "replay-brazilian.events.jsonl"
EXPECTED = [json.loads(line) for line in (SHARED / "examples/replay-brazilian.expected.jsonl")
            .read_text().splitlines()]
IGNORED = "recogniser = \"classic\": ignored: the board has one way of reading hands now"


def test_replay_plays_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--variant", "brazilian", "--events", str(EVENTS)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["fen"] for r in records if "move" in r] == [e["fen"] for e in EXPECTED]


@pytest.mark.parametrize("value", ["classic", "explained"])
def test_an_old_recogniser_key_is_accepted_and_ignored(tmp_path: Path, value: str) -> None:
    file = tmp_path / "config.toml"
    file.write_text(f'recogniser = "{value}"\nbrightness = 0.5\n')
    config = load_config(file)
    assert config.brightness == 0.5  # the rest of the file is read
    assert config == Config(brightness=0.5, data_dir=config.data_dir,
                            games_dir=config.games_dir, journal=config.journal)
    assert not hasattr(config, "recogniser")


def test_config_check_names_the_ignored_key_and_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "config.toml"
    file.write_text(f'recogniser = "classic"\ndata_dir = "{tmp_path / "data"}"\n')
    assert main(["config", "--check", str(file)]) == 0
    out, err = capsys.readouterr()
    assert err.count(IGNORED) == 1
    assert err.startswith(f"{file}: recogniser")
    assert f"{file}: ok" in out
    # a bad value beside it is still an error, and the ignored key is not one
    file.write_text('recogniser = "classic"\nbrightness = 7\n')
    assert main(["config", "--check", str(file)]) == 2
    err = capsys.readouterr().err
    assert "1 error;" in err and IGNORED in err


def test_run_with_an_old_recogniser_key_plays_and_warns_once(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        f'data_dir = "{tmp_path}"\nspeech = false\nlanguage = "en"\nrecogniser = "classic"\n'
    )
    result = subprocess.run(
        [sys.executable, "-m", "host.cli", "run", "--config", str(config), "--listen", "off",
         "--events", str(EVENTS)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "White played c3-b4." in result.stdout
    assert result.stdout.count(" played ") == len(EXPECTED)
    assert (result.stdout + result.stderr).count(IGNORED) == 1
