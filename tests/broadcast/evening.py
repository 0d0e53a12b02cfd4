"""Club-evening scenarios, run by the tests (asserting) and by `make bench` (measuring).

- `outage_evening`: N boards (`draughtsboard run` processes) and `draughtsboard
  relay` (a process); mid-round the broker is stopped for `outage` seconds and
  the relay is killed (SIGKILL) while it is down; every board finishes its game
  during the outage and starts its next one, which ends after.
- `backlog_burst`: N boards (the board's own publisher code, in this process)
  each play a game and start the next while the relay is away; the relay
  then comes back to all of it at once.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Game, Move, get_variant
from engine.pdn import read_games
from host.broadcast.pairings import publish_round, read_pairings
from host.broadcast.publisher import Publisher
from host.broadcast.snapshot import GameSnapshot, snapshot_of_game
from host.records.journal import result_text
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


def read_back(path: Path) -> list[Any]:
    try:
        return list(read_games(path)) if path.exists() else []
    except OSError:
        return []


def check_game(folder: Path) -> list[dict[str, Any]]:
    """`draughtsboard check-game --json` on every file of a folder."""
    done = subprocess.run([sys.executable, "-m", "host.cli", "check-game", "--json",
                           str(folder)], cwd=REPO, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise AssertionError(f"check-game failed: {done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


@dataclass
class Evening:
    """What an evening produced: the games expected and written, and its timings."""

    expected: list[tuple[str, list[Move], str]]  # (Round tag, moves, result)
    written: list[Any] = field(default_factory=list)
    checked: list[dict[str, Any]] = field(default_factory=list)
    status: dict[str, Any] | None = None
    relay_exit: int | None = None
    timings: dict[str, float] = field(default_factory=dict)

    def complete(self) -> bool:
        got = {g.tags["Round"]: (list(g.moves), g.tags["Result"]) for g in self.written}
        return all(got.get(tag) == (moves, result) for tag, moves, result in self.expected)


def outage_evening(folder: Path, boards: int, outage: float, *, plies: int = 24,
                   round_name: str = "7") -> Evening:
    """The evening described above; raises AssertionError if something never comes."""
    ids = tuple(f"b{n}" for n in range(1, boards + 1))
    broker = Broker(folder / "broker", ids)
    broker.start()
    running: list[BoardProcess] = []
    relays: list[RelayProcess] = []
    started = time.monotonic()
    try:
        rows = "\n".join(f"{n},{b},White {n},Black {n}" for n, b in enumerate(ids, 1))
        publish_round(broker.settings("organiser"), read_pairings(
            rows, "round.csv", event="Quinta no clube", round_name=round_name))
        out = folder / "out"
        relays.append(RelayProcess(out, broker))
        recorded = corpus_games(boards, max_plies=plies)
        played = [list(g.moves[:plies]) for g in recorded]
        variants = [g.variant.name for g in recorded]
        second = [first_moves(v, 6, skip=n) for n, v in enumerate(variants)]
        evening = Evening(expected=[])
        for n, (moves, variant) in enumerate(zip(played, variants, strict=True), 1):
            evening.expected.append((f"{round_name}.{n}", moves, result_text(None, variant)))
        for n, (moves, variant) in enumerate(zip(second, variants, strict=True), 1):
            game = Game(get_variant(variant))
            for move in moves:
                game.push(move)
            loser_to_move = game.position.turn
            evening.expected.append((f"{round_name}.{n}.2", moves, result_text(
                "B" if loser_to_move == "W" else "W", variant)))
        scripts = []
        for moves, next_moves, variant in zip(played, second, variants, strict=True):
            half = len(moves) // 2
            before = quiet_events(moves[:half])
            during = quiet_events(moves[half:], t0=last_t(before) + 1000)
            t = last_t(during) + 1000
            during.append(command(t, "draw"))  # game 1 ends while the broker is down
            during.append(reset_to_start(variant, t + 3000))
            during += quiet_events(next_moves[:2], t0=t + 6000)  # game 2 starts
            after = quiet_events(next_moves[2:], t0=last_t(during) + 1000)
            after.append(command(last_t(after) + 1000, "resign"))  # ... and ends after
            scripts.append((half, before, during, after))
        for board_id, variant, (_, before, _, _) in zip(ids, variants, scripts, strict=True):
            board = BoardProcess(folder / board_id, broker, board_id, variant)
            running.append(board)
            board.feed(before)
        games = out / f"round-{round_name}" / "games.pdn"
        # (each board's last ply so far is proved by the next hand, which comes later)
        wait_until(lambda: [len(g.moves) for g in read_back(games)]
                   == [half - 1 for half, *_ in scripts], timeout=300,
                   what="every board's first plies before the outage")
        evening.timings["before"] = time.monotonic() - started

        broker.stop()
        down = time.monotonic()
        relays[0].stop(signal.SIGKILL)  # and the relay dies while the broker is down
        for board, (_, _, during, _) in zip(running, scripts, strict=True):
            board.feed(during)
        for board_id in ids:
            wait_until(lambda b=board_id: list((folder / b / "games").glob("*.pdn")),
                       timeout=120, what=f"{board_id} to finish its game during the outage")
        relays.append(RelayProcess(out, broker))
        time.sleep(max(0.0, outage - (time.monotonic() - down)))
        broker.start()
        back = time.monotonic()
        evening.timings["outage"] = back - down

        for board, (_, _, _, after) in zip(running, scripts, strict=True):
            board.feed(after)
        for board in running:
            code = board.finish(timeout=300)
            if code != 0:
                raise AssertionError(f"a board exited {code}: {board.log()}")

        def complete() -> bool:
            evening.written = read_back(games)
            return evening.complete()

        wait_until(complete, timeout=120, what="every game of every board, whole")
        evening.timings["complete_after_outage"] = time.monotonic() - back
        evening.checked = check_game(out / f"round-{round_name}")
        evening.status = relays[-1].status()
        evening.relay_exit = relays[-1].stop()
        return evening
    finally:
        for board in running:
            board.stop()
        for relay in relays:
            if relay.process.poll() is None:
                relay.process.kill()
                relay.process.wait()
        broker.stop()


def snapshots(variant_name: str, moves: list[Move], game_id: str,
              ending: str | None) -> Iterator[GameSnapshot]:
    """What a board's session hands its publisher: one snapshot per change."""
    game = Game(get_variant(variant_name))
    yield snapshot_of_game(game, game_id)
    for move in moves:
        game.push(move)
        yield snapshot_of_game(game, game_id)
    if ending is not None:
        yield snapshot_of_game(game, game_id, ending, "agreement")


