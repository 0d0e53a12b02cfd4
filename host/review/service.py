"""The review queue: one low-priority search process, fed one game at a time, paused
while a game is being played.

- `request(review)` answers at once with what is known: the stored analysis (computed
  once, kept beside the game: `host.review.store`), or the progress of the one being
  made. A game not analysed yet is queued: a game someone opens goes first (a background
  job, such as the game that just ended, gives way to it and goes on later from where it
  stopped; positions already analysed are kept).
- The search runs in `host.review.worker` at `os.nice(19)`. Four times a second, and at
  once on `nudge()` (every change of the game: the page server calls it from the
  session's updates), `busy()` is asked whether a game needs the machine (the computer
  opponent is thinking, a piece is off its square); while it says yes the worker is
  paused (a shared flag its search looks at every few nodes) and the review's progress
  says `paused`.
- With nothing to do for `IDLE_SECONDS` the worker process ends (its memory goes back to
  the Pi); the next request starts another.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.opponent_worker import StopFlag
from host.review import store
from host.review.analysis import NODES, PositionEval, move_key
from host.review.classify import judge_game, summary, thresholds_json
from host.review.games import ReviewGame

log = logging.getLogger(__name__)

#: seconds between two looks at whether a game needs the machine
GATE_PERIOD = 0.25
#: seconds without work before the search process ends
IDLE_SECONDS = 30.0
#: finished analyses kept in memory (besides the files)
REMEMBERED = 32
_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])


@dataclass(eq=False)
class Job:
    """One game's analysis: the positions found so far, and how it stands."""

    review: ReviewGame
    urgent: bool
    evals: dict[int, PositionEval] = field(default_factory=dict)
    status: str = "queued"  # queued, running, done, failed
    error: str | None = None

    @property
    def total(self) -> int:
        return len(self.review.game.moves) + 1

    def missing(self) -> list[int]:
        return [ply for ply in range(self.total) if ply not in self.evals]


