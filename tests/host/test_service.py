"""The systemd service: unit text, systemd-analyze verify and security, install and
uninstall into a folder standing for / (no root needed), with systemctl and useradd
recorded, not run (useradd's effect on the folder's passwd and group files is played)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.appliance.systemd import UNIT, System, UnitSettings, service_state, unit_text
from host.commands import service
from host.config import check_files
from host.errors import UserError
from tests.tools import need

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(sys.executable).parent / "draughtsboard"
#: where the program stands in the systems installed into (fake_root)
IMAGE_PROGRAM = "/opt/draughtsboard/bin/draughtsboard"


class Recorder:
    """Stands in for running commands: records them, answers with `answers`. useradd
    --root R NAME adds NAME to R's passwd and group files, as useradd --system does
    (Debian's shadow 4.13: a system id below 1000 and a group of the user's name)."""

    def __init__(self, answers: dict[str, tuple[int, str]] | None = None) -> None:
        self.calls: list[list[str]] = []
        self.answers = answers or {}

    def __call__(self, args) -> subprocess.CompletedProcess[str]:
        self.calls.append(list(args))
        if args[0] == "useradd" and "--root" in args:
            root = Path(args[args.index("--root") + 1])
            with open(root / "etc" / "passwd", "a") as passwd:
                passwd.write(f"{args[-1]}:x:998:998::/var/lib/draughtsboard:/usr/sbin/nologin\n")
            with open(root / "etc" / "group", "a") as group:
                group.write(f"{args[-1]}:x:998:\n")
        code, out = self.answers.get(" ".join(args[1:]), (0, ""))
        return subprocess.CompletedProcess(list(args), code, out, "" if code == 0 else "boom")


def put(root: Path, path: str, text: str = "", mode: int = 0o644) -> Path:
    """A file in the system under `root`, its folders made 0755 on the way."""
    inside = root / path.lstrip("/")
    for folder in reversed(inside.parents):
        if folder.is_relative_to(root) and not folder.exists():
            folder.mkdir(mode=0o755)
    inside.write_text(text)
    inside.chmod(mode)
    return inside


def fake_root(
    tmp_path: Path, users: str = "pi", groups=("gpio", "spi", "dialout", "audio"),
    program: str = IMAGE_PROGRAM,
) -> Path:  # fmt: skip
    """A system with `users` (uid 1000...) and `groups`, Python in /usr/bin and the
    draughtsboard program in a virtual environment at `program`, all readable by all."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text(
        "root:x:0:0::/root:/bin/bash\n"
        + "".join(f"{u}:x:{1000 + i}:{1000 + i}::/home/{u}:/bin/bash\n"
                  for i, u in enumerate(users.split()))
    )  # fmt: skip
    (root / "etc" / "group").write_text(
        "".join(f"{g}:x:{900 + i}:{users.split()[0] if users else ''}\n"
                for i, g in enumerate(groups))
    )  # fmt: skip
    put(root, "/usr/bin/python3.11", "an interpreter", 0o755)
    (root / "usr" / "bin" / "python3").symlink_to("python3.11")
    venv = Path(program).parent.parent
    put(root, program, f"#!{venv}/bin/python3\nfrom host.cli import main\n", 0o755)
    (root / str(venv / "bin" / "python3").lstrip("/")).symlink_to("/usr/bin/python3")
    put(root, str(venv / "pyvenv.cfg"), "home = /usr/bin\n")
    return root


def install_args(**kw) -> argparse.Namespace:
    base = {"user": "pi", "board": "gpio", "executable": IMAGE_PROGRAM, "no_start": False}
    base.update(kw)
    return argparse.Namespace(**base)


