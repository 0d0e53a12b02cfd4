"""`draughtsboard analyse --game FILE.pdn`: the page's review on the command line, through
the real entry point, sharing the analysis kept beside the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from review_games import game_with_blunder

from host.review import store
from tests.paths import REPO


def analyse(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "host.cli", "analyse", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=900, check=False)


def test_a_game_is_reviewed_on_the_command_line_and_kept_for_the_page(tmp_path: Path) -> None:
    planted = game_with_blunder("italian", 10, 4, seed=31)
    path = tmp_path / "partita.pdn"
    path.write_text(planted.pdn("Anna", "Bice", "1-0"))
    done = analyse("--game", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Anna - Bice  1-0  (italian")
    assert len(lines) == 1 + len(planted.game.moves) + 2
    flagged = lines[1 + planted.blunder_ply]
    assert ("mistake" in flagged or "blunder" in flagged) and "?" in flagged
    assert lines[-2].startswith("White: ") and lines[-1].startswith("Black: ")
    kept = store.load(store.analysis_path(path), store.game_key(planted.game))
    assert kept is not None and len(kept) == len(planted.game.moves) + 1
    again = analyse("--game", str(path), "--json")  # read from beside the file
    record = json.loads(again.stdout)
    assert record["evals"] == [item.to_json() for item in kept]
    verdict = record["verdicts"][planted.blunder_ply]
    assert verdict["class"] in ("mistake", "blunder") and verdict["side"] == planted.side


def test_bad_games_and_arguments_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "words.pdn").write_text("not a game at all")
    illegal = tmp_path / "illegal.pdn"
    illegal.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 99-88 *\n')
    good = tmp_path / "good.pdn"
    good.write_text(game_with_blunder("pool", 6, 2, seed=32).pdn())
    cases = [
        (("--game", str(tmp_path / "words.pdn")), "not a PDN file"),
        (("--game", str(illegal)), "cannot be reviewed"),
        (("--game", str(tmp_path / "missing.pdn")), "cannot read"),
        (("--game", str(good), "--number", "2"), "--number 2 is not one"),
        (("--game", str(good), "--depth", "4"), "leave out --time and --depth"),
    ]
    for args, words in cases:
        done = analyse(*args)
        assert done.returncode != 0 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
