"""Every game's own id: made when it starts, kept in the journal, the session's, the bus's."""

from __future__ import annotations

import json
from pathlib import Path

from engine import Game
from host.config import Config
from host.live.bus import Update
from host.records.journal import Journal
from host.session import Session
from host.voice.announce import Announcer


def test_a_game_gets_an_id_when_it_starts_and_the_journal_keeps_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.jsonl")
    fen = Game("brazilian").fen()
    first = journal.start("brazilian", fen, "2026-12-01T19:30:12")
    record = journal.read()
    assert record is not None and record.id == first
    assert first.startswith("20261201193012-")
    second = journal.start("brazilian", fen, "2026-12-01T19:30:12")  # the same second
    assert second != first and journal.read().id == second


def test_a_journal_from_before_ids_gets_the_same_id_each_time(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    fen = Game("brazilian").fen()
    path.write_text(json.dumps({"type": "game", "variant": "brazilian", "fen": fen,
                                "started": "2026-11-30T20:00:00"}) + "\n", encoding="utf-8")
    journal = Journal(path)
    derived = journal.read().id
    assert derived.startswith("20261130200000-") and journal.read().id == derived
    journal.move(1, "c3-d4", 22, 18, [], fen)
    journal.end("1-0", "resignation")
    journal.reopen()  # a takeback after the end rewrites the header: the id stays
    assert json.loads(path.read_text().splitlines()[0])["id"] == derived
    assert journal.read().id == derived


def _session(tmp_path: Path, *, resume: bool) -> Session:
    config = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", data_dir=tmp_path,
                    speech=False)
    return Session(config, Announcer("en"), resume=resume)


def test_the_session_names_its_game_and_a_new_game_gets_a_new_id(tmp_path: Path) -> None:
    session = _session(tmp_path, resume=False)
    first = session.game_id
    assert first == Journal(tmp_path / "j.jsonl").read().id
    assert _session(tmp_path, resume=True).game_id == first  # resumed: the same game
    updates: list[Update] = []
    session.subscribe(updates.append)
    session.new_game(1.0)
    started = [u for u in updates if u.kind == "new-game"]
    assert started and started[-1].data["game_id"] == session.game_id != first
    assert Journal(tmp_path / "j.jsonl").read().id == session.game_id
