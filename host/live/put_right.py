"""The hand actions that put a board right: what a person does when the lights ask.

The simulator's page offers a button that carries a correction out (after a take back,
after a wrong move): it sends these actions through the same simulated hands a
person's clicks use, so the debouncer and the recogniser see an ordinary put-right.
A real board only reads them as instructions.

A person moves each piece that stands wrong to a square that needs that very piece
(closest first), takes off what no square needs, and puts down from the box what no
piece on the board can give. Pieces are written as the page writes them ("W", "B",
"WK", "BK").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Distance = Callable[[int, int], int]


def put_right_steps(
    standing: Mapping[int, str], target: Mapping[int, str], distance: Distance
) -> list[dict[str, Any]]:
    """`{"lift": sq}` and `{"place": sq, "piece": P}` actions, in order, that turn the
    board `standing` into `target` (square -> piece for each); [] when they agree.
    Every place is onto an empty square and every lift from a full one."""
    board = dict(standing)
    steps: list[dict[str, Any]] = []
    while True:
        wrong = sorted(sq for sq, piece in board.items() if target.get(sq) != piece)
        need = sorted(sq for sq, piece in target.items() if board.get(sq) != piece)
        if not wrong and not need:
            return steps
        moves = [
            (distance(e, m), e, m) for e in wrong for m in need
            if m not in board and board[e] == target[m]
        ]
        if moves:
            _, origin, square = min(moves)
            steps += [{"lift": origin}, {"place": square, "piece": board.pop(origin)}]
            board[square] = target[square]
        elif wrong:
            # No empty square needs it yet: off the board (a square it blocks is freed).
            origin = next((sq for sq in wrong if sq in target), wrong[0])
            steps.append({"lift": origin})
            del board[origin]
        else:
            square = need[0]
            steps.append({"place": square, "piece": target[square]})
            board[square] = target[square]
