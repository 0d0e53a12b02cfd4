"""The board as a systemd service: the unit file, installing it, and asking systemd.

Why a unit and not a script in rc.local: systemd starts the board at boot,
restarts it when that can help, stops it with SIGTERM, runs the LED blanking
after any stop (`ExecStopPost`) and keeps its log in the journal.

The restart policy follows the exit statuses of host/errors.py: a
configuration error (2: `run` checks its settings, folders and files as
`config --check` does before it starts) is never restarted
(`RestartPreventExitStatus`); anything else is, with no start limit, backing off
from 5 s to 5 minutes where systemd can (`RestartSteps`, systemd 254 and
later), every 15 s where it cannot (Raspberry Pi OS Bookworm has 252). A board
that is not plugged in is not a restart: `run` waits for it.

The board runs as an unprivileged user with the groups Raspberry Pi OS gives
its devices (raspberrypi-sys-mods' udev rules): `gpio` (/dev/gpiomem,
/dev/gpiochip*, the Pi 5's /dev/pio0), `spi` (/dev/spidev*: the LEDs),
`dialout` (/dev/ttyACM*, /dev/ttyUSB*: a USB board) and `audio` (/dev/snd:
speech), inside the sandbox `HARDENING` describes (`systemd-analyze security`
exposure 1.9, "OK", with systemd 252). What it leaves open, and why: every
device the board may use (`PrivateDevices=`, `DevicePolicy=` and
`ProtectClock=`, which closes the device list, stay off: the GPIO, SPI, PIO and
serial devices would disappear; their names differ between Pi models and
kernels, so no allow-list is safe),
/proc and /sys for reading (the Pi's libraries identify the board from
/proc/cpuinfo and /proc/device-tree: no `ProcSubset=pid`), the network (the
page and the club's broker), the user's other groups (`PrivateUsers=` would
drop the device groups), writable-executable memory (C extensions and libffi),
and resource calls (the computer's search lowers its own priority). It may
write only in its state and log folders (/var/lib/draughtsboard,
/var/log/draughtsboard, made and given to its user by systemd) and in the
folders its config names elsewhere (`ReadWritePaths=`, written at install);
home folders are read-only to it, and /run/user too, where PipeWire's socket
is found through `XDG_RUNTIME_DIR` (speech on Desktop images).

Everything that touches the system goes through `root` (a folder standing for
/) and `runner` (runs a command), so tests install into a temporary folder
and record the commands instead of running them.
"""

from __future__ import annotations

import os
import pwd
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

UNIT = "draughtsboard.service"
UNIT_DIR = Path("etc/systemd/system")
CONFIG = Path("etc/draughtsboard/config.toml")
#: the folders systemd makes for the service and gives to its user (StateDirectory=,
#: LogsDirectory=): the only places it may write besides those its config names
STATE_DIR = Path("/var/lib/draughtsboard")
LOG_DIR = Path("/var/log/draughtsboard")
GROUPS = ("gpio", "spi", "dialout", "audio")
DEFAULT_USER = "draughtsboard"
#: the first systemd that backs restarts off (RestartSteps=, RestartMaxDelaySec=)
BACKOFF_SINCE = 254

#: the sandbox (see the module docstring for what it leaves open, and why)
HARDENING = (
    "NoNewPrivileges=yes",
    "CapabilityBoundingSet=",
    "AmbientCapabilities=",
    "ProtectSystem=strict",
    "ProtectHome=read-only",
    "PrivateTmp=yes",
    "PrivateMounts=yes",
    "ProtectKernelTunables=yes",
    "ProtectKernelModules=yes",
    "ProtectKernelLogs=yes",
    "ProtectControlGroups=yes",
    "ProtectHostname=yes",
    "ProtectProc=invisible",
    "RestrictNamespaces=yes",
    "RestrictRealtime=yes",
    "RestrictSUIDSGID=yes",
    "LockPersonality=yes",
    "RemoveIPC=yes",
    "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
    "SystemCallArchitectures=native",
    "SystemCallFilter=@system-service",
    "SystemCallFilter=~@privileged",
    "SystemCallErrorNumber=EPERM",
)

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess[str]]


