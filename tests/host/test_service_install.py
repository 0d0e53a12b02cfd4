"""`service install` as a Pi owner meets it: a user who cannot reach the program, the
sandbox the unit gets (systemd-analyze security), the restart policy of the exit
statuses, and the folders the sandbox must leave writable.

Installed into a folder standing for / (tests/host/test_service.py's fake_root: its
own passwd and group files, Python in /usr/bin, the program in a virtual environment),
so file modes are checked there for the user named; `systemd-analyze` is the real one
(systemd 252 here and on Raspberry Pi OS Bookworm).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from host.appliance.service_user import Account, as_user_command
from host.appliance.systemd import HARDENING, UNIT, System
from host.commands import service
from host.errors import ExitStatus, UserError
from tests.host.test_service import PROGRAM, Recorder, fake_root, install_args, put
from tests.tools import find, need, need_tool

PRIVATE_PROGRAM = "/root/draughtsboard/.venv/bin/draughtsboard"


def installed_unit(root: Path) -> str:
    return (root / "etc" / "systemd" / "system" / UNIT).read_text()


def exposure(analyze: str, unit: Path) -> float:
    """`systemd-analyze security --offline=yes`'s overall exposure for `unit`."""
    done = subprocess.run([analyze, "security", "--offline=yes", str(unit)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


# -- who may run it ----------------------------------------------------------------------


def test_a_system_user_who_cannot_reach_a_program_in_roots_home_is_refused_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fake_root(tmp_path, program=PRIVATE_PROGRAM)
    (root / "root").chmod(0o700)  # root's home, as always
    runner = Recorder()
    with pytest.raises(UserError) as caught:
        service.install(System(root, runner), install_args(user=None,
                                                           executable=PRIVATE_PROGRAM))
    said = str(caught.value)
    lines = said.splitlines()
    assert lines[0] == "the service's user draughtsboard cannot run the board:"
    # names as the system being installed knows them (its own passwd and group files)
    blocked = r"draughtsboard may not go through /root \(owner \S+, group \S+, drwx------\)"
    assert re.fullmatch(rf"  the program \({PRIVATE_PROGRAM}\): {blocked}", lines[1])
    assert re.fullmatch(rf"  its Python \(/root/draughtsboard/.venv/bin/python3\): {blocked}",
                        lines[2])  # fmt: skip
    assert "sudo python3 -m venv /opt/draughtsboard" in said
    assert "--executable /opt/draughtsboard/bin/draughtsboard" in said
    assert not (root / "etc" / "systemd").exists()  # no unit that would fail at every boot
    assert "Created the system user draughtsboard." in capsys.readouterr().out


def test_the_user_who_owns_the_private_program_may_run_it(tmp_path: Path) -> None:
    program = "/home/pi/draughtsboard/.venv/bin/draughtsboard"
    root = fake_root(tmp_path, users="pi", program=program)
    home = root / "home" / "pi"
    home.chmod(0o700)
    if os.geteuid() == 0:  # the home is pi's (uid 1000)
        os.chown(home, 1000, 1000)
    else:  # pi is whoever runs the test, who owns the home already
        passwd = root / "etc" / "passwd"
        passwd.write_text(passwd.read_text().replace(
            "pi:x:1000:1000:", f"pi:x:{os.getuid()}:{os.getgid()}:"))  # fmt: skip
    service.install(System(root, Recorder()), install_args(user="pi", executable=program))
    assert f'ExecStart="{program}" run' in installed_unit(root)
    with pytest.raises(UserError, match="draughtsboard may not go through /home/pi"):
        service.install(System(root, Recorder()), install_args(user=None, executable=program))


def test_a_config_the_user_cannot_read_is_refused(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    config = put(root, "/etc/draughtsboard/config.toml", 'board = "gpio"\n', 0o600)
    with pytest.raises(UserError) as caught:
        service.install(System(root, Recorder()), install_args(user="pi"))
    assert "its config (/etc/draughtsboard/config.toml): pi may not read" in str(caught.value)
    assert "sudo chmod 644 /etc/draughtsboard/config.toml" in str(caught.value)
    assert config.read_text() == 'board = "gpio"\n'


def test_a_symbolic_link_out_of_reach_is_followed(tmp_path: Path) -> None:
    """/opt/draughtsboard/bin/python3 -> a Python under a private folder."""
    root = fake_root(tmp_path)
    python = root / "opt" / "draughtsboard" / "bin" / "python3"
    python.unlink()
    put(root, "/root/.pyenv/versions/3.11.7/bin/python3.11", "an interpreter", 0o755)
    (root / "root").chmod(0o700)
    python.symlink_to("/root/.pyenv/versions/3.11.7/bin/python3.11")
    with pytest.raises(UserError, match=r"its Python .*: pi may not go through /root"):
        service.install(System(root, Recorder()), install_args(user="pi"))


@pytest.mark.parametrize("reachable", [True, False])
def test_config_check_runs_as_the_user_for_real(tmp_path: Path, reachable: bool) -> None:
    """What a live install runs: the command as the user (setpriv), for real, here as
    nobody (65534), on a program in a folder everyone may enter, or in a private one."""
    setpriv = find("setpriv")
    need_tool("setpriv", os.geteuid() == 0 and setpriv is not None, "needs root and setpriv")
    with tempfile.TemporaryDirectory(dir="/tmp") as shared:
        folder = Path(shared) if reachable else tmp_path  # pytest's folders are 0700
        Path(shared).chmod(0o755)
        program = folder / "draughtsboard"
        program.write_text("#!/bin/sh\necho \"checked as $(id -u): $*\"\n")
        program.chmod(0o755)
        nobody = Account("nobody", 65534, 65534, frozenset({65534}))
        command = as_user_command(nobody, program, "config", "--check", "/etc/x.toml")
        command[command.index("env") + 2] = "--chdir=/"  # no /var/lib/draughtsboard here
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if reachable:
        assert done.returncode == 0
        assert done.stdout == "checked as 65534: config --check /etc/x.toml\n"
    else:
        assert done.returncode != 0 and "Permission denied" in done.stderr


# -- the sandbox and the restart policy ------------------------------------------------------


def test_the_installed_unit_verifies_and_its_exposure_is_at_most_3(tmp_path: Path) -> None:
    """`systemd-analyze security` scores the unit's sandbox: 9.2 ("UNSAFE") without it."""
    analyze = need("systemd-analyze")
    root = fake_root(tmp_path)
    service.install(System(root, Recorder()), install_args(user="pi"))
    text = installed_unit(root)
    unit = tmp_path / UNIT  # verify needs the program to exist here: this checkout's
    unit.write_text(text.replace(f'"{install_args().executable}"', f'"{PROGRAM}"'))
    verified = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                              timeout=120)  # fmt: skip
    assert verified.returncode == 0, verified.stderr
    assert not [line for line in verified.stderr.splitlines() if str(unit) in line]
    hardened = exposure(analyze, unit)
    assert hardened <= 3.0
    bare = tmp_path / "bare" / UNIT
    bare.parent.mkdir()
    bare.write_text("".join(line + "\n" for line in unit.read_text().splitlines()
                            if line not in HARDENING))  # fmt: skip
    assert exposure(analyze, bare) >= 9.0 > hardened


def test_every_device_the_board_uses_stays_reachable(tmp_path: Path) -> None:
    """GPIO (/dev/gpiomem, /dev/gpiochip*), SPI (/dev/spidev*), the Pi 5's PIO (/dev/pio0),
    USB serial (/dev/ttyACM*, /dev/ttyUSB*) and sound are reached through the device
    groups: no private /dev, no device allow-list (ProtectClock= would make one), no
    private users (which would drop the groups), /proc's hardware files readable."""
    root = fake_root(tmp_path)
    service.install(System(root, Recorder()), install_args(user="pi"))
    lines = installed_unit(root).splitlines()
    assert "SupplementaryGroups=gpio spi dialout audio" in lines
    keys = {line.split("=")[0] for line in lines if "=" in line}
    closed = {"PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "PrivateUsers",
              "ProcSubset", "DynamicUser"}  # fmt: skip
    assert not keys & closed
    assert "ProtectHome=read-only" in lines  # a venv in the owner's home stays readable
    assert "Environment=XDG_RUNTIME_DIR=/run/user/1000" in lines  # PipeWire's socket


def test_the_restart_policy_follows_the_exit_statuses(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    service.install(System(root, Recorder()), install_args(user="pi"))
    lines = installed_unit(root).splitlines()
    assert f"RestartPreventExitStatus={int(ExitStatus.CONFIGURATION)}" in lines
    assert "Restart=on-failure" in lines and "StartLimitIntervalSec=0" in lines
    assert "RestartSec=15" in lines and not any("RestartSteps" in line for line in lines)
    # a systemd that backs off (254 and later: Trixie has 257)
    root2 = fake_root(tmp_path / "trixie")
    put(root2, "/usr/lib/aarch64-linux-gnu/systemd/libsystemd-shared-257.so", "", 0o644)
    service.install(System(root2, Recorder()), install_args(user="pi"))
    lines = installed_unit(root2).splitlines()
    assert {"RestartSec=5", "RestartSteps=6", "RestartMaxDelaySec=300"} <= set(lines)


def test_folders_the_config_names_elsewhere_stay_writable_in_the_sandbox(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    put(root, "/etc/draughtsboard/config.toml",
        'board = "gpio"\ndata_dir = "/var/lib/draughtsboard"\ngames_dir = "/srv/club/games"\n'
        'log_file = "/var/log/draughtsboard/board.log"\n')  # fmt: skip
    service.install(System(root, Recorder()), install_args(user="pi"))
    lines = installed_unit(root).splitlines()
    assert [line for line in lines if line.startswith("ReadWritePaths")] == [
        'ReadWritePaths="-/srv/club/games"'
    ]
    for folder in ("var/lib/draughtsboard", "var/log/draughtsboard"):  # made as systemd would
        assert (root / folder).is_dir()
        if os.geteuid() == 0:
            assert (root / folder).stat().st_uid == 1000
