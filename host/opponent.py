"""The computer opponent, run off the caller's loop: `start`, `cancel`, a result later.

Why off the loop: a search takes seconds, and the LEDs and reed switches must
not wait for it. The search runs in a worker *process* by default: on a
Raspberry Pi Zero 2 (four cores) it then has a core to itself and never
holds the interpreter lock the board loop needs (docs/BENCHMARKS.md has the
poll-loop latency under both backends and the worker's memory). A *thread*
backend runs the same code where a process cannot be started.

    opponent = Opponent()                    # starts the worker
    job = opponent.start(game, level=3)      # returns at once
    job.result(timeout=10)                   # ComputerMove, or None if cancelled
    await job                                # the same, from asyncio
    opponent.start(game, 3, on_result=callback)  # called from the worker's thread
    opponent.cancel()                        # takeback, new game, a changed board
    opponent.hint(game)                      # the best move in at most 2 s

Cancelling resolves the job at once (result None, no callback) and the
worker lets go of it within a few milliseconds (`job.wait_stopped`); a new
`start` cancels the job before it. Each `start` is searched from the game as
it is then (history and draw counters included); a later change to the
`Game` object does not reach a search already running.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Generator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Game, Move, Position
from engine.search.api import Analysis, publish, root_from_game, to_public
from engine.search.levels import HINT, Clock, think_time
from host.opponent_worker import (
    Reply,
    Request,
    StopFlag,
    Worker,
    level_of,
    receive_message,
    send_message,
)

HINT_SECONDS = 2.0
_PROJECT_ROOT = str(Path(__file__).resolve().parent.parent)


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
    def _resolve(self, value: ComputerMove | None) -> bool:
        """Settle the job with `value`; False if it was settled already (e.g. cancelled)."""
        with self._settling:
            if self._future.done():
                return False
            self._future.set_result(value)
            return True

    def _fail(self, message: str) -> None:
        with self._settling:
            if not self._future.done():
                self._future.set_exception(OpponentError(message))


def _deliver(job: SearchJob, reply: Reply) -> None:
    """Turn a worker's reply into the job's result (in the backend's thread)."""
    try:
        if job.cancelled:
            return
        if reply.error is not None or reply.result is None or reply.chosen is None:
            job._fail(reply.error or "the search found no move")
            return
        computer = ComputerMove(to_public(job.position, reply.chosen),
                                publish(job.position, reply.result), job.level)
        if job._resolve(computer) and job.on_result is not None:  # not if cancelled meanwhile
            job.on_result(computer)
    finally:
        job._released.set()


class _ThreadBackend:
    """Searches in one daemon thread, one request at a time."""

    name = "thread"

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[SearchJob, Request, threading.Event] | None] = (
            queue.Queue())
        self._stops: dict[int, threading.Event] = {}
        self._worker = Worker()
        self._thread = threading.Thread(target=self._loop, name="opponent-search", daemon=True)
        self._thread.start()

    def alive(self) -> bool:
        return self._thread.is_alive()

    def submit(self, job: SearchJob, request: Request) -> None:
        stop = threading.Event()
        self._stops[job.id] = stop
        self._requests.put((job, request, stop))

    def stop(self, job: SearchJob) -> None:
        stop = self._stops.get(job.id)
        if stop is not None:
            stop.set()

    def _loop(self) -> None:
        while True:
            item = self._requests.get()
            if item is None:
                return
            job, request, stop = item
            try:
                if stop.is_set():
                    continue
                job._started.set()
                _deliver(job, self._worker.run_request(request, stop.is_set))
            finally:
                self._stops.pop(job.id, None)
                job._released.set()

    def close(self) -> None:
        for stop in list(self._stops.values()):
            stop.set()
        self._requests.put(None)
        self._thread.join(timeout=1.0)


