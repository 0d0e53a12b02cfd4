"""A round's pairings: read from CSV, published retained for the boards and the relay.

The CSV has one row per board: board number, board id, white, black, with an
optional header row naming those columns (`board,board_id,white,black`); a
header may add `event` and `round` columns (the same on every row) instead of
the command's `--event` and `--round`.

Published (retained, QoS 1), so a board or relay that starts later still gets it:
`draughtsboard/v1/round` (the whole round) and, per board,
`draughtsboard/v1/board/<id>/assignment`. A board paired in the previous
round but not in this one gets its assignment cleared.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import threading
from dataclasses import dataclass
from typing import Any

from host.broadcast import topics
from host.broadcast.mqtt import BrokerSettings, connack_problem, make_client, start
from host.config import check_board_id
from host.errors import UserError

COLUMNS = ("board", "board_id", "white", "black")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")
OPTIONAL = ("event", "round")


@dataclass(frozen=True)
class Round:
    event: str | None
    name: str
    boards: tuple[dict[str, Any], ...]  # {"board", "board_id", "white", "black"}

    def round_message(self) -> dict[str, Any]:
        return {"event": self.event, "round": self.name, "boards": list(self.boards)}

    def assignment(self, entry: dict[str, Any]) -> dict[str, Any]:
        return {"event": self.event, "round": self.name, "board": entry["board"],
                "white": entry["white"], "black": entry["black"]}


def read_pairings(text: str, source: str, *, event: str | None = None,
                  round_name: str | None = None) -> Round:
    """Parse the CSV text; `UserError` names the file and line of the first problem."""
    rows = [(n, row) for n, row in enumerate(csv.reader(io.StringIO(text)), start=1)
            if row and any(cell.strip() for cell in row) and not row[0].lstrip().startswith("#")]
    if not rows:
        raise UserError(f"{source}: no pairings")
    header = [cell.strip().lower().replace(" ", "_") for cell in rows[0][1]]
    if "board_id" in header:
        missing = [c for c in COLUMNS if c not in header]
        unknown = [c for c in header if c not in (*COLUMNS, *OPTIONAL)]
        if missing or unknown:
            raise UserError(f"{source} line {rows[0][0]}: header needs {', '.join(COLUMNS)} "
                            f"(and may have {', '.join(OPTIONAL)})")
        rows = rows[1:]
    else:
        header = list(COLUMNS)
    boards: list[dict[str, Any]] = []
    seen_numbers: set[int] = set()
    seen_ids: set[str] = set()
    found: dict[str, set[str]] = {"event": set(), "round": set()}
    for number, row in rows:
        cells = [cell.strip() for cell in row]
        if len(cells) != len(header):
            raise UserError(f"{source} line {number}: expected {len(header)} columns "
                            f"({', '.join(header)}), found {len(cells)}")
        values = dict(zip(header, cells, strict=True))
        if any(_CONTROL.search(cell) for cell in cells):
            raise UserError(f"{source} line {number}: a control character in a name")
        if not values["board"].isdigit() or int(values["board"]) < 1:
            raise UserError(f"{source} line {number}: board number must be 1 or more, "
                            f"not {values['board']!r}")
        board = int(values["board"])
        try:
            board_id = check_board_id(values["board_id"])
        except UserError as error:
            raise UserError(f"{source} line {number}: {error}") from None
        if board in seen_numbers:
            raise UserError(f"{source} line {number}: board {board} is paired twice")
        if board_id in seen_ids:
            raise UserError(f"{source} line {number}: board id {board_id!r} is paired twice")
        seen_numbers.add(board)
        seen_ids.add(board_id)
        for key in OPTIONAL:
            if values.get(key):
                found[key].add(values[key])
        boards.append({"board": board, "board_id": board_id,
                       "white": values["white"] or None, "black": values["black"] or None})
    for key in OPTIONAL:
        if len(found[key]) > 1:
            raise UserError(f"{source}: the {key} column must be the same on every row")
    name = round_name or next(iter(found["round"]), None)
    if not name:
        raise UserError(f"{source}: which round? give --round or a round column")
    return Round(event or next(iter(found["event"]), None), name,
                 tuple(sorted(boards, key=lambda b: b["board"])))


def publish_round(settings: BrokerSettings, pairing: Round, timeout: float = 10.0) -> list[str]:
    """Publish the round and every assignment, and clear boards no longer paired.
    Waits for the broker's acknowledgements; returns the board ids cleared."""
    client = make_client(settings)
    connected = threading.Event()
    previous: dict[str, Any] = {}
    got_previous = threading.Event()
    problems: list[str] = []

    def on_connect(c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        problem = connack_problem(reason)
        if problem:
            problems.append(problem)
        else:
            c.subscribe(topics.ROUND, qos=1)
        connected.set()

    def on_subscribe(*_args: Any) -> None:
        # A retained message, if any, arrives right after the subscription is granted;
        # a short grace period lets it come before deciding there is none.
        threading.Timer(0.5, got_previous.set).start()

    def on_message(_c: Any, _u: Any, message: Any) -> None:
        with contextlib.suppress(ValueError, TypeError):
            previous.update(json.loads(message.payload))
        got_previous.set()

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    start(client, settings)
    try:
        if not connected.wait(timeout):
            raise UserError(f"cannot reach the broker at {settings.url}")
        if problems:
            raise UserError(problems[0])
        got_previous.wait(timeout)
        paired = {b["board_id"] for b in pairing.boards}
        cleared = sorted({str(b["board_id"]) for b in previous.get("boards", [])
                          if isinstance(b, dict) and b.get("board_id")} - paired)
        # The round first: the broker hands it to the relay before any board hears of its
        # assignment, so a board's state naming its new board is never ahead of it.
        infos = [client.publish(topics.ROUND, topics.encode(pairing.round_message()),
                                qos=1, retain=True)]
        infos += [client.publish(topics.board_topic(board_id, topics.ASSIGNMENT), b"",
                                 qos=1, retain=True) for board_id in cleared]
        for entry in pairing.boards:
            infos.append(client.publish(topics.board_topic(entry["board_id"], topics.ASSIGNMENT),
                                        topics.encode(pairing.assignment(entry)),
                                        qos=1, retain=True))
        for info in infos:
            info.wait_for_publish(timeout)
            if not info.is_published():
                raise UserError("the broker did not acknowledge the pairings in time")
        return cleared
    finally:
        client.disconnect()
        client.loop_stop()
