"""The review's search process: `python -m host.review.worker PAUSE_FD CANCEL_FD`.

Why a process of its own, apart from the computer opponent's: a review is long
(minutes on a Pi) and must never stand in the way of a game. It runs at the
lowest priority the system has (`os.nice(19)`: the kernel gives it only the CPU
nobody else wants), and it *pauses* whenever the host says so: the host writes 1
into the shared PAUSE flag while the computer opponent thinks or a move is being
made on the board, and the search, which looks at the flag every few nodes (the
same hook a cancelled search stops by), sleeps until it is 0 again. A search
counts nodes, not seconds, so a pause costs it nothing.

Requests arrive as JSON lines on standard input:
`{"job": N, "variant": NAME, "fen": START, "moves": [[from, to, [captures]], ...],
"plies": [0, 1, ...], "nodes": BUDGET}`. Replies go out as JSON lines on standard
output: `{"job": N, "eval": {...}}` for each position (`PositionEval.to_json`), then
`{"job": N, "done": true}`, `{"job": N, "cancelled": true}` or
`{"job": N, "error": "..."}`; and `{"paused": true}` /
`{"paused": false}` when the search stops for a pause and goes on again. The host
cancels job N by writing N into the CANCEL flag. The process ends when its input
closes.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from engine import get_variant
from engine.search import Searcher
from host.computer.worker import StopFlag
from host.review.analysis import NODES, evaluate_positions, replay

#: the lowest priority: only the CPU time nobody else wants
NICENESS = 19
#: seconds between two looks at the pause flag while paused
PAUSE_POLL = 0.05
TABLE_BITS = 16  # about 7 MB when full, as the opponent's


class Gate:
    """The search's stop hook: holds the search while the host pauses it, stops it when
    its job is cancelled."""

    def __init__(self, pause: StopFlag, cancel: StopFlag, send: Callable[[dict], None]) -> None:
        self.pause = pause
        self.cancel = cancel
        self.send = send
        self.parent = os.getppid()

    def cancelled(self, job: int) -> bool:
        return self.cancel.value >= job

    def hold(self, job: int) -> bool:
        """Wait while paused; True when the job is cancelled. A host that died while its
        flag said pause can never clear it: the worker then ends (SystemExit)."""
        if self.pause.value and not self.cancelled(job):
            self.send({"paused": True})
            while self.pause.value and not self.cancelled(job):
                if os.getppid() != self.parent:
                    raise SystemExit(0)
                time.sleep(PAUSE_POLL)
            self.send({"paused": False})
        return self.cancelled(job)


def run_job(request: dict[str, Any], gate: Gate, searchers: dict[str, Searcher],
            send: Callable[[dict], None]) -> None:
    """Analyse the positions a request names, one reply per position."""
    job = int(request["job"])
    variant = get_variant(str(request["variant"]))
    game = replay(variant, str(request["fen"]), request["moves"])
    searcher = searchers.get(variant.name)
    if searcher is None:
        searcher = searchers[variant.name] = Searcher(variant, table_bits=TABLE_BITS)
    searcher.new_game()  # the same game gives the same analysis, whatever came before
    nodes = int(request.get("nodes", NODES))
    plies = [int(ply) for ply in request.get("plies", range(len(game.moves) + 1))]
    for evaluation in evaluate_positions(game, plies, nodes=nodes, searcher=searcher,
                                         stop=lambda: gate.hold(job)):
        if gate.hold(job):
            break  # cancelled: what it was searching is not reported
        send({"job": job, "eval": evaluation.to_json()})
        if gate.hold(job):
            break
    else:
        send({"job": job, "done": True})
        return
    send({"job": job, "cancelled": True})


def serve(incoming: TextIO, outgoing: TextIO, gate_flags: tuple[StopFlag, StopFlag]) -> None:
    def send(message: dict) -> None:
        outgoing.write(json.dumps(message, separators=(",", ":")) + "\n")
        outgoing.flush()

    gate = Gate(*gate_flags, send)
    searchers: dict[str, Searcher] = {}
    for line in incoming:
        job = None
        try:
            request = json.loads(line)
            job = request["job"]
            if gate.cancelled(int(job)):
                send({"job": job, "cancelled": True})
                continue
            run_job(request, gate, searchers, send)
        except Exception as error:  # noqa: BLE001 - reported to the host, never lost
            send({"job": job, "error": f"{type(error).__name__}: {error}"})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    pause, cancel = StopFlag(int(args[0])), StopFlag(int(args[1]))
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        serve(sys.stdin, sys.stdout, (pause, cancel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
