"""One search asked of the computer opponent: the job a caller waits on, and its result.

Why apart from the backends: a job is settled from several threads (the
backend's reader delivers it, the caller cancels it), and both backends
settle it the same way; this module is that one way. The first to settle a
job wins: a cancelled job never calls back, even if its reply arrives.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Generator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from engine import Move, Position
from engine.search.api import Analysis, publish, to_public
from host.computer.worker import Reply


class OpponentError(RuntimeError):
    """The search failed or its worker died; the message says why."""


@dataclass(frozen=True)
class ComputerMove:
    move: Move  # the move the level plays
    analysis: Analysis  # what the search saw: best move, score, depth, line
    level: int  # 1..4, or 0 for a hint


class SearchJob:
    """One search in flight: wait for it, await it, or cancel it."""

    def __init__(self, job_id: int, position: Position, level: int,
                 on_result: Callable[[ComputerMove], None] | None,
                 cancel: Callable[[SearchJob], None]) -> None:
        self.id = job_id
        self.position = position
        self.level = level
        self.on_result = on_result
        self.cancelled = False
        #: set when the worker begins it: whether the worker was ready for its variant
        #: already (True: nothing was started or built in this search's time)
        self.warm: bool | None = None
        self._cancel = cancel
        self._future: Future[ComputerMove | None] = Future()
        self._future.set_running_or_notify_cancel()
        self._settling = threading.Lock()
        self._started = threading.Event()  # the worker has begun searching it
        self._released = threading.Event()  # the worker has finished or dropped the job

    def cancel(self) -> None:
        self._cancel(self)

    def done(self) -> bool:
        return self._future.done()

    def result(self, timeout: float | None = None) -> ComputerMove | None:
        """The move (None if cancelled); raises TimeoutError, or OpponentError on failure."""
        return self._future.result(timeout)

    def wait_started(self, timeout: float | None = None) -> bool:
        """Whether the worker began this search within `timeout` seconds."""
        return self._started.wait(timeout)

    def wait_stopped(self, timeout: float | None = None) -> bool:
        """Whether the worker let go of the job within `timeout` seconds."""
        return self._released.wait(timeout)

    def __await__(self) -> Generator[Any, None, ComputerMove | None]:
        return asyncio.wrap_future(self._future).__await__()

    # called by the backends and by cancel, from different threads: the first wins
    def began(self, warm: bool) -> None:
        self.warm = warm
        self._started.set()

    def released(self) -> None:
        self._released.set()

    def resolve(self, value: ComputerMove | None) -> bool:
        """Settle the job with `value`; False if it was settled already (e.g. cancelled)."""
        with self._settling:
            if self._future.done():
                return False
            self._future.set_result(value)
            return True

    def fail(self, message: str) -> None:
        with self._settling:
            if not self._future.done():
                self._future.set_exception(OpponentError(message))


def deliver(job: SearchJob, reply: Reply) -> None:
    """Turn a worker's reply into the job's result (in the backend's thread)."""
    try:
        if job.cancelled:
            return
        if reply.error is not None or reply.result is None or reply.chosen is None:
            job.fail(reply.error or "the search found no move")
            return
        computer = ComputerMove(to_public(job.position, reply.chosen),
                                publish(job.position, reply.result), job.level)
        if job.resolve(computer) and job.on_result is not None:  # not if cancelled meanwhile
            job.on_result(computer)
    finally:
        job.released()
