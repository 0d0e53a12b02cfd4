"""The computer opponent, run off the caller's loop: `start`, `cancel`, a result later.

Why off the loop: a search takes seconds, and the LEDs and reed switches must
not wait for it. The search runs in a worker *process* by default: on a
Raspberry Pi Zero 2 (four cores) it then has a core to itself and never
holds the interpreter lock the board loop needs (docs/BENCHMARKS.md has the
poll-loop latency under both backends and the worker's memory). A *thread*
backend runs the same code where a process cannot be started
(host/computer/backends.py).

    opponent = Opponent()                    # starts the worker; returns at once
    opponent.prepare("brazilian")            # imports and builds ahead of the first move
    job = opponent.start(game, level=3)      # returns at once
    job.result(timeout=10)                   # ComputerMove, or None if cancelled
    await job                                # the same, from asyncio
    opponent.start(game, 3, on_result=callback)  # called from the worker's thread
    opponent.start(game, 3, clock=Clock(time_left_ms, increment_ms))  # on a game clock
    opponent.cancel()                        # takeback, new game, a changed board
    opponent.hint(game)                      # the best move in at most 2 s

Time: a move's time runs from `start`, not from when the worker gets to
it: a worker still starting up or letting go of a cancelled search takes
its time out of the move's, and the move's limit (the level's time, or on a
clock `engine.search.levels.time_for_move` with `hard_limit` as the stop
never passed) is kept whatever happened first. Without a clock the search's
first iteration (milliseconds) always completes, so a move is always
searched. `prepare` when a game with the computer begins, so the first move
spends its time searching.

Cancelling resolves the job at once (result None, no callback) and the
worker lets go of it within a few milliseconds (`job.wait_stopped`); a new
`start` cancels the job before it. Each `start` is searched from the game as
it is then (history and draw counters included); a later change to the
`Game` object does not reach a search already running.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable

from engine import Game, Variant, get_variant
from engine.search.api import root_from_game
from engine.search.levels import HINT, Clock, hard_limit, think_time
from host.computer.backends import ProcessBackend, ThreadBackend
from host.computer.jobs import ComputerMove, OpponentError, SearchJob
from host.computer.worker import Request, level_of

__all__ = ["HINT_SECONDS", "Clock", "ComputerMove", "Opponent", "OpponentError", "SearchJob"]

HINT_SECONDS = 2.0


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
        self.backend: ThreadBackend | ProcessBackend = self._start_backend()
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        self._ids = itertools.count(1)
        self._current: SearchJob | None = None
        self._fresh = True
        self._prepared: str | None = None
        self._lock = threading.Lock()

    def prepare(self, variant: Variant | str) -> None:
        """Get the worker ready for `variant` now (started, the engine imported, the
        search built), so that the first move's time goes to searching. Returns at once;
        asking again for the same variant does nothing."""
        name = get_variant(variant).name
        self._revive()
        if self._prepared != name:
            self._prepared = name
            self.backend.prepare(name)

    def wait_ready(self, variant: Variant | str, timeout: float | None = None) -> bool:
        """Whether the worker reported itself ready for `variant` within `timeout` s."""
        return self.backend.ready.wait(get_variant(variant).name, timeout)

    def start(self, game: Game, level: int, *, clock: Clock | None = None,
              on_result: Callable[[ComputerMove], None] | None = None) -> SearchJob:
        """Search for the move `level` (1-4) plays in `game`; returns at once.

        Without `clock` the move takes at most the level's time, counted from this
        call (its first iteration, a few milliseconds, always completes: a move is
        always searched, even by a worker still starting up); with it, the share
        `time_for_move` gives and never more than `hard_limit`, not even for that."""
        chosen = level_of(level)  # ValueError for a level that does not exist
        if level == 0:
            raise ValueError("level 0 is the hint; call hint()")
        seconds = think_time(chosen, clock, game.ply)
        hard = None if clock is None else max(
            seconds, hard_limit(clock.time_left_ms, clock.overhead_ms))
        return self._submit(game, level, seconds, hard, on_result)

    def hint(self, game: Game, seconds: float = HINT_SECONDS,
             on_result: Callable[[ComputerMove], None] | None = None) -> SearchJob:
        """The best move for the side to move, found in at most `seconds`."""
        seconds = min(seconds, HINT.move_time * 5)
        return self._submit(game, 0, seconds, None, on_result)

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

    def _start_backend(self) -> ThreadBackend | ProcessBackend:
        if self._backend_choice == "thread":
            return ThreadBackend()
        return ProcessBackend()

    def _revive(self) -> None:
        """A new worker if the last one died (killed, out of memory) or could not be
        started (then, with "auto", a thread)."""
        if self.backend.alive():
            return
        failed_to_start = self.backend.spawn_error is not None
        self.backend.close()
        if failed_to_start and self._backend_choice == "auto":
            self._backend_choice = "thread"
        self.backend = self._start_backend()
        self._fresh = True
        if self._prepared is not None:
            self.backend.prepare(self._prepared)

    def _submit(self, game: Game, level: int, seconds: float, hard: float | None,
                on_result: Callable[[ComputerMove], None] | None) -> SearchJob:
        asked = time.monotonic()
        if game.outcome() is not None:
            raise ValueError("the game is over: there is no move to search")
        self.cancel()
        self._revive()
        job_id = next(self._ids)
        job = SearchJob(job_id, game.position, level, on_result, self._cancel)
        request = Request(job=job_id, variant=game.variant.name, root=root_from_game(game),
                          level=level, time_limit=seconds, seed=self._move_seed(game),
                          new_game=self._fresh, asked=asked, hard_limit=hard)
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
        job.resolve(None)
        self.backend.stop(job)
        with self._lock:
            if self._current is job:
                self._current = None
