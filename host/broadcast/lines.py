"""JSON-lines files that survive a power cut: the board's outbox, the relay's store."""

from __future__ import annotations

import os
from pathlib import Path


def cut_torn_line(path: Path) -> None:
    """Cut a last line that has no end (power lost mid-write) off a JSON-lines file,
    before anything is appended after it."""
    try:
        with open(path, "rb+") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size == 0:
                return
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            keep = size
            while keep > 0:
                step = min(4096, keep)
                handle.seek(keep - step)
                chunk = handle.read(step)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    keep = keep - step + newline + 1
                    break
                keep -= step
            handle.truncate(keep)
    except FileNotFoundError:
        return
