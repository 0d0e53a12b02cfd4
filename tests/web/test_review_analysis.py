"""The review's parts without a server: the classification of moves by the evaluation's
swing, the analysis kept beside the game, and the games a review can be of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_games import game_with_blunder

from engine import Game, get_variant
from engine.search import MATE
from host.review import store
from host.review.analysis import PositionEval, evaluate_positions, move_data
from host.review.classify import CLAMP, judge, judge_game, kind_of, summary
from host.review.games import (
    MAX_UPLOAD,
    ReviewError,
    accept_upload,
    current_id,
    game_json,
    listing,
    load,
)

BUDGET = 2500  # nodes per position: enough for a man given away, quick on a loaded machine


def evaluation(ply: int, score: int, *, best: dict | None = None, legal: int = 7,
               mate: int | None = None) -> PositionEval:
    return PositionEval(ply, score, mate, best, (), 6, 100, legal)


# -- classification ----------------------------------------------------------------------------


def test_the_classes_follow_the_loss_in_men() -> None:
    assert [kind_of(loss) for loss in (0, 29, 30, 59, 60, 99, 100, 450)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_move_is_judged_by_the_movers_loss_with_won_scores_clamped() -> None:
    variant = get_variant("brazilian")
    game = Game(variant)
    played = game.position.parse_move("c3-d4")
    other = move_data(game.position, game.position.parse_move("e3-f4"))
    same = move_data(game.position, played)
    # White's loss: from +0.2 to -0.9 is 1.1 men: a blunder.
    assert judge(played, "W", evaluation(0, 20, best=other), evaluation(1, -90)).kind == "blunder"
    # Black's loss is the other way round: White's score rising is Black's loss.
    verdict = judge(played, "B", evaluation(0, -10, best=other), evaluation(1, 45))
    assert (verdict.kind, verdict.loss) == ("inaccuracy", 55) and verdict.side == "B"
    # A move that improves the mover's evaluation (the search's noise) loses nothing.
    assert judge(played, "W", evaluation(0, 10, best=other), evaluation(1, 60)).loss == 0
    # Won anyway: +7 to +4 men is no loss; +5 to +1.5 gives back 1.5 men of a 3-man lead.
    assert judge(played, "W", evaluation(0, 700, best=other), evaluation(1, 400)).kind == "good"
    verdict = judge(played, "W", evaluation(0, 500, best=other), evaluation(1, 150))
    assert (verdict.kind, verdict.loss) == ("blunder", CLAMP - 150)
    # A forced win thrown away counts as the clamp.
    verdict = judge(played, "W", evaluation(0, MATE - 9, mate=9, best=other), evaluation(1, 0))
    assert verdict.loss == CLAMP
    # The engine's own move is best whatever the numbers; the only move is not judged.
    assert judge(played, "W", evaluation(0, 50, best=same), evaluation(1, -80)).kind == "best"
    assert judge(played, "W", evaluation(0, 50, best=other, legal=1),
                 evaluation(1, -80)).kind == "forced"


def test_the_summary_counts_classes_and_averages_the_judged_moves() -> None:
    game = Game(get_variant("russian"))
    for _ in range(5):
        game.push(game.legal_moves()[-1])
    scores = [0, -10, 95, 75, 75, 60]  # White's view, before each move and at the end
    evals = [evaluation(ply, score, legal=1 if ply in (3, 4) else 5)
             for ply, score in enumerate(scores)]
    sides = [position.turn for position in game.positions[:-1]]
    verdicts = judge_game(game.moves, sides, evals)
    assert [v.kind for v in verdicts if v] == ["good", "blunder", "good", "forced", "forced"]
    totals = summary(verdicts)
    assert totals["B"]["blunder"] == 1 and totals["B"]["moves"] == 2
    assert totals["B"]["average_loss"] == pytest.approx(1.05)  # its forced move not counted
    assert totals["W"]["average_loss"] == pytest.approx((10 + 20) / 2 / 100)
    assert totals["W"]["forced"] == 1 and totals["W"]["good"] == 2
    # Positions not analysed yet leave their moves unjudged.
    assert judge_game(game.moves, sides, evals[:3] + [None, None, None])[2:] == [None] * 3


@pytest.mark.parametrize(("variant", "seed"), [("brazilian", 2), ("international", 3),
                                               ("russian", 4), ("italian", 5), ("pool", 6)])
def test_a_planted_blunder_is_found_in_any_variant(variant: str, seed: int) -> None:
    planted = game_with_blunder(variant, 12, 5, seed=seed)
    game = planted.game
    evals = list(evaluate_positions(game, nodes=BUDGET))
    assert [item.ply for item in evals] == list(range(len(game.moves) + 1))
    sides = [position.turn for position in game.positions[:-1]]
    verdict = judge_game(game.moves, sides, evals)[planted.blunder_ply]
    assert verdict is not None and verdict.side == planted.side
    assert verdict.kind in ("mistake", "blunder"), verdict
    best = evals[planted.blunder_ply].best
    assert best is not None and best["from"] in game.positions[planted.blunder_ply].pieces()


def test_the_evaluation_is_whites_and_a_finished_game_scores_its_result() -> None:
    variant = get_variant("brazilian")
    game = Game.from_fen("W:W22:B18", variant)  # White takes the last black man
    game.push(game.legal_moves()[0])
    start, end = evaluate_positions(game, nodes=500)
    assert start.score > 0 and start.best is not None and start.legal == 1
    assert end.score == MATE and end.best is None and end.mate == 0
    black_wins = Game.from_fen("B:W22:B18,14", variant)
    (only,) = evaluate_positions(black_wins, nodes=500)
    assert only.score < -100  # Black to move, a man up and taking: bad for White


# -- the analysis kept beside the game ------------------------------------------------------------


def test_the_analysis_is_kept_by_the_games_content(tmp_path: Path) -> None:
    planted = game_with_blunder("brazilian", 8, 3, seed=2)
    evals = list(evaluate_positions(planted.game, nodes=300))
    path = store.analysis_path(tmp_path / "20250101-100000-brazilian.pdn")
    assert path.name == "20250101-100000-brazilian.analysis.json"
    key = store.game_key(planted.game)
    assert store.load(path, key, 300) is None  # nothing yet
    store.save(path, key, evals, 300)
    assert store.load(path, key, 300) == evals
    assert store.load(path, key, 12000) is None  # another budget: made again
    other = Game(get_variant("brazilian"))
    other.push(other.legal_moves()[0])
    assert store.game_key(other) != key and store.load(path, store.game_key(other), 300) is None
    store.save(path, store.game_key(other), evals[:2], 300)  # a second game of the same file
    assert store.load(path, key, 300) == evals and len(store.load(path, store.game_key(other),
                                                                    300)) == 2
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    data = json.loads(path.read_text())
    assert data["format"] == "draughtsboard-analysis" and set(data["games"]) == {
        key, store.game_key(other)}
    path.write_text("{broken")
    assert store.load(path, key, 300) is None  # unreadable: made again, never an error


def test_the_same_moves_give_the_same_key_whatever_the_file_says(tmp_path: Path) -> None:
    planted = game_with_blunder("russian", 8, 3, seed=4)
    (tmp_path / "a.pdn").write_text(planted.pdn("Ana", "Bia", "1-0"))
    (tmp_path / "b.pdn").write_text(planted.pdn("Carla", "Dora", "*"))
    first, second = load(tmp_path, "saved:a.pdn"), load(tmp_path, "saved:b.pdn")
    assert first.key == second.key == store.game_key(planted.game)
    assert first.store == tmp_path / "a.analysis.json"


# -- the games a review can be of ------------------------------------------------------------


def test_uploads_are_checked_whole_and_bad_ones_keep_nothing(tmp_path: Path) -> None:
    good = game_with_blunder("italian", 8, 3, seed=5).pdn()
    illegal = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 99-88 *\n'
    bad = {
        "not pdn": (b"hello, this is not a game", "not a PDN file"),
        "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR" * 20, "binary"),
        "unknown variant": (b'[GameType "43"]\n1. 22-18 *\n', "GameType 43"),
        "illegal": (illegal.encode(), "there is no square 99"),
        "no moves": (b'[White "A"][Black "B"] *\n', "no moves"),
        "empty": (b"", "no game"),
        "huge": (good.encode() * (MAX_UPLOAD // len(good) + 1), "too large"),
    }
    for name, (data, words) in bad.items():
        with pytest.raises(ReviewError) as refused:
            accept_upload(tmp_path, data)
        assert words in str(refused.value), name
        assert "\n" not in str(refused.value) and refused.value.status in (413, 422), name
    assert not (tmp_path / "uploads").exists() or not any((tmp_path / "uploads").iterdir())
    review_id, games = accept_upload(tmp_path, good.encode())
    assert review_id.startswith("upload:") and games[0]["variant"] == "italian"
    assert accept_upload(tmp_path, good.encode())[0] == review_id  # the same file, once
    review = load(tmp_path, review_id)
    assert review.game.variant.name == "italian" and len(review.game.moves) >= 8
    for wrong in ("saved:../x.pdn", "upload:zz.pdn", "nothing", "saved:missing.pdn"):
        with pytest.raises(ReviewError) as refused:
            load(tmp_path, wrong)
        assert refused.value.status == 404


def test_a_file_of_many_games_lists_each_and_marks_those_that_cannot_be_reviewed(
    tmp_path: Path,
) -> None:
    one = game_with_blunder("international", 8, 3, seed=1).pdn("A", "B", "2-0")
    two = '[GameType "20"]\n[White "C"]\n[Black "D"]\n1. 32-28 19-23 2. 99-88 *\n'
    review_id, games = accept_upload(tmp_path, (one + "\n" + two).encode())
    assert [g["white"] for g in games] == ["A", "C"]
    assert games[0]["error"] is None and "99" in games[1]["error"]
    assert load(tmp_path, review_id, 1).game.tags["White"] == "A"
    with pytest.raises(ReviewError, match="cannot be reviewed"):
        load(tmp_path, review_id, 2)
    with pytest.raises(ReviewError, match="not a game 3"):
        load(tmp_path, review_id, 3)
    listed = listing(tmp_path)
    assert [(item["id"], item["games"]) for item in listed] == [(review_id, 2)]


def test_the_game_just_finished_is_found_by_its_moves(tmp_path: Path) -> None:
    planted = game_with_blunder("brazilian", 8, 3, seed=7)
    started = "2025-03-04T10:11:12"
    (tmp_path / "20250304-101112-brazilian.pdn").write_text("[Event \"x\"]\n1. c3-d4 *\n")
    (tmp_path / "20250304-101112-brazilian-2.pdn").write_text(planted.pdn())
    assert current_id(tmp_path, planted.game, started) == "saved:20250304-101112-brazilian-2.pdn"
    with pytest.raises(ReviewError, match="not in the games folder"):
        current_id(tmp_path, planted.game, "2025-03-04T10:11:13")


def test_the_page_gets_every_position_and_move_in_the_variants_numbering(tmp_path: Path) -> None:
    planted = game_with_blunder("russian", 6, 2, seed=3)
    (tmp_path / "g.pdn").write_text(planted.pdn())
    body = game_json(load(tmp_path, "saved:g.pdn"), {"destination": "#0072b2"})
    game = planted.game
    assert len(body["positions"]) == len(game.moves) + 1 == len(body["moves"]) + 1
    assert body["size"] == 8 and body["names"] is not None  # Russian writes algebraic
    first = body["moves"][0]
    assert (first["from"], first["to"], first["side"], first["number"]) == (
        game.moves[0].origin, game.moves[0].destination, "W", 1)
    assert body["positions"][0]["pieces"] == {
        str(sq): piece.color + ("K" if piece.king else "")
        for sq, piece in game.positions[0].pieces().items()}
    assert body["variant_names"]["pt-BR"] == "damas russas"
