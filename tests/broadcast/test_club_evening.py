"""Club evenings through the real processes, with the faults a club meets
(the scenarios are in tests/broadcast/evening.py; `make bench` runs them too).

- 16 boards and `draughtsboard relay`: mid-round the broker is stopped, and the
  relay killed with SIGKILL while it is down. Every board finishes its game
  during the outage and starts its next one. Afterwards every game of every
  board is in the round's file, whole, in order, and every file passes
  `draughtsboard check-game`.
- A burst: 64 boards play a game and start the next while the relay is away;
  when it comes back, their backlogs (about 4,500 messages, more than
  mosquitto's default queue of 1,000 per client) all arrive.

The outage lasts `DRAUGHTSBOARD_OUTAGE` seconds: 4 by default, so `make test`
stays quick; the issue's two minutes (120) run in `make bench`
(bench/broadcast_bench.py), or here with DRAUGHTSBOARD_OUTAGE=120.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from host.broadcast.relay import Relay
from tests.broadcast.broker import Broker
from tests.broadcast.conftest import wait_until
from tests.broadcast.evening import backlog_burst, outage_evening, read_back
from tests.tools import need

#: seconds the broker stays down in the evening (the issue's two minutes: 120)
OUTAGE = float(os.environ.get("DRAUGHTSBOARD_OUTAGE", "4"))


def test_a_club_evening_of_16_boards_loses_nothing_to_a_broker_outage(
        tmp_path: Path) -> None:
    need("mosquitto")
    evening = outage_evening(tmp_path, 16, OUTAGE)
    assert evening.complete()
    written = evening.written
    # Board order for the round's first games; each board's next game after them.
    assert [g.tags["Round"] for g in written[:16]] == [f"7.{n}" for n in range(1, 17)]
    assert sorted(g.tags["Round"] for g in written[16:]) == sorted(
        f"7.{n}.2" for n in range(1, 17))
    assert all(g.tags["Event"] == "Quinta no clube" for g in written)
    bad = [c for c in evening.checked if not (c["legal"] and c["agrees"])]
    assert evening.checked and not bad, bad
    assert len([c for c in evening.checked if c["file"].endswith("games.pdn")]) == 32
    assert evening.status is not None and evening.status["refused"]["total"] == 0
    assert evening.relay_exit == 0


def test_a_burst_of_64_boards_backlogs_arrives_whole(tmp_path: Path) -> None:
    need("mosquitto")
    ids = tuple(f"b{n}" for n in range(1, 65))
    broker = Broker(tmp_path / "broker", ids)
    broker.start()
    burst = None
    try:
        out = tmp_path / "out"
        relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
        assert relay.caught_up.wait(20)
        relay.stop()  # the relay is away while every board plays
        burst = backlog_burst(broker, tmp_path / "boards", len(ids))
        assert burst.messages > 1000  # more than mosquitto's default queue
        relay = Relay(broker.settings("relay"), out, log=lambda _t: None).start()
        games = out / "round-1" / "games.pdn"

        def arrived() -> dict[str, Any]:
            return {g.tags["Round"]: (list(g.moves), g.tags["Result"]) for g in read_back(games)}

        try:
            wait_until(lambda: arrived() == burst.expected, timeout=120,
                       what="every board's two games after the burst")
            assert [g.tags["Round"] for g in read_back(games)][:64] == [
                f"1.{n}" for n in range(1, 65)]
            for publisher in burst.publishers:  # the relay acknowledged all it stored
                wait_until(lambda p=publisher: not p.outbox.pending(), timeout=30,
                           what=f"{publisher.board_id}'s outbox to empty")
        finally:
            relay.stop()
    finally:
        if burst is not None:
            burst.close()
        broker.stop()
