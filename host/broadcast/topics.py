"""The wire contract: topic names and the JSON messages on them (version 1).

Everything lives under `draughtsboard/v1/`, so a broker can host other things
and a v2 can run beside v1. Who writes what (the ACL in `broker_config`
enforces it):

- a board `<id>` writes `board/<id>/{status,state,move,correction}` and reads
  its `board/<id>/{assignment,ack,status}`;
- the organiser (`draughtsboard pairings`) writes `round` and every
  `board/<id>/assignment`;
- the relay reads everything, writes `public/#`, every `board/<id>/ack` and its
  own `relay/<user>/#`;
- spectators (the `spectator` account) read only `public/#`.

Who sent a message is the broker's business, not the message's: a board's
topics carry its id, and the ACL lets only the account of that name write
them. Every board message carries `game`, the board's own id for the game
(from its journal: a new game is a new id), `epoch` (a random id fixed when
the board's outbox was created) and `seq` (numbered from 1 within the epoch,
never reused, also after a restart). The relay merges a game's messages by
(game, epoch, seq), whatever order they arrive in, and drops those it has; a
board whose SD card was replaced (new epoch) is not mistaken for a replay of
old messages. The relay acknowledges, per board, the highest seq up to which
it has stored everything (`ack`, retained); a board keeps what is not
acknowledged and sends it again, oldest first, before anything new; an ack
naming seqs the relay lacks although later ones came (`missing`) has them sent
again at once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

ROOT = "draughtsboard/v1"
ROUND = f"{ROOT}/round"
PUBLIC = f"{ROOT}/public"
ONLINE, OFFLINE = "online", "offline"

# Message kinds a board publishes, by the last level of their topic.
STATUS, STATE, MOVE, CORRECTION, ASSIGNMENT = "status", "state", "move", "correction", "assignment"
BOARD_KINDS = (STATUS, STATE, MOVE, CORRECTION)
#: what the relay writes to a board: the highest seq it has stored everything up to
ACK = "ack"


def board_topic(board_id: str, kind: str) -> str:
    return f"{ROOT}/board/{board_id}/{kind}"


def parse_board_topic(topic: str) -> tuple[str, str] | None:
    """(board_id, kind) of a `draughtsboard/v1/board/<id>/<kind>` topic, else None."""
    parts = topic.split("/")
    if len(parts) == 5 and "/".join(parts[:3]) == f"{ROOT}/board" and parts[3]:
        return parts[3], parts[4]
    return None


def relay_sync_topic(user: str) -> str:
    """Where a relay sends itself a marker after subscribing: when the marker comes
    back, everything the broker held for it has arrived before it (caught up)."""
    return f"{ROOT}/relay/{user}/sync"


def public_game_topic(round_name: str, key: str) -> str:
    """The relay's delayed copy of one game (retained), for spectators; `key` is the
    board number (`7`), or `7.2` for that board's second game of the round."""
    return f"{PUBLIC}/round/{round_name}/game/{key}"


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
        "game": _STR,  # the game's id, from the board's journal: a new game is a new id
        "variant": _STR,
        "start_fen": _STR,
        "fen": _STR,
        "moves": (list,),  # move texts in the variant's notation
        "players": (dict,),  # {"white": str | None, "black": str | None}
        "event": _OPT_STR,
        "round": _OPT_STR,
        "board": (int, type(None)),  # board number in the round, from the pairings
        "clocks": (dict, type(None)),  # a timed game's (host/broadcast/snapshot.py), else null
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
    # retained, written by the relay: everything up to `seq` of `epoch` is stored
    ACK: {"epoch": _STR, "seq": _INT},
}

#: optional fields, checked when present (older boards do not send them)
OPTIONAL: dict[str, dict[str, tuple[type, ...]]] = {
    STATE: {"started": _STR},  # when the game started (ISO time), for the PDN's Date
    ACK: {"missing": (list,)},  # [first, last]: seqs the relay lacks although later ones came
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
    for name, types in OPTIONAL.get(kind, {}).items():
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, types)):
            raise BadMessage(f"{kind}: field {name!r} has the wrong type ({value!r})")
    if kind == STATE and not all(isinstance(m, str) for m in data["moves"]):
        raise BadMessage("state: moves must be strings")
    if kind == "round":
        for entry in data["boards"]:
            if not (isinstance(entry, dict) and isinstance(entry.get("board"), int)
                    and isinstance(entry.get("board_id"), str)):
                raise BadMessage("round: each of boards needs an int board and a board_id")
    missing = data.get("missing") if kind == ACK else None
    if missing is not None and not (len(missing) == 2 and all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in missing)):
        raise BadMessage("ack: missing must be [first, last] seqs")
    if "game" in data and not data["game"].strip():
        raise BadMessage(f"{kind}: the game id is empty")
    if "seq" in data and data["seq"] < 1:
        raise BadMessage(f"{kind}: seq must be 1 or more")
    return data


def encode(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def plies_in_common(before: Sequence[object], now: Sequence[object]) -> int:
    """How many leading plies two versions of one game share: a `correction` says
    `from_ply` = this + 1, and only the plies after it are sent again."""
    shared = 0
    for old, new in zip(before, now, strict=False):
        if old != new:
            break
        shared += 1
    return shared
