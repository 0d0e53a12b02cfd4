"""Soak: random legal games played by noisy simulated hands, replayed.

Proves zero wrong or missed moves and zero false alarms across variants, and
that injected illegal moves are always refused and play continues once the
board is put back. `DRAUGHTSBOARD_SOAK=N` runs N games per variant instead.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from humanise import Stream, humanise, play_move, random_game
from replaykit import VARIANTS

from engine import Game, get_variant
from host.streams.replay import replay

GAMES = int(os.environ.get("DRAUGHTSBOARD_SOAK", "30"))


def run(variant_name: str, events: list[dict[str, object]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    replay(get_variant(variant_name), (json.dumps(e) for e in events), out.append, notices=True)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_noisy_games_commit_exactly_the_moves_played(name: str) -> None:
    variant = get_variant(name)
    for seed in range(GAMES):
        rng = random.Random(f"{name}-{seed}")
        game = random_game(variant, rng, max_plies=rng.randint(20, 120))
        events, fens = humanise(variant, list(game.moves), rng)
        out = run(name, events)
        moves = [r for r in out if "move" in r]
        assert [m["fen"] for m in moves] == fens, f"seed {seed}"
        alarms = [r for r in out if r.get("notice") == "illegal-board" or "takeback" in r]
        assert alarms == [], f"seed {seed}: false alarm {alarms[:1]}"
        outcome = game.outcome()
        results = [r for r in out if "outcome" in r]
        if outcome is None:
            assert results == []
        else:
            assert results[0]["reason"] == outcome.reason
            assert results[0]["winner"] == outcome.winner


@pytest.mark.parametrize("name", ["brazilian", "international", "english", "russian"])
def test_injected_illegal_moves_are_refused_and_play_resumes(name: str) -> None:
    variant = get_variant(name)
    refused = 0
    for seed in range(max(GAMES // 2, 8)):
        rng = random.Random(f"illegal-{name}-{seed}")
        plan = random_game(variant, rng, max_plies=40)
        stream = Stream(rng, t=300)
        game = Game(variant)
        occupied = set(game.position.occupied())
        fens = []
        injected = 0
        for move in plan.moves:
            pos = game.position
            # not a move, nor a touch-down on the way of one (that is play, not a mistake)
            legal = {(m.origin, sq) for m in pos.legal_paths() for sq in m.path}
            own = [sq for sq, p in pos.pieces().items() if p.color == pos.turn]
            empty = [sq for sq in range(1, variant.num_squares + 1) if sq not in occupied]
            wrong = [(a, b) for a in own for b in empty if (a, b) not in legal]
            if wrong and rng.random() < 0.3:
                a, b = rng.choice(wrong)
                stream.act("lift", a)
                stream.wait(200, 500)
                stream.act("place", b)
                stream.wait(3300, 5000)  # long enough for the board to complain
                stream.act("lift", b)
                stream.wait(200, 500)
                stream.act("place", a)
                stream.wait(400, 900)
                injected += 1
            play_move(stream, pos, move, occupied, 500)
            game.push(move)
            fens.append(game.fen())
            stream.wait(700, 1500)
        out = run(name, stream.events)
        assert [r["fen"] for r in out if "move" in r] == fens, f"seed {seed}"
        notices = [r for r in out if r.get("notice") == "illegal-board"]
        assert len(notices) == injected, f"seed {seed}"
        assert len([r for r in out if r.get("notice") == "board-ok"]) == injected
        refused += injected
    assert refused > 0
