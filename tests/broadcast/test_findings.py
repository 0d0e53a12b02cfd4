"""The nine findings of issue 21, each reproduced against a real mosquitto, then held.

Each test names its finding; its docstring says what failed before the fix
(run on the code of 6dc1482, the relay as it was). They drive real processes
where the finding was about one (boards, `draughtsboard relay`, mosquitto) and
the in-process `Relay` where only the relay's rules matter.
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import resource
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from engine import Game, get_variant
from engine.pdn import read_games
from host.broadcast import topics
from host.broadcast.broker_config import BrokerPlan, conf_text, generate, key_problem
from host.broadcast.pairings import publish_round, read_pairings
from host.broadcast.relay import Relay
from host.broadcast.relay_exit import CANNOT_WRITE
from host.broadcast.spectators import SpectatorServer
from tests.broadcast.broker import Broker, free_port
from tests.broadcast.club import command, first_moves, last_t, quiet_events, reset_to_start
from tests.broadcast.conftest import BoardProcess, RelayProcess, wait_until
from tests.broadcast.watch import Watcher
from tests.paths import REPO
from tests.tools import need, need_tool


def _games(path: Path) -> list[Any]:
    try:
        return list(read_games(path)) if path.exists() else []
    except OSError:
        return []


def _summary(path: Path) -> list[tuple[int, str | None]]:
    return [(len(g.moves), g.terminator) for g in _games(path)]


def _texts(moves: list[Any], variant: str = "brazilian") -> list[str]:
    game, texts = Game(get_variant(variant)), []
    for move in moves:
        texts.append(game.position.move_text(move))
        game.push(move)
    return texts


def _pair(broker: Broker, rows: str, round_name: str = "1", event: str = "Clube") -> None:
    publish_round(broker.settings("organiser"),
                  read_pairings(rows, "round.csv", event=event, round_name=round_name))


def _status(out: Path) -> dict[str, Any]:
    try:
        return json.loads((out / "relay-status.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


# -- 1. a finished game is overwritten ---------------------------------------------------


def test_1_a_boards_next_game_never_overwrites_its_finished_game(
        broker: Broker, boards: list, tmp_path: Path) -> None:
    """Before: board 1's `12 plies, 0-1` became `2 plies, *` (the next game, started
    before the next round's pairings, was filed in the finished game's slot)."""
    _pair(broker, "1,b1,Ana,Bia\n")
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    try:
        first = first_moves("brazilian", 12)
        lines = quiet_events(first)
        t = last_t(lines) + 1000
        lines.append(command(t, "resign"))  # White, to move, resigns: 0-1
        lines.append(reset_to_start("brazilian", t + 3000))
        # The same opening again, in the same second: only the game id tells them apart.
        lines += quiet_events(first[:2], t0=t + 6000)
        board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
        boards.append(board)
        board.feed(lines)
        assert board.finish() == 0, board.log()
        games = out / "round-1" / "games.pdn"
        wait_until(lambda: _summary(games) == [(12, "0-1"), (2, "*")], timeout=20,
                   what=f"both games of board 1 (have {_summary(games)})")
        assert _summary(out / "round-1" / "board-01.pdn") == [(12, "0-1")]
        assert _summary(out / "round-1" / "board-01-2.pdn") == [(2, "*")]
        written = _games(games)
        assert written[0].moves == first and written[1].moves == first[:2]
        assert [g.tags["Round"] for g in written] == ["1.1", "1.1.2"]
        assert {g.tags["White"] for g in written} == {"Ana"}
    finally:
        relay.stop()


# -- 2. one bad message stops the relay, silently -------------------------------------------


def _state(**fields: Any) -> bytes:
    variant = get_variant(str(fields.get("variant", "brazilian")).replace("frisian-2030",
                                                                           "brazilian"))
    start = variant.initial_position().fen()
    data = {"epoch": "e-bad", "seq": 1, "game": "g-bad", "variant": "brazilian",
            "start_fen": start, "fen": start, "moves": [], "players": {"white": None,
                                                                       "black": None},
            "event": None, "round": None, "board": None, "clocks": None, "result": None,
            "reason": None, "ts": time.time()}
    data.update(fields)
    return topics.encode(data)


def test_2_a_bad_message_costs_one_message_and_is_counted(
        broker: Broker, boards: list, relays: list, tmp_path: Path) -> None:
    """Before: a state naming a variant the relay does not know killed the relay's thread;
    the process stayed up serving stale files and exited 0 on SIGTERM."""
    out = tmp_path / "out"
    relay = RelayProcess(out, broker)
    relays.append(relay)
    wait_until(lambda: (relay.status() or {}).get("caught_up"), what="the relay to start")
    newer = Watcher(broker.settings("b1"))  # a newer (or faulty) board, with its own account
    newer.publish(topics.board_topic("b1", topics.STATE), _state(variant="frisian-2030"),
                  retain=True)
    newer.publish(topics.board_topic("b1", topics.MOVE), b"{not json")
    newer.close()
    moves = first_moves("russian", 4)
    board = BoardProcess(tmp_path / "b2", broker, "b2", "russian")
    boards.append(board)
    board.feed(quiet_events(moves))
    assert board.finish() == 0, board.log()
    wait_until(lambda: [len(g.moves) for g in _games(out / "unpaired" / "games.pdn")] == [4],
               timeout=20, what="board b2's game after b1's bad messages")
    status = wait_until(lambda: _status(out).get("refused", {}).get("total") == 2
                        and _status(out), what="two refusals counted")
    assert status["refused"]["by_board"] == {"b1": 2}
    reasons = " ".join(r["reason"] for r in status["refused"]["recent"])
    assert "frisian-2030" in reasons and "not JSON" in reasons
    assert "b1" in relay.log() and "frisian-2030" in relay.log()
    assert relay.stop() == 0


def test_2_a_relay_that_cannot_write_exits_non_zero(
        broker: Broker, boards: list, relays: list, tmp_path: Path) -> None:
    """Before: a full disk (here: a file-size limit of 1 KiB, which Python turns into
    EFBIG) was logged and the relay went on, writing nothing, exit status 0."""
    limit = 1024

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    out = tmp_path / "out"
    relay = RelayProcess(out, broker, preexec=small_files)
    relays.append(relay)
    wait_until(lambda: (relay.status() or {}).get("caught_up"), what="the relay to start")
    board = BoardProcess(tmp_path / "b1", broker, "b1", "international")
    boards.append(board)
    board.feed(quiet_events(first_moves("international", 30)))
    assert board.finish() == 0, board.log()
    code = relay.process.wait(timeout=30)
    assert code == CANNOT_WRITE == 75, relay.log()
    assert "cannot go on" in relay.log()


# -- 3. bursts are dropped: see test_club_evening.py (64 boards' backlogs) --------------------


# -- 4. a restarted board's new state overtakes its backlog -----------------------------------


def test_4_a_game_that_ended_while_the_broker_was_down_arrives_whole_after_a_board_restart(
        broker: Broker, boards: list, tmp_path: Path) -> None:
    """Before: the restarted board's new game overtook the backlog of the game that ended
    while the broker was down, and the relay's (epoch, seq) filter threw that backlog
    away: the game lost its last moves and its result."""
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    try:
        moves = first_moves("international", 10)
        board = BoardProcess(tmp_path / "b1", broker, "b1", "international")
        boards.append(board)
        first = quiet_events(moves[:4])
        board.feed(first)
        # The 4th ply is proved by the next player's hand, which comes later.
        wait_until(lambda: _summary(out / "unpaired" / "games.pdn") == [(3, "*")],
                   what="the first 3 plies")
        broker.stop()
        rest = quiet_events(moves[4:], t0=last_t(first) + 1000)
        rest.append(command(last_t(rest) + 1000, "draw"))
        board.feed(rest)
        outbox = tmp_path / "b1" / "journal.outbox.jsonl"
        # (the outbox is written on the publisher's thread, just after the journal)
        wait_until(lambda: '\\"result\\":\\"1-1\\"' in outbox.read_text(),
                   what="the board's outbox to hold the finished game")
        board.process.send_signal(signal.SIGKILL)  # its outbox holds the game's end
        board.stop()
        broker.start()
        again = BoardProcess(tmp_path / "b1", broker, "b1", "international")  # `--new`
        boards.append(again)
        again.feed(quiet_events(first_moves("international", 2, skip=1)))
        assert again.finish() == 0, again.log()
        wait_until(lambda: _summary(out / "unpaired" / "games.pdn") == [(10, "1-1"), (2, "*")],
                   timeout=30, what=f"both games (have {_summary(out / 'unpaired' / 'games.pdn')})")
        assert _games(out / "unpaired" / "games.pdn")[0].moves == moves
    finally:
        relay.stop()


# -- 5. any board can rewrite any other board's game -----------------------------------------


def test_5_a_board_cannot_rewrite_another_boards_game(
        broker: Broker, boards: list, tmp_path: Path) -> None:
    """Before: b2's credentials put one fake move and 0-1 under board 1's real players,
    with a fake Event, by claiming round 1 board 1 in its own state."""
    _pair(broker, "1,b1,Ana,Bia\n2,b2,Caio,Duda\n")
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    try:
        real = first_moves("brazilian", 4)
        board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
        boards.append(board)
        board.feed(quiet_events(real))
        assert board.finish() == 0, board.log()
        games = out / "round-1" / "games.pdn"
        wait_until(lambda: _summary(games)[:1] == [(4, "*")], what="board 1's game")
        forger = Watcher(broker.settings("b2"))
        fake = first_moves("brazilian", 1, skip=2)
        for seq, game in ((1, "forged"), (2, "forged-2")):
            forger.publish(topics.board_topic("b2", topics.STATE), _state(
                epoch="e-forged", seq=seq, game=game, moves=_texts(fake), result="0-1",
                round="1", board=1, event="Fake Open",
                players={"white": "Eve", "black": "Mallory"}), retain=True)
        forger.close()
        honest = BoardProcess(tmp_path / "b2", broker, "b2", "brazilian")
        boards.append(honest)
        honest.feed(quiet_events(first_moves("brazilian", 2, skip=1)))
        assert honest.finish() == 0, honest.log()
        wait_until(lambda: _summary(games) == [(4, "*"), (2, "*")], timeout=20,
                   what=f"both boards' real games (have {_summary(games)})")
        written = _games(games)
        assert written[0].moves == real
        assert [(g.tags["White"], g.tags["Event"]) for g in written] == [
            ("Ana", "Clube"), ("Caio", "Clube")]
        status = wait_until(lambda: _status(out).get("refused", {}).get("total") == 2
                            and _status(out), what="the forged states counted")
        assert status["refused"]["by_board"] == {"b2": 2}
        assert "board 1" in status["refused"]["recent"][-1]["reason"]
    finally:
        relay.stop()


# -- 6. anyone can kick a board off ------------------------------------------------------------


def test_6_nobody_can_take_a_boards_client_id(broker: Broker, boards: list,
                                              tmp_path: Path) -> None:
    """Before: an anonymous client connecting with `draughtsboard-board-b1` disconnected
    board b1 and fired its "offline" will, as often as it liked."""
    import paho.mqtt.client as paho

    watcher = Watcher(broker.settings("watcher"), topics.board_topic("b1", topics.STATUS))
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
    boards.append(board)
    status_b1 = topics.board_topic("b1", topics.STATUS)
    watcher.wait_for(lambda _m: watcher.on(status_b1)[-1:] == [b"online"], timeout=20)
    seen = len(watcher.on(status_b1))
    answers: list[str] = []
    attempts = [(None, "draughtsboard-board-b1", broker.port, "tcp"),
                (None, "b1", broker.port, "tcp"),
                (None, "b1", broker.websockets, "websockets"),
                ("b2", "b1", broker.port, "tcp"),
                ("b2", "draughtsboard-board-b1", broker.port, "tcp")]
    for user, client_id, port, transport in attempts:
        done = threading.Event()
        client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id,
                             transport=transport, clean_session=False)
        if user is not None:
            client.username_pw_set(user, broker.password_file(user).read_text().strip())

        def on_connect(_c: Any, _u: Any, _f: Any, reason: Any, _p: Any,
                       who: str = f"{user}/{client_id}", done: threading.Event = done) -> None:
            answers.append(f"{who}: {reason}")
            done.set()

        client.on_connect = on_connect
        client.connect("127.0.0.1", port)
        client.loop_start()
        done.wait(5)
        time.sleep(0.5)
        client.disconnect()
        client.loop_stop()
    time.sleep(1.0)
    assert watcher.on(status_b1)[seen:] == [], answers  # b1 was never disconnected
    assert sum("Success" in a for a in answers) == 2, answers  # b2 connected, as b2
    assert all("Success" in a for a in answers if a.startswith("b2/")), answers
    watcher.close()


# -- 7. TLS leaves the plaintext door open ------------------------------------------------------


def test_7_with_tls_the_plain_listener_is_loopback_only_and_every_listener_is_bound(
        tmp_path: Path) -> None:
    """Before: with --tls-port the plain listener still took passwords on every interface,
    and --bind covered the plain listener only."""
    plan = BrokerPlan(board_ids=("b1",), port=1883, bind="192.0.2.10", websockets=9001,
                      tls_port=8883, certfile=tmp_path / "c.pem", keyfile=tmp_path / "k.pem")
    listeners = [line for line in conf_text(plan, tmp_path).splitlines()
                 if line.startswith("listener ")]
    assert listeners == ["listener 1883 127.0.0.1", "listener 8883 192.0.2.10",
                         "listener 9001 192.0.2.10"]
    plain = BrokerPlan(board_ids=("b1",), port=1883, bind="192.0.2.10", websockets=9001)
    assert [line for line in conf_text(plain, tmp_path).splitlines()
            if line.startswith("listener ")] == ["listener 1883 192.0.2.10",
                                                  "listener 9001 192.0.2.10"]


def test_7_secrets_stay_readable_by_their_owners_only(tmp_path: Path) -> None:
    """Before: the documented `chown -R mosquitto:` gave the broker every clear-text
    password (secrets/, boards/)."""
    out = tmp_path / "club"
    generate(BrokerPlan(board_ids=("b1", "b2")), out)
    mode = lambda p: (out / p).stat().st_mode & 0o777  # noqa: E731
    assert mode("secrets") == 0o700 and mode("boards") == 0o700
    assert mode("secrets/relay.password") == 0o600
    assert mode("boards/b1/broker-password") == 0o600
    assert mode("passwd") == 0o640 and mode("acl") == 0o640
    docs = (REPO / "docs" / "broadcast.md").read_text(encoding="utf-8")
    assert "sudo chown -R" not in docs  # the documented steps give the broker no secret


def test_7_a_key_only_root_can_read_stops_mosquitto_and_the_documented_steps_fix_it(
        tmp_path: Path) -> None:
    """Before: nothing said so; mosquitto, dropping to its own user, could not read a
    0600 root key and exited at start. broker-config now names the problem and the fix
    (`chgrp mosquitto KEY; chmod 0640 KEY`), which this test carries out."""
    exe = need("mosquitto")
    openssl = need("openssl")
    try:
        account = pwd.getpwnam("mosquitto")
    except KeyError:
        account = None
    need_tool("root", os.geteuid() == 0 and account is not None,
              "changing a file's group for mosquitto's user needs root and that user")
    assert account is not None
    # mosquitto, once it is user `mosquitto`, must be able to reach the folder
    folder = Path(subprocess.run(["mktemp", "-d", "/tmp/draughtsboard-key.XXXXXX"],
                                 capture_output=True, text=True, check=True).stdout.strip())
    try:
        folder.chmod(0o755)
        key, cert = folder / "broker.key", folder / "broker.crt"
        subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True, timeout=60)
        key.chmod(0o600)
        os.chown(key, 0, 0)
        port, tls_port = free_port(), free_port()
        plan = BrokerPlan(board_ids=("b1",), port=port, bind="127.0.0.1", tls_port=tls_port,
                          certfile=cert, keyfile=key, run_as="mosquitto")
        generate(plan, folder / "club")
        problem = key_problem(plan)
        assert problem is not None and "chgrp mosquitto" in problem and "0640" in problem
        conf = str(folder / "club" / "mosquitto.conf")
        refused = subprocess.run([exe, "-c", conf], capture_output=True, text=True, timeout=20)
        assert refused.returncode != 0 and "key" in (refused.stdout + refused.stderr).lower()
        os.chown(key, 0, account.pw_gid)  # the documented steps
        key.chmod(0o640)
        assert key_problem(plan) is None
        started = subprocess.Popen([exe, "-c", conf], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            time.sleep(1.5)
            assert started.poll() is None  # running, with its TLS listener
        finally:
            started.terminate()
            started.wait(timeout=10)
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=False)


# -- 8. a restarted relay serves stale files ---------------------------------------------------


def test_8_a_restarted_relay_never_serves_an_older_file(
        broker: Broker, boards: list, relays: list, tmp_path: Path) -> None:
    """Before: a relay killed and restarted rewrote games.pdn from a round.json saved at
    most every 5 s: a poller saw moves taken back and replayed."""
    out = tmp_path / "out"
    port = free_port()
    first = RelayProcess(out, broker, listen=port)
    relays.append(first)
    moves = first_moves("brazilian", 30)
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
    boards.append(board)
    board.feed(quiet_events(moves))
    assert board.finish() == 0, board.log()
    games = out / "unpaired" / "games.pdn"
    wait_until(lambda: _summary(games) == [(30, "*")], timeout=20, what="30 plies")
    first.stop(signal.SIGKILL)
    seen: list[int] = []
    answers: list[int] = []
    stop = threading.Event()

    def get(path: str) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode()

    def poll() -> None:
        while not stop.is_set():
            seen.extend(len(g.moves) for g in _games(games))
            try:
                status, body = get("/unpaired/games.pdn")
                answers.append(status)
                if status == 200:
                    seen.append(len(_plies_of(body)))
                status, body = get("/api/round")
                answers.append(status)
                if status == 200:
                    seen.extend(len(g["moves"]) for g in json.loads(body)["games"])
            except OSError:
                pass
            time.sleep(0.01)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    second = RelayProcess(out, broker, listen=port)
    relays.append(second)
    wait_until(lambda: 200 in answers, timeout=20, what="the restarted relay to serve")
    time.sleep(1.0)
    stop.set()
    poller.join()
    assert seen and min(seen) == 30, sorted(set(seen))
    assert set(answers) <= {200, 503}


def _plies_of(text: str) -> list[str]:
    import io

    games = list(read_games(io.StringIO(text)))
    return list(games[0].moves) if games else []


# -- 9. the whole round republished on every change --------------------------------------------


def test_9_spectators_get_the_round_once_then_only_the_new_moves(
        broker: Broker, boards: list, tmp_path: Path) -> None:
    """Before: every change republished the round's whole PDN on the public topic (one
    spectator received 1,200 copies in 7 minutes) and sent each game whole to the page."""
    _pair(broker, "1,b1,Ana,Bia\n2,b2,Caio,Duda\n")
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    assert relay.caught_up.wait(20)
    server = SpectatorServer(relay, out, "127.0.0.1", 0).start()
    public = Watcher(broker.settings("watcher"), f"{topics.PUBLIC}/#")
    events: list[dict[str, Any]] = []

    def follow() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request("GET", "/api/events")
        for raw in connection.getresponse():
            line = raw.decode().strip()
            if line.startswith("data: "):
                events.append(json.loads(line[6:]))

    threading.Thread(target=follow, daemon=True).start()
    try:
        wait_until(lambda: events, what="the first event")
        plays = {"b1": first_moves("brazilian", 20), "b2": first_moves("brazilian", 10, skip=1)}
        for board_id, moves in plays.items():
            board = BoardProcess(tmp_path / board_id, broker, board_id, "brazilian")
            boards.append(board)
            board.feed(quiet_events(moves))
        for board in boards:
            assert board.finish() == 0, board.log()
        wait_until(lambda: _summary(out / "round-1" / "games.pdn") == [(20, "*"), (10, "*")],
                   timeout=20, what="both games in the file")
        time.sleep(0.5)
        assert events[0]["kind"] == "round" and events[0]["data"]["round"] == "1"
        changes = [e["data"] for e in events[1:] if e["kind"] == "moves"]
        sent = sum(len(change["moves"]) for change in changes)
        assert sent == 30, sent  # every move once, never a whole game again
        assert all(change["from_ply"] >= 1 for change in changes)
        pdn_copies = public.on(topics.public_round_topic("1"))
        assert 1 <= len(pdn_copies) <= 3, len(pdn_copies)
    finally:
        public.close()
        server.stop()
        relay.stop()
