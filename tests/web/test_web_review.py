"""The review through the real `draughtsboard run`: uploads (good and bad), the game just
finished, the analysis kept beside the game, and a review that waits while the game on the
board is being played."""

from __future__ import annotations

import json
import time
from pathlib import Path

from conftest import BoardServer
from review_games import game_with_blunder

from engine import Game, get_variant

SLOW = 300.0  # seconds: the analysis runs at nice 19, on a machine shared with others


def upload(board: BoardServer, text: str | bytes, **headers: str) -> tuple[int, dict]:
    data = text.encode() if isinstance(text, str) else text
    return board.request("POST", "/api/review/upload", raw=data, headers=headers)


def analysis(board: BoardServer, review_id: str, number: int = 1) -> dict:
    status, body = board.request("GET", f"/api/review/analysis?id={review_id}&number={number}")
    assert status == 200, body
    return body


def wait_analysis(board: BoardServer, review_id: str, check, timeout: float = SLOW) -> dict:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        body = analysis(board, review_id)
        if check(body):
            return body
        assert time.monotonic() < deadline, json.dumps(body)[:800]
        time.sleep(0.2)


def same_game(a: dict, b: dict) -> bool:
    return all(a[key] == b[key] for key in ("fen", "moves", "outcome", "occupied"))


def test_an_uploaded_game_is_reviewed_and_its_analysis_kept(tmp_path: Path) -> None:
    planted = game_with_blunder("spanish", 10, 4, seed=11)
    folder = tmp_path / "board"
    board = BoardServer(folder, "--board", "sim", "--new").start()
    try:
        status, body = upload(board, planted.pdn("Ana", "Bia", "1-0"))
        assert status == 200, body
        review_id = body["id"]
        assert body["games"][0]["variant"] == "spanish" and body["games"][0]["white"] == "Ana"
        status, opened = board.request("GET", f"/api/review/game?id={review_id}")
        assert status == 200
        game = opened["game"]
        assert game["variant"] == "spanish" and game["tags"]["Black"] == "Bia"
        assert len(game["positions"]) == len(planted.game.moves) + 1
        assert opened["analysis"]["status"] in ("queued", "running", "paused", "done")
        done = wait_analysis(board, review_id, lambda a: a["status"] == "done")
        verdict = done["verdicts"][planted.blunder_ply]
        assert verdict["side"] == planted.side and verdict["class"] in ("mistake", "blunder")
        assert verdict["mark"] in ("?", "??")
        best = done["evals"][planted.blunder_ply]["best"]
        assert best is not None and (best["from"], best["to"]) != (
            planted.game.moves[planted.blunder_ply].origin,
            planted.game.moves[planted.blunder_ply].destination)
        counted = done["summary"][planted.side]
        assert counted["mistake"] + counted["blunder"] >= 1
        name = review_id.split(":")[1]
        kept = folder / "games" / "uploads" / name.replace(".pdn", ".analysis.json")
        assert kept.is_file()
        status, listed = board.request("GET", "/api/review/games")
        assert [entry["id"] for entry in listed["games"]] == [review_id]
    finally:
        board.stop()
    again = BoardServer(folder, "--board", "sim", "--new").start()
    try:  # computed once: another start of the board reads it
        status, opened = again.request("GET", f"/api/review/game?id={review_id}")
        assert opened["analysis"]["status"] == "done"
        assert opened["analysis"]["verdicts"] == done["verdicts"]
    finally:
        again.stop()