@dataclass
class Burst:
    """N boards' backlogs, published while the relay was away."""

    publishers: list[Publisher]
    expected: dict[str, tuple[list[Move], str]]  # Round tag -> (moves, result)
    messages: int
    plies: int
    seconds_to_publish: float
    bytes: int  # the messages' payloads

    def close(self) -> None:
        for publisher in self.publishers:
            publisher.close(timeout=1)


def backlog_burst(broker: Broker, folder: Path, boards: int, plies: int = 30,
                  round_name: str = "1") -> Burst:
    """Pair `boards` boards, then have each publish a finished game and the start of
    the next (3 plies); returns once the broker has every message. The relay must
    have connected once before (its session then queues all of it)."""
    ids = tuple(f"b{n}" for n in range(1, boards + 1))
    rows = "\n".join(f"{n},{b},W{n},B{n}" for n, b in enumerate(ids, 1))
    publish_round(broker.settings("organiser"),
                  read_pairings(rows, "round.csv", event="Open", round_name=round_name))
    recorded = corpus_games(boards, max_plies=plies)
    publishers = [Publisher(broker.settings(b), b, folder / f"{b}.outbox.jsonl").start()
                  for b in ids]
    for publisher in publishers:
        if not publisher.wait_ready(30):
            raise AssertionError(f"{publisher.board_id} never connected")
    started = time.monotonic()
    expected: dict[str, tuple[list[Move], str]] = {}
    total = 0
    for n, (publisher, game) in enumerate(zip(publishers, recorded, strict=True), 1):
        moves = list(game.moves[:plies])
        draw = result_text(None, game.variant.name)
        for snap in snapshots(game.variant.name, moves, f"{publisher.board_id}-g1", draw):
            publisher.update(snap)
        for snap in snapshots(game.variant.name, moves[:3], f"{publisher.board_id}-g2", None):
            publisher.update(snap)
        expected[f"{round_name}.{n}"] = (moves, draw)
        expected[f"{round_name}.{n}.2"] = (moves[:3], "*")
        total += len(moves) + 3
    for publisher in publishers:
        if not publisher.flush(120):
            raise AssertionError(f"{publisher.board_id}'s messages never reached the broker")
    messages = sum(publisher.outbox.next_seq - 1 for publisher in publishers)
    size = 0
    for publisher in publishers:  # every message is a line of its board's outbox
        for line in publisher.outbox.path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            size += len(record.get("payload", "").encode("utf-8"))
    return Burst(publishers, expected, messages, total, time.monotonic() - started, size)
