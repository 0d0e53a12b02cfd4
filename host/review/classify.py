"""Which moves were inaccuracies, mistakes or blunders: the evaluation's swing, in men.

A move's *loss* is how much the mover's evaluation fell from the position before
the move to the position after it, both as the search sees them (in men, a man
being 1.0), never below 0. Before measuring, each evaluation is clamped to
`CLAMP` men either way: a lead of more than three men is a won game, so a won
game's evaluation going from +7 to +4 (the search seeing a slower win, or noise)
loses nothing, while a lead of two men thrown away still counts in full. A
forced result (a win the search sees to the end) counts as the clamp.

| class        | loss              | mark |
|--------------|-------------------|------|
| `best`       | the engine's move | none |
| `good`       | under 0.3 men     | none |
| `inaccuracy` | 0.3 men or more   | ?!   |
| `mistake`    | 0.6 men or more   | ?    |
| `blunder`    | 1.0 man or more   | ??   |
| `forced`     | the only legal move (not judged) | none |

Why these: losing a man for nothing is the typical blunder in draughts; half a man
is what a wasted tempo or a weakened back row costs in the evaluation; below 0.3
the search's own noise between two positions (one ply deeper or shallower)
dominates. On master games this marks about one move per player per game
(docs/web.md has the figures).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import Move
from host.review.analysis import PositionEval, move_key

#: centi-men: evaluations beyond this either way count as this (a won game)
CLAMP = 300
#: (class, least loss in centi-men), worst first
THRESHOLDS = (("blunder", 100), ("mistake", 60), ("inaccuracy", 30))
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
JUDGED = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Verdict:
    """The judgement of the move played at `ply` by `side` ("W" or "B")."""

    ply: int
    side: str
    kind: str  # best, good, inaccuracy, mistake, blunder, forced
    loss: int  # centi-men lost by the mover (0 for best and forced)

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "side": self.side, "class": self.kind, "loss": self.loss,
                "mark": MARKS.get(self.kind)}


def clamped(evaluation: PositionEval) -> int:
    """The evaluation in centi-men for White, within +-CLAMP."""
    return max(-CLAMP, min(CLAMP, evaluation.score))


def kind_of(loss: int) -> str:
    for kind, least in THRESHOLDS:
        if loss >= least:
            return kind
    return "good"


def judge(move: Move, side: str, before: PositionEval, after: PositionEval) -> Verdict:
    """The verdict on `move`, played by `side` from the position `before` describes."""
    ply = before.ply
    if before.legal <= 1:
        return Verdict(ply, side, "forced", 0)
    best = before.best
    if best is not None and move_key(move) == (best["from"], best["to"],
                                               tuple(sorted(best["captures"]))):
        return Verdict(ply, side, "best", 0)
    sign = 1 if side == "W" else -1
    loss = max(0, sign * (clamped(before) - clamped(after)))
    return Verdict(ply, side, kind_of(loss), loss)


def judge_game(moves: Sequence[Move], sides: Sequence[str],
               evals: Sequence[PositionEval | None]) -> list[Verdict | None]:
    """A verdict for every move whose positions before and after are evaluated (None
    for the others, while the analysis is still running). `evals[i]` is the position
    before move i; `sides[i]` who played it."""
    verdicts: list[Verdict | None] = []
    for ply, move in enumerate(moves):
        before = evals[ply] if ply < len(evals) else None
        after = evals[ply + 1] if ply + 1 < len(evals) else None
        if before is None or after is None:
            verdicts.append(None)
        else:
            verdicts.append(judge(move, sides[ply], before, after))
    return verdicts


def summary(verdicts: Sequence[Verdict | None]) -> dict[str, dict[str, Any]]:
    """Per side: how many moves of each class, and the average loss in men over the moves
    judged (forced moves are not)."""
    result: dict[str, dict[str, Any]] = {}
    for side in ("W", "B"):
        mine = [v for v in verdicts if v is not None and v.side == side]
        judged = [v for v in mine if v.kind in JUDGED]
        counts = {kind: sum(v.kind == kind for v in mine) for kind in (*JUDGED, "forced")}
        average = sum(v.loss for v in judged) / len(judged) / 100 if judged else 0.0
        result[side] = {**counts, "moves": len(mine), "average_loss": round(average, 2)}
    return result


def thresholds_json() -> dict[str, Any]:
    """The thresholds, for the page's legend (in men)."""
    return {"clamp": CLAMP / 100, **{kind: least / 100 for kind, least in THRESHOLDS}}
