"""An unfinished game of another variant in the journal: resumed and said, or set aside
(saved with result `*`) when a different variant is asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from host.config import Config
from host.records.games import variant_to_play
from host.records.journal import Journal
from host.session import Session
from host.streams.events import run_stream
from host.voice.announce import Announcer

ROOT = Path(__file__).resolve().parents[2]


def brazilian_game_in_the_journal(tmp_path: Path) -> Config:
    cfg = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "games", speech=False)
    session = Session(cfg, Announcer("en"), resume=False)
    run_stream(session, [json.dumps({"t": 100, "lift": 22}), json.dumps({"t": 500, "place": 17})])
    assert len(session.game.moves) == 1
    return cfg


def test_without_a_variant_flag_the_journal_s_game_is_resumed_and_named(tmp_path: Path) -> None:
    cfg = brazilian_game_in_the_journal(tmp_path).with_overrides(variant="russian")
    chosen = variant_to_play(cfg, explicit=False)
    assert chosen.variant == "brazilian"
    announcer = Announcer("en")
    session = Session(chosen, announcer)
    assert session.variant.name == "brazilian" and len(session.game.moves) == 1
    assert announcer.history[0].text.startswith(
        "An unfinished game of Brazilian draughts was found (1 move)."
    )
    assert variant_to_play(cfg, explicit=True).variant == "russian"
    assert variant_to_play(cfg, explicit=False, resume=False).variant == "russian"


def test_a_different_variant_asked_for_saves_the_old_game_and_starts_anew(tmp_path: Path) -> None:
    cfg = brazilian_game_in_the_journal(tmp_path).with_overrides(variant="russian")
    announcer = Announcer("pt-BR")
    session = Session(cfg, announcer, insist_variant=True)
    assert session.variant.name == "russian" and session.game.moves == []
    (saved,) = (tmp_path / "games").glob("*.pdn")
    text = saved.read_text()
    assert '[Result "*"]' in text and "c3-b4" in text
    assert announcer.history[0].kind == "unfinished-saved"
    assert "damas brasileiras (1 lance)" in announcer.history[0].text
    assert Journal(cfg.journal).read().variant == "russian"


def test_the_same_variant_asked_for_resumes(tmp_path: Path) -> None:
    cfg = brazilian_game_in_the_journal(tmp_path)
    session = Session(cfg, Announcer("en"), insist_variant=True)
    assert len(session.game.moves) == 1
    assert not (tmp_path / "games").exists()


def test_run_says_it_when_the_variant_flag_differs(tmp_path: Path) -> None:
    brazilian_game_in_the_journal(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text(f'journal = "{tmp_path / "j.jsonl"}"\ngames_dir = "{tmp_path / "games"}"\n')
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "host.cli",
            "run",
            "--config",
            str(config),
            "--language",
            "en",
            "--no-speech",
            "--variant",
            "russian",
            "--events",
            "-",
        ],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "The unfinished game of Brazilian draughts (1 move) was saved" in result.stdout


def test_a_game_with_no_move_is_replaced_silently(tmp_path: Path) -> None:
    cfg = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "games", speech=False)
    Session(cfg, Announcer("en"), resume=False)  # a Brazilian game, no move yet
    announcer = Announcer("en")
    session = Session(cfg.with_overrides(variant="russian"), announcer, insist_variant=True)
    assert session.variant.name == "russian" and not announcer.history
    assert not (tmp_path / "games").exists()
