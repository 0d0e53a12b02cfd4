"""Where the computer opponent's searches run: a worker process (default) or a thread.

Both take the same messages (`Request`, `Prepare`) and run the same
`host.computer.worker.Worker`, so they choose the same moves; they differ in
what a search costs the caller. The process has a core to itself and never
holds the interpreter lock the board loop needs; the thread is for where a
process cannot be started. Neither blocks its caller: the process is even
spawned by the backend's own thread, and messages sent before it exists wait
in the pipe.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from host.computer.jobs import SearchJob, deliver
from host.computer.worker import (
    Prepare,
    Reply,
    Request,
    StopFlag,
    Worker,
    receive_message,
    send_message,
)

_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])


class Readiness:
    """Which variant the worker has reported ready for, and waiting for it."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self.variant: str | None = None

    def set(self, variant: str) -> None:
        with self._lock:
            self.variant = variant
            self._lock.notify_all()

    def wait(self, variant: str, timeout: float | None) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: self.variant == variant, timeout)


class ThreadBackend:
    """Searches in one daemon thread, one message at a time."""

    name = "thread"

    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[SearchJob, Request, threading.Event] | str | None] = (
            queue.Queue())
        self._stops: dict[int, threading.Event] = {}
        self._worker = Worker()
        self.ready = Readiness()
        self.spawn_error: OSError | None = None
        self._thread = threading.Thread(target=self._loop, name="opponent-search", daemon=True)
        self._thread.start()

    def alive(self) -> bool:
        return self._thread.is_alive()

    def prepare(self, variant: str) -> None:
        self._requests.put(variant)

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
            if isinstance(item, str):
                with contextlib.suppress(Exception):  # a search request will report it
                    self._worker.prepare(item)
                self.ready.set(item)
                continue
            job, request, stop = item
            try:
                if stop.is_set():
                    continue
                searcher = self._worker.searcher
                job.began(searcher is not None and searcher.variant.name == request.variant)
                deliver(job, self._worker.run_request(request, stop.is_set))
            finally:
                self._stops.pop(job.id, None)
                job.released()

    def close(self) -> None:
        for stop in list(self._stops.values()):
            stop.set()
        self._requests.put(None)
        self._thread.join(timeout=1.0)


class ProcessBackend:
    """Searches in a worker process (`python -m host.computer.worker`) over two pipes.

    A plain subprocess rather than `multiprocessing`: it needs no guarded
    `__main__` in whatever program embeds the opponent, and the child imports
    the engine alone. The backend's reader thread spawns it, then delivers its
    replies; `spawn_error` says why, if it could not be started.
    """

    name = "process"

    def __init__(self) -> None:
        to_child_read, to_child_write = os.pipe()
        from_child_read, from_child_write = os.pipe()
        self._stop_flag, stop_fd = StopFlag.create()
        self._child_fds = (to_child_read, from_child_write, stop_fd)
        self._to_child = os.fdopen(to_child_write, "wb")
        self._from_child = os.fdopen(from_child_read, "rb")
        self._process: subprocess.Popen[bytes] | None = None
        self.spawn_error: OSError | None = None
        self._spawned = threading.Event()
        self._jobs: dict[int, SearchJob] = {}
        self._lock = threading.Lock()
        self.ready = Readiness()
        # set by the reader when the worker's replies end: from then on the worker is
        # lost even if the kernel has not reaped it yet (poll() would still say alive)
        self._lost = threading.Event()
        self._reader = threading.Thread(target=self._run, name="opponent-replies", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        """The worker's process id (waits for it to be spawned); OSError if it was not."""
        self._spawned.wait()
        if self._process is None:
            raise self.spawn_error or OSError("the search process was not started")
        return self._process.pid

    def alive(self) -> bool:
        return not self._lost.is_set() and (self._process is None
                                            or self._process.poll() is None)

    def prepare(self, variant: str) -> None:
        with self._lock, contextlib.suppress(BrokenPipeError, OSError, ValueError):
            send_message(self._to_child, Prepare(variant))

    def submit(self, job: SearchJob, request: Request) -> None:
        with self._lock:
            if self._lost.is_set():  # no reader left to answer it: fail it now, never hang
                job.fail("the search process stopped")
                job.released()
                return
            self._jobs[job.id] = job
            try:
                send_message(self._to_child, request)
            except (BrokenPipeError, OSError, ValueError) as error:
                self._jobs.pop(job.id, None)
                job.fail(f"the search process is gone ({error})")
                job.released()

    def stop(self, job: SearchJob) -> None:
        with self._lock:
            if self._stop_flag.value < job.id:
                self._stop_flag.value = job.id

    def _run(self) -> None:
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "host.computer.worker",
                 *(str(fd) for fd in self._child_fds)],
                pass_fds=self._child_fds, stdin=subprocess.DEVNULL,
                cwd=_PROJECT_ROOT, env={**os.environ, "PYTHONPATH": _python_path()})
        except OSError as error:
            self.spawn_error = error
        finally:
            for fd in self._child_fds:  # the child's ends: its own copies are all it needs
                os.close(fd)
            self._spawned.set()
        if self._process is not None:
            self._read()
        self._worker_lost()

    def _read(self) -> None:
        while True:
            try:
                reply = receive_message(self._from_child)
            except Exception:  # noqa: BLE001 - a broken pipe or a garbled reply: worker lost
                return
            if isinstance(reply, tuple) and reply[:1] == ("started",):
                with self._lock:
                    started = self._jobs.get(reply[1])
                if started is not None:
                    started.began(bool(reply[2]))
                continue
            if isinstance(reply, tuple) and reply[:1] == ("ready",):
                self.ready.set(reply[1])
                continue
            if not isinstance(reply, Reply):
                return
            with self._lock:
                job = self._jobs.pop(reply.job, None)
            if job is not None:
                deliver(job, reply)

    def _worker_lost(self) -> None:
        with self._lock:  # the worker died: nothing pending will ever be answered
            self._lost.set()
            pending, self._jobs = list(self._jobs.values()), {}
        for job in pending:
            job.fail("the search process stopped")
            job.released()

    def close(self) -> None:
        with self._lock, contextlib.suppress(OSError, ValueError):
            self._to_child.close()  # the worker ends when its input closes
        self._spawned.wait(timeout=5.0)
        if self._process is not None:
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
