"""Against a real mosquitto (Debian's 2.0), with the config, passwords and ACL that
`draughtsboard broker-config` generates: what the broker lets through, and what
boards and the relay do when it goes away and comes back.

Skipped where mosquitto is not installed; `.ci/run` installs it and sets
DRAUGHTSBOARD_REQUIRE=mosquitto, which turns the skips into failures.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from dataclasses import replace
from pathlib import Path

from engine import Game, get_variant
from engine.pdn import read_games
from host.broadcast import topics
from host.broadcast.pairings import publish_round, read_pairings
from host.broadcast.relay import Relay
from tests.broadcast.broker import Broker
from tests.broadcast.club import command, last_t, quiet_events
from tests.broadcast.conftest import BoardProcess, wait_until
from tests.broadcast.watch import Watcher
from tests.tools import need

STATE_B1 = topics.board_topic("b1", topics.STATE)
STATUS_B1 = topics.board_topic("b1", topics.STATUS)


def _opening(variant_name: str, plies: int) -> list:
    """The first legal move each time: a short, fixed, legal game."""
    game = Game(get_variant(variant_name))
    for _ in range(plies):
        game.push(sorted(game.legal_moves(), key=lambda m: (m.origin, m.destination))[0])
    return list(game.moves)


def _states(watcher: Watcher, topic: str = STATE_B1) -> list[dict]:
    return [json.loads(p) for p in watcher.on(topic) if p]


def _relay_games(out: Path, folder: str) -> list:
    path = out / folder / "games.pdn"
    return list(read_games(path)) if path.exists() else []


def _plies(out: Path, folder: str, index: int = 0) -> int:
    games = _relay_games(out, folder)
    return len(games[index].moves) if len(games) > index else -1


# -- the ACL --------------------------------------------------------------------------------


def test_a_board_cannot_write_another_boards_topics(broker: Broker) -> None:
    relay_view = Watcher(broker.settings("watcher"), f"{topics.ROOT}/#")
    b1 = Watcher(broker.settings("b1"))
    forged = topics.board_topic("b2", topics.STATE)
    b1.publish(forged, b'{"forged": true}', retain=True)  # mosquitto acks and drops it
    b1.publish(topics.board_topic("b2", topics.MOVE), b'{"forged": true}')
    b1.publish(topics.ROUND, b'{"forged": true}', retain=True)
    b1.publish(f"{topics.PUBLIC}/round/1/pdn", b"forged", retain=True)
    b1.publish(STATE_B1, b'{"own": true}', retain=True)  # its own topic: allowed
    relay_view.wait_for(lambda msgs: any(t == STATE_B1 for t, _, _ in msgs))
    time.sleep(0.3)
    assert [t for t, _, _ in relay_view.messages] == [STATE_B1]
    late = Watcher(broker.settings("watcher"), f"{topics.ROOT}/#")  # nothing forged was retained
    late.wait_for(lambda msgs: any(t == STATE_B1 for t, _, _ in msgs))
    assert [t for t, _, _ in late.messages] == [STATE_B1]
    for w in (relay_view, b1, late):
        w.close()


def test_spectators_read_only_the_public_topics_and_write_nothing(broker: Broker) -> None:
    spectator = Watcher(broker.settings("spectator"), f"{topics.ROOT}/#")
    b1 = Watcher(broker.settings("b1"))
    relay = Watcher(broker.settings("watcher"))
    b1.publish(STATE_B1, b'{"private": true}', retain=True)
    spectator.publish(f"{topics.PUBLIC}/round/1/pdn", b"vandal", retain=True)
    relay.publish(topics.board_topic("b1", topics.MOVE), b"relay may not write boards")
    relay.publish(f"{topics.PUBLIC}/round/1/pdn", b"[Event \"x\"]", retain=True)
    spectator.wait_for(lambda msgs: msgs)
    time.sleep(0.3)
    assert spectator.messages == [(f"{topics.PUBLIC}/round/1/pdn", b'[Event "x"]', False)]
    for w in (spectator, b1, relay):
        w.close()


def test_anonymous_clients_are_refused_on_every_listener(broker: Broker) -> None:
    """No anonymous clients: a client id is global across listeners, and an anonymous
    client could take over a board's (tests/broadcast/test_findings.py, finding 6)."""
    import paho.mqtt.client as paho

    answers: dict[str, str] = {}
    for port, transport in ((broker.port, "tcp"), (broker.websockets, "websockets")):
        client = paho.Client(paho.CallbackAPIVersion.VERSION2, transport=transport)
        client.on_connect = (lambda _c, _u, _f, reason, _p, where=transport:
                             answers.setdefault(where, str(reason)))
        client.connect("127.0.0.1", port)
        client.loop_start()
        try:
            wait_until(lambda where=transport: where in answers,
                       what=f"the broker's answer on {transport}")
        finally:
            client.disconnect()
            client.loop_stop()
    assert set(answers.values()) <= {"Not authorized", "Bad user name or password"}, answers


