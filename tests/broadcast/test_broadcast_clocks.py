"""A timed game's clocks in the broadcast: in every state message a board publishes, in the
relay's view for spectators, and in the relay's PDN (`TimeControl`, both clocks after
every move as lidraughts writes them, `Termination` when a flag fell)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.pdn import parse_game
from host.broadcast.mqtt import BrokerSettings
from host.broadcast.publisher import Publisher
from host.broadcast.relay_files import pdn_of
from host.broadcast.relay_games import Boards
from host.broadcast.relay_rounds import RoundRecord, Slot
from host.broadcast.snapshot import snapshot_of
from host.config import Config
from host.session import Session
from host.streams.events import run_stream
from host.voice.announce import Announcer


def timed_game(tmp_path: Path) -> Session:
    config = Config(variant="english", clock="1+2", speech=False, journal=tmp_path / "j.jsonl",
                    games_dir=tmp_path / "g", data_dir=tmp_path)
    session = Session(config, Announcer("en"), resume=False)
    run_stream(session, [json.dumps(r) for r in (
        {"t": 1000, "lift": 11}, {"t": 1500, "place": 15},  # Black, 0.5 s
        {"t": 4000, "lift": 22}, {"t": 5000, "place": 18},  # White, 3.5 s
    )])
    return session


def states(publisher: Publisher) -> list[dict]:
    return [json.loads(e.payload) for e in publisher.outbox.pending() if e.topic.endswith("/state")]


def test_every_state_message_carries_the_clocks(tmp_path: Path) -> None:
    session = timed_game(tmp_path)
    snap = snapshot_of(session)
    assert snap.clocks is not None
    assert snap.clocks["control"] == "1+2" and snap.clocks["running"] == "B"
    assert snap.clocks["after"] == [[60000, 61500], [58500, 61500]]
    publisher = Publisher(BrokerSettings("mqtt://127.0.0.1:1"), "b1", tmp_path / "out.jsonl")
    publisher._publish_changes(snap)
    (state,) = states(publisher)
    assert state["clocks"]["after"] == [[60000, 61500], [58500, 61500]]
    # The clocks changing course alone (an arbiter's stop) is news too.
    session.pause_clock(6.0, True)
    publisher._publish_changes(snapshot_of(session))
    assert states(publisher)[-1]["clocks"]["paused"] is True
    assert len(states(publisher)) == 2


def test_the_relay_files_the_clocks_in_its_pdn(tmp_path: Path) -> None:
    session = timed_game(tmp_path)
    publisher = Publisher(BrokerSettings("mqtt://127.0.0.1:1"), "b1", tmp_path / "out.jsonl")
    publisher._publish_changes(snapshot_of(session))
    (state,) = states(publisher)
    boards = Boards()
    assert boards.apply("b1", "state", {**state, "epoch": "e1", "seq": 1}, 0)
    view = boards.feeds["b1"].games[state["game"]].view
    assert view is not None and view.clocks == state["clocks"]
    assert view.to_json()["clocks"]["control"] == "1+2"
    text = pdn_of(RoundRecord("1"), Slot("b1", None, view.key), view, "english")
    assert '[TimeControl "60+2"]' in text
    assert "11-15 {[%clock W0:01:00 b0:01:02]}" in text  # Black moved: its b in lower case
    game = parse_game(text)  # (whole seconds, rounded half up as lidraughts does)
    assert game.clocks == [{"W": 60.0, "B": 62.0}, {"W": 59.0, "B": 62.0}]


def test_a_flag_fall_is_a_time_forfeit_in_the_relays_pdn(tmp_path: Path) -> None:
    session = timed_game(tmp_path)
    for t in range(6000, 70000, 50):  # Black never moves again
        session.observe(t / 1000, session.sensed)
    outcome = session.recogniser.outcome
    assert outcome is not None and outcome.reason == "time"
    publisher = Publisher(BrokerSettings("mqtt://127.0.0.1:1"), "b1", tmp_path / "out.jsonl")
    publisher._publish_changes(snapshot_of(session))
    (state,) = states(publisher)
    assert state["reason"] == "time" and state["clocks"]["flagged"] == "B"
    boards = Boards()
    boards.apply("b1", "state", {**state, "epoch": "e1", "seq": 1}, 0)
    view = boards.feeds["b1"].games[state["game"]].view
    assert view is not None
    text = pdn_of(RoundRecord("1"), Slot("b1", None, view.key), view, "english")
    assert '[Termination "Time forfeit"]' in text and '[Result "1-0"]' in text
