"""The computer opponent's worker: runs one search request and says what it found.

Why a module of its own: the worker process (`python -m host.opponent_worker`)
imports only this and the engine, so it starts small on a 512 MB Pi, and the
thread backend runs the very same `run_request`, so both backends choose
moves identically. Requests and replies are plain data (ints, tuples,
dataclasses of ints), pickled over a pipe the host opened for the purpose.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from engine import get_variant
from engine.search.levels import HINT, Level, choose, get_level
from engine.search.searcher import RawMove, RawResult, RootState, Searcher, SearchOptions

TABLE_BITS = 16  # 2^16 slots: about 7 MB when full
# The worker yields the CPU to the board loop when they share a core.
SEARCH_NICENESS = 0


@dataclass(frozen=True)
class Request:
    job: int
    variant: str
    root: RootState
    level: int  # 1..4, or 0 for a hint
    time_limit: float
    seed: int
    new_game: bool = False  # forget what earlier searches learned (a new game began)


@dataclass(frozen=True)
class Reply:
    job: int
    chosen: RawMove | None  # the move the level plays (the best one for a hint)
    result: RawResult | None
    error: str | None = None


def level_of(number: int) -> Level:
    return HINT if number == 0 else get_level(number)


class Worker:
    """One searcher per variant, kept between requests so its table carries over."""

    def __init__(self) -> None:
        self.searchers: dict[str, Searcher] = {}

    def run_request(self, request: Request, stop: Callable[[], bool]) -> Reply:
        try:
            searcher = self.searchers.get(request.variant)
            if searcher is None:
                searcher = Searcher(get_variant(request.variant), table_bits=TABLE_BITS)
                self.searchers[request.variant] = searcher
            if request.new_game:
                searcher.new_game()
            level = level_of(request.level)
            options: SearchOptions = level.options(request.time_limit,
                                                   reply_at_once=request.level != 0)
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
    """The worker process: `python -m host.opponent_worker READ_FD WRITE_FD STOP_FD`.

    Requests arrive on READ_FD and each gets `("started", job)` then a `Reply`
    on WRITE_FD. STOP_FD is an 8-byte shared file the host writes a job
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
        if not isinstance(request, Request):
            return 0
        job = request.job
        try:
            send_message(outgoing, ("started", job))
            reply = worker.run_request(request, stop_flag.stops(job))
            send_message(outgoing, reply)
        except (BrokenPipeError, OSError):
            return 0


class StopFlag:
    """An int shared by the host and its worker through a mapped 8-byte file."""

    def stops(self, job: int) -> Callable[[], bool]:
        """A check for the search of `job`: has the host asked it to stop?"""
        return lambda: self.value >= job

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
    # host.opponent_worker.Reply, the class the host unpickles them into.
    from host.opponent_worker import main as worker_main

    sys.exit(worker_main())
