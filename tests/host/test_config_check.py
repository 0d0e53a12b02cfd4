"""`config --check` and `run` at start: every mistake in one pass, the disk's included.

Bad values, the checks across settings (broker without board id, a layout that does
not fit the variant) and the folders and files the board needs (host/config/places.py)
are all listed by one `config --check`, each naming the file that set the key; `run`
refuses to start with the same list (exit status 2) instead of a traceback mid-game.
Root ignores file modes, so "cannot write" is made here with a file standing where a
folder should be, and with a read-only bind mount where this test may mount
(tests/mounts.py); a folder of root's own checked as another user is in
tests/host/test_service_install.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.config import check_files
from host.config.places import WRITTEN_FILE, Place, problem
from tests.mounts import read_only_folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_real_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home-data"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, cwd=ROOT,
        timeout=60, stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
             "DRAUGHTSBOARD_SYSTEM_CONFIG": str(tmp_path / "none.toml")},
    )  # fmt: skip


def test_every_kind_of_mistake_is_listed_in_one_pass(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file, not a folder\n")
    config = write(
        tmp_path / "etc" / "config.toml",
        'brightness = 3\n'  # a bad value
        'variant = "international"\nlayout = "standard-8x8"\n'  # a layout that does not fit
        'broker = "mqtt://club.local"\n'  # a broker without a board id
        f'data_dir = "{tmp_path}/blocker/data"\n'  # a file where a folder should be
        'broker_password_file = "secret"\n'  # relative to the file's folder: missing
        'broker_ca_file = "/nowhere/ca.crt"\n',
    )
    errors = [str(e) for e in check_files([config])]
    assert errors == [
        f"{config}: brightness = 3: must be a number from 0 to 1",
        f"{config}: board_id is needed when broker is set",
        f'{config}: layout = "standard-8x8": has 32 squares but international is played on '
        "10x10 (50 squares)",
        f'{config}: data_dir = "{tmp_path}/blocker/data": the data folder: {tmp_path}/blocker '
        "is a file, where a folder should be",
        f'{config}: games_dir = "{tmp_path}/blocker/data/games": the games folder: '
        f"{tmp_path}/blocker is a file, where a folder should be",
        f'{config}: journal = "{tmp_path}/blocker/data/journal.jsonl": the journal cannot be '
        f"written: {tmp_path}/blocker is a file, where a folder should be",
        f'{config}: broker_outbox = "{tmp_path}/blocker/data/journal.outbox.jsonl": the '
        f"broker's outbox cannot be written: {tmp_path}/blocker is a file, where a folder "
        "should be",
        f'{config}: broker_password_file = "{tmp_path}/etc/secret": the broker password file '
        f"{tmp_path}/etc/secret does not exist",
        f'{config}: broker_ca_file = "/nowhere/ca.crt": the broker\'s CA file /nowhere/ca.crt '
        "does not exist",
    ]
    done = cli(tmp_path, "config", "--check", str(config))
    assert done.returncode == 2
    summary = "9 errors; the keys are described in docs/config.md"
    assert done.stderr.splitlines() == [*errors, summary]


def test_a_check_across_settings_is_left_out_when_one_of_its_keys_is_already_wrong(
    tmp_path: Path,
) -> None:
    config = write(tmp_path / "c.toml", 'variant = "chess"\nlayout = "standard-10x10"\n')
    errors = [str(e) for e in check_files([config])]
    assert len(errors) == 1 and errors[0].startswith(f'{config}: variant = "chess"')


def test_flags_are_named_as_the_command_line_and_defaults_as_the_defaults(
    tmp_path: Path,
) -> None:
    (tmp_path / "blocker").write_text("")
    errors = check_files([], {"log_file": str(tmp_path / "blocker" / "board.log")})
    assert [str(e).split(": ")[0] for e in errors] == ["command line"]


def test_a_folder_on_a_read_only_file_system_is_named_as_such(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with read_only_folder(folder) as mounted:
        mounted.freeze()
        said = problem(Place("journal", folder / "journal.jsonl", WRITTEN_FILE, "the journal"))
    assert said is not None
    assert f"cannot write in {folder}: it is on a read-only file system" in said


def test_run_refuses_to_start_with_every_problem_at_once_and_no_traceback(
    tmp_path: Path,
) -> None:
    (tmp_path / "blocker").write_text("")
    done = cli(tmp_path, "run", "--board", "sim", "--listen", "off", "--no-speech",
               "--data-dir", str(tmp_path / "blocker" / "data"),
               "--log-file", str(tmp_path / "blocker" / "board.log"))  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == (
        "draughtsboard: cannot start: 4 problems with its settings and the folders and files "
        "they name:"
    )
    assert [line.split(" = ")[0] for line in lines[1:]] == [
        "  command line: data_dir",
        "  command line: games_dir",
        "  command line: journal",
        "  command line: log_file",
    ]
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_run_starts_when_every_place_can_be_made(tmp_path: Path) -> None:
    done = cli(tmp_path, "run", "--board", "sim", "--listen", "off", "--no-speech",
               "--data-dir", str(tmp_path / "new" / "data"), "--events", "-")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "new" / "data" / "journal.jsonl").is_file()


def test_the_starter_config_suggests_a_log_file_the_unit_creates_for_its_user() -> None:
    from host.appliance.systemd import LOG_DIR, UnitSettings, starter_config, unit_text

    suggested = [line for line in starter_config("gpio").splitlines() if "log_file" in line]
    assert suggested and all(str(LOG_DIR) in line for line in suggested)
    unit = unit_text(UnitSettings(Path("/opt/draughtsboard/bin/draughtsboard"), "pi", ()))
    assert f"LogsDirectory={LOG_DIR.name}" in unit.splitlines()
    assert os.path.dirname(str(LOG_DIR)) == "/var/log"
