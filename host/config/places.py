"""The folders and files a board needs on disk, checked before it starts.

Why checked up front: a board that finds out mid-game that it cannot write its
journal can only play on in memory; one that is told at start-up (by `run`, by
`config --check`, by the service's ExecStartPre) gets fixed. Each place is
checked for the user running the check, the way the kernel will judge the
writes: a folder must be a folder this user may write in (or create, in the
nearest folder that exists), a file the board writes must be writable where it
exists and its folder writable (the journal is replaced through a file beside
it, the log rotated there), a file the board reads must exist and be readable.
A read-only file system is named as such, with what to do under the service's
sandbox (it may write only where its unit says).

Free space is not checked: a disk that fills up later is met by the journal
itself (host/records/journal.py), which plays on in memory and writes again when it can.
"""

from __future__ import annotations

import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path

from host.config.settings import Config

#: what a place is to the board
FOLDER = "folder"  # it writes files in it
WRITTEN_FILE = "written file"  # it writes this file (and next to it)
READ_FILE = "read file"  # it only reads it


@dataclass(frozen=True)
class Place:
    """One path the board needs, the setting that names it, and how it is used."""

    key: str
    path: Path
    use: str
    what: str


def needed_places(config: Config) -> list[Place]:
    """Every path `run` will write or read, for `config` (unset optional ones left out)."""
    places = [
        Place("data_dir", config.data_dir, FOLDER, "the data folder"),
        Place("games_dir", config.games_dir, FOLDER, "the games folder"),
        Place("journal", config.journal, WRITTEN_FILE, "the journal"),
    ]
    if config.log_file is not None:
        places.append(Place("log_file", config.log_file, WRITTEN_FILE, "the log file"))
    if config.broker is not None:
        places.append(Place("broker_outbox", config.outbox, WRITTEN_FILE, "the broker's outbox"))
    if config.broker_password_file is not None:
        places.append(
            Place(
                "broker_password_file",
                config.broker_password_file,
                READ_FILE,
                "the broker password file",
            )
        )
    if config.broker_ca_file is not None:
        places.append(
            Place("broker_ca_file", config.broker_ca_file, READ_FILE, "the broker's CA file")
        )
    return places


def problem(place: Place) -> str | None:
    """What is wrong with `place` for this user, in plain words, or None if nothing."""
    path = place.path
    if place.use == READ_FILE:
        return _readable_file(place.what, path)
    if place.use == WRITTEN_FILE:
        if path.is_dir():
            return f"{place.what} {path} is a folder, not a file"
        if path.exists() and not os.access(path, os.W_OK):
            return f"{place.what} {path} exists but {_who()} cannot write it{_why(path)}"
        trouble = _writable_folder(path.parent)
        return f"{place.what} cannot be written: {trouble}" if trouble else None
    trouble = _writable_folder(path)
    return f"{place.what}: {trouble}" if trouble else None


def _readable_file(what: str, path: Path) -> str | None:
    if not path.exists():
        return f"{what} {path} does not exist"
    if path.is_dir():
        return f"{what} {path} is a folder, not a file"
    if not os.access(path, os.R_OK):
        return f"{_who()} cannot read {what} {path}{_why(path)}"
    return None


def _writable_folder(folder: Path) -> str | None:
    """Why `folder` cannot be written in (or made), or None."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        if existing.is_symlink():  # a dangling link: its target folder is missing
            return f"{existing} points to {os.readlink(existing)}, which does not exist"
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is a file, where a folder should be"
    verb = "write in" if existing == folder else f"create {folder} in"
    if _read_only(existing):
        return f"{_who()} cannot {verb} {existing}: it is on a read-only file system{_sandbox()}"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{_who()} cannot {verb} {existing}{_why(existing)}"
    return None


def _read_only(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _who() -> str:
    """This user, by name: whom the permissions were checked for."""
    uid = os.geteuid()
    try:
        return f"the user {pwd.getpwuid(uid).pw_name}"
    except KeyError:
        return f"the user with id {uid}"


def _why(path: Path) -> str:
    """The owner and mode that refuse it, as `ls -l` would show them."""
    try:
        info = path.stat()
    except OSError:
        return ""
    try:
        owner = pwd.getpwuid(info.st_uid).pw_name
    except KeyError:
        owner = str(info.st_uid)
    return f" (owner {owner}, mode {stat.filemode(info.st_mode)})"


def _sandbox() -> str:
    """Under systemd (INVOCATION_ID is set), the likely cause and its fix."""
    if not os.environ.get("INVOCATION_ID"):
        return ""
    from host.appliance.systemd import LOG_DIR, STATE_DIR

    return (
        f"; the service may write only in {STATE_DIR}, {LOG_DIR} and the folders its "
        "config named when it was installed: after moving a folder there, run "
        "sudo draughtsboard service install again"
    )
