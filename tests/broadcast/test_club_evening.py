"""A small club evening: boards as separate `draughtsboard run` processes replaying
recorded corpus games, the organiser's pairings, and `draughtsboard relay` (also a
process). The relay's games.pdn must read back, with our reader, to exactly the
games played: same moves, same results, same players, in board order.
(`make bench` runs the same evening with 100 boards.)
"""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from pathlib import Path

from engine.pdn import read_games
from host.broadcast.pairings import publish_round, read_pairings
from tests.broadcast.broker import Broker, free_port
from tests.broadcast.club import corpus_games
from tests.broadcast.conftest import BOARDS, BoardProcess, wait_until
from tests.paths import REPO

PLAYERS = [("Ana", "Bia"), ("Caio", "Duda"), ("Eva", "Fabio"), ("Gil", "Hugo")]


def test_a_club_evening_reads_back_to_exactly_the_games_played(
    broker: Broker, boards: list[BoardProcess], tmp_path: Path
) -> None:
    games = corpus_games(len(BOARDS))
    assert len(games) == len(BOARDS)
    # Board numbers deliberately not in board-id order.
    numbers = {"b1": 3, "b2": 1, "b3": 4, "b4": 2}
    rows = [f"{numbers[b]},{b},{PLAYERS[i][0]},{PLAYERS[i][1]}" for i, b in enumerate(BOARDS)]
    pairing = read_pairings("\n".join(rows), "round.csv", event="Quinta no clube",
                            round_name="2")
    publish_round(broker.settings("organiser"), pairing)
    out = tmp_path / "relay"
    port = free_port()
    relay = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "relay", "--broker", broker.url, "--out", str(out),
         "--password-file", str(broker.password_file("relay")),
         "--listen", f"127.0.0.1:{port}"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        for board_id, game in zip(BOARDS, games, strict=True):
            events = game.write(tmp_path / f"{board_id}.jsonl")
            boards.append(BoardProcess(tmp_path / board_id, broker, board_id,
                                       game.variant.name, events=events))
        for board in boards:
            assert board.finish(timeout=120) == 0, board.log()

        by_number = sorted(zip(BOARDS, games, PLAYERS, strict=True),
                           key=lambda item: numbers[item[0]])

        def read_back() -> list | None:
            path = out / "round-2" / "games.pdn"
            if not path.exists():
                return None
            written = list(read_games(path))
            done = [g for g in written if g.terminator not in (None, "*") or
                    len(g.moves) == len(by_number[written.index(g)][1].moves)]
            return written if len(done) == len(by_number) else None

        written = wait_until(read_back, timeout=30, what="every game in the relay's file")
        assert [g.tags["Round"] for g in written] == ["2.1", "2.2", "2.3", "2.4"]
        for pdn, (_board_id, game, (white, black)) in zip(written, by_number, strict=True):
            assert pdn.error is None, pdn.error  # the GameType tag decided the variant
            assert pdn.variant == game.variant and not pdn.variant_inferred
            assert pdn.moves == list(game.moves)
            assert pdn.tags["Result"] == game.result == pdn.terminator
            assert (pdn.tags["White"], pdn.tags["Black"]) == (white, black)
            assert pdn.tags["Event"] == "Quinta no clube"
        # Each board's own saved PDN carries the players from the pairings too.
        saved = next(read_games(next((tmp_path / "b1" / "games").glob("*.pdn"))))
        assert (saved.tags["White"], saved.tags["Black"], saved.tags["Round"]) == (
            "Ana", "Bia", "2.3")
        # The spectator page's data and the public file, from the relay's web server.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/round", timeout=10) as r:
            summary = r.read().decode()
        assert '"round": "2"' in summary and "Fabio" in summary
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/round-2/games.pdn",
                                    timeout=10) as r:
            assert r.read() == (out / "round-2" / "games.pdn").read_bytes()
    finally:
        relay.terminate()
        relay.wait(timeout=10)
    assert relay.returncode == 0, relay.stderr.read().decode() if relay.stderr else ""
