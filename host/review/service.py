"""The review queue: low-priority search processes fed in chunks of a game, paused while
a game is being played.

- `request(review)` answers at once with what is known: the stored analysis (computed
  once, kept beside the game: `host.review.store`), or the progress of the one being
  made. A game not analysed yet is queued: a game someone opens goes first, a game
  analysed in the background (the game that just ended) after it.
- A game's positions are cut into the analysis's chunks (`host.review.analysis.CHUNK`
  consecutive positions, each searched from a fresh table); each chunk is searched by one
  worker (`host.review.worker`, at `os.nice(19)`), so a position's evaluation is the same
  whichever worker took its chunk, in whatever order, paused or not. `WORKERS` processes (two
  where there are two cores) take the chunks in queue order, so an opened game waits at
  most for the chunks already being searched.
- Four times a second, and at once on `nudge()` (every change of the game: the page
  server calls it from the session's updates), `busy()` is asked whether a game needs the
  machine (the computer opponent is thinking, a piece is off its square); while it says
  yes every worker is paused (a shared flag its search reads every few nodes) and the
  review's progress says `paused`.
- With nothing to do for `IDLE_SECONDS` a worker process ends (its memory goes back to
  the Pi); the next chunk starts another.
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

from host.computer.worker import StopFlag
from host.review import store
from host.review.analysis import CHUNK, NODES, PositionEval, move_key
from host.review.classify import judge_game, summary, thresholds_json
from host.review.games import ReviewGame

log = logging.getLogger(__name__)

#: search processes at most: two where there are two cores (they run only on CPU time
#: nobody else wants, and pause while a game is played)
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: seconds between two looks at whether a game needs the machine
GATE_PERIOD = 0.25
#: seconds without work before a search process ends
IDLE_SECONDS = 30.0
#: finished analyses kept in memory (besides the files)
REMEMBERED = 32
_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])


@dataclass(eq=False)
class Job:
    """One game's analysis: the positions found so far, the chunks still to search."""

    review: ReviewGame
    urgent: bool
    evals: dict[int, PositionEval] = field(default_factory=dict)
    status: str = "queued"  # queued, running, done, failed
    error: str | None = None
    pending: list[list[int]] = field(default_factory=list)
    searching: int = 0  # chunks being searched now

    @property
    def total(self) -> int:
        return len(self.review.game.moves) + 1


@dataclass(eq=False)
class _Worker:
    """One search process and its two shared flags (pause; cancel up to a request)."""

    process: asyncio.subprocess.Process
    pause: StopFlag
    cancel: StopFlag
    number: int = 0  # the last request sent
    busy: bool = False  # searching a chunk
    paused: bool = False  # it says it is holding its search

    def close_flags(self) -> None:
        self.pause.close()
        self.cancel.close()


