"""Timed games end to end: the flag at the very moment it falls (no switch change needed),
the race between a flag and a move's proof, take backs, arbiter's stops, low-time
warnings, and a game resumed after a power cut, through the replay and the session."""

from __future__ import annotations

import json
from pathlib import Path

from engine import get_variant
from host.clock.control import parse_time_control
from host.config import Config
from host.recognition.costs import SETTLE
from host.session import Session
from host.streams.events import run_stream
from host.streams.replay import replay
from host.voice.announce import Announcer

ENGLISH = get_variant("english")


def quiet(t_lift: int, origin: int, t_place: int, destination: int) -> list[dict[str, int]]:
    return [{"t": t_lift, "lift": origin}, {"t": t_place, "place": destination}]


def replayed(events: list[dict[str, int]], control: str, **options) -> list[dict]:
    out: list[dict] = []
    replay(
        ENGLISH,
        (json.dumps(e) for e in events),
        out.append,
        clock=parse_time_control(control),
        **options,
    )
    return out


def test_the_flag_falls_at_its_instant_with_no_switch_change() -> None:
    # English: Black moves first. Black's clock starts with the first lift (1.0 s).
    out = replayed(quiet(1000, 11, 1500, 15), "0.1+0")
    moves = [r for r in out if "move" in r]
    assert moves[0]["clock"] == {"white": 6000, "black": 5500}
    # White thinks and thinks: White's 6 s run out at 1.5 + 6 s, nothing on the board.
    assert out[-1] == {"t": 7500, "outcome": "win", "winner": "B", "reason": "time"}


def test_a_move_finished_before_the_flag_counts_though_proved_after_it() -> None:
    # Black's 6 s run from 1.0 s: the flag would fall at 7.0 s. The piece lands at 6.9 s;
    # the board proves the move when it has stayed (7.15 s).
    out = replayed([{"t": 1000, "lift": 11}, {"t": 6900, "place": 15}], "0.1+0")
    (move,) = [r for r in out if "move" in r]
    assert move["t"] >= 7000 and move["clock"] == {"white": 6000, "black": 100}
    # Then White's clock runs from the landing, not from the proof.
    assert out[-1] == {"t": 12900, "outcome": "win", "winner": "B", "reason": "time"}


def test_a_move_finished_after_the_flag_does_not_count() -> None:
    out = replayed([{"t": 1000, "lift": 11}, {"t": 7050, "place": 15}], "0.1+0")
    assert not [r for r in out if "move" in r]
    assert out[-1] == {"t": 7000, "outcome": "win", "winner": "W", "reason": "time"}


def test_a_piece_that_goes_on_after_the_flag_was_not_finished_before_it() -> None:
    events = [
        {"t": 1000, "lift": 11},
        {"t": 6900, "place": 15},  # down before the flag...
        {"t": 7050, "lift": 15},  # ...but picked up again after it
        {"t": 7400, "place": 16},
    ]
    out = replayed(events, "0.1+0")
    assert not [r for r in out if "move" in r or "move-corrected" in r]
    assert out[-1] == {"t": 7000, "outcome": "win", "winner": "W", "reason": "time"}


def test_a_reply_proves_the_move_and_its_finish_is_the_landing() -> None:
    """A fast reply: the move counts on the reply's lift (once its piece has stayed, before
    a settle time), charged only to its landing at 1.5 s."""
    events = quiet(1000, 11, 1500, 15) + quiet(1600, 22, 2100, 18)
    out = replayed(events, "1+2")
    first, second = [r for r in out if "move" in r]
    assert 1600 <= first["t"] < 1750 and first["clock"] == {"white": 60000, "black": 61500}
    assert second["clock"] == {"white": 61400, "black": 61500}  # White: 1.5 to 2.1 s


def test_no_clock_no_clock_fields() -> None:
    out: list[dict] = []
    replay(ENGLISH, (json.dumps(e) for e in quiet(1000, 11, 1500, 15)), out.append)
    assert out == [{"t": 1750, "move": "11-15", "fen": out[0]["fen"]}]


# -- the session --------------------------------------------------------------------------


def session(tmp_path: Path, clock: str = "1+2", **config) -> tuple[Session, Announcer]:
    announcer = Announcer("en")
    cfg = Config(
        variant="english",
        journal=tmp_path / "journal.jsonl",
        games_dir=tmp_path / "games",
        data_dir=tmp_path,
        speech=False,
        clock=clock,
        **config,
    )
    return Session(cfg, announcer), announcer


def said(announcer: Announcer) -> list[str]:
    return [item.kind for item in announcer.history]


def lines(*records: dict) -> list[str]:
    return [json.dumps(r) for r in records]


