"""The systemd service: unit text, systemd-analyze verify, install and uninstall into a
folder standing for / (no root needed), with systemctl and useradd recorded, not run."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.commands import service
from host.errors import UserError
from host.systemd import UNIT, System, UnitSettings, service_state, unit_text
from tests.tools import need

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(sys.executable).parent / "draughtsboard"


class Recorder:
    """Stands in for running commands: records them, answers with `answers`."""

    def __init__(self, answers: dict[str, tuple[int, str]] | None = None) -> None:
        self.calls: list[list[str]] = []
        self.answers = answers or {}

    def __call__(self, args) -> subprocess.CompletedProcess[str]:
        self.calls.append(list(args))
        code, out = self.answers.get(" ".join(args[1:]), (0, ""))
        return subprocess.CompletedProcess(list(args), code, out, "" if code == 0 else "boom")


def fake_root(
    tmp_path: Path, users: str = "pi", groups=("gpio", "spi", "dialout", "audio")
) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text(
        "root:x:0:0::/root:/bin/bash\n"
        + "".join(f"{u}:x:1000:1000::/home/{u}:/bin/bash\n" for u in users.split())
    )
    (root / "etc" / "group").write_text(
        "".join(f"{g}:x:{900 + i}:\n" for i, g in enumerate(groups))
    )
    return root


def install_args(**kw) -> argparse.Namespace:
    base = {"user": "pi", "board": "gpio", "executable": str(PROGRAM), "no_start": False}
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
    assert f'ExecStartPre="/opt/db/bin/draughtsboard" config --check {config}' in lines
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
    assert f'ExecStart="{PROGRAM}" run' in unit
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
    assert [c[1:] for c in system.runner.calls] == [["daemon-reload"], ["enable", "--now", UNIT]]


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
            str(PROGRAM),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert log.read_text() == f"--root={root} enable {UNIT}\n"
    check = subprocess.run(
        [
            sys.executable,
            "-m",
            "host.cli",
            "config",
            "--check",
            str(root / "etc/draughtsboard/config.toml"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr


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