class ReviewService:
    """Analyses games for review in worker processes (see the module)."""

    def __init__(self, busy: Callable[[], bool] = lambda: False, *, nodes: int = NODES,
                 workers: int = WORKERS, idle_seconds: float = IDLE_SECONDS) -> None:
        self.busy = busy
        self.nodes = nodes
        self.slots = workers
        self.idle_seconds = idle_seconds
        self.jobs: dict[str, Job] = {}  # by game key: queued or running
        self.queue: list[Job] = []  # jobs with chunks still to start, in priority order
        self.finished: OrderedDict[str, Job] = OrderedDict()
        self.holding = False  # the game needs the machine: the workers are told to pause
        self.workers: list[_Worker | None] = [None] * workers
        self._work = asyncio.Condition()
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def paused(self) -> bool:
        """Every worker that is searching says it is holding its search (and one is)."""
        searching = [w for w in self.workers if w is not None and w.busy]
        return bool(searching) and all(w.paused for w in searching)

    # -- asking -------------------------------------------------------------------------

    def request(self, review: ReviewGame, *, urgent: bool = True) -> Job:
        """The game's analysis as it stands; queued when not made yet (see the module)."""
        key = review.key
        known = self.finished.get(key) or self.jobs.get(key)
        if known is not None:
            if known.status == "failed" and urgent:  # asked again: try again
                self.finished.pop(key, None)
            else:
                if urgent and not known.urgent and known in self.queue:
                    known.urgent = True
                    self.queue.remove(known)
                    self.queue.insert(self._first_background(), known)
                return known
        stored = store.load(review.store, key, self.nodes)
        if stored is not None and len(stored) == len(review.game.moves) + 1:
            job = Job(review, urgent, {item.ply: item for item in stored}, "done")
            self._remember(job)
            return job
        job = Job(review, urgent)
        job.pending = [list(range(start, min(start + CHUNK, job.total)))
                       for start in range(0, job.total, CHUNK)]
        self.jobs[key] = job
        self.queue.insert(self._first_background() if urgent else len(self.queue), job)
        self._start()
        self._signal()
        return job

    def _first_background(self) -> int:
        """Where an opened game goes in the queue: after the other opened ones."""
        return next((i for i, job in enumerate(self.queue) if not job.urgent), len(self.queue))

    def nudge(self) -> None:
        """The game changed: look at once whether the search must pause or may go on."""
        self._apply_gate()

    # -- lifetime -----------------------------------------------------------------------

    def _start(self) -> None:
        if not self._tasks:
            self._tasks = [asyncio.create_task(self._watch_gate())]
            self._tasks += [asyncio.create_task(self._serve(slot)) for slot in range(self.slots)]

    def _signal(self) -> None:
        async def notify() -> None:
            async with self._work:
                self._work.notify_all()

        task = asyncio.ensure_future(notify())
        task.add_done_callback(lambda _: None)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        for slot in range(self.slots):
            await self._stop_worker(slot)

    # -- the gate -----------------------------------------------------------------------

    async def _watch_gate(self) -> None:
        while True:
            self._apply_gate()
            await asyncio.sleep(GATE_PERIOD)

    def _apply_gate(self) -> None:
        try:
            hold = bool(self.busy())
        except Exception:  # noqa: BLE001 - a broken check must not stop the review
            log.exception("the review's busy check failed")
            hold = False
        self.holding = hold
        for worker in self.workers:
            if worker is not None:
                worker.pause.value = 1 if hold else 0

    # -- the workers --------------------------------------------------------------------

    def _next_chunk(self) -> tuple[Job, list[int]] | None:
        for job in self.queue:
            if job.pending:
                chunk = job.pending.pop(0)
                if not job.pending:
                    self.queue.remove(job)
                return job, chunk
        return None

    async def _serve(self, slot: int) -> None:
        while True:
            idle = False
            async with self._work:
                taken = self._next_chunk()
                if taken is None:
                    try:
                        await asyncio.wait_for(self._work.wait(), self.idle_seconds)
                    except TimeoutError:
                        idle = True
                    taken = self._next_chunk()
            if taken is not None:
                await self._search(slot, *taken)
            elif idle:
                await self._stop_worker(slot)  # nothing for a while: free its memory

    async def _search(self, slot: int, job: Job, chunk: list[int]) -> None:
        """One chunk of one game on the worker of `slot`."""
        job.searching += 1
        job.status = "running" if job.status == "queued" else job.status
        try:
            worker = await self._worker(slot)
            worker.busy = True
            worker.number += 1
            game = job.review.game
            request = {"job": worker.number, "variant": game.variant.name,
                       "fen": game.positions[0].fen(),
                       "moves": [list(move_key(move)) for move in game.moves],
                       "plies": chunk, "nodes": self.nodes}
            assert worker.process.stdin is not None and worker.process.stdout is not None
            worker.process.stdin.write((json.dumps(request) + "\n").encode())
            await worker.process.stdin.drain()
            ending = await self._follow(worker, job)
        except (OSError, ConnectionError) as error:
            ending = f"the review's search process failed ({error})"
        finally:
            job.searching -= 1
            current = self.workers[slot]
            if current is not None:
                current.busy = current.paused = False
        if ending != "done":
            for ply in chunk:  # a chunk counts whole: searched again from its start
                job.evals.pop(ply, None)
            self._fail(job, ending)
            await self._stop_worker(slot)
        elif len(job.evals) == job.total and job.status == "running":
            self._finish(job)

    async def _follow(self, worker: _Worker, job: Job) -> str:
        """Read the worker's replies to its last request until it is done ("done") or
        fails (the reason)."""
        stdout = worker.process.stdout
        assert stdout is not None
        while True:
            line = await stdout.readline()
            if not line:
                return "the review's search process stopped"
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "paused" in message:
                worker.paused = bool(message["paused"])
                continue
            if message.get("job") != worker.number:
                continue
            if "eval" in message:
                evaluation = PositionEval.from_json(message["eval"])
                job.evals[evaluation.ply] = evaluation
            elif message.get("done"):
                return "done"
            elif message.get("cancelled"):
                return "the review was stopped"
            elif "error" in message:
                return str(message["error"])

    def _fail(self, job: Job, reason: str) -> None:
        if job.status == "failed":
            return
        job.status, job.error = "failed", reason
        job.pending = []
        if job in self.queue:
            self.queue.remove(job)
        self.jobs.pop(job.review.key, None)
        self._remember(job)

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

    async def _worker(self, slot: int) -> _Worker:
        worker = self.workers[slot]
        if worker is not None and worker.process.returncode is None:
            return worker
        await self._stop_worker(slot)
        pause, pause_fd = StopFlag.create()
        cancel, cancel_fd = StopFlag.create()
        try:
            existing = os.environ.get("PYTHONPATH")
            path = _PROJECT_ROOT + (os.pathsep + existing if existing else "")
            process = await asyncio.create_subprocess_exec(
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
        worker = _Worker(process, pause, cancel)
        pause.value = 1 if self.holding else 0
        self.workers[slot] = worker
        self._apply_gate()
        return worker

    async def _stop_worker(self, slot: int) -> None:
        worker, self.workers[slot] = self.workers[slot], None
        if worker is None:
            return
        process = worker.process
        worker.pause.value = 0  # a paused search must see its input close
        worker.cancel.value = worker.number
        with contextlib.suppress(OSError, AttributeError):
            assert process.stdin is not None
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 2.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        worker.close_flags()

    # -- telling ------------------------------------------------------------------------

    def report(self, job: Job) -> dict[str, Any]:
        """The analysis as the page reads it: status, progress, every position's
        evaluation so far, the verdict on every move and the summary per player."""
        review = job.review
        evals = [job.evals.get(ply) for ply in range(job.total)]
        verdicts = judge_game(review.game.moves, review.sides, evals)
        status = job.status
        if status == "running" and self.holding and job.searching:
            status = "paused"  # the host has told the workers to wait for the game
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
