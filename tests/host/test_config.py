"""Configuration: layering, every error path, flags for every key, and the documented table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import build_parser, main
from host.commands.run import settings
from host.config import (
    DEFAULT_COLOURS,
    SETTINGS,
    check_files,
    load_config,
    settings_table,
)
from host.errors import UserError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_real_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the machine's /etc file nor the tester's home may leak into these tests."""
    monkeypatch.setenv("DRAUGHTSBOARD_SYSTEM_CONFIG", str(tmp_path / "etc" / "config.toml"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home-data"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(tmp_path: Path, text: str) -> list[str]:
    return [str(e) for e in check_files([write(tmp_path / "c.toml", text)])]


BAD_VALUES = [
    ('variant = "chess"', "variant", '"chess"', "brazilian"),
    ("variant = 3", "variant", "3", "one of"),
    ('language = "fr"', "language", '"fr"', '"pt-BR", "en"'),
    ("speech = 1", "speech", "1", "true or false"),
    ('speech = "yes"', "speech", '"yes"', "true or false"),
    ('hints = "lots"', "hints", '"lots"', '"off", "captures", "full"'),
    ('board = "usb"', "board", '"usb"', "serial:PORT"),
    ('board = "serial:"', "board", '"serial:"', "serial:PORT"),
    ("layout = 8", "layout", "8", "layout name"),
    ("brightness = 2", "brightness", "2", "from 0 to 1"),
    ("brightness = true", "brightness", "true", "from 0 to 1"),
    ('brightness = "half"', "brightness", '"half"', "from 0 to 1"),
    ("data_dir = 5", "data_dir", "5", "a path"),
    ('games_dir = ""', "games_dir", '""', "a path"),
    ("journal = []", "journal", "[]", "a path"),
    ('log_level = "loud"', "log_level", '"loud"', '"debug"'),
    ("log_file = 1", "log_file", "1", "a path"),
    ("gestures = 0", "gestures", "0", "true or false"),
    ("gesture_hold = 0.5", "gesture_hold", "0.5", "from 1 to 10 seconds"),
    ("computer_level = 9", "computer_level", "9", "whole number from 1 to 4"),
    ("computer_level = 0", "computer_level", "0", "whole number from 1 to 4"),
    ('white = "robot"', "white", '"robot"', '"human", "computer" or "computer:N"'),
    ('black = "computer:5"', "black", '"computer:5"', "N from 1 to 4"),
    ('black = "computer:"', "black", '"computer:"', "N from 1 to 4"),
    ("white = 3", "white", "3", '"human"'),
    ('clock = "5-3"', "clock", '"5-3"', "minutes+increment"),
    ("clock = 5", "clock", "5", "minutes+increment"),
    ('clock_warnings = [60, "ten"]', "clock_warnings", '[60, "ten"]', "a list of seconds"),
    ("computer_level = 1.5", "computer_level", "1.5", "whole number"),
    ('listen = "8080"', "listen", '"8080"', '"HOST:PORT"'),
    ('listen = "pi.local:8080"', "listen", '"pi.local:8080"', "IP address or localhost"),
    ('listen = "127.0.0.1:99999"', "listen", '"127.0.0.1:99999"', '"off"'),
    ("listen = 8080", "listen", "8080", '"HOST:PORT"'),
    ('token = "short"', "token", '"short"', "at least 8 characters"),
    ('token = "has a space"', "token", '"has a space"', "no spaces"),
    ("token = 12345678", "token", "12345678", "at least 8"),
    ('colours = "blue"', "colours", '"blue"', "must be a table"),
    ('[colours]\ndestination = "blue"', "colours.destination", '"blue"', "#rrggbb"),
    ("[colours]\nwrong = [1, 2, 300]", "colours.wrong", "[1, 2, 300]", "0..255"),
    ('[colours]\nsparkle = "#ffffff"', "colours.sparkle", '"#ffffff"', "unknown role"),
    ("volume = 3", "volume", "3", "unknown setting"),
]


@pytest.mark.parametrize(("text", "key", "value", "allowed"), BAD_VALUES)
def test_each_bad_value_names_the_key_the_value_and_what_is_allowed(
    tmp_path: Path, text: str, key: str, value: str, allowed: str
) -> None:
    (error,) = errors_of(tmp_path, text + "\n")
    assert error.startswith(f"{tmp_path / 'c.toml'}: {key} = {value}: ")
    assert allowed in error


def test_every_error_is_reported_not_only_the_first(tmp_path: Path) -> None:
    text = "\n".join(t for t, *_ in BAD_VALUES if not t.startswith(("[", "colours"))) + "\n"
    # TOML forbids a key twice: keep the first of each
    seen, lines = set(), []
    for line in text.splitlines():
        key = line.split("=")[0].strip()
        if key not in seen:
            seen.add(key)
            lines.append(line)
    text = "\n".join(lines) + '\n[colours]\ndestination = "blue"\nsparkle = "#000000"\n'
    errors = errors_of(tmp_path, text)
    keys = [e.split(": ")[1].split(" = ")[0] for e in errors]
    assert sorted(keys) == sorted([*seen, "colours.destination", "colours.sparkle"])


def test_files_that_cannot_be_read_are_one_error_each(tmp_path: Path) -> None:
    assert "not valid TOML" in errors_of(tmp_path, "variant = \n")[0]
    (missing,) = check_files([tmp_path / "nope.toml"])
    assert str(missing) == f"{tmp_path / 'nope.toml'}: the file does not exist"
    write(tmp_path / "bin.toml", "")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe")
    assert "not valid TOML" in str(check_files([tmp_path / "bin.toml"])[0])


def test_a_layout_that_does_not_fit_the_variant_or_cannot_be_read(tmp_path: Path) -> None:
    (error,) = errors_of(tmp_path, 'variant = "international"\nlayout = "standard-8x8"\n')
    assert "layout" in error and "32 squares" in error and "10x10" in error
    (error,) = errors_of(tmp_path, 'layout = "wiring/mine.toml"\n')
    assert "cannot read layout file" in error and str(tmp_path / "wiring" / "mine.toml") in error
    (error,) = errors_of(tmp_path, 'layout = "standard-9x9"\n')
    assert "no layout named" in error


def test_load_refuses_a_half_configured_file_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / "c.toml", 'board = "gpio"\nbrightness = 7\nhints = "x"\n')
    with pytest.raises(UserError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message and "brightness = 7" in message and "(and 1 more)" in message
    assert f"draughtsboard config --check {path}" in message


def test_layers_system_then_user_then_flags(tmp_path: Path) -> None:
    write(
        tmp_path / "etc" / "config.toml",
        'board = "gpio"\nlanguage = "en"\ndata_dir = "/var/lib/draughtsboard"\n'
        '[colours]\ndestination = "#010203"\nwrong = "#040506"\n',
    )
    assert load_config().board == "gpio"  # no user file: the system file alone
    write(
        tmp_path / "home-config" / "draughtsboard" / "config.toml",
        'language = "pt-BR"\nhints = "off"\n[colours]\nwrong = "#070809"\n',
    )
    cfg = load_config(flags={"hints": "captures", "brightness": 0.2})
    assert (cfg.board, cfg.language, cfg.hints, cfg.brightness) == (
        "gpio",
        "pt-BR",
        "captures",
        0.2,
    )
    assert cfg.colours["destination"] == (1, 2, 3) and cfg.colours["wrong"] == (7, 8, 9)
    assert cfg.colours["crown"] == DEFAULT_COLOURS["crown"]
    # journal and games follow data_dir unless set
    assert cfg.journal == Path("/var/lib/draughtsboard/journal.jsonl")
    assert cfg.games_dir == Path("/var/lib/draughtsboard/games")
    assert cfg.status_file == Path("/var/lib/draughtsboard/status.json")


def test_config_flag_replaces_the_user_file_and_sits_over_the_system_file(tmp_path: Path) -> None:
    write(tmp_path / "etc" / "config.toml", 'board = "gpio"\nlanguage = "en"\n')
    write(tmp_path / "home-config" / "draughtsboard" / "config.toml", 'hints = "off"\n')
    mine = write(tmp_path / "mine" / "c.toml", 'language = "pt-BR"\njournal = "j.jsonl"\n')
    cfg = load_config(mine)
    assert (cfg.board, cfg.language, cfg.hints) == ("gpio", "pt-BR", "full")
    assert cfg.journal == tmp_path / "mine" / "j.jsonl"  # relative to its own file
    with pytest.raises(UserError, match="does not exist"):
        load_config(tmp_path / "absent.toml")


def test_every_setting_has_a_flag_on_run(tmp_path: Path) -> None:
    parser = build_parser()
    argv = ["run", "--config", str(write(tmp_path / "c.toml", ""))]
    values = {
        "variant": ("russian", "russian"),
        "language": ("en", "en"),
        "speech": None,
        "hints": ("off", "off"),
        "board": ("serial:/dev/ttyACM0", "serial:/dev/ttyACM0"),
        "layout": ("standard-8x8", "standard-8x8"),
        "brightness": ("0.45", 0.45),
        "colours": None,
        "data_dir": (str(tmp_path / "d"), tmp_path / "d"),
        "games_dir": (str(tmp_path / "g"), tmp_path / "g"),
        "journal": (str(tmp_path / "j.jsonl"), tmp_path / "j.jsonl"),
        "log_level": ("debug", "debug"),
        "log_file": (str(tmp_path / "log"), tmp_path / "log"),
        "gestures": None,
        "gesture_hold": ("3.5", 3.5),
        "touch_move": None,
        "computer_level": ("3", 3),
        "white": ("Computer", "computer"),
        "black": ("computer:4", "computer:4"),
        "clock": ("5+3/2+3", "5+3/2+3"),
        "clock_warnings": ("30,5", (30.0, 5.0)),
        "listen": ("0.0.0.0:9090", "0.0.0.0:9090"),
        "token": ("correct-horse-9", "correct-horse-9"),
        "broker": ("mqtts://club.local:8883", "mqtts://club.local:8883"),
        "board_id": ("mesa-7", "mesa-7"),
        "broker_username": ("arbiter", "arbiter"),
        "broker_password_file": (str(tmp_path / "pw"), tmp_path / "pw"),
        "broker_ca_file": (str(tmp_path / "ca.crt"), tmp_path / "ca.crt"),
        "broker_keepalive": ("30", 30),
        "broker_outbox": (str(tmp_path / "out.jsonl"), tmp_path / "out.jsonl"),
    }
    assert set(values) == {s.key for s in SETTINGS}
    for setting in SETTINGS:
        if values[setting.key] is not None:
            argv += [setting.flag, values[setting.key][0]]
    argv += ["--no-speech", "--no-gestures", "--touch-move", "--colour", "destination=#0a0b0c"]
    cfg = settings(parser.parse_args(argv))
    for key, pair in values.items():
        if pair is not None:
            assert getattr(cfg, key) == pair[1], key
    assert cfg.speech is False and cfg.gestures is False and cfg.touch_move is True
    assert cfg.colours["destination"] == (10, 11, 12)


@pytest.mark.parametrize(
    ("typed", "warnings"),
    [("60,10", (60.0, 10.0)), ("[60, 10]", (60.0, 10.0)), ("[]", ()), ("", ())],
)
def test_clock_warnings_on_the_command_line_take_the_form_the_help_shows(
    tmp_path: Path, typed: str, warnings: tuple[float, ...]
) -> None:
    """`run --help` and the error both say "like [60, 10] ([] for none)"."""
    argv = ["run", "--config", str(write(tmp_path / "c.toml", "")), "--clock-warnings", typed]
    assert settings(build_parser().parse_args(argv)).clock_warnings == warnings


@pytest.mark.parametrize(
    ("argv", "first_words"),
    [
        (["run", "--bogus"], "draughtsboard run: unrecognized arguments: --bogus"),
        (["perft"], "draughtsboard perft: the following arguments are required: --depth"),
        (["perft", "--depth"], "draughtsboard perft: argument --depth: expected one argument"),
        (["service", "install", "--nope"], "draughtsboard service install: unrecognized"),
        (["chess"], "draughtsboard: argument COMMAND: invalid choice: 'chess'"),
        ([], "draughtsboard: the following arguments are required: COMMAND"),
    ],
)
def test_a_command_line_mistake_is_one_line_naming_the_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], first_words: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.count("\n") == 1 and err.startswith(first_words), err
    assert err.rstrip().endswith("--help)") and "usage:" not in err


def test_a_bad_flag_is_one_error_naming_it(tmp_path: Path) -> None:
    args = build_parser().parse_args(["run", "--computer-level", "high", "--brightness", "lots"])
    with pytest.raises(UserError) as caught:
        settings(args)
    assert 'command line: --brightness = "lots": must be a number from 0 to 1' in str(caught.value)
    assert "(and 1 more)" in str(caught.value) and "--check" not in str(caught.value)


def test_docs_list_every_key_as_the_table_says() -> None:
    docs = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    regenerate = "python -c 'from host.config import settings_table; print(settings_table())'"
    assert settings_table() in docs, f"docs/config.md is out of date: {regenerate}"


def cli(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "DRAUGHTSBOARD_SYSTEM_CONFIG": str(env_dir / "etc" / "config.toml"),
        "XDG_CONFIG_HOME": str(env_dir / "home-config"),
        "HOME": str(env_dir),
    }
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_config_check_command_lists_every_error_and_exits_2(tmp_path: Path) -> None:
    bad = write(
        tmp_path / "bad.toml", 'board = "usb"\nbrightness = -1\n[colours]\nend = "#zzzzzz"\n'
    )
    result = cli("config", "--check", str(bad), env_dir=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f'{bad}: board = "usb": must be')
    assert lines[1].startswith(f"{bad}: brightness = -1: must be")
    assert lines[2].startswith(f'{bad}: colours.end = "#zzzzzz": must be')
    assert lines[3].startswith("3 errors") and "Traceback" not in result.stderr
    good = write(tmp_path / "good.toml", 'board = "gpio"\nlanguage = "en"\n')
    result = cli("config", "--check", str(good), env_dir=tmp_path)
    assert (result.returncode, result.stdout) == (0, f"{good}: ok\n")


@pytest.mark.parametrize(
    "system",
    [
        "",
        'board = "gpio"\nlayout = "standard-10x10"\nvariant = "international"\n'
        'broker = "mqtt://club.local"\nboard_id = "b7"\ntoken = "correct-horse-9"\n'
        'log_file = "board.log"\n[colours]\nend = "#010203"\n',
    ],
)
def test_what_config_prints_is_a_valid_file_with_the_same_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    """A newcomer's first file is often `draughtsboard config`'s output: keys that are
    not set (layout, board_id, token...) are printed as "" and must read back as unset."""
    write(tmp_path / "etc" / "config.toml", system)
    assert main(["config"]) == 0
    printed = write(tmp_path / "printed.toml", capsys.readouterr().out)
    assert check_files([printed]) == []
    assert load_config(printed) == load_config()


def test_config_without_options_shows_what_is_in_force(tmp_path: Path) -> None:
    write(tmp_path / "etc" / "config.toml", 'board = "gpio"\n')
    result = cli("config", env_dir=tmp_path)
    assert result.returncode == 0
    assert 'board = "gpio"' in result.stdout and "(system)" in result.stdout
    assert "absent" in result.stdout  # no user file
