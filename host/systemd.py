"""The board as a systemd service: the unit file, installing it, and asking systemd.

Why a unit and not a script in rc.local: systemd starts the board at boot,
restarts it after a crash (`Restart=on-failure`), stops it with SIGTERM,
runs the LED blanking after any stop (`ExecStopPost`), keeps its log in the
journal, and refuses to start it when its config file is bad (`ExecStartPre`
runs `config --check`; exit status 2 is a configuration error, which
`RestartPreventExitStatus` keeps from restarting in a loop).

The board runs as an unprivileged user with the groups Raspberry Pi OS gives
its devices (raspberrypi-sys-mods' udev rules): `gpio` (/dev/gpiomem,
/dev/gpiochip*, the Pi 5's /dev/pio0), `spi` (/dev/spidev*: the LEDs),
`dialout` (/dev/ttyACM*: a USB board) and `audio` (/dev/snd: speech).

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
STATE_DIR = Path("/var/lib/draughtsboard")
GROUPS = ("gpio", "spi", "dialout", "audio")
DEFAULT_USER = "draughtsboard"

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
    """What the unit needs to know: the program, the user and its groups, the config."""

    executable: Path
    user: str
    groups: tuple[str, ...]
    config: Path = Path("/") / CONFIG


def unit_text(s: UnitSettings) -> str:
    """The unit file. Paths are quoted where systemd allows, so a space cannot split them."""
    exe = str(s.executable)
    config = str(s.config)
    groups = f"SupplementaryGroups={' '.join(s.groups)}\n" if s.groups else ""
    return (
        "# Written by `draughtsboard service install`; "
        "removed by `draughtsboard service uninstall`.\n"
        "[Unit]\n"
        "Description=draughtsboard: the draughts board that knows the rules\n"
        "After=local-fs.target sound.target\n"
        "StartLimitIntervalSec=300\n"
        "StartLimitBurst=5\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"User={s.user}\n"
        f"{groups}"
        f'ExecStartPre="{exe}" config --check "{config}"\n'
        f'ExecStart="{exe}" run --config "{config}"\n'
        f'ExecStopPost=-"{exe}" service leds-off --config "{config}"\n'
        "Restart=on-failure\n"
        "RestartSec=5\n"
        "RestartPreventExitStatus=2\n"
        "StateDirectory=draughtsboard\n"
        "WorkingDirectory=%S/draughtsboard\n"
        "Environment=PYTHONUNBUFFERED=1\n"
        "KillSignal=SIGTERM\n"
        "TimeoutStopSec=15\n"
        "\n"
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
        '# log_file = "/var/log/draughtsboard/board.log"\n'
    )


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
