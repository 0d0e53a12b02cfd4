"""Settings, pairings and broker files: clear one-line errors, and nothing changes
for a board without a broker (not even an import)."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.broadcast.broker_config import BrokerPlan, acl_text, generate, mosquitto_hash
from host.broadcast.pairings import read_pairings
from host.cli import main
from host.config import load_config
from host.errors import UserError
from tests.paths import REPO


def _config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text("speech = false\n" + text, encoding="utf-8")
    return path


def test_broadcast_settings_are_read_from_the_file_and_the_flags(tmp_path: Path) -> None:
    path = _config_file(tmp_path, 'broker = "mqtts://club.local"\nboard_id = "mesa-3"\n'
                        'broker_password_file = "secret"\nbroker_keepalive = 5\n')
    b = load_config(path).broadcast
    assert b is not None and (b.broker, b.board_id, b.keepalive) == ("mqtts://club.local",
                                                                   "mesa-3", 5)
    assert b.password_file == tmp_path / "secret" and b.username == "mesa-3"
    assert b.outbox is not None and b.outbox.name == "journal.outbox.jsonl"
    flagged = load_config(path, {"board_id": "mesa-4", "broker_username": "arbiter"}).broadcast
    assert flagged is not None and (flagged.board_id, flagged.username) == ("mesa-4", "arbiter")
    assert load_config(_config_file(tmp_path, "")).broadcast is None


@pytest.mark.parametrize(("text", "fragment"), [
    ('broker = "http://x"\nboard_id = "b1"\n', 'broker = "http://x": must be mqtt://'),
    ('broker = "mqtt://x:99999"\nboard_id = "b1"\n', "broker = \"mqtt://x:99999\""),
    ('broker = "mqtt://x"\nboard_id = "b/1"\n', 'board_id = "b/1": must be 1-32 letters'),
    ('broker = "mqtt://x"\nboard_id = "b1"\nbroker_keepalive = 0\n', "broker_keepalive = 0"),
    ('broker = "mqtt://x"\n', "board_id is needed when broker is set"),
    ('broker_password = "x"\n', "broker_password = \"x\": unknown setting"),
])
def test_bad_broadcast_settings_are_one_clear_error(tmp_path: Path, text: str,
                                                    fragment: str) -> None:
    with pytest.raises(UserError) as error:
        load_config(_config_file(tmp_path, text))
    assert fragment in str(error.value) and "\n" not in str(error.value)


def test_run_flags_configure_broadcasting(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    code = main(["run", "--config", str(_config_file(tmp_path, "")), "--broker", "mqtt://x",
                 "--events", "-"])
    assert code == 2
    assert "board_id is needed when broker is set" in capsys.readouterr().err


def _empty_config(tmp_path: Path) -> Path:
    return _config_file(tmp_path, "")


def test_without_a_broker_nothing_of_broadcasting_is_imported(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from host.cli import main\n"
        f"code = main(['run', '--config', {str(_empty_config(tmp_path))!r}, '--board', 'sim',"
        f" '--new', '--journal', {str(tmp_path / 'j.jsonl')!r}, '--events', '-'])\n"
        "print(code, sorted(m for m in sys.modules if m.startswith(('paho', 'host.broadcast'))))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, input="", text=True,
                          capture_output=True, timeout=60, check=False)
    assert done.stdout.strip().splitlines()[-1] == "0 []", done.stderr


def test_pairings_csv_with_header_event_and_round_columns() -> None:
    text = ("board,board_id,white,black,event,round\n"
            "2,mesa-2,Ana,Bia,Quinta,4\n# a comment\n1,mesa-1,Caio,,Quinta,4\n")
    pairing = read_pairings(text, "r.csv")
    assert (pairing.event, pairing.name) == ("Quinta", "4")
    assert [b["board"] for b in pairing.boards] == [1, 2]
    assert pairing.boards[0]["black"] is None
    assert pairing.assignment(pairing.boards[1]) == {"event": "Quinta", "round": "4",
                                                     "board": 2, "white": "Ana", "black": "Bia"}


@pytest.mark.parametrize(("text", "fragment"), [
    ("1,b1,A,B\n1,b2,C,D\n", "r.csv line 2: board 1 is paired twice"),
    ("1,b1,A,B\n2,b1,C,D\n", "r.csv line 2: board id 'b1' is paired twice"),
    ("x,b1,A,B\n", "r.csv line 1: board number must be 1 or more"),
    ("1,b1,A\n", "r.csv line 1: expected 4 columns"),
    ("1,b 1,A,B\n", "r.csv line 1: board_id must be"),
    ("", "r.csv: no pairings"),
    ("1,b1,A\x1b[31m,B\n", "r.csv line 1: a control character"),
])
def test_bad_pairings_name_the_line(text: str, fragment: str) -> None:
    with pytest.raises(UserError) as error:
        read_pairings(text, "r.csv", round_name="1")
    assert str(error.value).startswith(fragment)


def test_pairings_without_a_round_is_an_error() -> None:
    with pytest.raises(UserError, match="which round"):
        read_pairings("1,b1,A,B\n", "r.csv")


def test_pairings_dry_run_prints_the_round(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.csv"
    path.write_text("1,b1,Ana,Bia\n", encoding="utf-8")
    assert main(["pairings", str(path), "--round", "1", "--dry-run"]) == 0
    assert json.loads(capsys.readouterr().out)["boards"][0]["white"] == "Ana"


def test_the_password_hash_is_mosquittos_pbkdf2_format() -> None:
    salt = b"0123456789ab"
    text = mosquitto_hash("s3cret", salt=salt, iterations=101)
    kind, iterations, salt64, digest64 = text.split("$")[1:]
    assert (kind, iterations, base64.b64decode(salt64)) == ("7", "101", salt)
    assert base64.b64decode(digest64) == hashlib.pbkdf2_hmac("sha512", b"s3cret", salt, 101)


def test_the_acl_gives_each_board_only_its_own_topics() -> None:
    acl = acl_text(["b1", "b2"])
    block = acl.split("user b1\n")[1].split("\n\n")[0].splitlines()
    assert all("/board/b1/" in line for line in block) and len(block) == 6
    assert [line.split()[1] for line in block] == ["write"] * 3 + ["readwrite", "read", "read"]
    anonymous = acl.split("user ")[0]  # nothing for clients without an account
    assert [line for line in anonymous.splitlines() if line.startswith("topic")] == []
    spectator = acl.split("user spectator\n")[1].split("\n\n")[0].splitlines()
    assert spectator == ["topic read draughtsboard/v1/public/#"]


def test_generated_files_keep_passwords_between_runs(tmp_path: Path) -> None:
    generate(BrokerPlan(("b1",)), tmp_path)
    first = (tmp_path / "secrets" / "b1.password").read_text()
    generate(BrokerPlan(("b1", "b2"), websockets=9001), tmp_path)
    assert (tmp_path / "secrets" / "b1.password").read_text() == first
    assert (tmp_path / "passwd").stat().st_mode & 0o777 == 0o640  # mosquitto's group reads it
    assert "protocol websockets" in (tmp_path / "mosquitto.conf").read_text()
    board = tmp_path / "boards" / "b2"
    assert (board / "broker-password").stat().st_mode & 0o077 == 0
    # the board's lines make a valid config with the password file beside it
    b = load_config(board / "config.toml").broadcast
    assert b is not None and b.board_id == "b2" and b.username == "b2"
    assert b.password_file == board / "broker-password"
    assert b.password_file.read_text().strip() == (
        tmp_path / "secrets" / "b2.password").read_text().strip()


def test_broker_config_rejects_reserved_ids(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    assert main(["broker-config", "--board-ids", "b1,relay", "--out", str(tmp_path)]) == 2
    assert "reserved" in capsys.readouterr().err
