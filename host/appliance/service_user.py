"""Can the service's user run the program and read its config? Checked before installing.

Why: `service install` runs as root, for a user who may be a new system user.
A program in a virtual environment inside a private home (Debian 12 makes homes
0700; root's always is) starts for root and fails for that user with "Permission
denied" at every boot. So every path the service needs is walked as the kernel
walks it for that user, in the system being installed (a folder standing for /
as well as this one): each folder on the way must let the user through (x), the
program and its config be readable, the interpreter its first line names be
executable, the virtual environment's pyvenv.cfg and the package it imports be
readable. Symbolic links are followed inside that system. On the machine
itself, `service install` then also runs `config --check` as the user
(`setpriv`), which proves it: the program starts, reads its config, and may
write its folders. File modes are read as the kernel reads them (owner, then
group, then others; root passes); ACLs and security modules are not.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

#: how many symbolic links a path may go through (the kernel's limit)
MAX_LINKS = 40


@dataclass(frozen=True)
class Account:
    """A user as the kernel sees it: its ids and every group it will have."""

    name: str
    uid: int
    gid: int
    groups: frozenset[int]


def account(root: Path, user: str, extra_groups: tuple[str, ...] = ()) -> Account | None:
    """`user` of the system under `root` (its passwd and group files), with its own groups
    and `extra_groups` (the unit's SupplementaryGroups=), or None if it has no such user."""
    entries = _table(root / "etc" / "passwd")
    if root == Path("/") and user not in entries:
        try:  # a user known through NSS (LDAP...) rather than /etc/passwd
            found = pwd.getpwnam(user)
            entries[user] = ["x", str(found.pw_uid), str(found.pw_gid)]
        except KeyError:
            pass
    if user not in entries or len(entries[user]) < 3:
        return None
    uid, gid = int(entries[user][1]), int(entries[user][2])
    groups = {gid}
    for name, fields in _table(root / "etc" / "group").items():
        members = fields[2].split(",") if len(fields) > 2 else []
        if user in members or name in extra_groups:
            groups.add(int(fields[1]))
    return Account(user, uid, gid, frozenset(groups))


def _table(path: Path) -> dict[str, list[str]]:
    """name -> the other fields of a passwd or group file (empty if unreadable)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    return {line.split(":")[0]: line.split(":")[1:] for line in lines if line.count(":") >= 2}


def what_blocks(root: Path, path: PurePosixPath, who: Account, need: int) -> str | None:
    """Why `who` cannot use `path` (absolute, in the system under `root`) as `need` asks
    (os.R_OK, os.X_OK, or both), or None if it can."""
    parts = list(path.parts[1:])
    at = PurePosixPath("/")
    links = 0
    while parts:
        part = parts.pop(0)
        blocked = _check(root, at, who, os.X_OK)
        if blocked:
            return blocked
        step = at / part
        try:
            info = os.lstat(_inside(root, step))
        except OSError:
            return f"{step} does not exist"
        if stat.S_ISLNK(info.st_mode):
            links += 1
            if links > MAX_LINKS:
                return f"{path} goes through too many symbolic links"
            target = PurePosixPath(os.readlink(_inside(root, step)))
            parts = list(target.parts[1:] if target.is_absolute() else target.parts) + parts
            at = PurePosixPath("/") if target.is_absolute() else at
            continue
        if part == "..":
            at = at.parent
        elif part != ".":
            at = step
    return _check(root, at, who, need)


def _check(root: Path, path: PurePosixPath, who: Account, need: int) -> str | None:
    try:
        info = os.stat(_inside(root, path))
    except OSError:
        return f"{path} does not exist"
    if who.uid == 0:  # root passes, but executes only what someone may execute
        return None if not need & os.X_OK or info.st_mode & 0o111 else f"{path} is not executable"
    if info.st_uid == who.uid:
        bits = (info.st_mode >> 6) & 7
    elif info.st_gid in who.groups:
        bits = (info.st_mode >> 3) & 7
    else:
        bits = info.st_mode & 7
    if bits & need == need:
        return None
    folder = stat.S_ISDIR(info.st_mode)
    wanted = {os.R_OK: "read", os.X_OK: "go through" if folder else "run"}
    verbs = " and ".join(v for k, v in wanted.items() if need & k)
    return (
        f"{who.name} may not {verbs} {path} (owner {_name(info.st_uid, root, 'passwd')}, "
        f"group {_name(info.st_gid, root, 'group')}, {stat.filemode(info.st_mode)})"
    )


def _inside(root: Path, path: PurePosixPath) -> Path:
    return root / str(path).lstrip("/") if str(path) != "/" else root


def _name(number: int, root: Path, table: str) -> str:
    for name, fields in _table(root / "etc" / table).items():
        if len(fields) > 1 and fields[1] == str(number):
            return name
    if root == Path("/"):
        try:
            return pwd.getpwuid(number).pw_name if table == "passwd" else grp.getgrgid(number)[0]
        except KeyError:
            pass
    return str(number)


def interpreter(root: Path, program: PurePosixPath) -> PurePosixPath | None:
    """The interpreter a script's first line names (`#!/opt/db/bin/python3`), if any."""
    try:
        with open(_inside(root, program), "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    return PurePosixPath(words[0]) if words else None


@dataclass(frozen=True)
class Need:
    """One path the service needs, what for, and how (os.R_OK, os.X_OK)."""

    path: PurePosixPath
    what: str
    need: int


def program_needs(
    root: Path, program: PurePosixPath, package: PurePosixPath | None
) -> list[Need]:
    """What running `program` takes: the program, its interpreter, its virtual
    environment's pyvenv.cfg, and the folder of the package it imports (`package`)."""
    needs = [Need(program, "the program", os.R_OK | os.X_OK)]
    python = interpreter(root, program)
    if python is not None:
        needs.append(Need(python, "its Python", os.X_OK))
        venv_cfg = python.parent.parent / "pyvenv.cfg"
        if os.path.exists(_inside(root, venv_cfg)):
            needs.append(Need(venv_cfg, "its virtual environment", os.R_OK))
    if package is not None:
        needs.append(Need(package, "the draughtsboard package", os.R_OK | os.X_OK))
    return needs


def as_user_command(who: Account, program: PurePosixPath, *args: str) -> list[str]:
    """`program args` as `who` would run it under the unit: its ids and groups
    (`setpriv`), a clean environment, the service's working folder."""
    from host.appliance.systemd import STATE_DIR

    groups = ",".join(str(g) for g in sorted(who.groups))
    return [
        "setpriv", f"--reuid={who.uid}", f"--regid={who.gid}", f"--groups={groups}", "--",
        "env", "-i", f"--chdir={STATE_DIR}", "PATH=/usr/local/bin:/usr/bin:/bin",
        f"HOME={STATE_DIR}", "LANG=C.UTF-8", str(program), *args,
    ]  # fmt: skip
