"""The journal as a resumed board reads it: an end mark withdrawn by a later takeback."""

from __future__ import annotations

from pathlib import Path

from engine import Game
from host.records.journal import Journal


def _journal_with_a_finished_game(path: Path) -> Journal:
    game = Game("brazilian")
    journal = Journal(path)
    journal.start("brazilian", game.fen())
    for ply, text in enumerate(("c3-d4", "f6-e5"), start=1):
        move = game.push_text(text)
        journal.move(ply, text, move.origin, move.destination, sorted(move.captures), game.fen())
    journal.end("0-2", "resignation")
    return journal


def test_an_end_mark_stands_until_a_takeback(tmp_path: Path) -> None:
    journal = _journal_with_a_finished_game(tmp_path / "game.jsonl")
    record = journal.read()
    assert record is not None and record.finished and record.reason == "resignation"


def test_a_takeback_after_the_end_opens_the_game_again(tmp_path: Path) -> None:
    """The board's own takeback (the last move put back after the game ended) writes only a
    takeback line; a board that then loses power must resume the game, not a finished one."""
    journal = _journal_with_a_finished_game(tmp_path / "game.jsonl")
    journal.takeback(2)
    record = journal.read()
    assert record is not None
    assert not record.finished and record.result is None
    assert [entry["move"] for entry in record.moves] == ["c3-d4"]
