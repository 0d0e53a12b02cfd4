"""The live session: journal before announcement, resume, PDN, commands, crash safety."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from humanise import humanise, random_game

from engine import Game, get_variant
from hardware.board import open_board
from hardware.layout import load_layout
from host.config import Config
from host.records.journal import Journal
from host.session import Session
from host.squares import SquareMap
from host.streams.events import run_stream
from host.voice.announce import Announcer

ROOT = Path(__file__).resolve().parents[2]


def config(tmp_path: Path, **kw) -> Config:
    return Config(
        journal=tmp_path / "journal.jsonl", games_dir=tmp_path / "games", speech=False, **kw
    )


def lines(events: list[dict]) -> list[str]:
    return [json.dumps(e) for e in events]


def test_every_move_is_on_disk_before_it_is_announced(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    announcer = Announcer("en")
    seen: list[int] = []

    def check(item) -> None:
        if item.kind == "move":
            on_disk = [r for r in Journal(cfg.journal).read().moves]
            assert on_disk[-1]["fen"] == item.params["fen"]
            seen.append(len(on_disk))

    announcer.subscribe(check)
    session = Session(cfg, announcer)
    rng = random.Random(5)
    game = random_game(get_variant("brazilian"), rng, max_plies=20)
    events, fens = humanise(get_variant("brazilian"), list(game.moves), rng)
    run_stream(session, lines(events))
    assert seen == list(range(1, len(fens) + 1))


def test_resume_guides_the_board_then_play_continues(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    rng = random.Random(8)
    game = random_game(get_variant("brazilian"), rng, max_plies=6)
    events, fens = humanise(get_variant("brazilian"), list(game.moves), rng)
    run_stream(Session(cfg, Announcer("en")), lines(events))
    # Power cut. The board comes back in the initial position (someone reset it).
    announcer = Announcer("pt-BR")
    frames: list[dict] = []
    initial = get_variant("brazilian").initial_position().occupied()
    session = Session(cfg, announcer, draw=frames.append, occupied=initial)
    assert session.game.fen() == fens[-1]
    assert session.recogniser.correcting and frames[-1]  # squares to put right are lit
    assert announcer.history[0].kind == "resume-offer"
    # Putting the pieces right ends the guidance.
    session.observe(1.0, session.game.position.occupied())
    assert not session.recogniser.correcting
    assert [a.kind for a in announcer.history][-1] == "board-ok"


def test_a_resumed_game_on_a_board_that_stands_right_asks_nothing_of_the_player(
    tmp_path: Path,
) -> None:
    """The simulator sets the pieces up as the game stands (and a board left alone after a
    power cut stands so): the game is found and resumed, with no "put the lit squares
    right" for a board that is right."""
    cfg = config(tmp_path)
    run_stream(Session(cfg, Announcer("en")), lines([{"t": 100, "lift": 22},
                                                      {"t": 500, "place": 17}]))
    standing = Game("brazilian")
    standing.push_text("c3-b4")
    announcer = Announcer("en")
    session = Session(cfg, announcer, occupied=standing.position.occupied())
    assert not session.recogniser.correcting
    assert [a.text for a in announcer.history] == [
        "An unfinished game of Brazilian draughts was found (1 move).",
        "Game resumed. Black to move.",
    ]


