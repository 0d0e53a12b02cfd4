"""The relay's rules for one board's games, message by message (no broker, no files)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, get_variant
from host.broadcast.relay_games import Boards, Refused, SeqRun, diagram


def game_texts(plies: int, variant: str = "brazilian", skip: int = 0) -> list[str]:
    game = Game(get_variant(variant))
    texts = []
    for ply in range(plies):
        moves = sorted(game.legal_moves(), key=lambda m: (m.origin, m.destination))
        move = moves[skip % len(moves)] if ply == 0 else moves[0]
        texts.append(game.position.move_text(move))
        game.push(move)
    return texts


def state(seq: int, texts: list[str], *, epoch: str = "e1", game: str = "g1",
          result: str | None = None, variant: str = "brazilian", **extra: Any) -> dict:
    g = Game(get_variant(variant))
    for text in texts:
        g.push(g.position.parse_move(text))
    return {"epoch": epoch, "seq": seq, "game": game, "variant": variant,
            "start_fen": g.positions[0].fen(), "fen": g.fen(), "moves": texts,
            "players": {"white": None, "black": None}, "event": None, "round": None,
            "board": None, "clocks": None, "result": result, "reason": None, "ts": 1.0,
            **extra}


def move(seq: int, ply: int, text: str, *, epoch: str = "e1", game: str = "g1") -> dict:
    return {"epoch": epoch, "seq": seq, "game": game, "ply": ply, "move": text, "fen": "?",
            "ts": 2.0}


def correction(seq: int, from_ply: int, *, game: str = "g1") -> dict:
    return {"epoch": "e1", "seq": seq, "game": game, "from_ply": from_ply, "ts": 3.0}


def texts_of(boards: Boards, game: str = "g1") -> list[str]:
    view = boards.feeds["b1"].games[game].view
    assert view is not None
    return list(view.move_texts)


def test_moves_apply_in_order_and_a_newer_state_makes_older_messages_redundant() -> None:
    texts = game_texts(3)
    boards = Boards()
    assert boards.apply("b1", "state", state(1, []), 0)
    assert boards.apply("b1", "move", move(2, 1, texts[0]), 1)
    log = boards.feeds["b1"].games["g1"]
    assert log.has((0, 2)) and log.has((0, 1))  # a re-send would be known
    assert boards.apply("b1", "move", move(3, 2, texts[1]), 2)
    assert boards.apply("b1", "state", state(4, texts[:2], ts=2.0), 3) is None  # no news
    assert texts_of(boards) == texts[:2]


def test_messages_of_one_game_merge_by_seq_whatever_order_they_arrive_in() -> None:
    texts = game_texts(4)
    boards = Boards()
    boards.apply("b1", "state", state(1, []), 0)
    assert boards.apply("b1", "move", move(4, 3, texts[2]), 1) is None  # waits for 2 and 3
    assert boards.apply("b1", "move", move(3, 2, texts[1]), 2) is None
    assert boards.apply("b1", "move", move(2, 1, texts[0]), 3)
    assert texts_of(boards) == texts[:3]
    assert boards.apply("b1", "move", move(5, 4, texts[3]), 4)
    assert texts_of(boards) == texts


def test_a_new_games_state_first_never_hides_the_end_of_the_game_before_it() -> None:
    """Finding 4: a restarted board's new game came first; its backlog was thrown away."""
    old, new = game_texts(6), game_texts(2, skip=1)
    boards = Boards()
    boards.apply("b1", "state", state(1, old[:4], game="old"), 0)
    boards.apply("b1", "state", state(20, new, game="new"), 1)  # overtook the backlog
    boards.apply("b1", "move", move(5, 5, old[4], game="old"), 2)
    boards.apply("b1", "move", move(6, 6, old[5], game="old"), 3)
    boards.apply("b1", "state", state(7, old, game="old", result="1-0"), 4)
    feed = boards.feeds["b1"]
    assert [log.game_id for log in feed.ordered()] == ["old", "new"]
    finished = feed.games["old"].view
    assert finished is not None and list(finished.move_texts) == old
    assert finished.result == "1-0"
    assert texts_of(boards, "new") == new