class _ProcessBackend:
    """Searches in a worker process (`python -m host.opponent_worker`) over two pipes.

    A plain subprocess rather than `multiprocessing`: it needs no guarded
    `__main__` in whatever program embeds the opponent, and the child imports
    the engine alone. A reader thread here delivers the replies.
    """

    name = "process"

    def __init__(self) -> None:
        to_child_read, to_child_write = os.pipe()
        from_child_read, from_child_write = os.pipe()
        self._stop_flag, stop_fd = StopFlag.create()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "host.opponent_worker", str(to_child_read),
                 str(from_child_write), str(stop_fd)],
                pass_fds=(to_child_read, from_child_write, stop_fd), stdin=subprocess.DEVNULL,
                cwd=_PROJECT_ROOT, env={**os.environ, "PYTHONPATH": _python_path()})
        finally:
            for fd in (to_child_read, from_child_write, stop_fd):
                os.close(fd)
        self._to_child = os.fdopen(to_child_write, "wb")
        self._from_child = os.fdopen(from_child_read, "rb")
        self._jobs: dict[int, SearchJob] = {}
        self._lock = threading.Lock()
        # set by the reader when the worker's replies end: from then on the worker is
        # lost even if the kernel has not reaped it yet (poll() would still say alive)
        self._lost = threading.Event()
        self._reader = threading.Thread(target=self._read, name="opponent-replies", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self._process.pid

    def alive(self) -> bool:
        return not self._lost.is_set() and self._process.poll() is None

    def submit(self, job: SearchJob, request: Request) -> None:
        with self._lock:
            if self._lost.is_set():  # no reader left to answer it: fail it now, never hang
                job._fail("the search process stopped")
                job._released.set()
                return
            self._jobs[job.id] = job
            try:
                send_message(self._to_child, request)
            except (BrokenPipeError, OSError, ValueError) as error:
                self._jobs.pop(job.id, None)
                job._fail(f"the search process is gone ({error})")
                job._released.set()

    def stop(self, job: SearchJob) -> None:
        with self._lock:
            if self._stop_flag.value < job.id:
                self._stop_flag.value = job.id

    def _read(self) -> None:
        while True:
            try:
                reply = receive_message(self._from_child)
            except Exception:  # noqa: BLE001 - a broken pipe or a garbled reply: worker lost
                reply = None
            if isinstance(reply, tuple) and reply[:1] == ("started",):
                with self._lock:
                    started = self._jobs.get(reply[1])
                if started is not None:
                    started._started.set()
                continue
            if not isinstance(reply, Reply):
                break
            with self._lock:
                job = self._jobs.pop(reply.job, None)
            if job is not None:
                _deliver(job, reply)
        with self._lock:  # the worker died: nothing pending will ever be answered
            self._lost.set()
            pending, self._jobs = list(self._jobs.values()), {}
        for job in pending:
            job._fail("the search process stopped")
            job._released.set()

    def close(self) -> None:
        with self._lock, contextlib.suppress(OSError, ValueError):
            self._to_child.close()  # the worker ends when its input closes
        try:
            self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=1.0)
        self._reader.join(timeout=1.0)
        with contextlib.suppress(OSError):
            self._from_child.close()
        self._stop_flag.close()


def _python_path() -> str:
    """The child must import this very checkout, whatever the caller's sys.path."""
    existing = os.environ.get("PYTHONPATH")
    return _PROJECT_ROOT + (os.pathsep + existing if existing else "")


class Opponent:
    """A computer player for any variant: one search at a time, off the caller's thread.

    `backend`: "process" (default), "thread", or "auto" (a process, or a thread
    where a process cannot be started). `seed` makes the weaker levels' choices
    repeatable; by default they differ from game to game.
    """

    def __init__(self, backend: str = "auto", seed: int | None = None) -> None:
        if backend not in ("auto", "process", "thread"):
            raise ValueError(f"unknown opponent backend {backend!r}")
        self._backend_choice = backend
        self.backend = self._start_backend()
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        self._ids = itertools.count(1)
        self._current: SearchJob | None = None
        self._fresh = True
        self._lock = threading.Lock()

    def start(self, game: Game, level: int, *, clock: Clock | None = None,
              on_result: Callable[[ComputerMove], None] | None = None) -> SearchJob:
        """Search for the move `level` (1-4) plays in `game`; returns at once."""
        chosen = level_of(level)  # ValueError for a level that does not exist
        if level == 0:
            raise ValueError("level 0 is the hint; call hint()")
        return self._submit(game, level, think_time(chosen, clock), on_result)

    def hint(self, game: Game, seconds: float = HINT_SECONDS,
             on_result: Callable[[ComputerMove], None] | None = None) -> SearchJob:
        """The best move for the side to move, found in at most `seconds`."""
        return self._submit(game, 0, min(seconds, HINT.move_time * 5), on_result)

    def cancel(self) -> None:
        """Stop the running search (if any): its job resolves to None, no callback."""
        with self._lock:
            job = self._current
        if job is not None:
            self._cancel(job)

    def new_game(self) -> None:
        """Forget what the search learned: the next position is from another game."""
        self._fresh = True

    def close(self) -> None:
        self.cancel()
        self.backend.close()

    def __enter__(self) -> Opponent:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _start_backend(self) -> _ThreadBackend | _ProcessBackend:
        if self._backend_choice == "thread":
            return _ThreadBackend()
        try:
            return _ProcessBackend()
        except OSError:
            if self._backend_choice == "process":
                raise
            return _ThreadBackend()

    def _submit(self, game: Game, level: int, seconds: float,
                on_result: Callable[[ComputerMove], None] | None) -> SearchJob:
        if game.outcome() is not None:
            raise ValueError("the game is over: there is no move to search")
        self.cancel()
        if not self.backend.alive():  # the worker died (killed, out of memory): a new one
            self.backend.close()
            self.backend = self._start_backend()
            self._fresh = True
        job_id = next(self._ids)
        job = SearchJob(job_id, game.position, level, on_result, self._cancel)
        request = Request(job=job_id, variant=game.variant.name, root=root_from_game(game),
                          level=level, time_limit=seconds,
                          seed=self._move_seed(game),
                          new_game=self._fresh)
        self._fresh = False
        with self._lock:
            self._current = job
        self.backend.submit(job, request)
        return job

    def _move_seed(self, game: Game) -> int:
        """A seed per game and position, the same in every run (no salted str hash)."""
        position = game.position
        return (self._seed * 1_000_003 + game.ply * 7919 + (position.white ^ position.black)
                ) & 0x7FFFFFFF

    def _cancel(self, job: SearchJob) -> None:
        job.cancelled = True
        job._resolve(None)
        self.backend.stop(job)
        with self._lock:
            if self._current is job:
                self._current = None
