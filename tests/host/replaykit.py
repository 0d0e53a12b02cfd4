"""What the host tests share for driving the replay and reading its output."""

from __future__ import annotations

import json
from typing import Any

from engine import VARIANTS as ENGINE_VARIANTS
from engine import Position, get_variant
from host.recognition.recogniser import Recogniser
from host.streams.replay import replay

VARIANTS = list(ENGINE_VARIANTS)


def run(variant: str, events: list[dict], fen: str | None = None, **kw) -> list[dict]:
    """Replay `events` with LED frames and notices; the output records, in order."""
    out: list[dict] = []
    lines = (json.dumps(e) for e in events)
    replay(get_variant(variant), lines, out.append, fen=fen, leds=True, notices=True, **kw)
    return out


def make_recogniser(*args: Any, **kw: Any) -> Recogniser:
    """The board's recogniser, made as the session makes it."""
    return Recogniser(*args, **kw)


def moves(out: list[dict]) -> list[dict]:
    return [r for r in out if "move" in r]


def notices(out: list[dict], kind: str) -> list[dict]:
    """The notice records of one kind ("illegal-board", "check-colours"...)."""
    return [r for r in out if r.get("notice") == kind]


def fens(variant: str, fen: str, *texts: str) -> list[str]:
    """The FEN after each of the moves `texts`, played from `fen`."""
    pos = Position.from_fen(fen, get_variant(variant))
    found = []
    for text in texts:
        pos = pos.play(pos.parse_move(text))
        found.append(pos.fen())
    return found


def frame_record_at(out: list[dict], t: int) -> dict:
    """The LED frame record shown at time t (the last printed at or before t): its
    "leds" (square -> role) and, when squares blink, "blink"."""
    record: dict = {"leds": {}}
    for r in out:
        if "leds" in r and r["t"] <= t:
            record = r
    return record


def frame_at(out: list[dict], t: int) -> dict[str, str]:
    """The LED roles shown at time t (the last frame printed at or before t)."""
    return frame_record_at(out, t)["leds"]


def role(frame: dict[str, str], name: str) -> set[int]:
    """The squares lit with one role."""
    return {int(sq) for sq, r in frame.items() if r == name}
