"""Exit statuses that mean something (host/errors.py): one table, read by every command.

A configuration mistake exits 2 (the service is not restarted), a board that is
missing or not ready 75 (restarted; `run` waits for it unless told not to), a crash
1 with one line saying it is a bug. The sorting of device failures into "may mend
itself" and "set-up mistake" is checked against the messages of the real libraries
(hardware/pi_errors.py names them) and pyserial 3.5 itself.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hardware import pi_errors
from hardware.base import BoardNotReady, BoardUnavailable
from hardware.layout import load_layout
from host import cli
from host.errors import (
    MEANINGS,
    DeviceNotReady,
    ExitStatus,
    UserError,
    exit_status_help,
    exit_status_table,
)

ROOT = Path(__file__).resolve().parents[2]


def draughtsboard(tmp_path: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=timeout, stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
             "DRAUGHTSBOARD_SYSTEM_CONFIG": str(tmp_path / "none.toml")},
    )  # fmt: skip


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def run_args(tmp_path: Path, board: str, *more: str) -> list[str]:
    return ["run", "--board", board, "--listen", "off", "--no-speech", "--language", "en",
            "--data-dir", str(tmp_path / "data"), *more]  # fmt: skip


def test_the_table_has_one_status_per_kind_and_run_help_lists_it() -> None:
    assert (ExitStatus.CONFIGURATION, ExitStatus.DEVICE_NOT_READY, ExitStatus.CRASH) == (2, 75, 1)
    assert UserError.exit_status == ExitStatus.CONFIGURATION
    assert DeviceNotReady.exit_status == ExitStatus.DEVICE_NOT_READY
    help_text = subparsers(cli.build_parser())["run"].format_help()
    assert exit_status_help() in help_text
    for status, meaning in MEANINGS:
        assert f"  {int(status):<3} {meaning}" in exit_status_help()


def test_docs_show_the_table_as_the_code_has_it() -> None:
    docs = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    regenerate = "python -c 'from host.errors import exit_status_table; print(exit_status_table())'"
    assert exit_status_table() in docs, f"docs/service.md is out of date: {regenerate}"


@pytest.mark.parametrize(
    ("error", "status", "said"),
    [
        (UserError("brightness must be 0..1"), 2, "draughtsboard: brightness must be 0..1\n"),
        (DeviceNotReady("cannot open /dev/ttyACM0"), 75, "draughtsboard: cannot open"),
        (KeyError("oops"), 1, "draughtsboard: crashed: KeyError: 'oops' (a bug: please report"),
    ],
)
def test_main_turns_each_kind_of_failure_into_its_status(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    error: Exception, status: int, said: str,
) -> None:  # fmt: skip
    def fail(args: argparse.Namespace) -> int:
        raise error

    parser = cli.build_parser()
    subparsers(parser)["status"].set_defaults(func=fail)
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    assert cli.main(["status"]) == status
    assert said in capsys.readouterr().err


def test_a_missing_usb_board_is_status_75_when_run_may_not_wait(tmp_path: Path) -> None:
    done = draughtsboard(tmp_path, *run_args(tmp_path, f"serial:{tmp_path}/ttyNONE",
                                             "--wait-for-board", "0"))  # fmt: skip
    assert done.returncode == ExitStatus.DEVICE_NOT_READY, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"draughtsboard: cannot open {tmp_path}/ttyNONE: No such file")
    assert "plugged in" in line


def test_run_gives_up_waiting_after_wait_for_board_seconds_with_75(tmp_path: Path) -> None:
    done = draughtsboard(tmp_path, *run_args(tmp_path, f"serial:{tmp_path}/ttyNONE",
                                             "--wait-for-board", "1.5"))  # fmt: skip
    assert done.returncode == ExitStatus.DEVICE_NOT_READY, done.stderr
    assert "WARNING: waiting for the board: cannot open" in done.stderr
    gave_up = r"^draughtsboard: no board after waiting \d+ s: cannot open"
    assert re.search(gave_up, done.stderr, re.MULTILINE)
    assert "Waiting for the board: plug it in." in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (("--wait-for-board", "-1"), 2),
        (("--wait-for-board", "inf"), 2),
        (("--brightness", "7"), 2),
    ],
)
def test_mistakes_on_the_command_line_or_in_settings_are_2(
    tmp_path: Path, args: tuple[str, ...], status: int
) -> None:
    done = draughtsboard(tmp_path, *run_args(tmp_path, "sim", *args))
    assert done.returncode == status and len(done.stderr.splitlines()) == 1, done.stderr


def test_a_board_name_this_computer_cannot_drive_is_a_configuration_error(tmp_path: Path) -> None:
    done = draughtsboard(tmp_path, *run_args(tmp_path, "serial:nonsense://x"))
    assert done.returncode == ExitStatus.CONFIGURATION, done.stderr
    assert done.stderr.startswith("draughtsboard: cannot open nonsense://x: invalid URL")


def test_selftest_on_a_missing_board_is_75(tmp_path: Path) -> None:
    done = draughtsboard(tmp_path, "selftest", "--board", f"serial:{tmp_path}/ttyNONE")
    assert done.returncode == ExitStatus.DEVICE_NOT_READY, done.stderr


# -- which device failures may mend themselves (BoardNotReady) ------------------------------


def test_a_usb_port_that_is_absent_is_not_ready_an_unknown_url_is_a_mistake(
    tmp_path: Path,
) -> None:
    from hardware.serial_link import SerialBackend

    layout = load_layout("standard-8x8")
    with pytest.raises(BoardNotReady, match="No such file or directory; is the board plugged"):
        SerialBackend(str(tmp_path / "ttyACM9"), layout)
    with pytest.raises(BoardUnavailable) as caught:
        SerialBackend("nonsense://x", layout)
    assert not isinstance(caught.value, BoardNotReady)


@pytest.mark.parametrize(
    ("message", "exists", "may_mend"),
    [
        # RPi.GPIO 0.7.1 c_gpio.c, with /dev/gpiomem there: the gpio group not applied yet
        ("No access to /dev/mem.  Try running as root!", True, True),
        # ... and without it, as on a Pi 5: another library is needed
        ("No access to /dev/mem.  Try running as root!", False, False),
        ("'GPIO busy'", True, True),  # lgpio: another program holds the pin
        ("Cannot determine SOC peripheral base address", True, False),
        ("This module can only be run on a Raspberry Pi!", True, False),
    ],
)
def test_gpio_failures_are_sorted_by_whether_waiting_may_mend_them(
    monkeypatch: pytest.MonkeyPatch, message: str, exists: bool, may_mend: bool
) -> None:
    monkeypatch.setattr(pi_errors, "_exists", lambda path: exists)
    error = pi_errors.gpio_failure(RuntimeError(message), 17)
    assert isinstance(error, BoardNotReady) is may_mend
    assert str(error) == pi_errors.explain_gpio_failure(RuntimeError(message), 17)


@pytest.mark.parametrize(
    ("message", "spi_there", "may_mend"),
    [
        # rpi_ws281x 5.0.0 spi_init(): SPI not enabled yet, or no permission yet
        ("ws2811_init failed with code -13 (Unable to initialize SPI)", False, True),
        ("ws2811_init failed with code -13 (Unable to initialize SPI)", True, True),
        ("ws2811_init failed with code -3 (Hardware revision is not supported)", True, False),
        ("NeoPixel support requires running with sudo, please try again!", True, False),
    ],
)
def test_led_failures_are_sorted_by_whether_waiting_may_mend_them(
    monkeypatch: pytest.MonkeyPatch, message: str, spi_there: bool, may_mend: bool
) -> None:
    monkeypatch.setattr(pi_errors, "_exists", lambda path: spi_there)
    monkeypatch.setattr(pi_errors, "_writable", lambda path: False)
    error = pi_errors.led_failure(RuntimeError(message), 10)
    assert isinstance(error, BoardNotReady) is may_mend
