"""The computer against itself on a blitz clock, through the real session: does it ever
lose on time?

Everything is the board's own code (the session with its recogniser and clock, the
computer player and its search worker) but the hands: when the computer's move is
lit, simulated hands carry it out as a blitz player would, with the measured human
timings of tests/host/hands/timing.py (`HUMAN`): a choice reaction to the lit move,
a reach and grasp at a skilled operator's pace, the piece carried (`blitz_air`), the
captured pieces taken off one by one (`blitz_removal_gap`). The search thinks in real
time; the hands' seconds are skipped on a virtual clock (the session's time is the
wall clock plus the skipped seconds), so a game costs only its thinking.

Used by tests/host/test_clock_computer.py (a few short games) and by `make bench`
(bench/clock_bench.py: 20 blitz games per level).
"""

from __future__ import annotations

import contextlib
import queue
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from host.computer.opponent import Opponent
from host.computer.player import ComputerPlayer
from host.config import Config
from host.session import Session
from host.voice.announce import Announcer

from .hands.timing import HUMAN

#: seconds from the move lit to its piece lifted: a choice reaction ([RT] 350-450 ms)
#: and a reach and grasp at 150 % ([MTM] R4B + G1A, 302 ms, over 1.5: 200 ms)
REACH = (0.55, 0.65)
#: seconds the piece is carried, and between two captured pieces taken off (HUMAN)
AIR = tuple(ms / 1000 for ms in HUMAN.blitz_air)
REMOVAL = tuple(ms / 1000 for ms in HUMAN.blitz_removal_gap)
#: the whole of a simple move, for the report
HANDS = (REACH[0] + AIR[0], REACH[1] + AIR[1])
#: how often the session is shown the (unchanged) board while the computer thinks
SCAN = 0.02


@dataclass
class BlitzGame:
    """How one game went: its end, its length, and the least time either side had left."""

    level: int
    plies: int
    result: str | None
    reason: str | None
    least_left_ms: float
    flagged: bool
    seconds: float  # real time the game took


class _Time:
    """The wall clock plus the hands' seconds skipped."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def now(self) -> float:
        return time.monotonic() + self.skipped


def play(
    level: int,
    control: str = "1+1",
    *,
    seed: int = 0,
    variant: str = "brazilian",
    max_plies: int | None = None,
    backend: str = "thread",
    folder: Path | None = None,
) -> BlitzGame:
    """One game of the computer at `level` against itself on `control`."""
    rng = random.Random(seed)
    folder = folder or Path(tempfile.mkdtemp(prefix="blitz-"))
    who = f"computer:{level}"
    config = Config(
        variant=variant, clock=control, white=who, black=who, speech=False, gestures=False,
        journal=folder / "journal.jsonl", games_dir=folder / "games", data_dir=folder,
    )
    clock = _Time()
    session = Session(config, Announcer("en"), resume=False, now=clock.now())
    posted: queue.Queue = queue.Queue()
    computer = ComputerPlayer(
        session, lambda: Opponent(backend=backend, seed=seed), post=posted.put, clock=clock.now
    )
    board = session.recogniser.expected
    least = float("inf")
    started = time.monotonic()

    def look() -> None:
        nonlocal least
        session.observe(clock.now(), board)
        state = session.game_clock.state(clock.now())
        if state is not None:
            least = min(least, float(state["white"]), float(state["black"]))

    def hands(seconds: float) -> None:
        clock.skipped += seconds
        look()

    try:
        computer.start()
        while session.recogniser.outcome is None:
            if max_plies is not None and len(session.game.moves) >= max_plies:
                break
            while computer.move is None and session.recogniser.outcome is None:
                with contextlib.suppress(queue.Empty):
                    posted.get(timeout=SCAN)()
                look()
            move = computer.move
            if move is None:
                break
            hands(rng.uniform(*REACH))
            board = board - {move.origin}
            look()  # the lift is seen as it happens, not only when the piece comes down
            hands(rng.uniform(*AIR))
            board = board | {move.destination}
            for square in sorted(move.captures):
                hands(rng.uniform(*REMOVAL))
                board = board - {square}
            look()
            before = len(session.game.moves)
            for _ in range(100):  # the board proves the move once it has stayed
                hands(0.05)
                if len(session.game.moves) != before or session.recogniser.outcome:
                    break
    finally:
        computer.close()
    outcome = session.recogniser.outcome
    return BlitzGame(
        level=level,
        plies=len(session.game.moves),
        result=None if outcome is None else (outcome.winner or "draw"),
        reason=None if outcome is None else outcome.reason,
        least_left_ms=least,
        flagged=outcome is not None and outcome.reason == "time",
        seconds=time.monotonic() - started,
    )