def test_the_unit_runs_the_board_as_a_user_with_the_device_groups() -> None:
    text = unit_text(
        UnitSettings(Path("/opt/db/bin/draughtsboard"), "pi", ("gpio", "spi", "dialout"))
    )
    lines = text.splitlines()
    assert "User=pi" in lines
    assert "SupplementaryGroups=gpio spi dialout" in lines
    config = '"/etc/draughtsboard/config.toml"'
    # `run` checks its settings itself (exit 2): an ExecStartPre's status would not count
    # for RestartPreventExitStatus, which looks at the main process only
    assert not any(line.startswith("ExecStartPre") for line in lines)
    assert f'ExecStart="/opt/db/bin/draughtsboard" run --config {config}' in lines
    assert f'ExecStopPost=-"/opt/db/bin/draughtsboard" service leds-off --config {config}' in lines
    assert "Restart=on-failure" in lines and "RestartPreventExitStatus=2" in lines
    assert "KillSignal=SIGTERM" in lines and "StateDirectory=draughtsboard" in lines
    assert "WantedBy=multi-user.target" in lines
    assert not any(line.startswith("User=root") for line in lines)


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    analyze = need("systemd-analyze")
    unit = tmp_path / UNIT
    unit.write_text(unit_text(UnitSettings(PROGRAM, "pi", ("gpio", "spi", "dialout", "audio"))))
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=120
    )
    ours = [line for line in result.stderr.splitlines() if UNIT in line or str(unit) in line]
    assert result.returncode == 0, result.stderr
    assert ours == [], ours  # systemd-analyze only warns about a bad key: none may mention ours


def test_systemd_analyze_would_catch_a_broken_unit(tmp_path: Path) -> None:
    """Guards the test above: the same check fails on a unit with a bad key."""
    analyze = need("systemd-analyze")
    unit = tmp_path / UNIT
    text = unit_text(UnitSettings(PROGRAM, "pi", ()))
    unit.write_text(text.replace("Restart=on-failure", "Restart=sometimes"))
    result = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=120
    )
    assert any(str(unit) in line for line in result.stderr.splitlines())


def test_install_into_a_root_folder(tmp_path: Path, capsys) -> None:
    root = fake_root(tmp_path, groups=("gpio", "spi", "dialout", "audio", "video"))
    runner = Recorder()
    assert service.install(System(root, runner), install_args()) == 0
    config = root / "etc" / "draughtsboard" / "config.toml"
    assert (
        'board = "gpio"' in config.read_text()
        and 'data_dir = "/var/lib/draughtsboard"' in config.read_text()
    )
    unit = (root / "etc" / "systemd" / "system" / UNIT).read_text()
    assert "User=pi" in unit and "SupplementaryGroups=gpio spi dialout audio\n" in unit
    assert f'ExecStart="{IMAGE_PROGRAM}" run' in unit
    assert runner.calls == [["systemctl", f"--root={root}", "enable", UNIT]]
    assert "enabled" in capsys.readouterr().out


def test_install_creates_a_system_user_and_keeps_only_existing_groups(
    tmp_path: Path, capsys
) -> None:
    root = fake_root(tmp_path, users="", groups=("dialout", "audio"))
    runner = Recorder()
    service.install(System(root, runner), install_args(user=None))
    useradd = runner.calls[0]
    assert useradd[0] == "useradd" and useradd[-1] == "draughtsboard" and "--system" in useradd
    assert ["--root", str(root)] == useradd[-3:-1]
    unit = (root / "etc" / "systemd" / "system" / UNIT).read_text()
    assert "User=draughtsboard" in unit and "SupplementaryGroups=dialout audio\n" in unit
    assert "no group gpio, spi" in capsys.readouterr().out


def test_install_refuses_a_bad_config_and_changes_nothing(tmp_path: Path, capsys) -> None:
    root = fake_root(tmp_path)
    config = root / "etc" / "draughtsboard" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('board = "gpio"\nbrightness = 4\nlanguage = "de"\n')
    runner = Recorder()
    with pytest.raises(UserError, match="2 error"):
        service.install(System(root, runner), install_args())
    err = capsys.readouterr().err
    assert "brightness = 4" in err and 'language = "de"' in err
    assert not (root / "etc" / "systemd").exists() and runner.calls == []


def test_install_refuses_root_as_the_user_and_a_non_root_caller(
    tmp_path: Path, monkeypatch
) -> None:
    with pytest.raises(UserError, match="unprivileged"):
        service.install(System(fake_root(tmp_path), Recorder()), install_args(user="root"))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(UserError, match="sudo"):
        service.install(System(Path("/"), Recorder()), install_args())


