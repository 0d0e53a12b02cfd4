"""Disks that misbehave on purpose: a small full tmpfs, a folder remounted read-only.

Root ignores file modes (chmod cannot make a folder unwritable to it), so a test
that wants the kernel itself to refuse a write mounts something: a tmpfs of a few
kilobytes that a filler file fills (ENOSPC), or a bind mount of a folder onto
itself, remounted read-only (EROFS). Both need root allowed to mount (the
CAP_SYS_ADMIN capability); a machine without it skips those tests through
`tests.tools.need_tool("mount", ...)` (CI requires them only if it sets "mount"
in DRAUGHTSBOARD_REQUIRE). Every mount is undone when the test ends.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.tools import need_tool


@functools.cache
def can_mount() -> bool:
    """Can this process mount a tmpfs (root with CAP_SYS_ADMIN, not a plain container)?"""
    if os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory() as folder:
        tried = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", folder],
                               capture_output=True)  # fmt: skip
        if tried.returncode != 0:
            return False
        subprocess.run(["umount", folder], check=True)
    return True


def need_mount() -> None:
    need_tool("mount", can_mount(), "mounting needs root with CAP_SYS_ADMIN")


class SmallDisk:
    """A tmpfs of `size` bytes at `folder`: `fill()` makes it full, `free()` frees it."""

    def __init__(self, folder: Path, size: int = 256 * 1024) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                       check=True)  # fmt: skip
        self.folder = folder
        self.filler = folder / ".filler"

    def fill(self) -> None:
        """Write a filler file until the disk says it is full (ENOSPC), as a card fills up."""
        with open(self.filler, "ab", buffering=0) as handle:
            try:
                while True:
                    handle.write(b"\0" * 4096)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
            with contextlib.suppress(OSError):  # the last few bytes too
                while True:
                    handle.write(b"\0")

    def free(self) -> None:
        self.filler.unlink()

    def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.folder)], check=True)


class ReadOnlyFolder:
    """`folder` bind-mounted onto itself: `freeze()` remounts it read-only (EROFS on every
    write, root's included), `thaw()` writable again."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
        self.folder = folder

    def freeze(self) -> None:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(self.folder)], check=True)

    def thaw(self) -> None:
        subprocess.run(["mount", "-o", "remount,bind,rw", str(self.folder)], check=True)

    def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.folder)], check=True)


@contextlib.contextmanager
def small_disk(folder: Path, size: int = 256 * 1024) -> Iterator[SmallDisk]:
    need_mount()
    disk = SmallDisk(folder, size)
    try:
        yield disk
    finally:
        disk.close()


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[ReadOnlyFolder]:
    need_mount()
    mounted = ReadOnlyFolder(folder)
    try:
        yield mounted
    finally:
        mounted.close()
