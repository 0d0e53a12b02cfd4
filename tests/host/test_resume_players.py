"""Who plays each side is part of the game: kept in the journal, and a resumed game goes on
with its own players, not the config's (the page's dialog or the board's level square may
have chosen others). Journals written before players were kept resume as the config says.

The restart through the real command (SIGKILL, then `run` again) is in
tests/web/test_resume_players_web.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game
from host.config import Config
from host.players import resolved
from host.records.journal import Journal
from host.session import Session
from host.streams.events import run_stream
from host.voice.announce import Announcer

ROOT = Path(__file__).resolve().parents[2]


def config_for(tmp_path: Path, **settings: object) -> Config:
    return Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "games", speech=False,
                  **settings)  # type: ignore[arg-type]


def first_move(session: Session) -> None:
    """White's c3-b4 (22-17), by hand on the board."""
    run_stream(session, [json.dumps({"t": 100, "lift": 22}), json.dumps({"t": 500, "place": 17})])
    assert len(session.game.moves) == 1


# -- the journal ------------------------------------------------------------------------------


def test_the_journal_keeps_the_players_and_their_last_change(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.jsonl")
    game = Game("brazilian")
    journal.start("brazilian", game.fen(), players={"W": "human", "B": "computer:3"})
    record = journal.read()
    assert record is not None and record.players == {"W": "human", "B": "computer:3"}
    move = game.push_text("c3-d4")
    journal.move(1, "c3-d4", move.origin, move.destination, [], game.fen())
    journal.players({"W": "computer:1", "B": "human"})
    record = journal.read()
    assert record is not None and record.players == {"W": "computer:1", "B": "human"}
    journal.end("1-0", "resignation")
    journal.reopen()  # a takeback after the end rewrites the game: the players stay
    record = journal.read()
    assert record is not None and not record.finished and len(record.moves) == 1
    assert record.players == {"W": "computer:1", "B": "human"}


@pytest.mark.parametrize(
    "players",
    [None, "computer:3", {"W": "human"}, {"W": "human", "B": "computer:9"}, {"W": 3, "B": "human"},
     {"W": "human", "B": "human", "X": "human"}],
)
def test_a_journal_without_readable_players_has_none(tmp_path: Path, players: object) -> None:
    header = {"type": "game", "variant": "brazilian", "fen": Game("brazilian").fen(),
              "started": "2025-01-01T10:00:00"}
    if players is not None:
        header["players"] = players
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(header) + "\n")
    record = Journal(path).read()
    assert record is not None and record.players is None


def test_a_damaged_players_change_keeps_the_players_before_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.jsonl")
    journal.start("brazilian", Game("brazilian").fen(), players={"W": "human", "B": "computer:2"})
    with journal.path.open("a") as handle:
        handle.write(json.dumps({"type": "players", "players": {"W": "robot"}}) + "\n")
        handle.write('{"type": "players", "players": {"W": "computer:4", "B": "hu')  # torn
    record = journal.read()
    assert record is not None and record.players == {"W": "human", "B": "computer:2"}


def test_plain_computer_is_kept_at_its_level() -> None:
    assert resolved({"W": "human", "B": "computer"}, 2) == {"W": "human", "B": "computer:2"}
    assert resolved({"W": "computer:4", "B": "human"}, 2) == {"W": "computer:4", "B": "human"}


# -- the session ------------------------------------------------------------------------------


def test_a_resumed_game_goes_on_with_its_own_players_not_the_configs(tmp_path: Path) -> None:
    chosen = config_for(tmp_path, white="human", black="computer:3")
    session = Session(chosen, Announcer("en"), resume=False)
    first_move(session)
    # the board restarts with a config that says two people play (the defaults)
    again = Session(config_for(tmp_path), Announcer("en"))
    assert len(again.game.moves) == 1
    assert again.players == {"W": "human", "B": "computer:3"}
    assert again.computer_level() == 3
    assert again.tags() == {"Black": "Computer (level 3)"}


def test_plain_computer_resumes_at_the_level_it_began_with(tmp_path: Path) -> None:
    session = Session(config_for(tmp_path, black="computer", computer_level=4), Announcer("en"),
                      resume=False)
    first_move(session)
    again = Session(config_for(tmp_path, black="computer", computer_level=1), Announcer("en"))
    assert again.players == {"W": "human", "B": "computer:4"}


def test_an_old_journal_without_players_resumes_as_the_config_says(tmp_path: Path) -> None:
    session = Session(config_for(tmp_path), Announcer("en"), resume=False)
    first_move(session)
    lines = session.journal.path.read_text().splitlines()
    header = json.loads(lines[0])
    del header["players"]  # as the journal was written before players were kept
    session.journal.path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    announcer = Announcer("en")
    again = Session(config_for(tmp_path, white="computer:2"), announcer)
    assert len(again.game.moves) == 1 and again.players == {"W": "computer:2", "B": "human"}
    # no board told the session otherwise: nothing to put right, so none asked for
    assert [a.kind for a in announcer.history] == ["resume-found", "resumed"]


def test_players_changed_during_a_game_are_journaled_and_resumed(tmp_path: Path) -> None:
    session = Session(config_for(tmp_path), Announcer("en"), resume=False)
    session.set_players(1.0, {"W": "human", "B": "computer:2"})  # the level square, the page
    first_move(session)
    record = session.journal.read()
    assert record is not None and record.players == {"W": "human", "B": "computer:2"}
    again = Session(config_for(tmp_path), Announcer("en"))
    assert again.players == {"W": "human", "B": "computer:2"}


def test_a_new_game_with_other_players_saves_the_old_one_under_its_own(tmp_path: Path) -> None:
    session = Session(config_for(tmp_path, black="computer:3"), Announcer("en"), resume=False)
    first_move(session)
    # the page's dialog: the players first (not told), then the new game records them
    session.set_players(2.0, {"W": "computer:1", "B": "human"}, tell=False)
    session.new_game(2.0)
    (saved,) = (tmp_path / "games").glob("*.pdn")
    text = saved.read_text()
    assert '[Black "Computer (level 3)"]' in text and "Computer (level 1)" not in text
    record = session.journal.read()
    assert record is not None and not record.moves
    assert record.players == {"W": "computer:1", "B": "human"}


# -- the command line -------------------------------------------------------------------------


def run_events(tmp_path: Path, *flags: str) -> None:
    """`draughtsboard run --events -` on the journal in `tmp_path`, with no event: the board
    starts (resuming the journal's game) and stops."""
    config = tmp_path / "c.toml"
    config.write_text(f'journal = "{tmp_path / "j.jsonl"}"\ngames_dir = "{tmp_path / "games"}"\n')
    command = [sys.executable, "-m", "host.cli", "run", "--config", str(config), "--no-speech",
               *flags, "--events", "-"]
    result = subprocess.run(command, input="", capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert result.returncode == 0, result.stderr


def test_a_player_flag_wins_over_the_resumed_games_own(tmp_path: Path) -> None:
    """The journal's players stand against the config file, but a side named on the command
    line is what the person starting the board asks for now: the game goes on with it."""
    session = Session(config_for(tmp_path, black="computer:3"), Announcer("en"), resume=False)
    first_move(session)
    run_events(tmp_path)
    record = Journal(tmp_path / "j.jsonl").read()
    assert record is not None and record.players == {"W": "human", "B": "computer:3"}
    run_events(tmp_path, "--black", "computer:1")
    record = Journal(tmp_path / "j.jsonl").read()
    assert record is not None and len(record.moves) == 1
    assert record.players == {"W": "human", "B": "computer:1"}
