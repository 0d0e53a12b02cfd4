"""Where the relay files games, what it refuses, its files, and its store (no broker)."""

from __future__ import annotations

from pathlib import Path

from engine.pdn import read_games
from host.broadcast import topics
from host.broadcast.relay_files import RoundWriter
from host.broadcast.relay_intake import Intake
from host.broadcast.relay_status import RelayStatus
from host.broadcast.relay_store import Store
from host.broadcast.relay_views import Views
from tests.broadcast.test_relay_games import correction, game_texts, move, state


class Desk:
    """An intake, its store and its views, as the relay's loop drives them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lines: list[str] = []
        self.status = RelayStatus()
        self.intake = Intake(Store(folder / ".relay"), self.status, self.lines.append)
        self.views = Views(self.intake)
        self.clock = 0.0

    def board(self, board_id: str, kind: str, data: dict) -> None:
        self.clock += 1
        self.intake.board_message(board_id, kind, topics.encode(data), self.clock, self.clock)

    def pair(self, name: str, rows: list[tuple[int, str, str, str]],
             event: str | None = "Clube") -> None:
        self.intake.pairings(topics.encode({"event": event, "round": name, "boards": [
            {"board": n, "board_id": b, "white": w, "black": k} for n, b, w, k in rows]}))

    def layout(self, name: str | None) -> list[tuple[str, str | None, int]]:
        """(slot key, game id, plies) of the round's file, as shown now."""
        self.views.refresh(self.clock + 1)
        out = []
        for slot in self.views.slots(name):
            view = self.views.shown.get(slot.game) if slot.game else None
            out.append((slot.key, slot.game[1] if slot.game else None,
                        len(view.moves) if view else 0))
        return out

    def write(self, name: str | None) -> Path:
        self.views.refresh(self.clock + 1)
        writer = RoundWriter(self.folder)
        writer.write(self.intake.rounds.rounds[name], self.views.slots(name), self.views.shown)
        return self.folder / ("round-" + name if name else "unpaired")


def test_a_boards_next_game_is_its_second_game_of_the_round_never_the_first(
        tmp_path: Path) -> None:
    """Finding 1: the next game, started before the next pairings, took the finished
    game's slot."""
    desk = Desk(tmp_path)
    desk.pair("1", [(1, "b1", "Ana", "Bia"), (2, "b2", "Caio", "Duda")])
    first, second = game_texts(12), game_texts(2, skip=1)
    desk.board("b1", "state", state(1, first, result="0-1", round="1", board=1))
    desk.board("b1", "state", state(2, [], game="g2"))  # new game, no assignment yet
    assert desk.layout("1") == [("1", "g1", 12), ("2", None, 0)]  # nothing to show yet
    desk.board("b1", "move", move(3, 1, second[0], game="g2"))
    desk.board("b1", "move", move(4, 2, second[1], game="g2"))
    assert desk.layout("1") == [("1", "g1", 12), ("2", None, 0), ("1.2", "g2", 2)]
    folder = desk.write("1")
    games = list(read_games(folder / "games.pdn"))
    assert [(g.tags["Round"], g.tags["White"], len(g.moves), g.terminator) for g in games] == [
        ("1.1", "Ana", 12, "0-1"), ("1.2", "Caio", 0, "*"), ("1.1.2", "Ana", 2, "*")]
    assert [len(g.moves) for g in read_games(folder / "board-01-2.pdn")] == [2]
    assert [len(g.moves) for g in read_games(folder / "board-01.pdn")] == [12]


