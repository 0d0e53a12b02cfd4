"""The relay's rules, message by message (no broker): seq, gaps, corrections, delay, files."""

from __future__ import annotations

import json
from pathlib import Path

from engine import Game, get_variant
from engine.pdn import read_games
from host.broadcast import topics
from host.broadcast.relay_files import Pairing, RoundWriter
from host.broadcast.relay_games import Boards, diagram

STATE, MOVE, CORRECTION, STATUS = (topics.board_topic("b1", k) for k in
                                   (topics.STATE, topics.MOVE, topics.CORRECTION,
                                    topics.STATUS))


def _game(plies: int, variant: str = "brazilian") -> tuple[Game, list[str]]:
    game = Game(get_variant(variant))
    texts = []
    for _ in range(plies):
        move = sorted(game.legal_moves(), key=lambda m: (m.origin, m.destination))[0]
        texts.append(game.position.move_text(move))
        game.push(move)
    return game, texts


def _state(seq: int, texts: list[str], *, epoch: str = "e1", game: str = "g1",
           result: str | None = None, variant: str = "brazilian", **extra) -> bytes:
    g, _ = _game(0, variant)
    for text in texts:
        g.push(g.position.parse_move(text))
    return json.dumps({
        "epoch": epoch, "seq": seq, "game": game, "variant": variant,
        "start_fen": g.positions[0].fen(), "fen": g.fen(), "moves": texts,
        "players": {"white": None, "black": None}, "event": None, "round": None,
        "board": None, "clocks": None, "result": result, "reason": None, "ts": 1.0, **extra,
    }).encode()


def _move(seq: int, ply: int, text: str, *, epoch: str = "e1", game: str = "g1") -> bytes:
    return json.dumps({"epoch": epoch, "seq": seq, "game": game, "ply": ply, "move": text,
                       "fen": "?", "ts": 2.0}).encode()


def _texts(boards: Boards) -> list[str]:
    return list(boards.feeds["b1"].view.move_texts)


def test_moves_apply_in_order_and_seen_seqs_are_dropped() -> None:
    _, texts = _game(3)
    boards = Boards(log=lambda _t: None)
    assert boards.handle(STATE, _state(1, []), now=0)
    assert boards.handle(MOVE, _move(2, 1, texts[0]), now=1)
    assert not boards.handle(MOVE, _move(2, 1, texts[0]), now=2)  # a QoS 1 duplicate
    assert not boards.handle(STATE, _state(1, []), now=3)  # an old state again
    assert boards.handle(MOVE, _move(3, 2, texts[1]), now=4)
    assert _texts(boards) == texts[:2]


def test_a_gap_waits_for_the_state_that_follows() -> None:
    _, texts = _game(3)
    boards = Boards(log=lambda _t: None)
    boards.handle(STATE, _state(1, []), now=0)
    assert not boards.handle(MOVE, _move(3, 2, texts[1]), now=1)  # ply 1 never came
    assert boards.handle(STATE, _state(4, texts[:2]), now=2)
    assert _texts(boards) == texts[:2]


def test_an_illegal_move_or_bad_message_is_ignored_with_one_line() -> None:
    lines: list[str] = []
    boards = Boards(log=lines.append)
    boards.handle(STATE, _state(1, []), now=0)
    assert not boards.handle(MOVE, _move(2, 1, "1-5"), now=1)
    assert not boards.handle(STATE, b"{not json", now=2)
    assert not boards.handle(STATE, json.dumps({"seq": 3}).encode(), now=3)
    assert _texts(boards) == [] and len(lines) == 2 and "b1" in lines[0]


def test_a_correction_cuts_the_line_and_the_new_move_follows() -> None:
    game, texts = _game(3)
    game.pop()
    other = [m for m in game.legal_moves() if game.position.move_text(m) != texts[2]][0]
    boards = Boards(log=lambda _t: None)
    boards.handle(STATE, _state(1, texts), now=0)
    correction = json.dumps({"epoch": "e1", "seq": 2, "game": "g1", "from_ply": 3,
                             "ts": 3.0}).encode()
    assert boards.handle(CORRECTION, correction, now=1)
    assert not boards.handle(CORRECTION, correction, now=1.5)
    assert _texts(boards) == texts[:2]
    assert boards.handle(MOVE, _move(3, 3, game.position.move_text(other)), now=2)
    assert _texts(boards) == [*texts[:2], game.position.move_text(other)]


