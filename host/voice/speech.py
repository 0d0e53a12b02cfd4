"""Speech: one voice at a time, on its own thread, through the espeak-ng program.

Why a queue and a worker: a fast game produces announcements faster than
they can be said; started side by side they talk over each other (25 voices
at once), and said on the game's thread they would hold up the LEDs. So
`Speaker.say` only queues and returns; a worker says one sentence after the
other. A newer sentence cuts the current one short only when it matters more
(the end of the game over a move); when the game ends, moves and notices still
waiting are dropped, and a long backlog drops its oldest moves first.

Why a subprocess rather than a Python binding: espeak-ng is one apt package on
the Pi, speaks pt-BR and English offline, and a crash in it cannot take the
game down. A missing program gives one warning and then silence, never an
error: the board must keep working without sound.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

VOICES = {"pt-BR": "pt-br", "en": "en"}

#: how much an announcement matters: only END cuts another one short
MOVE, NOTICE, END = 0, 1, 2
END_KINDS = frozenset({"win", "draw", "draw-agreed", "resign"})
#: sentences waiting beyond this are dropped, oldest moves first
BACKLOG = 6

log = logging.getLogger(__name__)


def priority_of(kind: str) -> int:
    """How much an announcement kind matters (see `host.voice.messages`)."""
    if kind in END_KINDS:
        return END
    return MOVE if kind == "move" else NOTICE


class Synthesiser(Protocol):
    """Says one sentence, blocking until it is said or `stop` is set."""

    def speak(self, text: str, voice: str, stop: threading.Event) -> None: ...


class EspeakSynthesiser:
    """espeak-ng as a child process; `stop` terminates it mid-sentence."""

    def __init__(self, program: str = "espeak-ng", warn: Callable[[str], None] | None = None):
        self.program = program
        self._warn = warn or log.warning
        self._warned = False

    def available(self) -> str | None:
        exe = shutil.which(self.program)
        if exe is None:
            self.warn_once(f"{self.program} is not installed: announcements are not spoken")
        return exe

    def start(self, args: list[str]) -> subprocess.Popen[bytes] | None:
        try:
            return subprocess.Popen(
                args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
            )
        except OSError as error:
            self.warn_once(f"cannot run {self.program}: {error.strerror}")
            return None

    def speak(self, text: str, voice: str, stop: threading.Event) -> None:
        exe = self.available()
        if exe is None:
            return
        proc = self.start([exe, "-v", voice, text])
        if proc is None:
            return
        while True:
            try:
                proc.wait(timeout=0.05)
                return
            except subprocess.TimeoutExpired:
                if stop.is_set():
                    proc.terminate()
                    proc.wait()
                    return

    def warn_once(self, text: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(text)


@dataclass
class _Item:
    text: str
    priority: int


class Speaker:
    """Queues sentences and says them one at a time on a worker thread.

    `wav_dir` writes each sentence to a numbered file instead, synchronously
    (tests, no sound card); `synthesiser` replaces espeak-ng (tests)."""

    def __init__(
        self,
        language: str,
        *,
        program: str = "espeak-ng",
        wav_dir: Path | None = None,
        warn: Callable[[str], None] | None = None,
        synthesiser: Synthesiser | None = None,
    ) -> None:
        self.voice = VOICES.get(language, "en")
        self.wav_dir = wav_dir
        self._espeak = EspeakSynthesiser(program, warn)
        self.synthesiser: Synthesiser = synthesiser or self._espeak
        self._count = 0
        self._queue: deque[_Item] = deque()
        self._lock = threading.Condition()
        self._current: _Item | None = None
        self._stop_current = threading.Event()
        self._closed = False
        self._worker: threading.Thread | None = None
        #: sentences dropped unsaid (backlog or end of game), for tests and the status
        self.dropped: list[str] = []

    def say(self, text: str, priority: int = NOTICE) -> Path | None:
        """Queue `text` and return at once (with `wav_dir`: write it and return the file)."""
        if self.wav_dir is not None:
            return self._to_wav(text)
        with self._lock:
            if self._closed:
                return None
            if priority == END:
                keep = [i for i in self._queue if i.priority >= END]
                self.dropped += [i.text for i in self._queue if i.priority < END]
                self._queue = deque(keep)
                if self._current is not None and self._current.priority < END:
                    self._stop_current.set()
            self._queue.append(_Item(text, priority))
            while len(self._queue) > BACKLOG:
                oldest = min(self._queue, key=lambda i: i.priority)  # first of the lowest
                self._queue.remove(oldest)
                self.dropped.append(oldest.text)
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="speech", daemon=True)
                self._worker.start()
            self._lock.notify()
        return None

    def idle(self, timeout: float) -> bool:
        """Wait until everything queued has been said; False if `timeout` ran out."""
        with self._lock:
            return self._lock.wait_for(
                lambda: not self._queue and self._current is None, timeout=timeout
            )

    def close(self, timeout: float = 3.0) -> None:
        """Let the queue drain for up to `timeout` seconds, then stop speaking."""
        self.idle(timeout)
        with self._lock:
            self._closed = True
            self.dropped += [i.text for i in self._queue]
            self._queue.clear()
            self._stop_current.set()
            self._lock.notify_all()
        if self._worker is not None:
            self._worker.join(timeout=1.0)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._queue or self._closed)
                if self._closed:
                    return
                item = self._queue.popleft()
                self._current = item
                self._stop_current = threading.Event()
                stop = self._stop_current
            try:
                self.synthesiser.speak(item.text, self.voice, stop)
            except Exception as error:  # a voice must never stop the game
                log.warning("speech failed: %s", error)
            with self._lock:
                self._current = None
                self._lock.notify_all()

    def _to_wav(self, text: str) -> Path | None:
        exe = self._espeak.available()
        if exe is None or self.wav_dir is None:
            return None
        self._count += 1
        out = self.wav_dir / f"say-{self._count:04d}.wav"
        proc = self._espeak.start([exe, "-v", self.voice, "-w", str(out), text])
        if proc is None:
            return None
        proc.wait()
        return out
