"""Club evenings through the real processes, with the faults a club meets.

- 16 boards (`draughtsboard run` processes replaying corpus openings), the
  organiser's pairings and `draughtsboard relay`: mid-round the broker is
  stopped (and the relay killed with SIGKILL while it is down). Every board
  finishes its game during the outage and starts its next one; after the
  outage every game of every board is in the round's file, whole, in order,
  and every file passes `draughtsboard check-game`.
- A burst: 64 boards play a game and start the next while the relay is away;
  when it comes back, their backlogs (thousands of messages, more than
  mosquitto's default queue of 1,000 per client) all arrive.

The outage lasts `DRAUGHTSBOARD_OUTAGE` seconds (default 4 here, so `make test`
stays quick; `make bench` and the long run use the issue's 120 s: see
bench/broadcast_bench.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from engine import Game, Move, get_variant
from engine.pdn import read_games
from host.broadcast.pairings import publish_round, read_pairings
from host.broadcast.publisher import Publisher
from host.broadcast.relay import Relay
from host.broadcast.snapshot import snapshot_of_game
from host.journal import result_text
from tests.broadcast.broker import Broker
from tests.broadcast.club import (
    command,
    corpus_games,
    first_moves,
    last_t,
    quiet_events,
    reset_to_start,
)
from tests.broadcast.conftest import BoardProcess, RelayProcess, wait_until
from tests.paths import REPO
from tests.tools import need

#: seconds the broker stays down in the evening (the issue's two minutes: 120)
OUTAGE = float(os.environ.get("DRAUGHTSBOARD_OUTAGE", "4"))


def _games(path: Path) -> list[Any]:
    return list(read_games(path)) if path.exists() else []


def _check_game(folder: Path) -> list[dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "host.cli", "check-game", "--json",
                           str(folder)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_club_evening_of_16_boards_loses_nothing_to_a_broker_outage(
        tmp_path: Path) -> None:
    need("mosquitto")
    ids = tuple(f"b{n}" for n in range(1, 17))
    broker = Broker(tmp_path / "broker", ids)
    broker.start()
    boards: list[BoardProcess] = []
    relays: list[RelayProcess] = []
    try:
        rows = "\n".join(f"{n},{b},White {n},Black {n}" for n, b in enumerate(ids, 1))
        publish_round(broker.settings("organiser"),
                      read_pairings(rows, "round.csv", event="Quinta no clube", round_name="7"))
        out = tmp_path / "out"
        relays.append(RelayProcess(out, broker))
        played = [list(g.moves[:24]) for g in corpus_games(len(ids), max_plies=24)]
        variants = [g.variant.name for g in corpus_games(len(ids), max_plies=24)]
        second = [first_moves(v, 6, skip=n) for n, v in enumerate(variants)]
        scripts = []
        for moves, next_moves, variant in zip(played, second, variants, strict=True):
            before = quiet_events(moves[:12])
            during = quiet_events(moves[12:], t0=last_t(before) + 1000)
            t = last_t(during) + 1000
            during.append(command(t, "draw"))  # game 1 ends while the broker is down
            during.append(reset_to_start(variant, t + 3000))
            during += quiet_events(next_moves[:2], t0=t + 6000)  # game 2 starts
            after = quiet_events(next_moves[2:], t0=last_t(during) + 1000)
            after.append(command(last_t(after) + 1000, "resign"))
            scripts.append((before, during, after))
        for board_id, variant, (before, _, _) in zip(ids, variants, scripts, strict=True):
            board = BoardProcess(tmp_path / board_id, broker, board_id, variant)
            boards.append(board)
            board.feed(before)
        games = out / "round-7" / "games.pdn"
        wait_until(lambda: [len(g.moves) for g in _games(games)] == [11] * 16, timeout=120,
                   what="every board's first plies before the outage")

        broker.stop()
        down = time.monotonic()
        relays[0].stop(signal.SIGKILL)  # and the relay dies while the broker is down
        for board, (_, during, _) in zip(boards, scripts, strict=True):
            board.feed(during)
        for board_id in ids:
            wait_until(lambda b=board_id: list((tmp_path / b / "games").glob("*.pdn")),
                       timeout=60, what=f"{board_id} to finish its game during the outage")
        relays.append(RelayProcess(out, broker))
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))
        broker.start()

        for board, (_, _, after) in zip(boards, scripts, strict=True):
            board.feed(after)
        for board in boards:
            assert board.finish(timeout=120) == 0, board.log()
        expected = []
        for n, (moves, variant) in enumerate(zip(played, variants, strict=True), 1):
            expected.append((f"7.{n}", moves, result_text(None, variant)))
        for n, (moves, variant) in enumerate(zip(second, variants, strict=True), 1):
            game = Game(get_variant(variant))
            for move in moves:
                game.push(move)
            expected.append((f"7.{n}.2", moves, result_text(
                "B" if game.position.turn == "W" else "W", variant)))

        def complete() -> bool:
            written = {g.tags["Round"]: (list(g.moves), g.tags["Result"]) for g in _games(games)}
            return all(written.get(r) == (m, res) for r, m, res in expected)

        wait_until(complete, timeout=60, what="every game of every board, whole")
        written = _games(games)
        # Board order for the round's first games; each board's next game after them.
        assert [g.tags["Round"] for g in written[:16]] == [f"7.{n}" for n in range(1, 17)]
        assert sorted(g.tags["Round"] for g in written[16:]) == sorted(
            f"7.{n}.2" for n in range(1, 17))
        assert all(g.tags["Event"] == "Quinta no clube" for g in written)
        checked = _check_game(out / "round-7")
        assert checked and all(c["legal"] and c["agrees"] for c in checked), [
            c for c in checked if not (c["legal"] and c["agrees"])]
        assert len([c for c in checked if c["file"].endswith("games.pdn")]) == 32
        status = relays[-1].status()
        assert status is not None and status["refused"]["total"] == 0, status
        assert relays[-1].stop() == 0, relays[-1].log()
    finally:
        for board in boards:
            board.stop()
        for relay in relays:
            if relay.process.poll() is None:
                relay.process.kill()
                relay.process.wait()
        broker.stop()


# -- a burst: 64 boards' backlogs ---------------------------------------------------------


def _snapshots(variant_name: str, moves: list[Move], game_id: str, ending: str | None):
    """What a board's session hands its publisher: one snapshot per change."""
    variant = get_variant(variant_name)
    game = Game(variant)
    yield snapshot_of_game(game, game_id)
    for move in moves:
        game.push(move)
        yield snapshot_of_game(game, game_id)
    if ending is not None:
        yield snapshot_of_game(game, game_id, ending, "agreement")


