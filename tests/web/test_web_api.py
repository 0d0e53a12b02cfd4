"""The HTTP contract of the board's page, against a real `draughtsboard run --board sim`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, BoardServer, journal_with

from engine import get_variant

CONTRACT = {"variant", "fen", "turn", "occupied", "leds", "blink", "moves", "outcome",
            "announcements"}
ROLES = {"must-capture", "capture-alert", "destination", "landing", "remove", "crown", "wrong",
         "last-move", "end"}


def same_game(a: dict, b: dict) -> bool:
    """The parts of the state a refused request must not change."""
    keys = CONTRACT | {"pieces", "hints", "language"}
    return {k: a[k] for k in keys} == {k: b[k] for k in keys}


def test_state_is_the_contract_with_the_simulated_pieces_set_up(server: BoardServer) -> None:
    state = server.state()
    assert set(state) >= CONTRACT
    variant = get_variant("brazilian")
    start = variant.initial_position()
    assert state["variant"] == "brazilian"
    assert state["fen"] == start.fen() and state["turn"] == "W"
    assert state["occupied"] == sorted(start.occupied())
    assert state["moves"] == [] and state["outcome"] is None
    assert state["leds"] == {} and state["blink"] == []
    assert state["pieces"]["22"] == "W" and state["pieces"]["9"] == "B"
    assert state["mode"] == "sim"
    assert len(state["variants"]) == 8 and all(v["playable"] for v in state["variants"])


def test_lift_lights_destinations_and_place_commits_through_the_recogniser(
    server: BoardServer,
) -> None:
    status, state = server.hands(lift=22)
    assert status == 200
    assert 22 not in state["occupied"]  # the switches changed and the debouncer saw it
    assert {sq: role for sq, role in state["leds"].items()} == {
        "17": "destination", "18": "destination"}
    status, state = server.hands(place=18)
    assert status == 200 and 18 in state["occupied"]
    assert state["moves"] == []  # not yet: the board must settle first (docs/play.md)
    state = server.wait_for(lambda s: s["moves"] == ["c3-d4"])
    assert state["turn"] == "B"
    assert state["leds"] == {"18": "last-move", "22": "last-move"}
    assert state["announcements"][-1] == "White played c3-d4."
    assert set(state["leds"].values()) <= ROLES


def test_an_illegal_placement_is_never_a_move_and_is_guided_back(server: BoardServer) -> None:
    server.hands(lift=22)
    server.hands(place=13)  # c3 to ... two rows up: not a move
    state = server.wait_for(lambda s: "wrong" in s["leds"].values(), timeout=8)
    assert state["moves"] == [] and state["correcting"]
    assert state["leds"] == {"13": "wrong", "22": "wrong"}
    assert state["blink"] == [13]  # take from the blinking square, put on the steady one
    # the engine's reason, as the board says it
    assert ("The board is wrong: the piece on c3 cannot go to a5; it can go to b4, d4. "
            "Put the lit squares right.") in state["announcements"]
    server.hands(lift=13)
    server.hands(place=22)
    state = server.wait_for(lambda s: not s["correcting"])
    assert state["moves"] == [] and state["leds"] == {}


def test_controls_takeback_resign_draw_and_new(server: BoardServer) -> None:
    server.hands(lift=22)
    server.hands(place=18)
    server.wait_for(lambda s: len(s["moves"]) == 1)
    status, state = server.control(command="takeback")
    assert status == 200 and state["moves"] == []
    assert state["leds"] == {"18": "wrong", "22": "wrong"}  # put the piece back
    server.hands(lift=18)
    server.hands(place=22)
    server.wait_for(lambda s: not s["correcting"])
    status, state = server.control(command="resign")
    assert state["outcome"] == {
        "result": "0-1", "winner": "B", "reason": "resignation", "text": state["outcome"]["text"]}
    status, state = server.control(command="new")
    assert status == 200 and state["outcome"] is None and state["moves"] == []
    status, state = server.control(command="draw")
    assert state["outcome"]["result"] == "1/2-1/2" and state["outcome"]["reason"] == "agreement"
    assert all(role == "end" for role in state["leds"].values())
    games = list((server.folder / "games").glob("*.pdn"))
    assert len(games) == 2  # the resigned game and the agreed draw, both saved


def test_new_game_of_another_size_sets_the_pieces_up(server: BoardServer) -> None:
    status, state = server.control(command="new", variant="international")
    assert status == 200
    assert state["variant"] == "international" and state["size"] == 10
    assert len(state["squares"]) == 50
    assert state["occupied"] == sorted(get_variant("international").initial_position().occupied())
    status, state = server.hands(lift=32)
    assert state["leds"] == {"27": "destination", "28": "destination"}
    server.hands(place=28)
    state = server.wait_for(lambda s: s["moves"] == ["32-28"])
    status, state = server.control(command="new", variant="portuguese")  # mirrored, 8x8
    assert state["variant"] == "portuguese" and state["size"] == 8
    corner = {tuple(xy) for xy in state["squares"].values()}
    assert (0, 0) not in corner and (7, 0) in corner  # the board is turned: a1 is light


def test_hint_level_and_language_change_at_once(server: BoardServer) -> None:
    server.hands(lift=22)
    status, state = server.control(command="hints", hints="off")
    assert status == 200 and state["hints"] == "off" and state["leds"] == {}
    status, state = server.control(command="hints", hints="full")
    assert state["leds"] == {"17": "destination", "18": "destination"}
    status, state = server.control(command="language", language="pt-BR")
    server.hands(place=18)
    state = server.wait_for(lambda s: s["moves"])
    assert state["announcements"][-1] == "Lance das Brancas: c3-d4."


def test_malformed_bodies_get_400_with_one_line_and_change_nothing(server: BoardServer) -> None:
    before = server.state()
    bad_hands = [
        b"", b"not json", b"[22]", b'"lift"', b"{", b'{"lift": 22, "place": 18}', b"{}",
        b'{"lift": "22"}', b'{"lift": true}', b'{"lift": 0}', b'{"lift": 33}', b'{"lift": 2.5}',
        b'{"lift": 22, "extra": 1}', b'{"place": 18, "piece": "Q"}', b'{"lift": 22, "piece": "W"}',
        b'{"lift": null}', b"\xff\xfe", b'{"lift": 1e400}', b"[" * 3000,
        b'{"lift": 22, "hold": 1}', b'{"place": 18, "hold": true}', b'{"drop": 22, "piece": "W"}',
        b'{"drop": 22, "lift": 22}', b'{"drop": "22"}',
    ]
    bad_controls = [
        b'{"command": "explode"}', b'{"command": "new", "variant": "chess"}', b"{}",
        b'{"command": "new", "players": {"W": "robot"}}', b'{"command": ["new"]}',
        b'{"command": "new", "players": {"W": "computer:5"}}',
        b'{"command": "new", "players": {"X": "human"}}', b'{"command": "hint", "now": 1}',
        b'{"command": "hints", "hints": "all"}', b'{"command": "language", "language": "fr"}',
        b'{"command": "resign", "now": true}',
    ]
    for path, bodies in (("/api/hands", bad_hands), ("/api/control", bad_controls)):
        for body in bodies:
            status, answer = server.request("POST", path, raw=body)
            assert status == 400, (path, body, answer)
            assert isinstance(answer["error"], str) and answer["error"]
            assert "\n" not in answer["error"] and len(answer["error"]) < 200
    assert same_game(server.state(), before)


def test_oversized_and_impossible_requests_are_refused_and_change_nothing(
    server: BoardServer,
) -> None:
    before = server.state()
    status, answer = server.request("POST", "/api/hands", raw=b'{"lift": 22' + b" " * 10_000 + b"}")
    assert status == 413 and "too large" in answer["error"]
    status, answer = server.request("POST", "/api/control", raw=b"x" * 1_000_000)
    assert status == 413
    status, answer = server.hands(lift=18)  # an empty square
    assert status == 409 and answer["error"] == "no piece on square 18 to lift"
    status, answer = server.hands(place=22)  # an occupied one
    assert status == 409 and answer["error"] == "square 22 already holds a piece"
    assert same_game(server.state(), before)


def test_downloads_of_the_current_and_saved_games(server: BoardServer) -> None:
    server.hands(lift=22)
    server.hands(place=18)
    server.wait_for(lambda s: s["moves"])
    status, text = server.request("GET", "/api/pdn")
    assert status == 200 and "1. c3-d4 *" in text and '[GameType "26,' in text
    server.control(command="resign")
    status, listing = server.request("GET", "/api/games")
    (saved,) = listing["games"]
    status, text = server.request("GET", "/api/games/" + saved["name"])
    assert status == 200 and '[Result "1-0"]' in text  # Black, to move, resigned
    for name in ("..%2Fjournal.jsonl", "%2E%2E%2Fconfig.toml", "nothing.pdn", "config.toml"):
        status, _ = server.request("GET", "/api/games/" + name)
        assert status == 404, name


def test_the_page_and_its_files_are_served_from_the_package(server: BoardServer) -> None:
    status, html = server.request("GET", "/")
    assert status == 200 and "/static/app.js" in html
    for name in ("app.js", "board.js", "i18n.js", "style.css", "icon.svg"):
        status, text = server.request("GET", "/static/" + name)
        assert status == 200 and len(text) > 100, name
        assert "http://" not in text.replace("http://www.w3.org", "")  # nothing from outside
    assert (ROOT / "host" / "cli.py").is_file()  # what the escape below would reach
    status, _ = server.request("GET", "/static/..%2F..%2Fcli.py")
    assert status == 404


def test_a_resumed_game_is_set_up_as_it_stands(tmp_path: Path) -> None:
    folder = tmp_path / "board"
    fen = "W:WK29,31,32:BK1,3,4"  # as the engine writes it
    journal_with(folder, "brazilian", fen)
    board = BoardServer(folder, "--board", "sim").start()
    try:
        state = board.state()
        assert state["fen"] == fen and state["occupied"] == [1, 3, 4, 29, 31, 32]
        assert state["pieces"]["29"] == "WK" and state["pieces"]["1"] == "BK"
        assert not state["correcting"]
        assert "Game resumed. White to move." in state["announcements"]
    finally:
        board.stop()
    journal = (folder / "journal.jsonl").read_text().splitlines()
    assert json.loads(journal[0])["fen"] == fen  # stopping kept the game resumable


def test_a_port_in_use_is_one_clear_line(server: BoardServer, tmp_path: Path) -> None:
    second = BoardServer(tmp_path / "second", "--board", "sim", "--new")
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "run", "--config", str(second.config),
         "--board", "sim", "--listen", f"127.0.0.1:{server.port}"],
        cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "address already in use" in line and "--listen" in line


def test_a_new_game_from_a_position_sets_those_pieces_up(server: BoardServer) -> None:
    status, state = server.control(command="new", variant="russian", fen="B:WK29,31:B1,2")
    assert status == 200 and state["variant"] == "russian"
    assert state["fen"] == "B:WK29,31:B1,2" and state["turn"] == "B"
    assert state["occupied"] == [1, 2, 29, 31] and state["pieces"]["29"] == "WK"
    assert not state["correcting"]
    before = server.state()
    for fen in ("W:W99:B1", "nonsense", 5, ""):
        status, answer = server.control(command="new", fen=fen)
        assert status == 400 and "fen" in answer["error"], fen
    assert server.state()["fen"] == before["fen"]
    status, text = server.request("GET", "/api/pdn")
    assert '[FEN "B:WK29,31:B1,2"]' in text  # the game says where it started


def test_the_start_up_lines_follow_the_boards_language(tmp_path: Path) -> None:
    board = BoardServer(tmp_path / "pt", "--board", "sim", "--new", language="pt-BR").start()
    try:
        printed = board.read_output()
        assert f"Página do tabuleiro: {board.url}" in printed
        assert "The board's page" not in printed
        assert board.state()["language"] == "pt-BR"
    finally:
        board.stop()
