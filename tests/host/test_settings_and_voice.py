"""Config, announcements, speech, the end patterns and the replay command's errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from host.config import DEFAULT_COLOURS, load_config
from host.errors import UserError
from host.hints import end_pattern
from host.voice.announce import Announcer
from host.voice.speech import Speaker
from tests.tools import need

ROOT = Path(__file__).resolve().parents[2]


def test_missing_default_config_gives_defaults(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    cfg = load_config()
    assert (cfg.variant, cfg.language, cfg.hints, cfg.speech) == (
        "brazilian",
        "pt-BR",
        "full",
        True,
    )


def test_config_values_and_relative_paths(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text(
        'variant = "russian"\nlanguage = "en"\nhints = "captures"\nspeech = false\n'
        'journal = "j.jsonl"\n[colours]\ndestination = "#112233"\nwrong = [1, 2, 3]\n'
    )
    cfg = load_config(file)
    assert (cfg.variant, cfg.language, cfg.hints, cfg.speech) == (
        "russian",
        "en",
        "captures",
        False,
    )
    assert cfg.journal == tmp_path / "j.jsonl"
    assert cfg.colours["destination"] == (0x11, 0x22, 0x33) and cfg.colours["wrong"] == (1, 2, 3)
    assert cfg.colours["crown"] == DEFAULT_COLOURS["crown"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('variant = "chess"', "variant"),
        ('language = "fr"', "language"),
        ('hints = "lots"', "hints"),
        ("speech = 1", "speech"),
        ('[colours]\ndestination = "blue"', "colours.destination"),
        ('[colours]\nsparkle = "#ffffff"', "sparkle"),
        ("brightness = 2", "brightness"),
        ("volume = 3", "volume"),
        ("variant = ", "TOML"),
    ],
)
def test_bad_config_values_are_one_clear_error(tmp_path: Path, text: str, words: str) -> None:
    file = tmp_path / "config.toml"
    file.write_text(text + "\n")
    with pytest.raises(UserError, match=words.replace(".", r"\.")):
        load_config(file)


def test_announcer_renders_both_languages_and_survives_a_broken_listener() -> None:
    heard: list[str] = []
    pt = Announcer("pt-BR")
    pt.subscribe(lambda item: 1 / 0)
    pt.subscribe(lambda item: heard.append(item.text))
    pt.announce("draw", reason="threefold-repetition")
    pt.announce("win", side="B", reason="no-moves")
    en = Announcer("en")
    en.subscribe(lambda item: heard.append(item.text))
    en.announce("capture-mandatory")
    en.announce("draw", reason="no-progress")
    assert heard == [
        "Empate: tripla repetição.",
        "Vitória das Pretas: o adversário não tem lances.",
        "Capture is mandatory.",
        "Draw: too many moves without progress.",
    ]


def test_speech_writes_a_wav_with_espeak(tmp_path: Path) -> None:
    need("espeak-ng")
    speaker = Speaker("pt-BR", wav_dir=tmp_path)
    out = speaker.say("A captura é obrigatória.")
    assert out is not None and out.stat().st_size > 1000
    assert out.read_bytes()[:4] == b"RIFF"


def test_missing_espeak_warns_once_and_never_raises(tmp_path: Path) -> None:
    warnings: list[str] = []
    speaker = Speaker("en", program="no-such-espeak", warn=warnings.append, wav_dir=tmp_path)
    assert speaker.say("one") is None and speaker.say("two") is None
    assert len(warnings) == 1 and "no-such-espeak" in warnings[0]


def test_end_patterns_differ_by_result() -> None:
    from engine import get_variant

    v = get_variant("brazilian")
    coords = {sq: v.square_coords(sq) for sq in range(1, 33)}
    pieces = {1: "B", 22: "W", 23: "W"}
    shapes = {
        reason: tuple(end_pattern(coords, 8, reason, winner, pieces))
        for reason, winner in [
            ("no-pieces", "W"),
            ("threefold-repetition", None),
            ("no-progress", None),
            ("endgame-limit", None),
            ("agreement", None),
        ]
    }
    assert shapes["no-pieces"] == (22, 23)
    assert shapes["threefold-repetition"] == (1, 22, 23)
    assert len(set(shapes.values())) == len(shapes)


def replay_cli(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "host.cli",
            "replay",
            "--variant",
            "brazilian",
            "--events",
            "-",
            *args,
        ],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.mark.parametrize(
    "bad",
    [
        '{"t": 5, "lift": 22}\n{"t": 6, "lift": 99}\n',
        '{"t": 5, "lift": 22}\nnot json\n',
        '{"t": 9, "lift": 22}\n{"t": 3, "place": 17}\n',
        '{"t": 1}\n{"t": 2, "lift": 1}\n',
    ],
)
def test_replay_malformed_line_is_one_error_naming_the_line(bad: str) -> None:
    result = replay_cli(bad)
    assert result.returncode == 2
    line = "1" if bad.startswith('{"t": 1}') else "2"
    assert result.stderr.startswith(f"draughtsboard: events line {line}:")
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_replay_cli_prints_moves_and_leds() -> None:
    result = replay_cli('{"t": 100, "lift": 22}\n{"t": 400, "place": 17}\n', "--leds")
    assert result.returncode == 0
    assert '"move": "c3-b4"' in result.stdout and '"17": "destination"' in result.stdout