def test_a_burst_of_64_boards_backlogs_arrives_whole(tmp_path: Path) -> None:
    need("mosquitto")
    ids = tuple(f"b{n}" for n in range(1, 65))
    broker = Broker(tmp_path / "broker", ids)
    broker.start()
    publishers: list[Publisher] = []
    try:
        rows = "\n".join(f"{n},{b},W{n},B{n}" for n, b in enumerate(ids, 1))
        publish_round(broker.settings("organiser"),
                      read_pairings(rows, "round.csv", event="Open", round_name="1"))
        out = tmp_path / "out"
        relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
        assert relay.caught_up.wait(20)
        relay.stop()  # the relay is away while every board plays
        recorded = corpus_games(len(ids), max_plies=30)
        for board_id in ids:
            publisher = Publisher(broker.settings(board_id), board_id,
                                  tmp_path / "boards" / f"{board_id}.outbox.jsonl").start()
            publishers.append(publisher)
        for publisher in publishers:
            assert publisher.wait_ready(20)
        expected = {}
        for n, (publisher, game) in enumerate(zip(publishers, recorded, strict=True), 1):
            moves = list(game.moves[:30])
            draw = result_text(None, game.variant.name)
            for snap in _snapshots(game.variant.name, moves, f"{publisher.board_id}-g1", draw):
                publisher.update(snap)
            for snap in _snapshots(game.variant.name, moves[:3], f"{publisher.board_id}-g2",
                                   None):
                publisher.update(snap)
            expected[f"1.{n}"] = (moves, draw)
            expected[f"1.{n}.2"] = (moves[:3], "*")
        for publisher in publishers:
            assert publisher.flush(60)  # the broker has every message
        relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
        games = out / "round-1" / "games.pdn"

        def arrived() -> dict[str, Any]:
            return {g.tags["Round"]: (list(g.moves), g.tags["Result"]) for g in _games(games)}

        try:
            wait_until(lambda: arrived() == expected, timeout=120,
                       what="every board's two games after the burst")
            assert [g.tags["Round"] for g in _games(games)][:64] == [
                f"1.{n}" for n in range(1, 65)]
            for publisher in publishers:  # the relay acknowledged everything it wrote
                wait_until(lambda p=publisher: not p.outbox.pending(), timeout=30,
                           what=f"{publisher.board_id}'s outbox to empty")
        finally:
            relay.stop()
    finally:
        for publisher in publishers:
            publisher.close(timeout=1)
        broker.stop()
