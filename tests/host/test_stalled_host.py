"""A host that stalls (a slow step, an SD card's fsync, a garbage collection, a Pi Zero 2
under load) reads the switches late: a change is known only to have happened between
the last read without it and the read that saw it. A hand's move read late is still a
move; a push read on time is still a push (costs.CARRY, docs/play.md)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest
from hands.score import generate, judge, run_scenario
from replaykit import fens, moves, notices, run

from engine import Game, get_variant
from hardware.base import Snapshot
from hardware.board import Board
from hardware.layout import standard_layout
from hardware.mock import MockBoard
from host.config import Config
from host.live.board import LiveBoard
from host.live.runtime import Runtime
from host.recognition import costs
from host.recognition.recogniser import Recogniser
from host.session import Session
from host.voice.announce import Announcer

BRAZILIAN = get_variant("brazilian")
START = BRAZILIAN.initial_position().occupied()
#: the longest a test waits for the runtime (only a hung test waits that long)
PATIENCE = 20.0


def recogniser() -> Recogniser:
    return Recogniser(Game(BRAZILIAN), start=0.0)


# -- the model ------------------------------------------------------------------------------


def test_a_move_read_in_one_late_scan_is_a_move() -> None:
    # The host read the board at 1.00 s, stalled, and read it again at 1.30 s: the piece
    # had left 22 and come down on 18 meanwhile. Read at one instant, a carry looks
    # impossible; between the two reads there was time for a hand.
    rec = recogniser()
    rec.observe(1.0, START)
    rec.observe(1.3, START - {22} | {18}, since=1.0)
    rec.tick(2.0)
    assert [(m.origin, m.destination) for m in rec.game.moves] == [(22, 18)]


def test_a_lift_read_before_a_stall_and_its_landing_after_it_is_a_move() -> None:
    # The debounced board: a change counts on the second read that shows it. The lift was
    # first read at 1.00 s (the read before, at 0.99 s, still showed the piece); the host
    # stalled; the read at 1.30 s accepted the lift and first saw the landing, the read at
    # 1.31 s accepted the landing (the last read without it: 1.00 s). Stamped 10 ms
    # apart, they may have been 320 ms apart.
    rec = recogniser()
    rec.observe(0.98, START)
    rec.observe(1.3, START - {22}, since=0.99)
    rec.observe(1.31, START - {22} | {18}, since=1.0)
    rec.tick(2.0)
    assert [(m.origin, m.destination) for m in rec.game.moves] == [(22, 18)]


def test_a_push_read_on_time_is_still_a_push() -> None:
    # The same switches read on time, a scan apart: the piece arrived within 30 ms of
    # leaving its square at the most. No hand carries a piece that fast: it was pushed.
    rec = recogniser()
    rec.observe(0.98, START)
    rec.observe(1.0, START - {22}, since=0.98)
    rec.observe(1.01, START - {22} | {18}, since=0.99)
    rec.tick(2.5)
    assert rec.game.moves == []
    rec.tick(5.0)
    assert rec.correcting  # left standing: "the board is wrong"
    assert rec.game.moves == []


@pytest.mark.parametrize("touch_move", [False, True])
def test_a_stall_is_no_evidence_that_a_piece_rested(touch_move: bool) -> None:
    # c3 comes down on d4 (legal) and is read there on time; the host then stalls
    # 400 ms and reads the board unchanged: the hand may have hovered and come back
    # meanwhile. Counted across the stall, the piece "stood" past SETTLE and 22-18 would
    # be committed; counted from the late read, it has not. It goes on to b4.
    rec = Recogniser(Game(BRAZILIAN), start=0.0, touch_move=touch_move)
    rec.observe(0.98, START)
    rec.observe(1.0, START - {22}, since=0.98)
    rec.observe(1.2, START - {22} | {18}, since=1.18)
    rec.observe(1.21, START - {22} | {18}, since=1.19)
    rec.observe(1.61, START - {22} | {18}, since=1.2)  # read late: unchanged
    assert rec.game.moves == []
    events = rec.observe(1.65, START - {22} | {17}, since=1.63)
    events += rec.tick(2.5)
    assert [(m.origin, m.destination) for m in rec.game.moves] == [(22, 17)]
    assert not [e for e in events if e.kind == "move-corrected"]


def test_a_slow_scanner_still_commits_a_move_that_stands() -> None:
    # A loaded host reading every 30 ms (each snapshot's changes after the read two
    # before, as the debounced board says): no read is a stall, so the move that stands
    # is committed as on a fast scanner, a quarter second after it lands.
    rec = recogniser()
    reads = [round(1.0 + 0.03 * i, 2) for i in range(40)]
    for before, then in zip([0.94, 0.97, *reads], reads, strict=False):
        board = START if then < 1.1 else START - {22} if then < 1.3 else START - {22} | {18}
        rec.observe(then, board, since=before)
        if rec.game.moves:
            break
    assert [(m.origin, m.destination) for m in rec.game.moves] == [(22, 18)]
    assert rec.now <= 1.3 + costs.SETTLE + 0.06


def test_a_stream_says_when_the_switches_were_last_read() -> None:
    # `replay` reads "since" from a stream: a landing stamped 10 ms after the lift is a
    # push when the reads were on time, and a move when the host had stalled.
    on_time = [
        {"t": 1000, "lift": 22, "since": 980},
        {"t": 1010, "place": 18, "since": 990},
    ]
    late = [  # (first read at 1000, the host stalled, accepted at 1300)
        {"t": 1300, "lift": 22, "since": 990},
        {"t": 1310, "place": 18, "since": 1000},
    ]
    assert moves(run("brazilian", on_time)) == []
    assert len(notices(run("brazilian", on_time), "illegal-board")) == 1
    assert [m["fen"] for m in moves(run("brazilian", late))] == fens(
        "brazilian", BRAZILIAN.initial_fen(), "c3-d4"
    )


# -- the board says when it last read the switches --------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def test_a_snapshot_says_the_last_read_that_did_not_show_its_change() -> None:
    clock = Clock()
    mock = MockBoard()
    board = Board(mock, standard_layout(8), clock=clock, sleep=lambda s: None)
    mock.set_occupied({5})
    seen: list[Snapshot] = []
    for _ in range(3):
        seen.append(board.poll())
        clock.now += 0.01
    assert seen[1].occupied == frozenset({5}) and seen[0].since is None
    mock.lift(5)
    raw_seen = board.poll()  # 10.03: read, not yet accepted (two reads must agree)
    clock.now += 0.3  # the host stalls
    accepted = board.poll()
    assert raw_seen.occupied == frozenset({5})
    assert accepted.occupied == frozenset() and accepted.time == 10.33
    assert accepted.since == 10.02  # the last read that showed the piece still there


# -- through the runtime --------------------------------------------------------------------------


def live(tmp_path: Path) -> Runtime:
    """A runtime on the simulator, answering as a real board does: the test moves the
    magnets itself, between the runtime's reads."""
    board = LiveBoard("sim", BRAZILIAN)
    occupied = board.set_up(START)
    board.simulated = False
    config = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False)
    session = Session(config, Announcer("en"), resume=False, now=time.monotonic(),
                      occupied=occupied)
    return Runtime(session, board)


