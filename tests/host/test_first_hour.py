"""What a newcomer meets in the first hour: the text board in their language, the end of
a terminal game, Ctrl-C, switching language, saved-game names, --events line numbers,
Portuguese commands under run, --version."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from engine import Position, get_variant, native_captures
from host.config import Config
from host.session import Session
from host.streams.events import run_stream
from host.terminal_game import TerminalGame, draw_board
from host.voice.announce import Announcer

ROOT = Path(__file__).resolve().parents[2]
STEM = re.compile(r"^\d{8}-\d{6}-brazilian(-\d+)?\.pdn$")


def game(lines, language="en", games_dir=None, fen=None, clock=None) -> tuple[TerminalGame, str]:
    v = get_variant("brazilian")
    out = io.StringIO()
    stdin = lines if not isinstance(lines, str) else io.StringIO(lines)
    kwargs = {"clock": clock} if clock else {}
    t = TerminalGame(
        v,
        start=Position.from_fen(fen, v) if fen else None,
        language=language,
        games_dir=games_dir,
        stdin=stdin,
        stdout=out,
        **kwargs,
    )
    t.run()
    return t, out.getvalue()


def test_the_portuguese_board_uses_b_for_brancas_and_p_for_pretas() -> None:
    v = get_variant("brazilian")
    position = Position.from_fen("W:WKc1,a3:Bf8,Kh8", v)
    pt = draw_board(position, "pt-BR")
    en = draw_board(position, "en")
    rows = {line[:2].strip(): line[4:19] for line in pt.splitlines()[1:]}
    assert "w" not in "".join(rows.values())  # no English letter on the board
    assert rows["3"].split()[0] == "b" and rows["1"].split()[1] == "B"  # brancas: man, dama
    assert rows["8"].split() == [".", ".", "p", "P"]  # pretas: man f8, dama h8
    rows_en = {line[:2].strip(): line[4:19] for line in en.splitlines()[1:]}
    assert rows_en["3"].split()[0] == "w" and rows_en["8"].split() == [".", ".", "b", "B"]
    _, out = game("quit\n", language="pt-BR")
    assert "b = brancas, p = pretas, maiúsculas = damas" in out


def test_after_the_end_the_prompt_offers_new_or_quit_and_a_move_is_explained() -> None:
    _, out = game("c3xe5\nc3-d4\nnew\nc3-d4\n", fen="W:Wc3:Bd4")
    assert "White wins" in out
    assert "Game over (1-0). new, undo or quit> " in out
    assert "The game is over: new starts another" in out
    assert "Unknown command" not in out
    assert "White played c3-d4." in out  # after new, moves are moves again


def test_ctrl_c_saves_the_game_before_leaving(tmp_path: Path) -> None:
    class Interrupted(io.StringIO):
        def readline(self, *args) -> str:  # type: ignore[override]
            line = super().readline(*args)
            if not line:
                raise KeyboardInterrupt
            return line

    t, out = game(Interrupted("c3-d4\nf6-g5\n"), games_dir=tmp_path)
    (saved,) = tmp_path.glob("*.pdn")
    assert "1. c3-d4 f6-g5 *" in saved.read_text() and "Goodbye." in out


def test_switching_language_in_a_game() -> None:
    _, out = game("c3-d4\nidioma pt\nf6-g5\nlanguage en\ng3-h4\nlanguage\nlanguage fr\n")
    assert "Mensagens em português." in out and "Lance das Pretas: f6-g5." in out
    assert "Messages in English." in out and "White played g3-h4." in out
    assert "Vez das Pretas> " in out  # no name: the other language
    assert "Comando desconhecido 'fr'" in out


def test_play_and_run_name_saved_games_by_one_scheme(tmp_path: Path) -> None:
    clock = lambda: dt.datetime(2025, 3, 4, 5, 6, 7)  # noqa: E731
    game("c3-d4\nresign\nquit\n", games_dir=tmp_path / "play", clock=clock)
    (played,) = (tmp_path / "play").glob("*.pdn")
    assert played.name == "20250304-050607-brazilian.pdn"
    cfg = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "run", speech=False)
    session = Session(cfg, Announcer("en"), resume=False)
    run_stream(session, ['{"t": 100, "lift": 22}', '{"t": 500, "place": 17}'])
    session.command(2.0, "resign")
    (ran,) = (tmp_path / "run").glob("*.pdn")
    assert STEM.match(ran.name), ran.name


def test_run_understands_portuguese_commands(tmp_path: Path) -> None:
    cfg = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False)
    announcer = Announcer("pt-BR")
    session = Session(cfg, announcer, resume=False)
    run_stream(session, ['{"t": 100, "lift": 22}', '{"t": 500, "place": 17}'])
    session.command(1.0, "desfazer")
    assert session.game.moves == []
    session.command(2.0, "desistir")
    assert session.recogniser.outcome.reason == "resignation"
    session.command(3.0, "nova")
    assert session.recogniser.outcome is None
    session.command(4.0, "empate")
    assert session.recogniser.outcome.reason == "agreement"
    session.command(5.0, "sair")
    assert session.quit


def run_events(tmp_path: Path, stdin: str) -> subprocess.CompletedProcess[str]:
    tmp_path.mkdir(parents=True)
    config = tmp_path / "c.toml"
    config.write_text(f'data_dir = "{tmp_path}"\nspeech = false\nlanguage = "en"\n')
    return subprocess.run(
        [sys.executable, "-m", "host.cli", "run", "--config", str(config), "--events", "-"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_run_events_names_the_real_line_of_a_bad_line(tmp_path: Path) -> None:
    good = '{"t": 100, "lift": 22}\n{"t": 500, "place": 17}\n'
    for bad, line, why in [
        (good + "\n" + '{"t": 900, "lift": 99}\n', 4, "square 99"),
        (good + '{"t": 400, "lift": 11}\n', 3, "goes backwards"),
        (good + '{"t": 700, "command": }\n', 3, "a command is"),
        (good + "not json\n", 3, "not valid JSON"),
    ]:
        result = run_events(tmp_path / str(line) / why.replace(" ", "_"), bad)
        assert result.returncode == 2
        assert result.stderr.startswith(f"draughtsboard: events line {line}: "), result.stderr
        assert why in result.stderr and "White played c3-b4." in result.stdout


def test_version_says_how_kings_are_searched() -> None:
    """The version, and whether the compiled capture search was built (a builder's check
    that `pip install` found a C compiler); turned off, it says Python."""
    built = "compiled" if native_captures.available() else "Python"
    for pure, search in (("", built), ("1", "Python")):
        result = subprocess.run(
            [sys.executable, "-m", "host.cli", "--version"], capture_output=True, text=True,
            cwd=ROOT, env={**os.environ, "DRAUGHTSBOARD_PURE_PYTHON": pure},
        )
        assert result.returncode == 0
        assert re.fullmatch(rf"draughtsboard \d+\.\d+\.\d+ \(capture search: ({search})\)\n",
                            result.stdout), result.stdout