class ReviewService:
    """Analyses games for review, one at a time, in a worker process (see the module)."""

    def __init__(self, busy: Callable[[], bool] = lambda: False, *, nodes: int = NODES,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.busy = busy
        self.nodes = nodes
        self.idle_seconds = idle_seconds
        self.jobs: dict[str, Job] = {}  # by game key: queued or running
        self.queue: list[Job] = []
        self.finished: OrderedDict[str, Job] = OrderedDict()
        self.holding = False  # the game needs the machine: the worker is told to pause
        self.paused = False  # the worker says it is holding its search
        self.running: Job | None = None
        self._wake = asyncio.Event()
        self._preempt = False
        self._process: asyncio.subprocess.Process | None = None
        self._flags: tuple[StopFlag, StopFlag] | None = None
        self._number = 0
        self._tasks: list[asyncio.Task[None]] = []

    # -- asking -------------------------------------------------------------------------

    def request(self, review: ReviewGame, *, urgent: bool = True) -> Job:
        """The game's analysis as it stands; queued when not made yet (see the module)."""
        key = review.key
        known = self.finished.get(key) or self.jobs.get(key)
        if known is not None:
            if known.status == "failed" and urgent:  # asked again: try again
                self.finished.pop(key, None)
            else:
                if urgent and known.status == "queued":
                    self._to_front(known)
                return known
        stored = store.load(review.store, key, self.nodes)
        if stored is not None and len(stored) == len(review.game.moves) + 1:
            job = Job(review, urgent, {item.ply: item for item in stored}, "done")
            self._remember(job)
            return job
        job = Job(review, urgent)
        self.jobs[key] = job
        if urgent:
            self._to_front(job)
        else:
            self.queue.append(job)
        self._start()
        self._wake.set()
        return job

    def _to_front(self, job: Job) -> None:
        job.urgent = True
        if job in self.queue:
            self.queue.remove(job)
        self.queue.insert(0, job)
        running = self.running
        if running is not None and running is not job and not running.urgent:
            self._preempt = True  # a background job gives way
            self._cancel_running()

    def nudge(self) -> None:
        """The game changed: look at once whether the search must pause or may go on."""
        self._apply_gate()

    # -- lifetime -----------------------------------------------------------------------

    def _start(self) -> None:
        if not self._tasks:
            self._tasks = [asyncio.create_task(self._serve()),
                           asyncio.create_task(self._watch_gate())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        await self._stop_worker()

    # -- the gate -----------------------------------------------------------------------

    async def _watch_gate(self) -> None:
        while True:
            self._apply_gate()
            await asyncio.sleep(GATE_PERIOD)

    def _apply_gate(self) -> None:
        if self._flags is None:
            self.holding = False
            return
        try:
            hold = bool(self.busy())
        except Exception:  # noqa: BLE001 - a broken check must not stop the review
            log.exception("the review's busy check failed")
            hold = False
        self.holding = hold
        self._flags[0].value = 1 if hold else 0

    # -- the worker ---------------------------------------------------------------------

    async def _serve(self) -> None:
        while True:
            if not self.queue:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self.idle_seconds)
                except TimeoutError:
                    await self._stop_worker()
                    await self._wake.wait()
                continue
            job = self.queue.pop(0)
            await self._analyse(job)

    async def _analyse(self, job: Job) -> None:
        self.running = job
        job.status = "running"
        self._preempt = False
        try:
            process = await self._worker()
            self._number += 1
            number = self._number
            game = job.review.game
            request = {"job": number, "variant": game.variant.name,
                       "fen": game.positions[0].fen(),
                       "moves": [list(move_key(move)) for move in game.moves],
                       "plies": job.missing(), "nodes": self.nodes}
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write((json.dumps(request) + "\n").encode())
            await process.stdin.drain()
            ending = await self._follow(process.stdout, job, number)
        except (OSError, ConnectionError) as error:
            ending = f"the review's search process failed ({error})"
        finally:
            self.running = None
            self.paused = False
        if ending == "done":
            self._finish(job)
        elif ending == "cancelled":
            job.status = "queued"
            self.queue.insert(1 if self.queue else 0, job)
        else:
            job.status, job.error = "failed", ending
            self.jobs.pop(job.review.key, None)
            self._remember(job)
            await self._stop_worker()

    async def _follow(self, stdout: asyncio.StreamReader, job: Job, number: int) -> str:
        """Read the worker's replies for job `number` until it is done ("done"),
        cancelled ("cancelled") or fails (the reason)."""
        while True:
            line = await stdout.readline()
            if not line:
                return "the review's search process stopped"
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "paused" in message:
                self.paused = bool(message["paused"])
                continue
            if message.get("job") != number:
                continue
            if "eval" in message:
                evaluation = PositionEval.from_json(message["eval"])
                job.evals[evaluation.ply] = evaluation
            elif message.get("done"):
                return "done"
            elif message.get("cancelled"):
                return "cancelled"
            elif "error" in message:
                return str(message["error"])

    def _finish(self, job: Job) -> None:
        job.status = "done"
        self.jobs.pop(job.review.key, None)
        self._remember(job)
        evals = [job.evals[ply] for ply in range(job.total)]
        try:
            store.save(job.review.store, job.review.key, evals, self.nodes)
        except OSError as error:  # kept in memory; made again after a restart
            log.warning("cannot keep the analysis beside %s: %s", job.review.store.name,
                        error.strerror)

    def _remember(self, job: Job) -> None:
        self.finished[job.review.key] = job
        self.finished.move_to_end(job.review.key)
        while len(self.finished) > REMEMBERED:
            self.finished.popitem(last=False)

    def _cancel_running(self) -> None:
        if self._flags is not None and self.running is not None:
            self._flags[1].value = self._number

    async def _worker(self) -> asyncio.subprocess.Process:
        if self._process is not None and self._process.returncode is None:
            return self._process
        await self._stop_worker()
        pause, pause_fd = StopFlag.create()
        cancel, cancel_fd = StopFlag.create()
        try:
            existing = os.environ.get("PYTHONPATH")
            path = _PROJECT_ROOT + (os.pathsep + existing if existing else "")
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "host.review.worker", str(pause_fd), str(cancel_fd),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                pass_fds=(pause_fd, cancel_fd), cwd=_PROJECT_ROOT,
                env={**os.environ, "PYTHONPATH": path})
        except BaseException:
            pause.close()
            cancel.close()
            raise
        finally:
            os.close(pause_fd)
            os.close(cancel_fd)
        self._flags = (pause, cancel)
        self._number = 0
        self._apply_gate()
        return self._process

    async def _stop_worker(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if self._flags is not None:
                self._flags[0].value = 0  # a paused search must see its input close
                self._flags[1].value = self._number
            with contextlib.suppress(OSError, AttributeError):
                assert process.stdin is not None
                process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), 2.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._flags is not None:
            for flag in self._flags:
                flag.close()
            self._flags = None

    # -- telling ------------------------------------------------------------------------

    def report(self, job: Job) -> dict[str, Any]:
        """The analysis as the page reads it: status, progress, every position's
        evaluation so far, the verdict on every move and the summary per player."""
        review = job.review
        evals = [job.evals.get(ply) for ply in range(job.total)]
        verdicts = judge_game(review.game.moves, review.sides, evals)
        status = job.status
        if status == "running" and self.holding and self.running is job:
            status = "paused"  # the host has told the worker to wait for the game
        return {
            "key": review.key,
            "status": status,
            "done": len(job.evals),
            "total": job.total,
            "error": job.error,
            "evals": [item.to_json() if item is not None else None for item in evals],
            "verdicts": [item.to_json() if item is not None else None for item in verdicts],
            "summary": summary(verdicts),
            "thresholds": thresholds_json(),
            "nodes": self.nodes,
        }