def test_a_game_tagged_for_the_next_round_moves_there_but_a_finished_one_never_moves(
        tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    desk.pair("1", [(1, "b1", "Ana", "Bia")])
    desk.board("b1", "state", state(1, game_texts(4), round="1", board=1, result="1-0"))
    desk.board("b1", "state", state(2, game_texts(2, skip=1), game="g2"))  # before round 2
    assert desk.layout("1") == [("1", "g1", 4), ("1.2", "g2", 2)]
    desk.pair("2", [(5, "b1", "Eva", "Fabio")])
    desk.board("b1", "state", state(3, game_texts(2, skip=1), game="g2", round="2", board=5))
    assert desk.layout("1") == [("1", "g1", 4)]
    assert desk.layout("2") == [("5", "g2", 2)]
    desk.board("b1", "state", state(4, game_texts(4), round="2", board=5, result="1-0"))
    assert desk.layout("1") == [("1", "g1", 4)]  # finished: stays in round 1


def test_a_board_cannot_claim_another_boards_pairing(tmp_path: Path) -> None:
    """Finding 5: b2's own state claimed board 1 and was filed there."""
    desk = Desk(tmp_path)
    desk.pair("1", [(1, "b1", "Ana", "Bia"), (2, "b2", "Caio", "Duda")])
    desk.board("b1", "state", state(1, game_texts(4), round="1", board=1))
    desk.board("b2", "state", state(1, game_texts(1, skip=2), epoch="x", game="fake",
                                    round="1", board=1, result="0-1", event="Fake"))
    desk.board("b2", "state", state(2, [], epoch="x", game="f2", round="9", board=2))
    assert desk.layout("1") == [("1", "g1", 4), ("2", None, 0)]
    refused = desk.status.to_json()["refused"]
    assert refused["by_reason"] == {"not its pairing": 1, "unknown round": 1}
    assert refused["by_board"] == {"b2": 2}
    assert any("claims round 1 board 1, but it is paired on board 2" in line
               for line in desk.lines)
    games = list(read_games(desk.write("1") / "games.pdn"))
    assert [(g.tags["White"], g.tags["Event"]) for g in games] == [("Ana", "Clube"),
                                                                   ("Caio", "Clube")]


def test_the_organisers_names_and_event_win_over_a_boards(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    desk.pair("3", [(1, "b1", "Ana", "Bia")], event="Quinta")
    desk.board("b1", "state", state(1, game_texts(2), round="3", board=1, event="Other",
                                    players={"white": "X", "black": "Y"}))
    game = next(read_games(desk.write("3") / "board-01.pdn"))
    assert (game.tags["Event"], game.tags["White"], game.tags["Black"]) == (
        "Quinta", "Ana", "Bia")


def test_a_board_without_pairings_is_filed_apart_under_its_own_names(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    desk.board("b7", "state", state(1, game_texts(3), players={"white": "Gil", "black": "Hugo"}))
    assert desk.layout(None) == [("b7", "g1", 3)]
    game = next(read_games(desk.write(None) / "board-b7.pdn"))
    assert (game.tags["White"], game.tags["Round"]) == ("Gil", "?")


def test_every_bad_message_costs_one_message(tmp_path: Path) -> None:
    """Finding 2: one bad message killed the relay's thread."""
    desk = Desk(tmp_path)
    texts = game_texts(2)
    desk.board("b1", "state", state(1, [], variant="brazilian") | {"variant": "frisian-2030"})
    desk.board("b1", "move", {"not": "a move"})
    desk.intake.board_message("b1", "state", b"{not json", 5, 5)
    desk.board("b1", "state", state(2, texts))
    desk.board("b1", "move", move(3, 3, "1-5"))  # the next ply, illegal
    assert desk.layout(None) == [("b1", "g1", 2)]
    assert desk.status.to_json()["refused"]["by_reason"] == {
        "unknown variant": 1, "bad message": 2, "illegal move": 1}
    assert all(line.startswith("board b1: refused a ") for line in desk.lines)


def test_the_store_rebuilds_the_same_relay_and_compaction_keeps_it(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    desk.pair("1", [(1, "b1", "Ana", "Bia"), (2, "b2", "Caio", "Duda")])
    texts = game_texts(6)
    desk.board("b1", "state", state(1, [], round="1", board=1))
    for ply, text in enumerate(texts, start=1):
        desk.board("b1", "move", move(ply + 1, ply, text))
    desk.board("b1", "correction", correction(8, 6))
    desk.board("b1", "state", state(9, texts[:5], result="1-0", round="1", board=1))
    desk.board("b1", "state", state(10, game_texts(3, skip=1), game="g2"))
    desk.board("b2", "state", state(1, game_texts(1), round="9", board=2))  # refused
    desk.intake.store.commit()
    expected = desk.layout("1")
    assert expected == [("1", "g1", 5), ("2", None, 0), ("1.2", "g2", 3)]
    acks = sorted(desk.intake.acks())

    again = Desk(tmp_path)
    again.intake.restore(100, 100)
    again.clock = 100
    assert again.layout("1") == expected
    assert sorted(again.intake.acks()) == acks == [("b1", "e1", 10), ("b2", "e1", 1)]
    again.intake.compact()
    assert again.intake.store.lines < 10

    compacted = Desk(tmp_path)
    compacted.intake.restore(200, 200)
    compacted.clock = 200
    assert compacted.layout("1") == expected
    assert sorted(compacted.intake.acks()) == acks
    # and it goes on from there: the next move of game 2
    more = game_texts(4, skip=1)
    compacted.board("b1", "move", move(11, 4, more[3], game="g2"))
    assert compacted.layout("1")[-1] == ("1.2", "g2", 4)


def test_a_torn_last_line_of_the_store_is_ignored(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    desk.board("b1", "state", state(1, game_texts(2)))
    desk.intake.store.commit()
    with open(desk.intake.store.path, "a", encoding="utf-8") as handle:
        handle.write('{"m": ["b1", "move", "{\\"ep')  # power lost mid-write
    again = Desk(tmp_path)
    again.intake.restore(10, 10)
    again.clock = 10
    assert again.layout(None) == [("b1", "g1", 2)]


def test_a_lasting_gap_is_asked_for_once_then_given_up(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    texts = game_texts(3)
    desk.board("b1", "state", state(1, []))
    desk.board("b1", "move", move(3, 2, texts[1]))  # seq 2 (ply 1) never comes
    assert desk.intake.acks() == [("b1", "e1", 1)]
    run = desk.intake.boards.feeds["b1"].seqs["e1"]
    since = run.gap_since
    assert since is not None
    assert desk.intake.gaps(since + 1) == []
    assert desk.intake.gaps(since + 6) == [("b1", "e1", 1, [2, 2])]
    assert desk.intake.gaps(since + 7) == []  # asked once
    desk.intake.give_up_gaps(since + 31)
    assert desk.status.lost == 1 and desk.intake.acks() == [("b1", "e1", 3)]


def test_a_new_game_with_no_move_is_not_filed_beside_the_boards_game(tmp_path: Path) -> None:
    """A board restarted after its game tags the next, still empty, game with the same
    assignment: it shows nothing until it has a move."""
    desk = Desk(tmp_path)
    desk.pair("1", [(1, "b1", "Ana", "Bia")])
    desk.board("b1", "state", state(1, game_texts(4), round="1", board=1, result="1-0"))
    desk.board("b1", "state", state(1, [], epoch="e2", game="g2", round="1", board=1))
    assert desk.layout("1") == [("1", "g1", 4)]
    desk.board("b1", "move", move(2, 1, game_texts(1)[0], game="g2") | {"epoch": "e2"})
    assert desk.layout("1") == [("1", "g1", 4), ("1.2", "g2", 1)]