async def until(check, timeout: float = PATIENCE) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_host_that_stalls_between_reading_a_lift_and_its_landing_plays_the_move(
    tmp_path: Path,
) -> None:
    runtime = live(tmp_path)
    board = runtime.board
    magnets = board.board.backend
    assert isinstance(magnets, MockBoard)
    c3, d4 = board.squares.to_hardware_map[22], board.squares.to_hardware_map[18]
    read = board.read
    stalled: list[float] = []

    def stalling_read() -> Snapshot:
        """The runtime's read; the first time it reads c3 lifted (before the debouncer
        has accepted it), the host is busy 300 ms, and the hand lands on d4 meanwhile."""
        snapshot = read()
        if not stalled and c3 not in board.board.last_raw and 22 in snapshot.occupied:
            stalled.append(snapshot.time)
            time.sleep(0.15)  # (blocking: the whole loop is busy)
            magnets.place(d4)
            time.sleep(0.15)
        return snapshot

    board.read = stalling_read  # type: ignore[method-assign]

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await until(lambda: runtime.session.recogniser.now > 0)
        magnets.lift(c3)
        await until(lambda: len(runtime.session.game.moves) == 1)
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(task, PATIENCE)

    asyncio.run(play())
    assert stalled, "the host never stalled"
    assert runtime.state()["moves"] == ["c3-d4"]


def test_a_piece_pushed_on_read_on_time_by_the_runtime_is_no_move(tmp_path: Path) -> None:
    # The runtime's own scan (switches, debouncer, session, recogniser), its reads made on
    # time every 10 ms by a clock the test keeps (a loaded machine would read late, and
    # then a push may honestly have been a carry).
    runtime = live(tmp_path)
    board = runtime.board
    magnets = board.board.backend
    assert isinstance(magnets, MockBoard)
    c3, d4 = board.squares.to_hardware_map[22], board.squares.to_hardware_map[18]
    clock = Clock()
    clock.now = time.monotonic()
    board.board._clock = clock  # (the reads' clock)

    def scan_for(seconds: float) -> None:
        for _ in range(round(seconds / 0.01)):
            clock.now += 0.01
            runtime._scan_once()

    scan_for(0.05)
    magnets.knock(c3, onto=d4)  # between two reads: it arrives as it leaves
    scan_for(1.0)
    assert runtime.session.game.moves == []
    scan_for(costs.GRACE)  # left standing: a wrong board to put right, never a move
    assert runtime.session.recogniser.correcting
    assert runtime.state()["moves"] == []


def test_a_late_read_of_the_end_of_a_move_and_the_start_of_a_reply_is_followed() -> None:
    # From `python -m hands --family blitz` (seed 5006 in Brazilian, the default busy
    # host): after a stall of 0.3 s one read holds three lifts and two landings, the end
    # of one ply and the start of the next. Only an order that interleaves them explains
    # it (tried as lifts then landings, or landings then lifts, the ply is never
    # committed): a late read of up to SWEEP changes is tried in every order.
    scenario = generate("blitz", "brazilian", "5006")
    per_read: dict[tuple[int, int], int] = {}
    for event in scenario.events:
        if "since" in event and ("lift" in event or "place" in event):
            key = (event["t"], event["since"])
            per_read[key] = per_read.get(key, 0) + 1
    late = [n for (t, since), n in per_read.items() if t - since > 1000 * costs.TOGETHER]
    assert max(late) >= 5  # the stream still holds the read it was kept for
    tally = judge(scenario, run_scenario(scenario))
    assert tally.clean, tally
