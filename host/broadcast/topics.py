"""The wire contract: topic names and the JSON messages on them (version 1).

Everything lives under `draughtsboard/v1/`, so a broker can host other things
and a v2 can run beside v1. Who writes what (the ACL in `broker_config`
enforces it):

- a board `<id>` writes `board/<id>/{status,state,move,correction}` and reads
  its `board/<id>/assignment`;
- the organiser (`draughtsboard pairings`) writes `round` and every
  `board/<id>/assignment`;
- the relay reads everything and writes only `public/#`;
- spectators (anonymous) read only `public/#`.

Every board message carries `epoch` (a random id fixed when the board's outbox
was created) and `seq` (numbered from 1 within the epoch, never reused, also
after a restart): a subscriber drops a (epoch, seq) it has seen, so QoS 1
duplicates are harmless, and a board whose SD card was replaced (new epoch) is
not mistaken for a replay of old messages.
"""

from __future__ import annotations

import json
from typing import Any

ROOT = "draughtsboard/v1"
ROUND = f"{ROOT}/round"
PUBLIC = f"{ROOT}/public"
ONLINE, OFFLINE = "online", "offline"

# Message kinds a board publishes, by the last level of their topic.
STATUS, STATE, MOVE, CORRECTION, ASSIGNMENT = "status", "state", "move", "correction", "assignment"
BOARD_KINDS = (STATUS, STATE, MOVE, CORRECTION)


def board_topic(board_id: str, kind: str) -> str:
    return f"{ROOT}/board/{board_id}/{kind}"


def parse_board_topic(topic: str) -> tuple[str, str] | None:
    """(board_id, kind) of a `draughtsboard/v1/board/<id>/<kind>` topic, else None."""
    parts = topic.split("/")
    if len(parts) == 5 and "/".join(parts[:3]) == f"{ROOT}/board" and parts[3]:
        return parts[3], parts[4]
    return None


def public_board_topic(round_name: str, board_number: int) -> str:
    """The relay's delayed copy of one game (retained), for spectators."""
    return f"{PUBLIC}/round/{round_name}/board/{board_number}"


def public_round_topic(round_name: str) -> str:
    """The relay's delayed `games.pdn` of one round (retained)."""
    return f"{PUBLIC}/round/{round_name}/pdn"


# -- messages ------------------------------------------------------------------------
#
# The schemas, as documentation and for `check_message`: field -> allowed types.
# `None` in a tuple means the field may be null.

_STR, _INT, _NUM = (str,), (int,), (int, float)
_OPT_STR = (str, type(None))

SCHEMAS: dict[str, dict[str, tuple[type, ...]]] = {
    # retained: the whole game as the board knows it (a late subscriber needs only this)
    STATE: {
        "epoch": _STR,
        "seq": _INT,
        "game": _STR,  # when the game started (ISO time): a new game is a new id
        "variant": _STR,
        "start_fen": _STR,
        "fen": _STR,
        "moves": (list,),  # move texts in the variant's notation
        "players": (dict,),  # {"white": str | None, "black": str | None}
        "event": _OPT_STR,
        "round": _OPT_STR,
        "board": (int, type(None)),  # board number in the round, from the pairings
        "clocks": (dict, type(None)),  # none on the board yet
        "result": _OPT_STR,  # PDN result once finished, else null
        "reason": _OPT_STR,
        "ts": _NUM,  # wall-clock seconds when the change happened
    },
    MOVE: {"epoch": _STR, "seq": _INT, "game": _STR, "ply": _INT, "move": _STR, "fen": _STR,
           "ts": _NUM},
    CORRECTION: {"epoch": _STR, "seq": _INT, "game": _STR, "from_ply": _INT, "ts": _NUM},
    # retained, written by the organiser: the whole round (`boards`: a list of
    # {"board": int, "board_id": str, "white": str | null, "black": str | null})
    "round": {"event": _OPT_STR, "round": _STR, "boards": (list,)},
    # retained, written by the organiser: one board's part of the round
    ASSIGNMENT: {"event": _OPT_STR, "round": _STR, "board": _INT, "white": _OPT_STR,
                 "black": _OPT_STR},
}


class BadMessage(ValueError):
    """A payload that is not a valid message of its kind (the reason says which field)."""


def check_message(kind: str, payload: bytes | str) -> dict[str, Any]:
    """Decode and check one message against `SCHEMAS[kind]`; raises `BadMessage`.

    Unknown extra fields are allowed (a newer board may add some); missing or
    mistyped known fields are not. Booleans are not accepted as numbers.
    """
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadMessage(f"{kind}: not JSON ({error})") from None
    if not isinstance(data, dict):
        raise BadMessage(f"{kind}: expected a JSON object")
    for name, types in SCHEMAS[kind].items():
        if name not in data:
            raise BadMessage(f"{kind}: missing field {name!r}")
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, types):
            raise BadMessage(f"{kind}: field {name!r} has the wrong type ({value!r})")
    if kind == STATE and not all(isinstance(m, str) for m in data["moves"]):
        raise BadMessage("state: moves must be strings")
    if kind == "round":
        for entry in data["boards"]:
            if not (isinstance(entry, dict) and isinstance(entry.get("board"), int)
                    and isinstance(entry.get("board_id"), str)):
                raise BadMessage("round: each of boards needs an int board and a board_id")
    if "seq" in data and data["seq"] < 1:
        raise BadMessage(f"{kind}: seq must be 1 or more")
    return data


def encode(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