def test_spectators_over_websockets_read_the_public_topics(broker: Broker) -> None:
    """What a club's screen does: MQTT over WebSockets, as the `spectator` account."""
    import paho.mqtt.client as paho

    relay = Watcher(broker.settings("watcher"))
    relay.publish(f"{topics.PUBLIC}/round/1/pdn", b"[Event \"live\"]", retain=True)
    b1 = Watcher(broker.settings("b1"))
    b1.publish(STATE_B1, b'{"private": true}', retain=True)
    got: list[tuple[str, bytes]] = []
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, transport="websockets")
    client.username_pw_set("spectator", broker.password_file("spectator").read_text().strip())
    client.on_connect = lambda c, *_a: c.subscribe(f"{topics.ROOT}/#", qos=1)
    client.on_message = lambda _c, _u, m: got.append((m.topic, bytes(m.payload)))
    client.connect("127.0.0.1", broker.websockets)
    client.loop_start()
    try:
        wait_until(lambda: got, what="the public file over websockets")
        time.sleep(0.3)
        assert got == [(f"{topics.PUBLIC}/round/1/pdn", b'[Event "live"]')]
    finally:
        client.disconnect()
        client.loop_stop()
        relay.close()
        b1.close()


def test_a_wrong_password_is_refused(broker: Broker, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-password\n")
    settings = broker.settings("b1")
    try:
        Watcher(replace(settings, password_file=wrong))
    except AssertionError as error:
        assert "Not authorized" in str(error) or "Bad user name or password" in str(error)
    else:
        raise AssertionError("the broker accepted a wrong password")


# -- retained state, Last Will --------------------------------------------------------------


def test_retained_state_reaches_a_late_subscriber(broker: Broker, boards: list,
                                                  tmp_path: Path) -> None:
    moves = _opening("brazilian", 6)
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
    boards.append(board)
    board.feed(quiet_events(moves))
    assert board.finish() == 0, board.log()
    late = Watcher(broker.settings("watcher"), f"{topics.ROOT}/board/b1/#")
    state = late.wait_for(lambda msgs: [json.loads(p) for t, p, r in msgs
                                        if t == STATE_B1 and r])[-1]
    game = Game(get_variant("brazilian"))
    texts = []
    for move in moves:
        texts.append(game.position.move_text(move))
        game.push(move)
    assert state["moves"] == texts and state["fen"] == game.fen()
    assert state["variant"] == "brazilian" and state["result"] is None
    status = late.wait_for(lambda msgs: [p for t, p, r in msgs if t == STATUS_B1 and r])
    assert status == [b"offline"]
    late.close()


def test_last_will_says_offline_when_a_board_process_is_killed(broker: Broker, boards: list,
                                                               tmp_path: Path) -> None:
    watcher = Watcher(broker.settings("watcher"), STATUS_B1)
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
    boards.append(board)
    watcher.wait_for(lambda msgs: watcher.on(STATUS_B1)[-1:] == [b"online"], timeout=20)
    board.process.send_signal(signal.SIGKILL)
    watcher.wait_for(lambda msgs: watcher.on(STATUS_B1)[-1:] == [b"offline"], timeout=10)
    watcher.close()


def test_last_will_says_offline_when_keepalive_expires(broker: Broker, boards: list,
                                                       tmp_path: Path) -> None:
    """A frozen board (SIGSTOP: power or network lost, socket still open) goes offline
    once the broker misses 1.5 keepalives."""
    watcher = Watcher(broker.settings("watcher"), STATUS_B1)
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian", keepalive=1)
    boards.append(board)
    watcher.wait_for(lambda msgs: watcher.on(STATUS_B1)[-1:] == [b"online"], timeout=20)
    os.kill(board.process.pid, signal.SIGSTOP)
    try:
        stopped = time.monotonic()
        watcher.wait_for(lambda msgs: watcher.on(STATUS_B1)[-1:] == [b"offline"], timeout=15)
        assert time.monotonic() - stopped >= 1.0  # the will, not a clean exit
    finally:
        os.kill(board.process.pid, signal.SIGCONT)
    watcher.close()


# -- nothing lost, nothing doubled ------------------------------------------------------------


def test_broker_restarted_mid_game_loses_no_move(broker: Broker, boards: list,
                                                 tmp_path: Path) -> None:
    moves = _opening("international", 16)
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    board = BoardProcess(tmp_path / "b1", broker, "b1", "international")
    boards.append(board)
    first = quiet_events(moves[:6])
    board.feed(first)
    wait_until(lambda: _plies(out, "unpaired") == 5, what="the relay to have 5 plies")
    broker.stop()
    second = quiet_events(moves[6:12], t0=last_t(first) + 1000)
    board.feed(second)  # played while the broker is down: journaled and kept in the outbox
    time.sleep(1.0)
    broker.start()
    third = quiet_events(moves[12:], t0=last_t(second) + 1000)
    board.feed(third)
    assert board.finish() == 0, board.log()
    wait_until(lambda: _plies(out, "unpaired") == 16, timeout=30, what="all 16 plies")
    replayed = _relay_games(out, "unpaired")[0]
    assert replayed.error is None and replayed.moves == moves
    relay.stop()


def test_a_duplicate_qos1_message_adds_no_move(broker: Broker, boards: list,
                                               tmp_path: Path) -> None:
    moves = _opening("russian", 4)
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    watcher = Watcher(broker.settings("watcher"), f"{topics.ROOT}/board/b1/#")
    board = BoardProcess(tmp_path / "b1", broker, "b1", "russian")
    boards.append(board)
    board.feed(quiet_events(moves))
    assert board.finish() == 0, board.log()
    wait_until(lambda: _plies(out, "unpaired") == 4, what="4 plies")
    again = Watcher(broker.settings("b1"))  # the board's own credentials, re-sending
    move_topic = topics.board_topic("b1", topics.MOVE)
    for payload in watcher.on(move_topic):
        again.publish(move_topic, payload)  # every move once more (a DUP after reconnect)
    # Every state again, newest first: taken at face value, the oldest (no moves yet)
    # would win; by its seq each is recognised as seen.
    for payload in reversed(watcher.on(STATE_B1)):
        again.publish(STATE_B1, payload)
    time.sleep(1.0)
    assert _plies(out, "unpaired") == 4
    assert _relay_games(out, "unpaired")[0].moves == moves
    for w in (watcher, again):
        w.close()
    relay.stop()


def test_a_takeback_publishes_a_correction_that_rewrites_the_line(broker: Broker, boards: list,
                                                                 tmp_path: Path) -> None:
    variant = get_variant("brazilian")
    game = Game(variant)
    played = []
    for _ in range(3):
        move = sorted(game.legal_moves(), key=lambda m: (m.origin, m.destination))[0]
        played.append(move)
        game.push(move)
    game.pop()
    replacement = [m for m in game.legal_moves() if m != played[-1]][0]
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    watcher = Watcher(broker.settings("watcher"), f"{topics.ROOT}/board/b1/correction")
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
    boards.append(board)
    lines = quiet_events(played)
    t = last_t(lines) + 1000
    lines.append(command(t, "takeback"))
    undo = played[-1]
    lines += [json.dumps({"t": t + 800, "lift": undo.destination}),
              json.dumps({"t": t + 1100, "place": undo.origin})]
    lines += quiet_events([replacement], t0=t + 2500)
    board.feed(lines)
    assert board.finish() == 0, board.log()
    correction = watcher.wait_for(lambda msgs: [json.loads(p) for _, p, _ in msgs])[0]
    assert correction["from_ply"] == 3
    expected = [*played[:2], replacement]
    wait_until(lambda: _relay_games(out, "unpaired")
               and _relay_games(out, "unpaired")[0].moves == expected,
               what="the corrected main line")
    watcher.close()
    relay.stop()


# -- the relay: delay, order ------------------------------------------------------------------


def test_the_delay_serves_the_older_snapshot(broker: Broker, boards: list,
                                             tmp_path: Path) -> None:
    moves = _opening("brazilian", 4)
    out = tmp_path / "out"
    delay = 3.0
    relay = Relay(broker.settings("relay"), out, delay=delay, log=lambda _t: None).start()
    watcher = Watcher(broker.settings("watcher"), STATE_B1)
    board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian")
    boards.append(board)
    first = quiet_events(moves[:2])
    board.feed(first)
    watcher.wait_for(lambda _m: any(len(s["moves"]) == 1 for s in _states(watcher)))
    wait_until(lambda: _plies(out, "unpaired") == 1, timeout=delay + 10,
               what="the first ply, after the delay")
    board.feed(quiet_events(moves[2:], t0=last_t(first) + 1000))
    assert board.finish() == 0, board.log()
    seen = time.monotonic()
    watcher.wait_for(lambda _m: any(len(s["moves"]) == 4 for s in _states(watcher)))
    assert _plies(out, "unpaired") < 4  # the broker has it; spectators do not yet
    assert len(relay.round_summary()["games"][0]["moves"]) < 4
    wait_until(lambda: _plies(out, "unpaired") == 4, timeout=delay + 10, what="4 plies")
    assert time.monotonic() - seen >= delay - 1.0
    watcher.close()
    relay.stop()


def test_board_order_survives_reconnects_and_restarts(broker: Broker, boards: list,
                                                      tmp_path: Path) -> None:
    """Board numbers come from the pairings, never from who connected first: the relay
    restarted and the boards reconnecting in another order leave every game in place."""
    pairing = read_pairings("board,board_id,white,black\n1,b3,Ana,Bia\n2,b1,Caio,Duda\n"
                            "3,b4,Eva,Fabio\n4,b2,Gil,Hugo\n", "round.csv", event="Clube",
                            round_name="5")
    publish_round(broker.settings("organiser"), pairing)
    out = tmp_path / "out"
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    plies = {"b1": 1, "b2": 2, "b3": 3, "b4": 4}
    for board_id in ("b2", "b4", "b1"):  # b3 (board 1) stays away at first
        board = BoardProcess(tmp_path / board_id, broker, board_id, "brazilian")
        boards.append(board)
        board.feed(quiet_events(_opening("brazilian", plies[board_id])))
        assert board.finish() == 0, board.log()

    def order() -> list[tuple[str, str, int]]:
        return [(g.tags["Round"], g.tags["White"], len(g.moves))
                for g in _relay_games(out, "round-5")]

    wait_until(lambda: order() == [("5.1", "Ana", 0), ("5.2", "Caio", 1), ("5.3", "Eva", 4),
                                   ("5.4", "Gil", 2)], what="the first order")
    relay.stop()
    broker.stop()
    broker.start()
    relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
    board = BoardProcess(tmp_path / "b3-late", broker, "b3", "brazilian")
    boards.append(board)
    board.feed(quiet_events(_opening("brazilian", plies["b3"])))
    assert board.finish() == 0, board.log()
    wait_until(lambda: order() == [("5.1", "Ana", 3), ("5.2", "Caio", 1), ("5.3", "Eva", 4),
                                   ("5.4", "Gil", 2)], what="the same order, board 1 played")
    relay.stop()


# -- mqtts ------------------------------------------------------------------------------------


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA and a broker certificate for 127.0.0.1 signed by it (openssl)."""
    openssl = need("openssl")
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, cert = (folder / n for n in ("ca.key", "ca.crt", "broker.key",
                                                        "broker.csr", "broker.crt"))
    ext = folder / "san.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1\n")
    for step in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=club CA",
         "-keyout", str(ca_key), "-out", str(ca)],
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key),
         "-out", str(csr)],
        ["x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key),
         "-CAcreateserial", "-days", "2", "-extfile", str(ext), "-out", str(cert)],
    ):
        subprocess.run([openssl, *step], check=True, capture_output=True, timeout=60)
    return ca, cert, key


def test_a_board_publishes_over_mqtts_with_the_clubs_ca(boards: list, tmp_path: Path) -> None:
    need("mosquitto")
    ca, cert, key = _certificates(tmp_path / "tls")
    broker = Broker(tmp_path / "broker", ("b1",), tls=(cert, key))
    broker.start()
    try:
        watcher = Watcher(broker.settings("watcher"), STATE_B1)
        board = BoardProcess(tmp_path / "b1", broker, "b1", "brazilian",
                             url=broker.tls_url(), ca_file=ca)
        boards.append(board)
        board.feed(quiet_events(_opening("brazilian", 2)))
        assert board.finish() == 0, board.log()
        assert watcher.wait_for(lambda _m: any(len(s["moves"]) == 2 for s in _states(watcher)))
        watcher.close()
        stranger = tmp_path / "other-ca"  # a CA that did not sign the broker's certificate
        other_ca, _, _ = _certificates(stranger)
        refused = BoardProcess(tmp_path / "b1-wrong-ca", broker, "b1", "brazilian",
                               url=broker.tls_url(), ca_file=other_ca)
        boards.append(refused)
        refused.feed(quiet_events(_opening("brazilian", 1)))
        refused.finish()
        assert "broadcast: cannot connect to mqtts://127.0.0.1" in refused.log()
        assert "messages kept in the outbox for next time" in refused.log()
    finally:
        broker.stop()


# -- the relay's acknowledgements, as a board sees them ---------------------------------------


def test_a_board_holds_what_the_relay_lacks_and_sends_it_again_when_asked(
        broker: Broker, tmp_path: Path) -> None:
    from host.broadcast.publisher import Publisher
    from tests.broadcast.evening import snapshots

    relay_side = Watcher(broker.settings("watcher"), f"{topics.ROOT}/board/b1/+")
    publisher = Publisher(broker.settings("b1"), "b1", tmp_path / "b1.outbox.jsonl").start()
    try:
        assert publisher.wait_ready(10)
        ack = topics.board_topic("b1", topics.ACK)
        epoch = publisher.outbox.epoch
        changes = list(snapshots("brazilian", _opening("brazilian", 2), "g1", None))
        publisher.update(changes[0])  # the game's first state: seq 1
        assert publisher.flush(10)
        relay_side.publish(ack, topics.encode({"epoch": epoch, "seq": 1}), retain=True)
        wait_until(lambda: publisher.outbox.delivered == 1, what="the relay's ack applied")
        for snap in changes[1:]:  # a move and a state each: seqs 2 to 5
            publisher.update(snap)
        assert publisher.flush(10)
        held = [e.seq for e in publisher.outbox.pending()]
        assert held == list(range(2, publisher.outbox.next_seq))  # the broker has them too

        def sent(seq: int) -> int:
            return sum(1 for t, p, _ in relay_side.messages
                       if t != ack and p and p[:1] == b"{" and json.loads(p).get("seq") == seq)

        assert sent(3) == 1
        relay_side.publish(ack, topics.encode({"epoch": epoch, "seq": 1, "missing": [3, 3]}),
                           retain=True)
        relay_side.wait_for(lambda _m: sent(3) == 2)  # seq 3 once more, and only it
        assert sent(2) == 1 and sent(4) == 1
        relay_side.publish(ack, topics.encode({"epoch": epoch, "seq": held[-1]}), retain=True)
        wait_until(lambda: not publisher.outbox.pending(), what="the outbox to empty")
    finally:
        publisher.close(timeout=1)
        relay_side.close()


def test_a_relay_the_broker_refuses_exits_with_the_configuration_status(
        broker: Broker, relays: list, tmp_path: Path) -> None:
    from host.broadcast.relay_exit import CONFIGURATION
    from tests.broadcast.conftest import RelayProcess

    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-password\n")
    relay = RelayProcess(tmp_path / "out", broker, extra=("--password-file", str(wrong)))
    relays.append(relay)
    assert relay.process.wait(timeout=30) == CONFIGURATION, relay.log()
    assert "cannot go on" in relay.log() and "password" in relay.log()


def test_a_board_publishes_even_where_an_older_acl_hides_its_own_status(
        broker: Broker, tmp_path: Path) -> None:
    """An ACL from an older broker-config lets a board write its status but not read it
    back: the board waits a few seconds for the echo, then publishes anyway."""
    from host.broadcast import publisher as publisher_module
    from host.broadcast.publisher import Publisher
    from tests.broadcast.evening import snapshots

    acl = broker.folder / "acl"
    status = topics.board_topic("b1", topics.STATUS)
    acl.write_text(acl.read_text().replace(f"topic readwrite {status}", f"topic write {status}"))
    broker.stop()
    broker.start()
    watcher = Watcher(broker.settings("watcher"), STATE_B1)
    publisher = Publisher(broker.settings("b1"), "b1", tmp_path / "b1.outbox.jsonl").start()
    try:
        started = time.monotonic()
        for snap in snapshots("brazilian", _opening("brazilian", 1), "g1", None):
            publisher.update(snap)
        watcher.wait_for(lambda _m: any(s["moves"] for s in _states(watcher)),
                         timeout=publisher_module.SYNC_WAIT + 10)
        assert time.monotonic() - started >= publisher_module.SYNC_WAIT - 1
    finally:
        publisher.close(timeout=1)
        watcher.close()


def test_a_relay_serves_even_where_an_older_acl_drops_its_marker(
        broker: Broker, tmp_path: Path, monkeypatch) -> None:
    from host.broadcast import relay as relay_module

    monkeypatch.setattr(relay_module, "MARKER_WAIT", 1.0)
    acl = broker.folder / "acl"
    acl.write_text(acl.read_text().replace(f"topic readwrite {topics.ROOT}/relay/relay/#\n", ""))
    broker.stop()
    broker.start()
    lines: list[str] = []
    relay = Relay(broker.settings("relay"), tmp_path / "out", log=lines.append).start()
    try:
        assert relay.caught_up.wait(15)
        assert any("did not return the relay's marker" in line for line in lines)
    finally:
        relay.stop()