def test_resign_writes_the_pdn_and_new_starts_a_fresh_journal(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    announcer = Announcer("en")
    session = Session(cfg, announcer)
    run_stream(session, lines([{"t": 100, "lift": 22}, {"t": 500, "place": 17}]))
    session.command(5.0, "resign")
    pdn = list((tmp_path / "games").glob("*.pdn"))
    assert len(pdn) == 1
    text = pdn[0].read_text()
    assert "c3-b4" in text and '[Result "1-0"]' in text  # Black resigned
    assert Journal(cfg.journal).read().finished
    assert any(a.kind == "win" for a in announcer.history)
    session.command(6.0, "new")
    assert Journal(cfg.journal).read().moves == [] and session.game.moves == []


def test_typed_resign_against_the_computer_gives_up_for_the_person_on_any_turn(
    tmp_path: Path,
) -> None:
    """The person plays White; Black (the computer) is to move when they type resign."""
    announcer = Announcer("en")
    session = Session(config(tmp_path, black="computer:1"), announcer)
    run_stream(session, lines([{"t": 100, "lift": 22}, {"t": 500, "place": 17}]))
    assert session.game.position.turn == "B" and session.resigning_side() == "W"
    session.command(5.0, "resign")
    outcome = session.recogniser.outcome
    assert outcome is not None and outcome.winner == "B" and outcome.reason == "resignation"
    assert [a.params for a in announcer.history if a.kind == "resign"] == [{"side": "W"}]


def test_takeback_command_guides_the_piece_back(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    session = Session(cfg, Announcer("en"))
    run_stream(session, lines([{"t": 100, "lift": 22}, {"t": 500, "place": 17}]))
    assert len(session.game.moves) == 1
    session.command(2.0, "takeback")
    assert session.game.moves == [] and Journal(cfg.journal).read().moves == []
    assert set(session.recogniser.hint.roles) == {17, 22}  # take from b4, put on c3
    session.observe(3.0, session.recogniser.sensed - {17})
    session.observe(3.5, session.recogniser.sensed | {22})
    session.observe(5.0, session.recogniser.sensed)
    assert session.game.moves == [] and not session.recogniser.correcting


def test_mirrored_portuguese_board_on_the_mock_backend(tmp_path: Path) -> None:
    variant = get_variant("portuguese")
    board = open_board("mock", load_layout("standard-8x8").rotated(1))
    squares = SquareMap(variant, board.squares)
    mock = board._backend if hasattr(board, "_backend") else board.backend
    start = variant.initial_position()
    mock.set_occupied(squares.hardware_squares(start.occupied()))
    frames: list[dict] = []
    session = Session(
        config(tmp_path, variant="portuguese"),
        Announcer("en"),
        draw=lambda f: frames.append(squares.frame(f)),
    )
    move = start.legal_moves()[0]
    clock = 0.0

    def step(seconds: float) -> None:
        nonlocal clock
        end = clock + seconds
        while clock < end:
            clock += 0.01
            snap = board.poll(now=clock)
            session.observe(clock, squares.occupied(snap.occupied))

    step(0.3)
    mock.lift(squares.to_hardware_map[move.origin])
    step(0.3)
    lit = {squares.to_variant_map[k] for k in frames[-1]}
    assert lit == {m.destination for m in start.legal_moves() if m.origin == move.origin}
    mock.place(squares.to_hardware_map[move.destination])
    step(1.0)
    assert session.game.moves == [move]


def test_sigkill_at_random_points_loses_nothing_committed(tmp_path: Path) -> None:
    variant = get_variant("brazilian")
    rng = random.Random(11)
    game = random_game(variant, rng, max_plies=30)
    events, fens = humanise(variant, list(game.moves), rng)
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'journal = "{tmp_path / "j.jsonl"}"\ngames_dir = "{tmp_path / "g"}"\n'
        'speech = false\nlanguage = "en"\n'
    )
    for attempt in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "run", "--config", str(cfg), "--events", "-"]
            + (["--new"] if attempt == 0 else []),
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        done = Journal(tmp_path / "j.jsonl").read()
        start = len(done.moves) if done and attempt else 0
        # Continue the game from where the journal says it is: the board is as it was.
        chunk = _events_from(variant, game, start, attempt)
        announced = 0
        kill_after = rng.randint(1, 6)
        for line in chunk:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        deadline = time.time() + 20
        while announced < kill_after and time.time() < deadline:
            out = proc.stdout.readline()
            if not out:
                break
            if " played " in out:
                announced += 1
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        journal = Journal(tmp_path / "j.jsonl").read()
        assert journal is not None
        on_disk = [m["fen"] for m in journal.moves]
        assert on_disk == fens[: len(on_disk)]
        assert len(on_disk) >= start + announced  # nothing announced was lost
    assert len(on_disk) > 0


def _events_from(variant, game: Game, start: int, seed: int) -> list[str]:
    """A noisy stream for the moves from ply `start`, as seen from that position."""
    from humanise import Stream, play_move

    replayed = Game(variant)
    for move in game.moves[:start]:
        replayed.push(move)
    stream = Stream(random.Random(seed), t=300)
    occupied = set(replayed.position.occupied())
    for move in game.moves[start:]:
        play_move(stream, replayed.position, move, occupied, 500)
        replayed.push(move)
        stream.wait(700, 1500)
    return lines(stream.events)
