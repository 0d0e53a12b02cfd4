"""What the page reads from the host, tested on its own: the hand actions that put a
board right, the reason a misplaced piece is refused, which controls make sense, and
the token kept across restarts."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from engine import Position, get_variant
from host.config import Config
from host.errors import UserError
from host.live.controls import refusals
from host.live.put_right import put_right_steps
from host.session import Session
from host.voice.announce import Announcer
from host.voice.messages import render
from host.voice.move_reasons import board_mistake, describe, reason_text
from host.web.address import TOKEN_FILE, Listen, choose_token

BRAZILIAN = get_variant("brazilian")


def chebyshev(a: int, b: int) -> int:
    (fa, ra), (fb, rb) = BRAZILIAN.square_coords(a), BRAZILIAN.square_coords(b)
    return max(abs(fa - fb), abs(ra - rb))


def carry_out(standing: dict[int, str], steps: list[dict]) -> dict[int, str]:
    """Do the steps as hands would, refusing what a hand cannot do."""
    board = dict(standing)
    for step in steps:
        if "lift" in step:
            assert step["lift"] in board, step
            del board[step["lift"]]
        else:
            assert step["place"] not in board, step
            board[step["place"]] = step["piece"]
    return board


# -- putting a board right ------------------------------------------------------------------


def test_each_piece_goes_back_to_its_own_square_closest_first() -> None:
    # c3-d4 and f6-e5 taken back: both pieces go home, nothing from the box
    target = {22: "W", 11: "B", 1: "B"}
    standing = {18: "W", 15: "B", 1: "B"}
    steps = put_right_steps(standing, target, chebyshev)
    assert carry_out(standing, steps) == target
    assert steps == [{"lift": 15}, {"place": 11, "piece": "B"},
                     {"lift": 18}, {"place": 22, "piece": "W"}]


def test_a_captured_piece_comes_back_and_a_stray_piece_goes_off() -> None:
    target = {22: "W", 18: "B"}  # c3xe5 taken back: the man on d4 was captured
    standing = {15: "W", 30: "BK"}  # and a king put down from the box by mistake
    steps = put_right_steps(standing, target, chebyshev)
    assert carry_out(standing, steps) == target
    assert {"place": 18, "piece": "B"} in steps and {"lift": 30} in steps


def test_a_piece_of_the_wrong_colour_on_a_square_is_changed() -> None:
    target = {22: "W", 9: "B"}
    standing = {22: "B", 9: "W"}  # the two swapped: both squares full
    assert carry_out(standing, put_right_steps(standing, target, chebyshev)) == target
    assert put_right_steps(target, target, chebyshev) == []


# -- why a piece cannot go there --------------------------------------------------------------


def test_the_engines_reason_for_one_misplaced_piece() -> None:
    start = BRAZILIAN.initial_position()
    expected = start.occupied()
    error = board_mistake(start, expected, expected - {22} | {13})
    assert error is not None and error.code == "wrong-destination"
    assert str(error) == "the piece on c3 cannot go to a5; it can go to b4, d4"
    assert reason_text("en", error.code, error.params) == str(error)
    assert describe(error, "pt-BR") == "a peça em c3 não vai para a5; pode ir para b4, d4"
    said = render("pt-BR", "illegal-move", {"why": {"code": error.code, "params": error.params}})
    assert said == ("Tabuleiro incorreto: a peça em c3 não vai para a5; pode ir para b4, "
                    "d4. Corrija as casas acesas.")
    # the opponent's man moved: its reason, with the sides in the language
    error = board_mistake(start, expected, expected - {9} | {13})
    assert error is not None and error.code == "opponent-piece"
    assert reason_text("en", error.code, error.params) == str(error)
    # no slip: a legal move, nothing moved, two pieces astray
    assert board_mistake(start, expected, expected - {22} | {18}) is None
    assert board_mistake(start, expected, expected) is None
    assert board_mistake(start, expected, expected - {22, 21} | {13, 14}) is None


def test_a_capture_refused_says_the_capture_is_mandatory() -> None:
    position = Position.from_fen("W:W18,22:B15", BRAZILIAN)
    expected = position.occupied()
    error = board_mistake(position, expected, expected - {22} | {17})
    assert error is not None and error.code == "capture-mandatory"


# -- which controls make sense ---------------------------------------------------------------


def test_the_controls_that_make_sense_before_during_and_after_a_game(tmp_path: Path) -> None:
    config = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False,
                    data_dir=tmp_path, white="human", black="human")
    session = Session(config, Announcer("en"), resume=False, now=0.0,
                      occupied=BRAZILIAN.initial_position().occupied())
    assert refusals(session, computer=True, computer_to_move=False) == {
        "takeback": "no-moves", "resign": None, "draw": None, "hint": None}
    assert refusals(session, computer=False, computer_to_move=False)["hint"] == "no-computer"
    assert refusals(session, computer=True, computer_to_move=True)["hint"] == "computer-turn"
    session.resign(1.0, "W")
    assert refusals(session, computer=True, computer_to_move=False) == {
        "takeback": "no-moves", "resign": "game-over", "draw": "game-over",
        "hint": "game-over"}


# -- the page's token ---------------------------------------------------------------------------


def test_the_token_is_kept_owner_only_and_rotated_on_request(tmp_path: Path) -> None:
    lan = Listen("0.0.0.0", 8080)
    first = choose_token(lan, None, tmp_path)
    assert first is not None and len(first) >= 12
    kept = tmp_path / TOKEN_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert choose_token(lan, None, tmp_path) == first  # a restart: the same one
    rotated = choose_token(lan, None, tmp_path, rotate=True)
    assert rotated != first and choose_token(lan, None, tmp_path) == rotated
    assert choose_token(lan, "configured-9", tmp_path) == "configured-9"  # the config wins
    assert choose_token(Listen("127.0.0.1", 8080), None, tmp_path) is None  # local only
    kept.write_text("short\n")  # a damaged file is replaced, never used
    assert choose_token(lan, None, tmp_path) not in ("short", rotated)


def test_a_data_folder_that_cannot_keep_it_is_one_clear_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(UserError, match="cannot keep the page's token"):
        choose_token(Listen("0.0.0.0", 8080), None, blocked)


def test_every_announcement_reaches_the_page_as_plain_json(tmp_path: Path) -> None:
    """A saved game's path (a Path), squares as a set: the state stays JSON."""
    import json

    from host.live.state import said
    from host.voice.announce import Announcement

    item = Announcement("unfinished-saved", {"variant": "brazilian", "moves": 3,
                                             "path": tmp_path / "g.pdn", "fen": "W:W1:B2",
                                             "squares": frozenset({3, 1})})
    shown = said(item)
    assert json.loads(json.dumps(shown)) == {
        "kind": "unfinished-saved",
        "params": {"variant": "brazilian", "moves": 3, "path": str(tmp_path / "g.pdn"),
                   "squares": [1, 3]}}
