"""The computer opponent's worker: runs one search request and says what it found.

Why a module of its own: the worker process (`python -m host.computer.worker`)
imports only this and the engine, so it starts small on a 512 MB Pi, and the
thread backend runs the very same `Worker`, so both backends choose moves
identically. Requests and replies are plain data (ints, tuples, dataclasses
of ints), pickled over a pipe the host opened for the purpose.

Memory stays flat whatever is played: the worker keeps one transposition
table (2^`TABLE_BITS` slots) for every variant, cleared when the variant
changes, and one searcher, for the variant of the last request.

Time is counted from when the host asked: a request carries the moment it
was made (`time.monotonic()`, the same clock in both processes), so the time
it waited for the worker (starting up, finishing a cancelled search) comes
out of its budget, and its hard limit is never passed.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from engine import get_variant
from engine.search.levels import HINT, MIN_SECONDS, Level, choose, get_level
from engine.search.searcher import RawMove, RawResult, RootState, Searcher, SearchOptions
from engine.search.table import TranspositionTable

TABLE_BITS = 16  # 2^16 slots: about 7 MB when full, one table whatever the variant
# The worker yields the CPU to the board loop when they share a core.
SEARCH_NICENESS = 0


@dataclass(frozen=True)
class Request:
    job: int
    variant: str
    root: RootState
    level: int  # 1..4, or 0 for a hint
    time_limit: float  # seconds from `asked`: the budget
    seed: int
    new_game: bool = False  # forget what earlier searches learned (a new game began)
    asked: float | None = None  # time.monotonic() when the host asked (None: at arrival)
    hard_limit: float | None = None  # seconds from `asked` never passed (None: no such)


@dataclass(frozen=True)
class Prepare:
    """Get ready for `variant` before any search: build its searcher, touch its code."""

    variant: str


@dataclass(frozen=True)
class Reply:
    job: int
    chosen: RawMove | None  # the move the level plays (the best one for a hint)
    result: RawResult | None
    error: str | None = None


def level_of(number: int) -> Level:
    return HINT if number == 0 else get_level(number)


class Worker:
    """One table for every variant and the searcher of the current one."""

    def __init__(self, table_bits: int = TABLE_BITS) -> None:
        self.table = TranspositionTable(table_bits)
        self.searcher: Searcher | None = None

    def prepare(self, variant_name: str) -> bool:
        """Make the searcher for `variant_name` (clearing the table if the variant
        changed); True if it was ready already (warm)."""
        if self.searcher is not None and self.searcher.variant.name == variant_name:
            return True
        variant = get_variant(variant_name)
        self.searcher = None
        self.table.clear()  # another variant's entries would be read as this one's
        searcher = Searcher(variant, table=self.table, clock=time.monotonic)
        start = variant.initial_position()  # a first tiny search loads what search needs
        searcher.search(RootState(start.white, start.black, start.kings,
                                  start.turn == "W"), SearchOptions(max_depth=1))
        self.searcher = searcher
        return False

    def run_request(self, request: Request, stop: Callable[[], bool]) -> Reply:
        try:
            self.prepare(request.variant)
            searcher = self.searcher
            assert searcher is not None
            if request.new_game:
                searcher.new_game()
            level = level_of(request.level)
            asked = request.asked if request.asked is not None else time.monotonic()
            waited = max(0.0, time.monotonic() - asked)
            deadline = asked + request.hard_limit if request.hard_limit is not None else None
            options: SearchOptions = level.options(
                max(MIN_SECONDS, request.time_limit - waited),
                reply_at_once=request.level != 0, deadline=deadline)
            result = searcher.search(request.root, options, stop=stop)
            chosen = choose(result, level, random.Random(request.seed))
            return Reply(request.job, chosen, result)
        except Exception as error:  # noqa: BLE001 - reported to the caller, never lost
            return Reply(request.job, None, None, f"{type(error).__name__}: {error}")


def send_message(stream: BinaryIO, message: object) -> None:
    """One pickled message, preceded by its length (4 bytes, big-endian)."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(4, "big") + data)
    stream.flush()


def receive_message(stream: BinaryIO) -> object | None:
    """The next message, or None at the end of the stream."""
    header = stream.read(4)
    if len(header) < 4:
        return None
    data = stream.read(int.from_bytes(header, "big"))
    return pickle.loads(data)


def main(argv: list[str] | None = None) -> int:
    """The worker process: `python -m host.computer.worker READ_FD WRITE_FD STOP_FD`.

    Requests arrive on READ_FD and each gets `("started", job, warm)` then a
    `Reply` on WRITE_FD (`warm`: its variant's searcher was built before it
    came, so no start-up counts in its time); a `Prepare` gets
    `("ready", variant, warm)`. STOP_FD is an 8-byte shared file the host writes a job
    number into: every job at or below it stops. The running search reads it
    at each check, with no system call and no thread to wake, so a cancel
    lands within a few nodes. The process ends when the host closes the pipe.
    """
    args = sys.argv[1:] if argv is None else argv
    incoming = os.fdopen(int(args[0]), "rb")
    outgoing = os.fdopen(int(args[1]), "wb")
    stop_flag = StopFlag(int(args[2]))
    with contextlib.suppress(OSError):
        os.nice(SEARCH_NICENESS)
    worker = Worker()
    while True:
        try:
            request = receive_message(incoming)
        except (OSError, EOFError, pickle.UnpicklingError):
            return 0
        try:
            if isinstance(request, Prepare):
                try:
                    warm = worker.prepare(request.variant)
                except Exception:  # noqa: BLE001 - a search request will report it
                    warm = False
                send_message(outgoing, ("ready", request.variant, warm))
                continue
            if not isinstance(request, Request):
                return 0
            job = request.job
            warm = worker.searcher is not None and (
                worker.searcher.variant.name == request.variant)
            send_message(outgoing, ("started", job, warm))
            reply = worker.run_request(request, _stopped_at(stop_flag, job))
            send_message(outgoing, reply)
        except (BrokenPipeError, OSError):
            return 0


def _stopped_at(flag: StopFlag, job: int) -> Callable[[], bool]:
    """Whether the host has stopped `job` (or any later one) by now."""
    return lambda: flag.value >= job


class StopFlag:
    """An int shared by the host and its worker through a mapped 8-byte file."""

    SIZE = 8

    def __init__(self, fd: int) -> None:
        self._map = mmap.mmap(fd, self.SIZE)

    @classmethod
    def create(cls) -> tuple[StopFlag, int]:
        """A new flag (value 0) and the descriptor to hand to the worker."""
        handle = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the mapping
        handle.truncate(cls.SIZE)
        fd = os.dup(handle.fileno())
        handle.close()
        return cls(fd), fd

    @property
    def value(self) -> int:
        return int.from_bytes(self._map[:self.SIZE], "little")

    @value.setter
    def value(self, number: int) -> None:
        self._map[:self.SIZE] = number.to_bytes(self.SIZE, "little")

    def close(self) -> None:
        self._map.close()


if __name__ == "__main__":
    # Run the module's own `main` (not this `__main__` copy), so the replies pickle as
    # host.computer.worker.Reply, the class the host unpickles them into.
    from host.computer.worker import main as worker_main

    sys.exit(worker_main())