def test_a_correction_cuts_the_line_and_the_next_move_follows() -> None:
    texts = game_texts(3)
    game = Game(get_variant("brazilian"))
    for text in texts[:2]:
        game.push(game.position.parse_move(text))
    other = next(game.position.move_text(m) for m in game.legal_moves()
                 if game.position.move_text(m) != texts[2])
    boards = Boards()
    boards.apply("b1", "state", state(1, texts, result="1-0"), 0)
    assert boards.apply("b1", "correction", correction(2, 3), 1)
    assert texts_of(boards) == texts[:2]
    assert boards.feeds["b1"].games["g1"].view.result is None
    assert boards.apply("b1", "move", move(3, 3, other), 2)
    assert texts_of(boards) == [*texts[:2], other]


@pytest.mark.parametrize(("data", "category"), [
    (state(1, [], variant="brazilian") | {"variant": "frisian-2030"}, "unknown variant"),
    (state(1, []) | {"moves": ["1-5"]}, "illegal move"),
    (state(1, []) | {"start_fen": "W:W99:B1"}, "bad position"),
])
def test_a_bad_state_is_refused_and_keeps_nothing(data: dict, category: str) -> None:
    boards = Boards()
    with pytest.raises(Refused) as refused:
        boards.apply("b1", "state", data, 0)
    assert refused.value.category == category
    assert boards.feeds["b1"].games == {}
    assert boards.feeds["b1"].seqs["e1"].high == 1  # dealt with: acknowledged, not awaited


def test_an_illegal_move_is_refused_and_the_game_goes_on() -> None:
    texts = game_texts(2)
    boards = Boards()
    boards.apply("b1", "state", state(1, []), 0)
    with pytest.raises(Refused, match="illegal|1-5"):
        boards.apply("b1", "move", move(2, 1, "1-5"), 1)
    assert boards.apply("b1", "state", state(3, texts), 2)
    assert texts_of(boards) == texts


def test_a_waiting_move_found_illegal_later_is_reported() -> None:
    texts = game_texts(1)
    boards = Boards()
    boards.apply("b1", "state", state(1, []), 0)
    assert boards.apply("b1", "move", move(3, 2, "1-5"), 1) is None  # waits for ply 1
    assert boards.apply("b1", "move", move(2, 1, texts[0]), 2)
    late = boards.feeds["b1"].games["g1"].take_refusals()
    assert [r.category for r in late] == ["illegal move"]
    assert texts_of(boards) == texts


def test_a_new_epoch_is_a_later_series() -> None:
    texts = game_texts(2)
    boards = Boards()
    boards.apply("b1", "state", state(50, texts), 0)
    assert boards.apply("b1", "state", state(1, [], epoch="e2", game="g2"), 1)  # SD card replaced
    assert [log.game_id for log in boards.feeds["b1"].ordered()] == ["g1", "g2"]


def test_the_delay_shows_each_game_as_it_was() -> None:
    texts = game_texts(2)
    boards = Boards()
    boards.apply("b1", "state", state(1, []), 100)
    boards.apply("b1", "move", move(2, 1, texts[0]), 105)
    boards.apply("b1", "move", move(3, 2, texts[1]), 112)
    log = boards.feeds["b1"].games["g1"]
    assert log.view_at(99) is None
    assert log.view_at(111 - 10).move_texts == ()
    assert log.view_at(115 - 10).move_texts == (texts[0],)
    assert boards.next_due(105) == 112
    boards.forget_before(105)
    assert log.view_at(105).move_texts == (texts[0],)
    assert log.view_at(122).move_texts == tuple(texts)


def test_status_marks_the_boards_games_offline() -> None:
    boards = Boards()
    boards.set_online("b1", True, 0)
    boards.apply("b1", "state", state(1, []), 1)
    assert boards.feeds["b1"].games["g1"].view.online
    assert boards.set_online("b1", False, 2)
    assert not boards.feeds["b1"].games["g1"].view.online


def test_seqs_are_acknowledged_up_to_the_first_gap_and_a_lasting_gap_is_given_up() -> None:
    run = SeqRun(high=9)
    for seq in (10, 11, 13, 14):
        run.mark(seq, now=0)
    assert run.high == 11 and run.above == {13, 14}
    assert run.give_up(now=10, patience=30) == []
    assert run.give_up(now=31, patience=30) == [12]
    assert run.high == 14 and not run.above and run.gap_since is None
    run.mark(15, now=32)
    assert run.high == 15


def test_diagram_rows_are_drawn_from_whites_seat() -> None:
    rows = diagram(get_variant("brazilian"), get_variant("brazilian").initial_fen())
    assert rows[0] == " b b b b" and rows[-1] == "w w w w " and rows[3] == ". . . . "
    rows = diagram(get_variant("international"), "W:WK46:B5")
    assert rows[0][9] == "b" and rows[9][0] == "W"