def test_bad_uploads_get_one_clear_line_and_lose_nothing(server: BoardServer) -> None:
    server.hands(lift=22)
    server.hands(place=18)
    before = server.wait_for(lambda s: s["moves"] == ["c3-d4"])
    good = game_with_blunder("english", 8, 3, seed=2).pdn()
    cases = [
        (b"just some words, no game", 422, "not a PDN file", "not-pdn"),
        (bytes(range(256)) * 8, 422, "binary", "binary"),
        (b'[GameType "44"]\n1. 22-18 *', 422, "GameType 44", "variant"),
        (b'[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 3. 11-99 *', 422, "ply 5", "illegal"),
        (b"[White \"A\"]\n*", 422, "no moves", "no-moves"),
        (b"", 422, "no game", "no-game"),
        (good.encode() * (1 + (1 << 20) // len(good)), 413, "too large", "too-large"),
    ]
    for data, status, words, code in cases:
        got, body = upload(server, data)
        assert (got, words in body["error"], body["code"]) == (status, True, code), body
        assert "\n" not in body["error"] and "Traceback" not in body["error"]
    uploads = server.folder / "games" / "uploads"
    assert not uploads.exists() or not any(uploads.iterdir())
    got, body = upload(server, good, Origin="http://evil.example")
    assert got == 403 and "another site" in body["error"]
    for review_id in ("saved:../config.toml", "upload:nothing.pdn", "saved:none.pdn", ""):
        status, body = server.request("GET", f"/api/review/game?id={review_id}")
        assert status == 404 and body["error"], review_id
    assert same_game(server.state(), before)  # the game on the board went on untouched
    got, body = upload(server, good)
    assert got == 200 and body["games"][0]["variant"] == "english"


def test_an_upload_needs_the_token_when_there_is_one(tmp_path: Path) -> None:
    board = BoardServer(tmp_path / "t", "--board", "sim", "--new").start("--token", "tok-98765")
    try:
        text = game_with_blunder("pool", 8, 3, seed=3).pdn()
        assert upload(board, text)[0] == 403
        status, body = upload(board, text, Authorization="Bearer tok-98765")
        assert status == 200
        status, _ = board.request("GET", f"/api/review/game?id={body['id']}")
        assert status == 200  # watching is enough to review
    finally:
        board.stop()


def test_the_game_just_finished_is_analysed_in_the_background(server: BoardServer) -> None:
    status, body = server.request("GET", "/api/review/current")
    assert status == 409 and "still being played" in body["error"]
    game = Game(get_variant("brazilian"))
    for _ in range(2):  # two moves on the simulated board, as hands make them
        move = game.legal_moves()[0]
        server.hands(lift=move.origin)
        server.hands(place=move.destination)
        game.push(move)
        server.wait_for(lambda s, n=game.ply: len(s["moves"]) == n)
    server.control(command="resign")
    status, current = server.request("GET", "/api/review/current")
    assert status == 200 and current["id"].startswith("saved:")
    name = current["id"].split(":")[1]
    kept = server.folder / "games" / name.replace(".pdn", ".analysis.json")
    deadline = time.monotonic() + SLOW
    while not kept.is_file():  # nobody asked: the board analyses every game that ends
        assert time.monotonic() < deadline
        time.sleep(0.2)
    done = analysis(server, current["id"])
    assert done["status"] == "done" and done["total"] == 3


def test_the_review_waits_while_a_move_is_being_made(server: BoardServer) -> None:
    status, body = upload(server, game_with_blunder("brazilian", 12, 4, seed=5).pdn())
    review_id = body["id"]
    server.hands(lift=22)  # a piece in the hand: a move is being made on the board
    assert server.request("GET", f"/api/review/game?id={review_id}")[0] == 200
    wait_analysis(server, review_id, lambda a: a["status"] == "paused")
    time.sleep(1.5)
    held = analysis(server, review_id)
    assert held["status"] == "paused" and held["done"] == 0
    server.hands(place=18)  # the move is made; the board settles
    server.wait_for(lambda s: s["moves"] == ["c3-d4"])
    done = wait_analysis(server, review_id, lambda a: a["status"] == "done")
    assert done["done"] == done["total"]


def test_the_review_waits_while_the_computer_thinks(server: BoardServer) -> None:
    quick = upload(server, game_with_blunder("english", 6, 2, seed=6).pdn())[1]["id"]
    long = upload(server, game_with_blunder("russian", 12, 4, seed=7).pdn())[1]["id"]
    server.request("GET", f"/api/review/game?id={quick}")
    wait_analysis(server, quick, lambda a: a["status"] == "done")  # the worker is up, idle
    server.control(command="new", players={"W": "human", "B": "computer:4"})
    server.hands(lift=22)
    server.hands(place=18)
    server.wait_for(lambda s: s["computer"]["thinking"], timeout=30)
    assert server.request("GET", f"/api/review/game?id={long}")[0] == 200
    checked = 0
    while True:
        thinking_before = server.state()["computer"]["thinking"]
        now = analysis(server, long)
        if not (thinking_before and server.state()["computer"]["thinking"]):
            break
        if now["status"] != "queued":
            assert now["status"] == "paused" and now["done"] == 0, now["status"]
            checked += 1
        time.sleep(0.1)
    assert checked >= 3  # seen waiting for a good while of the computer's thought
    state = server.wait_for(lambda s: s["computer"]["move"] is not None, timeout=30)
    assert state["computer"]["thinking"] is False
    done = wait_analysis(server, long, lambda a: a["status"] == "done")
    assert done["done"] == done["total"]