def test_a_take_back_restores_both_clocks(tmp_path: Path) -> None:
    game, _ = session(tmp_path)
    run_stream(game, lines(
        {"t": 1000, "lift": 11}, {"t": 1500, "place": 15},  # Black: 0.5 s
        {"t": 4000, "lift": 22}, {"t": 5000, "place": 18},  # White: 3.5 s
        {"t": 9000, "command": "takeback"},  # Black had thought 4 s since
    ))
    state = game.game_clock.state(9.0)
    assert state is not None
    # As when White's move was finished, before its increment: White had used 3.5 s,
    # Black's 4 s of thought since are given back; White's time runs again.
    assert state["running"] == "W"
    assert state["black"] == 61500
    assert state["white"] == 56500


def test_a_pause_is_not_charged_and_is_said(tmp_path: Path) -> None:
    game, announcer = session(tmp_path)
    run_stream(game, lines({"t": 1000, "lift": 11}, {"t": 1500, "place": 15}))
    game.pause_clock(3.0, True)
    game.observe(30.0, game.sensed)
    state = game.game_clock.state(30.0)
    assert state is not None and state["paused"] and state["white"] == 60000 - 1500
    game.pause_clock(40.0, False)
    state = game.game_clock.state(41.0)
    assert state is not None and state["white"] == 60000 - 2500
    assert "clock-paused" in said(announcer) and "clock-resumed" in said(announcer)


def test_low_time_is_said_once_as_the_clock_passes_it(tmp_path: Path) -> None:
    game, announcer = session(tmp_path, clock="0.25+0", clock_warnings=(10.0, 5.0))
    run_stream(game, lines({"t": 1000, "lift": 11}, {"t": 1500, "place": 15}))
    for t in range(2000, 16000, 500):  # White thinks 14 s of 15
        game.observe(t / 1000, game.sensed)
    warnings = [item for item in announcer.history if item.kind == "clock-warning"]
    assert [w.params["seconds"] for w in warnings] == [10.0, 5.0]
    assert warnings[0].text == "White: 10 seconds left."


def test_the_flag_ends_the_game_on_the_board_and_in_the_record(tmp_path: Path) -> None:
    game, announcer = session(tmp_path, clock="0.1+0")
    run_stream(game, lines({"t": 1000, "lift": 11}, {"t": 1500, "place": 15}))
    for t in range(2000, 8000, 10):  # the live scans: White never moves
        game.observe(t / 1000, game.sensed)
    outcome = game.recogniser.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == ("B", "time")
    assert said(announcer)[-2:] == ["flag", "win"]
    # The LEDs' end pattern: Black's pieces, blinking (a flag fall).
    assert set(game.hint.roles.values()) == {"end"}
    assert game.hint.blink == frozenset(game.hint.roles) == frozenset(range(1, 13)) - {11} | {15}
    record = game.journal.read()
    assert record is not None and record.result == "0-1" and record.reason == "time"
    (saved,) = (tmp_path / "games").glob("*.pdn")
    text = saved.read_text()
    assert '[TimeControl "6+0"]' in text and '[Termination "Time forfeit"]' in text
    assert "{[%clock W0:00:06 b0:00:06]}" in text  # after Black's move: 6 s and 5.5 s


def test_a_power_cut_loses_at_most_the_time_since_the_last_move(tmp_path: Path) -> None:
    game, _ = session(tmp_path)
    run_stream(game, lines(
        {"t": 1000, "lift": 11}, {"t": 3000, "place": 15},  # Black: 2 s
        {"t": 4000, "lift": 22}, {"t": 9000, "place": 18},  # White: 6 s
        {"t": 15000, "lift": 9},  # Black thinking, hand on a piece... the power goes
    ))
    after = game.recogniser.sensed
    # The board comes back: the journal's game, its clocks as after the last move.
    cfg = game.config
    resumed = Session(cfg, Announcer("en"), now=100.0, occupied=after)
    state = resumed.game_clock.state(100.0)
    assert state is not None and state["control"] == "1+2"
    assert (state["white"], state["black"]) == (56000, 60000)
    assert state["running"] is None  # the board is not right yet (9 is still off)
    resumed.observe(101.0, after | {9})  # put right
    resumed.observe(105.0, after | {9})
    state = resumed.game_clock.state(105.0)
    assert state is not None and state["running"] == "B" and state["black"] == 56000


