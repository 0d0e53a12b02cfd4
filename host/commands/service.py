"""`draughtsboard service install|uninstall|status|leds-off`: the board at power-on.

`install` (as root) writes /etc/draughtsboard/config.toml if there is none,
refuses if that file does not pass `config --check`, creates the service's
user if needed, writes /etc/systemd/system/draughtsboard.service and enables
and starts it. `uninstall` stops, disables and removes the unit (the config
file, the journal and the saved games stay). `status` asks systemd; the
board's own state is `draughtsboard status`. `leds-off` blanks the board; the
unit runs it after every stop, even a crash.

`--root DIR` installs into DIR as if it were / (an image being prepared, or
the tests), without starting anything. On the machine itself, `install`
refuses before it writes anything when systemd is not running there (a
container, WSL without systemd), rather than leave a user and files behind.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from host.config import add_config_argument, check_files, load_config
from host.errors import UserError
from host.systemd import (
    DEFAULT_USER,
    GROUPS,
    STATE_DIR,
    UNIT,
    System,
    UnitSettings,
    service_state,
    starter_config,
    unit_text,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "service",
        help="run the board at power-on as a systemd service (install, uninstall, status)",
        description="Install, remove or query the systemd service that runs the board at boot.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    install = actions.add_parser("install", help="write, enable and start the service (root)")
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
    uninstall = actions.add_parser("uninstall", help="stop, disable and remove the service")
    uninstall.add_argument("--root", default="/", metavar="DIR", help="uninstall from DIR")
    actions.add_parser("status", help="what systemd says about the service")
    leds = actions.add_parser("leds-off", help="turn every LED of the configured board off")
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


def executable(given: str | None) -> Path:
    """The draughtsboard program the unit runs: absolute, so systemd finds it at boot."""
    if given:
        path = Path(given).expanduser().resolve()
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
    if not path.is_file() or not os.access(path, os.X_OK):
        raise UserError(f"{path} is not an executable program")
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
    program = executable(args.executable)

    config = system.config_path
    if not config.exists():
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(starter_config(args.board), encoding="utf-8")
        print(f"Wrote {config} (board {args.board}); edit it to taste.")
    errors = check_files([config])
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

    unit = system.unit_path
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(unit_text(UnitSettings(program, user, groups)), encoding="utf-8")
    unit.chmod(0o644)
    print(f"Wrote {unit} (runs {program} as {user}).")

    if system.live:
        _check(system.systemctl("daemon-reload"), "daemon-reload")
    verbs = ["enable"] if (args.no_start or not system.live) else ["enable", "--now"]
    _check(system.systemctl(*verbs, UNIT), " ".join(verbs))
    started = "enabled" if (args.no_start or not system.live) else "enabled and started"
    print(f"The board is {started}; it starts at every boot. See: draughtsboard status")
    return 0


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
        return 3
    print(f"{UNIT}: {state.active}, {state.enabled}")
    return 0 if state.active == "active" else 3


def _check(result, what: str) -> None:  # noqa: ANN001
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        raise UserError(f"systemctl {what} failed: {detail[-1] if detail else result.returncode}")


def leds_off(config_path: str | None) -> int:
    """Blank the configured board; what the unit runs after every stop."""
    from engine import get_variant
    from host.live_board import LiveBoard

    config = load_config(config_path)
    board = LiveBoard(config.board, get_variant(config.variant), layout=config.layout)
    board.close()  # closing a board turns every LED off
    return 0
