"""Choosing the recogniser: the `recogniser` setting (and `--recogniser` of `run` and
`replay`) selects the classic one or the explained one (host/explanation/), and each
plays the shared example stream to exactly its recorded moves, through the real
commands a user runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import main
from host.config import Config, load_config
from host.errors import UserError
from host.explanation import RECOGNISERS
from host.explanation.recogniser import Recogniser as Explained
from host.recognition.recogniser import Recogniser as Classic
from host.records.journal import Journal
from host.session import Session
from host.streams.events import run_stream
from host.voice.announce import Announcer
from tests.paths import REPO as ROOT
from tests.paths import SHARED

EVENTS = SHARED / "examples" / "replay-brazilian.events.jsonl"
EXPECTED = [json.loads(line) for line in (SHARED / "examples/replay-brazilian.expected.jsonl")
            .read_text().splitlines()]


@pytest.mark.parametrize("name", RECOGNISERS)
def test_replay_plays_the_example_with_either_recogniser(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--variant", "brazilian", "--events", str(EVENTS),
                 "--recogniser", name]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["fen"] for r in records if "move" in r] == [e["fen"] for e in EXPECTED]


def test_the_setting_picks_the_session_recogniser(tmp_path: Path) -> None:
    assert Config().recogniser == "classic"
    file = tmp_path / "config.toml"
    file.write_text('recogniser = "explained"\n')
    assert load_config(file).recogniser == "explained"
    file.write_text('recogniser = "clever"\n')
    with pytest.raises(UserError, match="recogniser"):
        load_config(file)
    for name, kind in (("classic", Classic), ("explained", Explained)):
        cfg = Config(journal=tmp_path / name / "j.jsonl", games_dir=tmp_path / name,
                     speech=False, recogniser=name)
        session = Session(cfg, Announcer("en"), resume=False)
        assert isinstance(session.recogniser, kind)
        run_stream(session, EVENTS.read_text().splitlines())
        record = Journal(cfg.journal).read()
        assert record is not None
        assert len(record.moves) == len(EXPECTED)


def test_run_reads_the_stream_with_the_explained_recogniser(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f'data_dir = "{tmp_path}"\nspeech = false\nlanguage = "en"\n')
    result = subprocess.run(
        [sys.executable, "-m", "host.cli", "run", "--config", str(config), "--recogniser",
         "explained", "--events", str(EVENTS)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "White played c3-b4." in result.stdout
    assert result.stdout.count(" played ") == len(EXPECTED)