def test_the_board_menu_stops_and_restarts_the_clock(tmp_path: Path) -> None:
    """The spare piece's menu (host/gestures/commands.py) has a clock square in a timed game."""
    game, announcer = session(tmp_path, gestures=True)
    run_stream(game, lines({"t": 1000, "lift": 11}, {"t": 1500, "place": 15}))
    now = 2.0
    board = game.sensed | {18}  # a spare piece put on the empty square 18
    options: dict[int, str] = {}

    def hold(squares: frozenset[int], seconds: float) -> None:
        nonlocal now
        for _ in range(int(seconds / 0.05)):
            now += 0.05
            game.observe(now, squares)

    hold(board, 2.5)
    assert game.gestures is not None and game.gestures.active
    options = game.gestures._menu.options if game.gestures._menu else {}  # type: ignore[union-attr]
    (clock_square,) = [sq for sq, option in options.items() if option == "clock"]
    hold(game.sensed - {18}, 0.2)  # the spare piece in the hand...
    hold(game.recogniser.expected | {clock_square}, 1.5)  # ...onto the clock square
    state = game.game_clock.state(now)
    assert state is not None and state["paused"] and "clock-paused" in said(announcer)
    # The same square again restarts it.
    hold(game.recogniser.expected, 3.0)
    hold(game.recogniser.expected | {18}, 2.5)
    options = game.gestures._menu.options if game.gestures._menu else {}  # type: ignore[union-attr]
    (clock_square,) = [sq for sq, option in options.items() if option == "clock"]
    hold(game.recogniser.expected, 0.2)
    hold(game.recogniser.expected | {clock_square}, 1.5)
    state = game.game_clock.state(now)
    assert state is not None and not state["paused"] and "clock-resumed" in said(announcer)


def test_a_take_back_after_the_flag_reopens_the_game_and_its_clocks(tmp_path: Path) -> None:
    game, _ = session(tmp_path, clock="0.1+0")
    run_stream(game, lines({"t": 1000, "lift": 11}, {"t": 1500, "place": 15}))
    for t in range(2000, 8000, 10):
        game.observe(t / 1000, game.sensed)
    assert game.recogniser.outcome is not None
    game.command(8.0, "takeback")  # Black's move taken back: Black to move again
    assert game.recogniser.outcome is None
    state = game.game_clock.state(8.0)
    assert state is not None and state["running"] == "B" and state["flagged"] is None
    assert (state["white"], state["black"]) == (6000, 5500)
    game.observe(20.0, game.sensed)  # and Black's flag can fall in its turn
    outcome = game.recogniser.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == ("W", "time")


def test_a_piece_put_down_again_before_the_reply_is_the_moves_finish() -> None:
    """Black's piece lands (1.5 s), the board proves the move (1.75 s), Black adjusts it
    (lifted at 2.5 s, down again at 2.7 s) before White touches anything: the move was
    finished at 2.7 s, and the replay says so, once the piece has stood SETTLE there (it
    might have been going on), with both clocks charged again."""
    events = [*quiet(1000, 11, 1500, 15), {"t": 2500, "lift": 15}, {"t": 2700, "place": 15},
              *quiet(4000, 22, 4500, 18)]
    out = replayed(events, "1+2")
    first, again, second = [r for r in out if "clock" in r]
    assert first["clock"] == {"white": 60000, "black": 61500}
    assert again == {"t": 2700 + int(SETTLE * 1000), "ply": 1,
                     "clock": {"white": 60000, "black": 60300}}
    assert second["clock"] == {"white": 60200, "black": 60300}  # White: 2.7 to 4.5 s


def test_crowning_is_not_the_movers_time() -> None:
    """A man crowned: lifted off its square and a king put down (the opponent's to do,
    seed 002 3.6) does not charge the mover."""
    events = [{"t": 1000, "lift": 6}, {"t": 1500, "place": 1},  # 6-1 crowns White's man
              {"t": 2500, "lift": 1}, {"t": 3000, "place": 1}]
    out: list[dict] = []
    replay(ENGLISH, (json.dumps(e) for e in events), out.append,
           fen="W:W6:B28", clock=parse_time_control("1+0"))
    records = [r for r in out if "clock" in r]
    assert len(records) == 1 and records[0]["clock"]["white"] == 59500


def test_the_status_file_and_command_tell_the_clocks(tmp_path: Path) -> None:
    from host.appliance.status import StatusWriter
    from host.commands.status import _clock_line

    game, _ = session(tmp_path)
    run_stream(game, lines({"t": 1000, "lift": 11}, {"t": 1500, "place": 15}))
    writer = StatusWriter(game.config.status_file, board="sim", layout="standard-8x8")
    writer.update(game, force=True)
    clock = json.loads(game.config.status_file.read_text())["game"]["clock"]
    assert clock["control"] == "1+2" and clock["running"] == "W"
    assert clock["black"] == 61500
    assert _clock_line(clock).startswith("clock 1+2: White ") and "(running)" in _clock_line(clock)


def test_setting_the_pieces_up_is_nobodys_time(tmp_path: Path) -> None:
    """A new game on a board not yet set up: the clock starts with the first change made
    on the board once it is right, not with the setting up."""
    game, _ = session(tmp_path, clock="1+0")
    start = game.recogniser.expected
    game.new_game(0.5, occupied=start - {22, 23})  # two pieces still missing
    game.observe(3.0, start - {23})
    state = game.game_clock.state(3.0)
    assert state is not None and state["running"] is None
    game.observe(4.0, start)  # set up
    game.observe(10.0, start - {9})  # English: Black's first lift starts Black's time
    state = game.game_clock.state(12.0)
    assert state is not None and state["running"] == "B" and state["black"] == 58000