def test_a_failing_systemctl_is_one_error(tmp_path: Path) -> None:
    runner = Recorder({f"--root={tmp_path / 'root'} enable {UNIT}": (1, "")})
    with pytest.raises(UserError, match="systemctl enable failed: boom"):
        service.install(System(fake_root(tmp_path), runner), install_args())


def test_live_install_reloads_enables_and_starts(tmp_path: Path, monkeypatch) -> None:
    root = fake_root(tmp_path)
    (root / "run" / "systemd" / "system").mkdir(parents=True)  # systemd is PID 1
    system = System(root, Recorder())
    monkeypatch.setattr(System, "live", property(lambda self: True))
    monkeypatch.setattr(System, "user_exists", lambda self, user: True)
    service.install(system, install_args())
    check, *rest = system.runner.calls
    # first `config --check` as the service's user, with its ids and groups (pi: 1000,
    # and the device groups 900-903), in a clean environment
    assert check[:5] == ["setpriv", "--reuid=1000", "--regid=1000",
                         "--groups=900,901,902,903,1000", "--"]  # fmt: skip
    assert check[-4:] == [IMAGE_PROGRAM, "config", "--check", "/etc/draughtsboard/config.toml"]
    assert [c[1:] for c in rest] == [["daemon-reload"], ["enable", "--now", UNIT]]


def test_live_install_without_systemd_running_changes_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    root = fake_root(tmp_path, users="")  # no /run/systemd/system: a container, say
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    system = System(root, Recorder())
    monkeypatch.setattr(System, "live", property(lambda self: True))
    monkeypatch.setattr(os, "geteuid", lambda: 0)  # as under sudo
    with pytest.raises(UserError, match="systemd is not running.*nothing was installed"):
        service.install(system, install_args(user=None))
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert system.runner.calls == []  # no useradd, no systemctl


def test_uninstall_disables_and_removes_the_unit_and_keeps_the_config(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    service.install(System(root, Recorder()), install_args())
    runner = Recorder()
    assert service.uninstall(System(root, runner)) == 0
    assert not (root / "etc" / "systemd" / "system" / UNIT).exists()
    assert (root / "etc" / "draughtsboard" / "config.toml").exists()
    assert runner.calls == [["systemctl", f"--root={root}", "disable", UNIT]]
    assert service.uninstall(System(root, Recorder())) == 0  # twice is fine


def test_service_state_reads_systemctl() -> None:
    runner = Recorder(
        {f"is-active {UNIT}": (3, "failed\n"), f"is-enabled {UNIT}": (0, "enabled\n")}
    )
    state = service_state(runner)
    assert (state.active, state.enabled, state.installed) == ("failed", "enabled", True)
    missing = service_state(lambda args: subprocess.CompletedProcess(args, 127, "", ""))
    assert (missing.active, missing.installed) == ("unknown", False)


def test_service_install_from_the_command_line_into_a_folder(tmp_path: Path) -> None:
    root = fake_root(tmp_path)
    log = tmp_path / "systemctl.log"
    fake = tmp_path / "systemctl"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    fake.chmod(0o755)
    env = {**os.environ, "DRAUGHTSBOARD_SYSTEMCTL": str(fake)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "host.cli",
            "service",
            "install",
            "--root",
            str(root),
            "--user",
            "pi",
            "--executable",
            IMAGE_PROGRAM,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert log.read_text() == f"--root={root} enable {UNIT}\n"
    # the starter config passes (its folders are the target's, checked as its user there)
    assert check_files([root / "etc/draughtsboard/config.toml"], places=False) == []


def test_leds_off_blanks_the_configured_board(tmp_path: Path, monkeypatch) -> None:
    from hardware.mock import MockBoard

    shown: list[MockBoard] = []
    real_close = MockBoard.close

    def close(self) -> None:
        shown.append(self)
        real_close(self)

    monkeypatch.setattr(MockBoard, "close", close)
    config = tmp_path / "c.toml"
    config.write_text('board = "sim"\n')
    assert service.leds_off(str(config)) == 0
    assert shown and shown[0].frames[-1] == {}