def test_a_new_epoch_is_taken_from_a_state_only() -> None:
    _, texts = _game(2)
    boards = Boards(log=lambda _t: None)
    boards.handle(STATE, _state(50, texts), now=0)
    assert not boards.handle(MOVE, _move(1, 3, "x", epoch="e2"), now=1)
    assert boards.handle(STATE, _state(1, [], epoch="e2", game="g2"), now=2)  # SD card replaced
    assert _texts(boards) == []


def test_the_delay_shows_each_board_as_it_was() -> None:
    _, texts = _game(2)
    boards = Boards(delay=10, log=lambda _t: None)
    boards.handle(STATE, _state(1, []), now=100)
    boards.handle(MOVE, _move(2, 1, texts[0]), now=105)
    boards.handle(MOVE, _move(3, 2, texts[1]), now=112)
    assert boards.views_at(99) == {}
    assert boards.views_at(111 - 10)["b1"].move_texts == ()
    assert boards.views_at(115 - 10)["b1"].move_texts == (texts[0],)
    assert boards.next_due(105) == 112
    boards.forget_before(105)
    assert boards.views_at(105)["b1"].move_texts == (texts[0],)
    assert boards.views_at(122)["b1"].move_texts == tuple(texts)


def test_status_marks_the_game_offline() -> None:
    boards = Boards(log=lambda _t: None)
    boards.handle(STATUS, b"online", now=0)
    boards.handle(STATE, _state(1, []), now=1)
    assert boards.feeds["b1"].view.online
    assert boards.handle(STATUS, b"offline", now=2)
    assert not boards.feeds["b1"].view.online


def test_diagram_rows_are_drawn_from_whites_seat() -> None:
    rows = diagram(get_variant("brazilian"), get_variant("brazilian").initial_fen())
    assert rows[0] == " b b b b" and rows[-1] == "w w w w " and rows[3] == ". . . . "
    rows = diagram(get_variant("international"), "W:WK46:B5")
    assert rows[0][9] == "b" and rows[9][0] == "W"


def test_round_files_keep_board_order_with_placeholders_and_read_back(tmp_path: Path) -> None:
    writer = RoundWriter(tmp_path)
    writer.set_pairings("3", "Clube", [Pairing(2, "b1", "Ana", "Bia"),
                                       Pairing(1, "b9", "Caio", "Duda")])
    boards = Boards(log=lambda _t: None)
    _, texts = _game(5)
    boards.handle(STATE, _state(1, texts, round="3", board=2, result="1-0"), now=0)
    name, filed = writer.file_game(boards.feeds["b1"].view, writer.rounds["3"])
    assert name == "3" and filed.board == 2
    writer.write("3")
    games = list(read_games(tmp_path / "round-3" / "games.pdn"))
    assert [(g.tags["Round"], g.tags["White"], len(g.moves), g.terminator) for g in games] == [
        ("3.1", "Caio", 0, "*"), ("3.2", "Ana", 5, "1-0")]
    assert games[1].error is None
    assert (tmp_path / "round-3" / "board-02.pdn").read_text().startswith('[Event "Clube"]')
    # Whatever text a board or a pairings file carries, the file stays valid PDN.
    writer.set_pairings("3", 'Clube "Central"\n', [Pairing(2, "b1", "Ana\x07 \\ Maria", "Bia"),
                                                  Pairing(1, "b9", "Caio", "Duda")])
    writer.write("3")
    games = list(read_games(tmp_path / "round-3" / "games.pdn"))
    assert (games[1].tags["Event"], games[1].tags["White"]) == ('Clube "Central"',
                                                                "Ana  \\ Maria")
    again = RoundWriter(tmp_path)  # a restarted relay carries on from round.json
    assert again.rounds["3"].games["2"].move_texts == tuple(texts)
    assert {n: p.board_id for n, p in again.rounds["3"].pairings.items()} == {1: "b9", 2: "b1"}
