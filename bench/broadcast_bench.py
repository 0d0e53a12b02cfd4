"""Benchmark of club evenings over MQTT: mosquitto, the relay, spectators.

Why these figures: a spectator judges the broadcast by how late a move shows
(commit on the board -> the relay's games.pdn, and -> the spectator page) and
by what following it costs (bytes per move); an organiser by what the relay
and mosquitto cost on the machine that runs them, how fast the relay works
through a backlog (plies per second, after it was away), and whether a long
broker outage loses anything; a board builder by what publishing adds to a Pi
Zero 2 (the host must stay under 60 MB resident). The memory paho-mqtt adds is
set beside aiomqtt's, the asyncio wrapper the issue named as the alternative,
measured in the same run.

- Live evenings of 16 and 64 boards: every board a separate `draughtsboard run
  --board sim --events -` process replaying a recorded corpus game
  (tests/broadcast/club.py) in real time (its recorded pauses, stretched by
  PACE); the relay is `draughtsboard relay --listen --trace`; a Server-Sent
  Events client and an MQTT client (the `spectator` account) stand in for
  spectators.
- Throughput: 16 and 64 boards publish a game and the start of the next while
  the relay is away (tests/broadcast/evening.py `backlog_burst`, the board's
  own publisher code); the relay process then comes back to all of it.
- The outage: tests/broadcast/evening.py `outage_evening`, 16 boards, the broker
  stopped for OUTAGE seconds (the issue's two minutes) mid-round.

Every written file is read by `draughtsboard check-game` and, in the bench's
venv, by pydraughts (replaying every move).
"""

from __future__ import annotations

import heapq
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from engine.pdn import read_games
from host.broadcast.pairings import publish_round, read_pairings
from tests.broadcast.broker import Broker, free_port
from tests.broadcast.club import corpus_games
from tests.paths import REPO
from tests.tools import find

SIZES, PLIES, PACE, OUTAGE = (16, 64), 30, 1.5, 120.0
QUICK_SIZES, QUICK_PLIES, QUICK_PACE, QUICK_OUTAGE = (4, 8), 10, 1.0, 8.0
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _pid(broker: Broker) -> int:
    assert broker.process is not None
    return broker.process.pid


def _rss_mb(pid: int, field: str = "VmRSS") -> float:
    return _status_kb(pid, field) / 1024


def _board_command(folder: Path, broker: Broker | None, board_id: str, variant: str) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.toml"
    text = f'variant = "{variant}"\nspeech = false\njournal = "j.jsonl"\ngames_dir = "games"\n'
    if broker is not None:
        text += (f'broker = "{broker.url}"\nboard_id = "{board_id}"\n'
                 f'broker_password_file = "{broker.password_file(board_id)}"\n')
    config.write_text(text, encoding="utf-8")
    return [sys.executable, "-m", "host.cli", "run", "--config", str(config), "--board", "sim",
            "--new", "--events", "-"]


# -- what publishing adds to one board -------------------------------------------------------


