"""The computer on a wall clock, through its worker process: blitz against itself.

A short control keeps the run modest; the full 20 games a level at 1+1 are in
`make bench` (bench/blitz_bench.py, docs/BENCHMARKS.md). The control leaves a
reserve of seconds, so only a stall of seconds on this machine could flag.
"""

from __future__ import annotations

import pytest

from bench.blitz_bench import play
from engine.search.levels import LEVELS


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_each_level_plays_a_blitz_game_against_itself_without_flagging(level: int) -> None:
    game = play(level, (6_000, 200), seed=level, max_plies=50)
    assert game.flagged is None, f"level {level} flagged at ply {game.plies}"
    assert game.plies >= 20 or game.result != "*"


def test_the_computers_clock_counts_the_hands_time() -> None:
    from host.computer.turns import HANDLING_KEPT, ComputerClock

    clock = ComputerClock()
    assert clock.for_side("B") is None  # no game clock: the level's own time
    clock.clock_of = lambda side: (30_000.0, 1_000.0) if side == "B" else None
    first = clock.for_side("B")
    assert first is not None and (first.time_left_ms, first.increment_ms) == (30_000, 1_000)
    assert first.overhead_ms == 0  # nothing measured yet
    for took in [2.0, 4.0, 3.0] + [1.0] * HANDLING_KEPT:
        clock.lit(10.0)
        assert clock.waiting
        clock.carried_out(10.0 + took)
        assert not clock.waiting
    later = clock.for_side("B")
    assert later is not None and later.overhead_ms == 1000.0  # the median of the last few


def clock_recording_opponent():  # type: ignore[no-untyped-def]
    """A late-answering opponent (tests/host/test_computer_player.py) that keeps the clock
    each search was started with."""
    from tests.host.test_computer_player import LateOpponent

    late = LateOpponent()
    clocks: list = []
    start = late.start

    def recording_start(game, level, *, on_result=None, clock=None):  # type: ignore[no-untyped-def]
        clocks.append(clock)
        return start(game, level, on_result=on_result, clock=clock)

    late.start = recording_start  # type: ignore[method-assign]
    return late, clocks


def test_the_computer_player_hands_its_clock_to_the_search(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from host.computer.player import ComputerPlayer
    from tests.host.test_computer_player import final, runtime_for

    runtime = runtime_for(tmp_path)
    session = runtime.session
    late, clocks = clock_recording_opponent()
    computer = ComputerPlayer(session, lambda: late, post=lambda deliver: deliver(),
                              clock=lambda: 5.0)
    computer.time.clock_of = lambda side: (42_000.0, 2_000.0)
    position = session.game.position
    human = position.parse_move("c3-d4")
    session.observe(1.0, position.occupied() - {human.origin})
    session.observe(1.1, final(position, human))
    session.observe(2.0, final(position, human))
    assert computer.thinking and clocks[-1] is not None
    assert (clocks[-1].time_left_ms, clocks[-1].increment_ms) == (42_000.0, 2_000.0)


def test_on_a_timed_game_the_computer_thinks_by_the_game_clock(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A 1+1 game: the computer's search gets its clock as the board's clock shows it when
    its turn begins (its time runs from the person's move finished) and the increment."""
    from host.computer.player import ComputerPlayer
    from host.config import Config
    from host.session import Session
    from host.voice.announce import Announcer
    from tests.host.test_computer_player import final

    config = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False,
                    data_dir=tmp_path, white="human", black="computer:4", clock="1+1")
    session = Session(config, Announcer("en"), resume=False, now=0.0)
    late, clocks = clock_recording_opponent()
    now = [0.0]
    computer = ComputerPlayer(session, lambda: late, post=lambda deliver: deliver(),
                              clock=lambda: now[0])
    position = session.game.position
    human = position.parse_move("c3-d4")
    session.observe(0.5, position.occupied() - {human.origin})  # White's clock starts
    now[0] = 2.0
    session.observe(2.0, final(position, human))  # finished at 2.0
    now[0] = 3.0
    session.observe(3.0, final(position, human))  # proved: Black's time ran from 2.0
    assert computer.thinking and clocks[-1] is not None
    clock = clocks[-1]
    assert clock.increment_ms == 1000
    assert clock.time_left_ms == pytest.approx(59_000, abs=300)  # a second gone already
