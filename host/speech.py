"""Speech through the espeak-ng program.

A subprocess rather than a Python binding: espeak-ng is one apt package on the
Pi, speaks pt-BR and English offline, and a crash in it cannot take the game
down. A missing program gives one warning and then silence, never an error:
the board must keep working without sound.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

VOICES = {"pt-BR": "pt-br", "en": "en"}


class Speaker:
    """Speaks sentences; `wav_dir` writes each to a numbered file instead (tests, no sound card)."""

    def __init__(
        self,
        language: str,
        *,
        program: str = "espeak-ng",
        wav_dir: Path | None = None,
        warn: Callable[[str], None] | None = None,
        wait: bool = False,
    ) -> None:
        self.voice = VOICES.get(language, "en")
        self.program = program
        self.wav_dir = wav_dir
        self.wait = wait
        self._warn = warn or (lambda text: print(f"warning: {text}", file=sys.stderr))
        self._warned = False
        self._count = 0
        self._current: subprocess.Popen[bytes] | None = None

    def say(self, text: str) -> Path | None:
        """Start speaking `text` (non-blocking unless `wait`); returns the wav file if any."""
        exe = shutil.which(self.program)
        if exe is None:
            self._warn_once(f"{self.program} is not installed: announcements are not spoken")
            return None
        args = [exe, "-v", self.voice]
        out: Path | None = None
        if self.wav_dir is not None:
            self._count += 1
            out = self.wav_dir / f"say-{self._count:04d}.wav"
            args += ["-w", str(out)]
        args.append(text)
        try:
            proc = subprocess.Popen(
                args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
            )
        except OSError as error:
            self._warn_once(f"cannot run {self.program}: {error.strerror}")
            return None
        if self.wait or out is not None:
            proc.wait()
        else:
            self._current = proc
        return out

    def _warn_once(self, text: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(text)