def _idle_board_rss(folder: Path, broker: Broker | None) -> int:
    """VmRSS (kB) of a board waiting for its first event, with or without a broker."""
    process = subprocess.Popen(_board_command(folder, broker, "b1", "brazilian"), cwd=REPO,
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    try:
        if broker is not None:  # connected, subscribed, state published
            assert process.stderr is not None
            process.stderr.readline()
        time.sleep(1.5)
        return _status_kb(process.pid, "VmRSS")
    finally:
        process.kill()
        process.wait()


CLIENT_SCRIPTS = {
    "paho-mqtt (network thread)": """
import asyncio, threading, time
{rss}
base = rss()
import paho.mqtt.client as paho
done = threading.Event()
c = paho.Client(paho.CallbackAPIVersion.VERSION2)
c.username_pw_set("spectator", {password!r})
c.on_connect = lambda *a: done.set()
c.connect("127.0.0.1", {port}); c.loop_start(); done.wait(10); time.sleep(0.5)
print(rss() - base)
""",
    "aiomqtt (asyncio)": """
import asyncio
{rss}
base = rss()
import aiomqtt
async def main():
    async with aiomqtt.Client("127.0.0.1", {port}, username="spectator",
                              password={password!r}):
        await asyncio.sleep(0.5)
        print(rss() - base)
asyncio.run(main())
""",
}
RSS_FUNCTION = """def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])"""


def _client_rss(script: str, broker: Broker) -> int | None:
    password = broker.password_file("spectator").read_text().strip()
    code = script.format(rss=RSS_FUNCTION, port=broker.port, password=password)
    done = subprocess.run([sys.executable, "-c", code],
                          capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        return None
    return int(done.stdout.strip().splitlines()[-1])


def _session_thread_cost(plies: int = 120, repeat: int = 2000) -> tuple[float, float]:
    """What `Publisher.update` costs the session thread per change (snapshot of a long
    game and a queue put), p50 and p99 in microseconds: all the LEDs ever wait for."""
    import queue as queue_module
    import random

    from engine import Game, get_variant
    from host.broadcast.snapshot import snapshot_of_game

    game, rng = Game(get_variant("international")), random.Random(3)
    while len(game.moves) < plies and game.legal_moves():
        game.push(rng.choice(game.legal_moves()))
    handoff: queue_module.Queue[object] = queue_module.Queue()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        handoff.put(("snapshot", snapshot_of_game(game, "g")))
        samples.append((time.perf_counter() - start) * 1e6)
    return _percentile(samples, 0.5), _percentile(samples, 0.99)


# -- the evening -------------------------------------------------------------------------------


class SpectatorClient(threading.Thread):
    """Reads the relay's event stream; records when each new ply of a game arrives, and
    how many bytes following the round costs."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.latencies: list[float] = []
        self.bytes = 0
        self.events = 0

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        for raw in response:
            self.bytes += len(raw)
            line = raw.decode().strip()
            if not line.startswith("data: "):
                continue
            self.events += 1
            message = json.loads(line[6:])
            if message["kind"] == "moves" and message["data"]["moves"]:
                self.latencies.append(time.time() - message["data"]["ts"])


class PublicClient:
    """An MQTT client on the public topics (the `spectator` account): bytes received."""

    def __init__(self, broker: Broker) -> None:
        from host.broadcast.mqtt import make_client, start

        self.bytes = 0
        self.messages = 0
        self.client = make_client(broker.settings("spectator"))
        self.client.on_connect = lambda c, *_a: c.subscribe("draughtsboard/v1/public/#", qos=1)
        self.client.on_message = self._message
        start(self.client, broker.settings("spectator"))

    def _message(self, _c: object, _u: object, message: object) -> None:
        self.bytes += len(message.payload) + len(message.topic)  # type: ignore[attr-defined]
        self.messages += 1

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _feed(boards: list[subprocess.Popen[bytes]], streams: list[tuple[str, ...]],
          pace: float) -> None:
    """Write each board's events at their recorded times (stretched by `pace`), and
    close its input after its last event (the board then commits the last move)."""
    start = time.monotonic() + 1.0
    queue: list[tuple[float, int, int]] = []
    for b, lines in enumerate(streams):
        offset = (b % 20) * 0.25  # boards do not all start on the same tick
        for i, line in enumerate(lines):
            heapq.heappush(queue, (start + offset + pace * json.loads(line)["t"] / 1000, b, i))
    while queue:
        due, b, i = heapq.heappop(queue)
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        stdin = boards[b].stdin
        assert stdin is not None
        stdin.write((streams[b][i] + "\n").encode())
        stdin.flush()
        if i == len(streams[b]) - 1:  # its game is over: the board ends when its game does
            stdin.close()


def _relay_process(broker: Broker, out: Path, trace: Path,
                   port: int | None = None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "host.cli", "relay", "--broker", broker.url, "--out",
               str(out), "--password-file", str(broker.password_file("relay")), "--trace",
               str(trace)]
    if port is not None:
        command += ["--listen", f"127.0.0.1:{port}"]
    return subprocess.Popen(command, cwd=REPO, stderr=subprocess.DEVNULL,
                            stdout=subprocess.PIPE if port is not None else subprocess.DEVNULL)


def _status(out: Path) -> dict[str, Any]:
    try:
        return json.loads((out / "relay-status.json").read_text())
    except (OSError, ValueError):
        return {}


def _wait(test, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.05)
    return False


def _readers(folder: Path) -> tuple[str, str]:
    """(check-game, pydraughts) verdicts on every .pdn file under `folder`."""
    from tests.broadcast.evening import check_game

    checked = check_game(folder)
    bad = [c for c in checked if not (c["legal"] and c["agrees"])]
    ours = (f"{len(checked)} games, all legal, results agree" if checked and not bad
            else f"**{len(bad)} of {len(checked)} games FAIL**")
    try:
        from draughts import Board, Move  # type: ignore[import-not-found]
        from draughts.PDN import PDNReader  # type: ignore[import-not-found]
    except ImportError:
        return ours, "not checked (pydraughts is only in the bench venv: `make bench`)"
    games = failed = 0
    for path in sorted(folder.rglob("*.pdn")):
        for game in PDNReader(filename=str(path)).games:
            games += 1
            try:
                board = Board(variant=game.variant or "standard")
                for text in game.moves:
                    board.push(Move(board, pdn_move=text))
            except Exception:  # noqa: BLE001 - any refusal of theirs counts as a failure
                failed += 1
    theirs = (f"{games} games, every move replayed" if games and not failed
              else f"**{failed} of {games} games FAIL**")
    return ours, theirs


def _evening(broker: Broker, folder: Path, n: int, plies: int, pace: float) -> dict[str, Any]:
    games = corpus_games(n, max_plies=plies)
    ids = [f"b{k}" for k in range(1, len(games) + 1)]
    rows = "\n".join(f"{k},{b},White {k},Black {k}" for k, b in enumerate(ids, start=1))
    publish_round(broker.settings("organiser"), read_pairings(rows, "bench", round_name="1"))
    out, trace, port = folder / "relay", folder / "trace.jsonl", free_port()
    relay = _relay_process(broker, out, trace, port)
    assert relay.stdout is not None
    relay.stdout.readline()  # "spectators: http://..." once it listens
    _wait(lambda: _status(out).get("caught_up"), 30)
    spectator = SpectatorClient(port)
    spectator.start()
    public = PublicClient(broker)
    boards = [subprocess.Popen(_board_command(folder / b, broker, b, g.variant.name), cwd=REPO,
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL) for b, g in zip(ids, games, strict=True)]
    time.sleep(3.0 + n / 16)  # let every board start and connect before play begins
    cpu_before, mosquitto_before = _cpu_seconds(relay.pid), _cpu_seconds(_pid(broker))
    began = time.monotonic()
    _feed(boards, [g.events for g in games], pace)
    for board in boards:
        board.wait(timeout=600)
    expected = [list(g.moves) for g in games]
    path = out / "round-1" / "games.pdn"
    read_back: list[list] = []

    def exact() -> bool:
        nonlocal read_back
        if path.exists():
            read_back = [list(g.moves) for g in read_games(path)]
        return read_back == expected

    _wait(exact, 60)
    elapsed = time.monotonic() - began
    time.sleep(1.0)
    relay_cpu = _cpu_seconds(relay.pid) - cpu_before
    broker_cpu = _cpu_seconds(_pid(broker)) - mosquitto_before
    relay_hwm = _rss_mb(relay.pid, "VmHWM")
    broker_rss, broker_hwm = _rss_mb(_pid(broker)), _rss_mb(_pid(broker), "VmHWM")
    relay.terminate()
    relay.wait(timeout=20)
    relay.stdout.close()
    public.close()
    file_latency: list[float] = []
    to_relay: list[float] = []
    in_relay: list[float] = []
    seen: dict[tuple[str, str], int] = {}
    for line in trace.read_text().splitlines():
        entry = json.loads(line)
        key = (entry["board_id"], entry.get("game", ""))
        if entry["ply"] > seen.get(key, 0):
            seen[key] = entry["ply"]
            file_latency.append(entry["written"] - entry["ts"])
            to_relay.append(entry["received"] - entry["ts"])
            in_relay.append(entry["written"] - entry["received"])
    ours, theirs = _readers(out / "round-1")
    moves = sum(len(m) for m in expected)
    return {
        "boards": len(games), "moves": moves, "elapsed": elapsed, "exact": read_back == expected,
        "file": file_latency, "page": spectator.latencies, "to_relay": to_relay,
        "in_relay": in_relay, "relay_cpu": relay_cpu, "broker_cpu": broker_cpu,
        "relay_hwm": relay_hwm, "broker_rss": broker_rss, "broker_hwm": broker_hwm,
        "page_bytes": spectator.bytes, "public_bytes": public.bytes,
        "public_messages": public.messages, "check_game": ours, "pydraughts": theirs,
    }


def _throughput(folder: Path, n: int, plies: int) -> dict[str, Any]:
    """N boards' backlogs queued for an absent relay, then the relay (a process) back."""
    from tests.broadcast.evening import backlog_burst

    broker = Broker(folder / "broker", tuple(f"b{k}" for k in range(1, n + 1)))
    broker.start()
    burst = None
    try:
        out, trace = folder / "relay", folder / "trace.jsonl"
        relay = _relay_process(broker, out, trace)
        _wait(lambda: _status(out).get("caught_up"), 30)  # its session now exists
        relay.terminate()
        relay.wait(timeout=20)
        (out / "relay-status.json").unlink()
        idle = _rss_mb(_pid(broker))
        burst = backlog_burst(broker, folder / "boards", n, plies)
        queued = _rss_mb(_pid(broker))
        queued_bytes = burst.bytes
        started = time.monotonic()
        relay = _relay_process(broker, out, trace)
        _wait(lambda: _status(out).get("caught_up"), 600)
        caught_up = time.monotonic() - started
        games = out / "round-1" / "games.pdn"

        def arrived() -> bool:
            if not games.exists():
                return False
            got = {g.tags["Round"]: (list(g.moves), g.tags["Result"]) for g in read_games(games)}
            return got == burst.expected

        complete = _wait(arrived, 120)
        elapsed = time.monotonic() - started
        cpu = _cpu_seconds(relay.pid)
        hwm = _rss_mb(relay.pid, "VmHWM")
        drained = _rss_mb(_pid(broker))
        relay.terminate()
        relay.wait(timeout=20)
        return {"boards": n, "plies": burst.plies, "messages": burst.messages,
                "caught_up": caught_up, "elapsed": elapsed, "complete": complete, "cpu": cpu,
                "relay_hwm": hwm, "broker_idle": idle, "broker_queued": queued,
                "broker_drained": drained, "queued_bytes": queued_bytes}
    finally:
        if burst is not None:
            burst.close()
        broker.stop()


def _outage(folder: Path, seconds: float) -> dict[str, Any]:
    from tests.broadcast.evening import outage_evening

    started = time.monotonic()
    try:
        evening = outage_evening(folder, 16, seconds)
    except AssertionError as error:
        return {"ok": False, "why": str(error), "elapsed": time.monotonic() - started}
    ours, theirs = _readers(folder / "out" / "round-7")
    return {"ok": evening.complete() and evening.relay_exit == 0, "timings": evening.timings,
            "games": len(evening.written), "refused": (evening.status or {}).get("refused"),
            "check_game": ours, "pydraughts": theirs, "elapsed": time.monotonic() - started}


def run(quick: bool = False) -> str:
    title = "## Broadcast: club evenings over MQTT (mosquitto, relay, spectators)"
    if find("mosquitto") is None:
        return f"{title}\n\nSKIPPED: mosquitto is not installed (`apt-get install mosquitto`).\n"
    sizes, plies, pace, outage = ((QUICK_SIZES, QUICK_PLIES, QUICK_PACE, QUICK_OUTAGE) if quick
                                  else (SIZES, PLIES, PACE, OUTAGE))
    evenings, bursts = [], []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Broker(folder / "broker", tuple(f"b{k}" for k in range(1, max(sizes) + 1)))
        broker.start()
        try:
            without = [_idle_board_rss(folder / f"plain{k}", None) for k in range(3)]
            with_broker = [_idle_board_rss(folder / f"mqtt{k}", broker) for k in range(3)]
            peers = {name: _client_rss(script, broker)
                     for name, script in CLIENT_SCRIPTS.items()}
        finally:
            broker.stop()
        for n in sizes:
            room = folder / f"evening-{n}"
            broker = Broker(room / "broker", tuple(f"b{k}" for k in range(1, n + 1)))
            broker.start()
            try:
                evenings.append(_evening(broker, room, n, plies, pace))
            finally:
                broker.stop()
        for n in sizes:
            bursts.append(_throughput(folder / f"burst-{n}", n, plies * 2))
        outage_run = _outage(folder / "outage", outage)
        hand50, hand99 = _session_thread_cost()
    base, full = statistics.median(without), statistics.median(with_broker)
    paho = peers["paho-mqtt (network thread)"]
    aio = peers["aiomqtt (asyncio)"]
    ratio = f"{aio / paho:.2f}x" if paho and aio else "n/a"
    ms = lambda xs, q: f"{1000 * _percentile(xs, q):.0f} ms"  # noqa: E731
    lines = [
        title,
        "",
        "Command: `make bench` (this section alone: `.venv-bench/bin/python -m bench --only "
        "broadcast`; `bench/broadcast_bench.py`). Everything on this one machine (boards, "
        "mosquitto 2.0, relay and spectators share its cores, with the other benchmarks' "
        "and other work's load), so latencies include that load.",
        "",
        f"### Live evenings: {' and '.join(str(n) for n in sizes)} boards",
        "",
        f"Each board a `draughtsboard run` process replaying a corpus game ({plies} plies at "
        f"most, recorded pauses x{pace}); one `draughtsboard relay --listen`; one page "
        "(Server-Sent Events) and one MQTT client (`spectator`, the public topics) watching. "
        "A real club of 64 boards makes about 2 moves a second; these rooms make several "
        "times that.",
        "",
        "| | " + " | ".join(f"{e['boards']} boards" for e in evenings) + " |",
        "|---|" + "---|" * len(evenings),
        "| games read back from `round-1/games.pdn` exactly as played | "
        + " | ".join(("yes" if e["exact"] else "**NO**") + f" ({e['moves']} moves, "
                     f"{e['moves'] / e['elapsed']:.1f}/s)" for e in evenings) + " |",
        "| board's commit -> games.pdn written, p50 / p99 | "
        + " | ".join(f"{ms(e['file'], 0.5)} / {ms(e['file'], 0.99)}" for e in evenings) + " |",
        "| of which board and broker (commit -> relay received), p50 / p99 | "
        + " | ".join(f"{ms(e['to_relay'], 0.5)} / {ms(e['to_relay'], 0.99)}"
                     for e in evenings) + " |",
        "| of which the relay (received -> file written, stored first), p50 / p99 | "
        + " | ".join(f"{ms(e['in_relay'], 0.5)} / {ms(e['in_relay'], 0.99)}"
                     for e in evenings) + " |",
        "| board's commit -> the page (SSE message), p50 / p99 | "
        + " | ".join(f"{ms(e['page'], 0.5)} / {ms(e['page'], 0.99)}" for e in evenings) + " |",
        "| following the round: the page, bytes per move (the round once, then changes) | "
        + " | ".join(f"{e['page_bytes'] / e['moves']:.0f} B" for e in evenings) + " |",
        "| following the round: the public topics over MQTT, bytes per move | "
        + " | ".join(f"{e['public_bytes'] / e['moves']:.0f} B ({e['public_messages']} "
                     "messages)" for e in evenings) + " |",
        "| relay CPU (per move) | "
        + " | ".join(f"{e['relay_cpu']:.1f} s ({1000 * e['relay_cpu'] / e['moves']:.1f} ms)"
                     for e in evenings) + " |",
        "| relay memory, peak (VmHWM) | "
        + " | ".join(f"{e['relay_hwm']:.1f} MB" for e in evenings) + " |",
        "| mosquitto CPU; memory at the end / peak (VmRSS / VmHWM) | "
        + " | ".join(f"{e['broker_cpu']:.1f} s; {e['broker_rss']:.1f} / {e['broker_hwm']:.1f} MB"
                     for e in evenings) + " |",
        "| `draughtsboard check-game` on the round's files | "
        + " | ".join(str(e["check_game"]) for e in evenings) + " |",
        "| pydraughts (`PDNReader`, every move pushed) | "
        + " | ".join(str(e["pydraughts"]) for e in evenings) + " |",
        "",
        "### Relay throughput: a backlog, after the relay was away",
        "",
        f"Each board publishes a {plies * 2}-ply game (a move and a state per ply) and the "
        "start of its next game while the relay is stopped; mosquitto holds it all in the "
        "relay's session (the limits `broker-config` sets); then the relay process starts "
        "and works through it (stored, acknowledged, written). Time from its start.",
        "",
        "| boards | messages (plies) | queued (payloads) | caught up, from the relay's "
        "start | plies/s (wall; per CPU second) | relay CPU | relay peak | mosquitto: idle / "
        "backlog queued / after |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for b in bursts:
        lines.append(
            f"| {b['boards']} | {b['messages']} ({b['plies']}) | "
            f"{b['queued_bytes'] / 1e6:.2f} MB | {b['caught_up']:.1f} s"
            + ("" if b["complete"] else " **(files incomplete)**")
            + f" | {b['plies'] / b['caught_up']:.0f}; {b['plies'] / b['cpu']:.0f} | "
            f"{b['cpu']:.1f} s | {b['relay_hwm']:.1f} MB | {b['broker_idle']:.1f} / "
            f"{b['broker_queued']:.1f} / {b['broker_drained']:.1f} MB |")
    timings = outage_run.get("timings") or {}
    lines += [
        "",
        f"### A broker outage of {outage:.0f} s mid-round (16 boards)",
        "",
        "tests/broadcast/evening.py `outage_evening`: 16 board processes; mid-round the broker "
        f"is stopped for {outage:.0f} s and the relay killed (SIGKILL) while it is down; every "
        "board finishes its game during the outage and starts its next, which ends after. "
        "(`make test` runs the same with a 4 s outage.)",
        "",
        f"- Every game of every board whole and in order afterwards: "
        f"**{'yes' if outage_run['ok'] else 'NO'}**"
        + (f" ({outage_run['games']} games)" if outage_run["ok"]
           else f" ({outage_run.get('why', '')})"),
        f"- Broker down {timings.get('outage', 0):.0f} s; every game in the file "
        f"{timings.get('complete_after_outage', float('nan')):.1f} s after it came back "
        "(boards replaying their outboxes, the restarted relay catching up)",
        f"- `check-game` on the round's files (games.pdn and each game's own file): "
        f"{outage_run.get('check_game', 'not run')}; pydraughts: "
        f"{outage_run.get('pydraughts', 'not run')}",
        "",
        "### What publishing adds to a board",
        "",
        "| Cost | value |",
        "|---|---|",
        f"| one board waiting for play, no broker (VmRSS, median of 3) | {base / 1024:.1f} MB |",
        f"| the same board publishing to the broker | {full / 1024:.1f} MB "
        f"(+{(full - base) / 1024:.1f} MB: paho, its thread, host.broadcast) |",
        f"| the session thread's cost per change (snapshot of a {120}-ply game + hand-off) "
        f"| p50 {hand50:.0f} us, p99 {hand99:.0f} us |",
        "",
        "What an MQTT client adds to a Python process that already runs asyncio "
        "(imported, connected, idle; VmRSS delta), the chosen client against the alternative:",
        "",
        "| client | RSS added |",
        "|---|---|",
        f"| paho-mqtt (network thread) | {paho / 1024:.2f} MB |" if paho is not None
        else "| paho-mqtt | not measured |",
        f"| aiomqtt (asyncio, wraps paho) | {aio / 1024:.2f} MB ({ratio} paho's) |"
        if aio is not None else "| aiomqtt | not installed in the bench environment |",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
