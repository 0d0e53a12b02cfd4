"""`draughtsboard service install|uninstall|status|leds-off`: the board at power-on.

`install` (as root) writes /etc/draughtsboard/config.toml if there is none,
refuses if that file does not pass `config --check`, creates the service's
user if needed, checks that this user can run the program and read the config
(host/appliance/service_user.py; on the machine itself by running `config --check` as
that user, which also proves it may write its folders) and says how to fix it
when it cannot, makes the folders systemd gives the service (state, logs),
writes /etc/systemd/system/draughtsboard.service with its sandbox
(host/appliance/systemd.py) and enables and starts it. `uninstall` stops, disables and
removes the unit (the config file, the journal and the saved games stay).
`status` asks systemd; the board's own state is `draughtsboard status`.
`leds-off` blanks the board; the unit runs it after every stop, even a crash.

`--root DIR` installs into DIR as if it were / (an image being prepared, or
the tests), without starting anything: the program must be in DIR (at the
path the unit will run), and it is checked there, file modes and all. On the
machine itself, `install` refuses before it writes anything when systemd is
not running there (a container, WSL without systemd), rather than leave a
user and files behind.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
from pathlib import Path, PurePosixPath

import host
from host.appliance.service_user import (
    Account,
    Need,
    account,
    as_user_command,
    program_needs,
    what_blocks,
)
from host.appliance.systemd import (
    BACKOFF_SINCE,
    CONFIG,
    DEFAULT_USER,
    GROUPS,
    LOG_DIR,
    STATE_DIR,
    UNIT,
    System,
    UnitSettings,
    service_state,
    starter_config,
    systemd_version,
    unit_text,
)
from host.config import add_config_argument, build, check_files, load_config, read_file
from host.config.places import FOLDER, READ_FILE, needed_places
from host.errors import ExitStatus, UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "service",
        help="run the board at power-on as a systemd service (install, uninstall, status)",
        description="Install, remove or query the systemd service that runs the board at boot.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    install = actions.add_parser(
        "install", help="write, enable and start the service (root)",
        description="Write /etc/draughtsboard/config.toml if there is none and check it, "
        "make sure the service's user can run the program and read its config, then write, "
        "enable and start the draughtsboard systemd service. Run it as root (sudo).",
    )
    install.add_argument(
        "--user",
        help=f"the unprivileged user it runs as (default: the user behind sudo, else "
        f"{DEFAULT_USER}, created if missing)",
    )
    install.add_argument("--board", default="gpio", help="board for a new config file (gpio)")
    install.add_argument("--executable", help="the draughtsboard program (default: this one)")
    install.add_argument("--no-start", action="store_true", help="enable only; start at boot")
    install.add_argument(
        "--root", default="/", metavar="DIR", help="install into DIR as if it were / (no start)"
    )
    uninstall = actions.add_parser(
        "uninstall", help="stop, disable and remove the service",
        description="Stop, disable and remove the draughtsboard service; its config file, "
        "journal and saved games stay.",
    )
    uninstall.add_argument("--root", default="/", metavar="DIR", help="uninstall from DIR")
    actions.add_parser(
        "status", help="what systemd says about the service",
        description="What systemd says about the draughtsboard service; the game itself: "
        "draughtsboard status.",
    )
    leds = actions.add_parser(
        "leds-off", help="turn every LED of the configured board off",
        description="Turn every LED of the configured board off (the service runs this after "
        "every stop, even a crash).",
    )
    add_config_argument(leds)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "install":
        system = System(Path(args.root))
        return install(system, args)
    if args.action == "uninstall":
        return uninstall(System(Path(args.root)))
    if args.action == "status":
        return status(System())
    return leds_off(args.config)


def _require_root(system: System) -> None:
    if system.live and os.geteuid() != 0:
        raise UserError("this needs root: run it with sudo")


def executable(given: str | None, system: System) -> Path:
    """The draughtsboard program the unit runs: absolute, so systemd finds it at boot, and
    present in the system being installed."""
    if given:
        path = Path(given).expanduser()
        path = path.resolve() if system.live else Path("/") / path
    else:
        argv0 = Path(sys.argv[0])
        found = shutil.which("draughtsboard")
        if argv0.name == "draughtsboard" and argv0.exists():
            path = argv0.resolve()
        elif (Path(sys.executable).parent / "draughtsboard").exists():
            path = Path(sys.executable).parent / "draughtsboard"
        elif found:
            path = Path(found).resolve()
        else:
            raise UserError("cannot find the draughtsboard program: pass --executable PATH")
    inside = system.path(path.relative_to("/"))
    if not inside.is_file() or not os.access(inside, os.X_OK):
        where = "" if system.live else f" in {system.root}"
        raise UserError(f"{path} is not an executable program{where}")
    return path


def install(system: System, args: argparse.Namespace) -> int:
    _require_root(system)
    if system.live and not system.runs_systemd():  # before anything is written
        raise UserError(
            "systemd is not running on this machine (no /run/systemd/system): nothing was "
            "installed; to prepare a card for a Pi, use --root DIR"
        )
    user = args.user or os.environ.get("SUDO_USER") or DEFAULT_USER
    if user == "root":
        raise UserError("the service runs as an unprivileged user: pass --user USER")
    program = executable(args.executable, system)

    config = system.config_path
    if not config.exists():
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(starter_config(args.board), encoding="utf-8")
        config.chmod(0o644)
        print(f"Wrote {config} (board {args.board}); edit it to taste.")
    # the folders are the service user's to write: checked as that user below
    errors = check_files([config], places=False)
    if errors:
        for error in errors:
            print(str(error), file=sys.stderr)
        raise UserError(
            f"{config} has {len(errors)} error(s): fix them (draughtsboard config --check "
            f"{config}), then install again"
        )

    if not system.user_exists(user):
        useradd = ["useradd", "--system", "--home-dir", str(STATE_DIR), "--no-create-home"]
        useradd += ["--shell", "/usr/sbin/nologin"]
        if not system.live:
            useradd += ["--root", str(system.root)]
        result = system.run(*useradd, user)
        if result.returncode != 0:
            raise UserError(f"cannot create the user {user}: {result.stderr.strip()}")
        print(f"Created the system user {user}.")
    present = system.groups()
    groups = tuple(g for g in GROUPS if g in present)
    missing = [g for g in GROUPS if g not in present]
    if missing:
        print(f"Note: no group {', '.join(missing)} on this system (not a Raspberry Pi OS?).")

    who = account(system.root, user, groups)
    if who is None:
        raise UserError(f"the user {user} was not found in {system.path(Path('etc/passwd'))}")
    _check_reach(system, who, program)
    _make_folders(system, who)
    if system.live:
        _check_as_user(system, who, program)

    settings = UnitSettings(
        program,
        user,
        groups,
        uid=who.uid if who.uid >= FIRST_LOGIN_UID else None,  # a desktop's runtime folder
        writable=_writable_elsewhere(system),
        backoff=(systemd_version(system.root) or 0) >= BACKOFF_SINCE,
    )
    unit = system.unit_path
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(unit_text(settings), encoding="utf-8")
    unit.chmod(0o644)
    print(f"Wrote {unit} (runs {program} as {user}).")

    if system.live:
        _check(system.systemctl("daemon-reload"), "daemon-reload")
    verbs = ["enable"] if (args.no_start or not system.live) else ["enable", "--now"]
    _check(system.systemctl(*verbs, UNIT), " ".join(verbs))
    started = "enabled" if (args.no_start or not system.live) else "enabled and started"
    print(f"The board is {started}; it starts at every boot. See: draughtsboard status")
    return 0


#: the first user id Debian gives a person (below: system users, who have no desktop)
FIRST_LOGIN_UID = 1000


def _check_reach(system: System, who: Account, program: Path) -> None:
    """Refuse, saying how to fix it, when `who` cannot run `program` or read the config."""
    package = None
    if system.live and program.parent == Path(sys.executable).parent:  # this very program
        package = PurePosixPath(Path(host.__file__).resolve().parent)
    needs = program_needs(system.root, PurePosixPath(program), package)
    needs.append(Need(PurePosixPath("/") / CONFIG, "its config", os.R_OK))
    blocked = []
    for need in needs:
        why = what_blocks(system.root, need.path, who, need.need)
        if why is not None:
            blocked.append(f"  {need.what} ({need.path}): {why}")
    if not blocked:
        return
    raise UserError(
        f"the service's user {who.name} cannot run the board:\n" + "\n".join(blocked) + "\n"
        "Put the program where every user may read it, for example a virtual environment "
        "under /opt: sudo python3 -m venv /opt/draughtsboard && sudo "
        "/opt/draughtsboard/bin/pip install '/path/to/draughtsboard[pi]' (not -e: the "
        "source may stay private), then install again with --executable "
        f"/opt/draughtsboard/bin/draughtsboard; or run the service as the user who owns "
        f"the program (--user USER). A config it cannot read: sudo chmod 644 /{CONFIG}"
    )


def _make_folders(system: System, who: Account) -> None:
    """The state and log folders, owned by the service's user, as systemd makes them at
    start (StateDirectory=, LogsDirectory=): made now, so the check as that user can
    write there."""
    for folder in (STATE_DIR, LOG_DIR):
        path = system.path(folder.relative_to("/"))
        path.mkdir(parents=True, exist_ok=True)
        path.chmod(0o755)
        with contextlib.suppress(PermissionError):  # not root: a test's folder
            os.chown(path, who.uid, who.gid)


def _check_as_user(system: System, who: Account, program: Path) -> None:
    """Run `config --check` on the service's config as its user: the program starts, reads
    the config, and may use every folder and file it names."""
    result = system.run(*as_user_command(who, PurePosixPath(program), "config", "--check",
                                         str(Path("/") / CONFIG)))  # fmt: skip
    if result.returncode == 127 and "setpriv" in (result.stderr or ""):
        print("Note: no setpriv here: the check as the service's user was left out.")
        return
    if result.returncode != 0:
        said = (result.stderr or result.stdout or "").strip()
        raise UserError(
            f"run as {who.name}, the board cannot start (exit status {result.returncode}):\n"
            f"{said}\nFix that, then install again."
        )


def _writable_elsewhere(system: System) -> tuple[Path, ...]:
    """The folders the service's config names outside the state and log folders: the
    sandbox must let it write there too (ReadWritePaths=)."""
    config = build([read_file(system.config_path, [])])  # this file alone: checked above
    folders = set()
    for place in needed_places(config):
        if place.use == READ_FILE:
            continue
        folder = place.path if place.use == FOLDER else place.path.parent
        if not system.live and folder.is_relative_to(system.root):
            folder = Path("/") / folder.relative_to(system.root)
        if not any(folder.is_relative_to(mine) for mine in (STATE_DIR, LOG_DIR)):
            folders.add(folder)
    return tuple(sorted(folders))


def uninstall(system: System) -> int:
    _require_root(system)
    unit = system.unit_path
    if not unit.exists():
        print(f"No service installed ({unit} is absent).")
        return 0
    verbs = ["disable", "--now"] if system.live else ["disable"]
    _check(system.systemctl(*verbs, UNIT), " ".join(verbs))
    unit.unlink()
    if system.live:
        _check(system.systemctl("daemon-reload"), "daemon-reload")
    print(
        f"Removed {unit}. The config ({system.config_path}), the journal and the saved games "
        "are kept."
    )
    return 0


def status(system: System) -> int:
    state = service_state(system.runner)
    if not state.installed:
        print("The service is not installed (draughtsboard service install).")
        return ExitStatus.NOT_RUNNING
    print(f"{UNIT}: {state.active}, {state.enabled}")
    return ExitStatus.OK if state.active == "active" else ExitStatus.NOT_RUNNING


def _check(result, what: str) -> None:  # noqa: ANN001
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise UserError(f"systemctl {what} failed: {detail[-1] if detail else result.returncode}")


def leds_off(config_path: str | None) -> int:
    """Blank the configured board; what the unit runs after every stop."""
    from engine import get_variant
    from host.live.board import LiveBoard

    config = load_config(config_path)
    board = LiveBoard(config.board, get_variant(config.variant), layout=config.layout)
    board.close()  # closing a board turns every LED off
    return 0