def run_command(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run a system command, capturing its output; a missing program is exit status 127."""
    try:
        return subprocess.run(list(args), capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        return subprocess.CompletedProcess(list(args), 127, "", f"{args[0]}: not found")


def systemctl() -> str:
    """The systemctl program (`DRAUGHTSBOARD_SYSTEMCTL` replaces it, for tests)."""
    return os.environ.get("DRAUGHTSBOARD_SYSTEMCTL", "systemctl")


@dataclass(frozen=True)
class ServiceState:
    """What systemd says about the unit: `active` (active, inactive, failed, activating...)
    and `enabled` (enabled, disabled, not-found...), or "unknown" without systemctl."""

    active: str
    enabled: str

    @property
    def installed(self) -> bool:
        return self.enabled not in ("not-found", "unknown", "")


def service_state(runner: Runner = run_command) -> ServiceState:
    def ask(verb: str) -> str:
        result = runner([systemctl(), verb, UNIT])
        if result.returncode == 127:
            return "unknown"
        return (result.stdout.strip().splitlines() or [""])[0] or "unknown"

    return ServiceState(active=ask("is-active"), enabled=ask("is-enabled"))


@dataclass(frozen=True)
class UnitSettings:
    """What the unit needs to know: the program, the user and its groups, the config,
    the user's id (its runtime folder, for speech), the folders outside STATE_DIR and
    LOG_DIR it writes (its config's), and whether systemd can back restarts off."""

    executable: Path
    user: str
    groups: tuple[str, ...]
    config: Path = Path("/") / CONFIG
    uid: int | None = None
    writable: tuple[Path, ...] = ()
    backoff: bool = False


def unit_text(s: UnitSettings) -> str:
    """The unit file. Paths are quoted where systemd allows, so a space cannot split them."""
    exe = str(s.executable)
    config = str(s.config)
    groups = f"SupplementaryGroups={' '.join(s.groups)}\n" if s.groups else ""
    if s.backoff:
        restart = "RestartSec=5\nRestartSteps=6\nRestartMaxDelaySec=300\n"
    else:
        restart = "RestartSec=15\n"
    runtime = f"Environment=XDG_RUNTIME_DIR=/run/user/{s.uid}\n" if s.uid is not None else ""
    writable = "".join(f'ReadWritePaths="-{path}"\n' for path in s.writable)
    return (
        "# Written by `draughtsboard service install`; "
        "removed by `draughtsboard service uninstall`.\n"
        "[Unit]\n"
        "Description=draughtsboard: the draughts board that knows the rules\n"
        "After=local-fs.target sound.target network.target\n"
        "StartLimitIntervalSec=0\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"User={s.user}\n"
        f"{groups}"
        f'ExecStart="{exe}" run --config "{config}"\n'
        f'ExecStopPost=-"{exe}" service leds-off --config "{config}"\n'
        "# exit status 2: a configuration error, fixed by a person; others: restart\n"
        "Restart=on-failure\n"
        f"{restart}"
        "RestartPreventExitStatus=2\n"
        f"StateDirectory={STATE_DIR.name}\n"
        f"LogsDirectory={LOG_DIR.name}\n"
        f"WorkingDirectory=%S/{STATE_DIR.name}\n"
        "Environment=PYTHONUNBUFFERED=1\n"
        f"{runtime}"
        "KillSignal=SIGTERM\n"
        "TimeoutStopSec=15\n"
        "# the sandbox: `systemd-analyze security draughtsboard`"
        " (host/appliance/systemd.py says why)\n"
        + "".join(f"{line}\n" for line in HARDENING)
        + writable
        + "\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
    )


def starter_config(board: str) -> str:
    """The first /etc/draughtsboard/config.toml (docs/config.md describes every key)."""
    return (
        "# draughtsboard: the service's settings (docs/config.md lists every key).\n"
        "# Check after editing: draughtsboard config --check /etc/draughtsboard/config.toml\n"
        "# Apply: sudo systemctl restart draughtsboard\n"
        f'board = "{board}"\n'
        f'data_dir = "{STATE_DIR}"\n'
        '# variant = "brazilian"\n'
        '# language = "pt-BR"        # or "en"\n'
        "# speech = true\n"
        '# hints = "full"            # "captures" or "off"\n'
        "# brightness = 0.3\n"
        '# layout = "standard-8x8"   # or your own layout file\n'
        "# The log is in the system journal (journalctl -u draughtsboard); a file too, in the\n"
        "# folder the service makes for its user:\n"
        f'# log_file = "{LOG_DIR}/board.log"\n'
    )


def systemd_version(root: Path = Path("/")) -> int | None:
    """The version of the systemd installed under `root`, from its shared library's name
    (libsystemd-shared-NNN.so, wherever the distribution puts it), or None."""
    found = []
    for pattern in ("usr/lib/systemd", "usr/lib/*/systemd", "lib/systemd", "lib/*/systemd"):
        for library in root.glob(f"{pattern}/libsystemd-shared-*.so"):
            number = library.name.removeprefix("libsystemd-shared-").removesuffix(".so")
            if number.isdigit():
                found.append(int(number))
    return max(found) if found else None


@dataclass
class System:
    """The machine the service is installed on: `root` stands for /."""

    root: Path = Path("/")
    runner: Runner = run_command
    log: list[str] = field(default_factory=list)

    @property
    def live(self) -> bool:
        """Installing on this very machine (not into a folder)?"""
        return self.root == Path("/")

    def path(self, relative: Path) -> Path:
        return self.root / relative

    @property
    def unit_path(self) -> Path:
        return self.path(UNIT_DIR / UNIT)

    @property
    def config_path(self) -> Path:
        return self.path(CONFIG)

    def runs_systemd(self) -> bool:
        """Whether systemd is this system's init, as sd_booted(3) tells: /run/systemd/system
        exists (not in a container or chroot without it, nor under another init)."""
        return self.path(Path("run/systemd/system")).is_dir()

    def groups(self) -> set[str]:
        """The group names in root's /etc/group."""
        try:
            text = self.path(Path("etc/group")).read_text(encoding="utf-8")
        except OSError:
            return set()
        return {line.split(":", 1)[0] for line in text.splitlines() if ":" in line}

    def user_exists(self, user: str) -> bool:
        if self.live:
            try:
                pwd.getpwnam(user)
            except KeyError:
                return False
            return True
        try:
            text = self.path(Path("etc/passwd")).read_text(encoding="utf-8")
        except OSError:
            return False
        return any(line.split(":", 1)[0] == user for line in text.splitlines())

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        self.log.append(" ".join(args))
        return self.runner(list(args))

    def systemctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        if self.live:
            return self.run(systemctl(), *args)
        return self.run(systemctl(), f"--root={self.root}", *args)
