"""Who pays for what, on generated hands: each move is charged from the moment the last
one was finished to the moment it was (the hands' own times, which the generator knows),
within what the switches can tell (one scan, plus the board's two-scan debounce), slow
proofs, forgotten captured pieces, moves that go on and impatient replies included.

`make test` plays a few seeds of every family; CLOCK_STREAMS=N plays N seeds each.
"""

from __future__ import annotations

import json
import os

import pytest
from hands import Scenario, generate, judge
from hands.families import followed

from engine import Game, Position, get_variant
from host.clock.control import parse_time_control
from host.streams.bounce import without_bounce
from host.streams.replay import parse_events, replay
from tests.paths import EXAMPLES

SEEDS = [f"clock-{n}" for n in range(int(os.environ.get("CLOCK_STREAMS", "2")))]
VARIANTS = ("brazilian", "international", "russian", "english")
CONTROL = parse_time_control("90+5")  # long enough that no flag falls



def charged(records: list[dict]) -> list[tuple[str, int]]:
    """(side, ms) each committed move cost its mover, as the replay's clocks show it
    (corrections replace the last move, takebacks remove it, a move finished later
    than said is charged again: `{"t", "ply", "clock"}`)."""
    assert CONTROL is not None
    full = {"white": CONTROL.white.main * 1000, "black": CONTROL.black.main * 1000}
    increment = CONTROL.white.increment * 1000
    clocks: list[dict[str, int]] = []
    costs: list[tuple[str, int]] = []
    for record in records:
        again = "ply" in record and "clock" in record and record["ply"] == len(clocks)
        if "move" in record or "move-corrected" in record or again:
            if ("move-corrected" in record or again) and clocks:
                clocks.pop()
                costs.pop()
            before = clocks[-1] if clocks else full
            after = record["clock"]
            side = "white" if after["white"] != before["white"] else "black"
            costs.append((side, int(before[side] + increment - after[side])))
            clocks.append(after)
        elif "takeback" in record and clocks:
            clocks.pop()
            costs.pop()
    return costs


def unseen_landings(scenario: Scenario) -> dict[int, float]:
    """Plies whose landing no scan saw (the next player took the piece off at once),
    with how long after the real landing the switches next saw anything."""
    variant = get_variant(scenario.variant)
    position = Position.from_fen(scenario.fen, variant)
    found: dict[int, float] = {}
    for ply, (fen, truth) in enumerate(zip(scenario.expected, scenario.finished, strict=True)):
        move = next(m for m in position.legal_moves() if position.play(m).fen() == fen)
        position = position.play(move)
        started = scenario.finished[ply - 1] if ply else scenario.events[0]["t"]
        if move.destination != move.origin and not any(
            e.get("place") == move.destination and started <= e["t"] <= truth + 1
            for e in scenario.events
        ):
            later = [e["t"] for e in scenario.events if e["t"] > truth]
            found[ply] = (min(later) - truth) if later else 0.0
    return found


@pytest.mark.parametrize(
    ("family", "timing"),
    [(f, "model") for f in followed("model")] + [(f, "human") for f in followed("human")],
)
def test_each_move_is_charged_from_finish_to_finish(family: str, timing: str) -> None:
    """Every family the recogniser follows, with the model's hand timings and measured
    human ones (hands/timing.py); streams it misreads are the soak's business, not this."""
    checked = 0
    for variant in VARIANTS:
        for seed in SEEDS:
            # (A host that reads late stamps a finish up to its lateness late: the
            # charge is exact to the reads, so these hands are read on time.)
            scenario = generate(family, variant, seed, timing=timing, stall=0.0)
            if not scenario.expected:
                continue
            out: list[dict] = []
            replay(
                get_variant(variant),
                (json.dumps(e) for e in scenario.events),
                out.append,
                fen=scenario.fen,
                touch_move=scenario.touch_move,
                notices=True,
                clock=CONTROL,
            )
            if not judge(scenario, out).clean:
                continue
            committed = [r["fen"] for r in out if "move" in r]
            costs = charged(out)
            # One scan to see a change, two more before the debouncer passes it; the two
            # ends of a move's time each within that.
            tolerance = 2 * 3 * scenario.scan + 2
            start = scenario.events[0]["t"]
            previous = float(start)
            unseen = unseen_landings(scenario)
            early = 0.0  # how much later than the truth the last move may have been seen
            for ply, (cost, truth) in enumerate(zip(costs, scenario.finished, strict=False)):
                if ply >= len(committed) or committed[ply] != scenario.expected[ply]:
                    break  # (the board's reading is judged by the soak, not here)
                # A landing no switch saw (taken off in the scan it came down) is known only
                # as before the next change the switches saw.
                late = unseen.get(ply, 0.0)
                assert -tolerance - early <= cost[1] - (truth - previous) <= tolerance + late, (
                    f"{family} {variant} {seed} ply {ply + 1}: charged {cost[1]} ms, "
                    f"the hands took {truth - previous:.0f} ms"
                )
                previous, early = truth, late
                checked += 1
    assert checked, f"no move of {family} was checked"


def test_the_recorded_stream_charges_every_millisecond_once() -> None:
    """The shared recorded game (bounce, touches, captured pieces off in every order):
    each move finishes on one of its own squares' changes, never after its proof; the
    charges add up to the time from the first change to the last finish, nothing lost
    or charged twice; and the same stream gives the same clocks every time."""
    events = [json.loads(line) for line in (EXAMPLES / "replay-brazilian.events.jsonl").open()]
    variant = get_variant("brazilian")

    def run() -> list[dict]:
        out: list[dict] = []
        replay(variant, (json.dumps(e) for e in events), out.append, clock=CONTROL)
        return out

    out = run()
    assert run() == out
    moves = [r for r in out if "move" in r]
    assert len(moves) == 24
    game = Game(variant)
    # the changes as the board's debouncer passes them (host/streams/bounce.py)
    seen = without_bounce(parse_events((json.dumps(e) for e in events), variant))
    own_changes = {(e.t, sq) for e in seen for sq in e.squares}
    finishes = []
    for record in moves:
        move = game.position.parse_move(record["move"])
        game.push(move)
        # the finish: a change on the move's end square or a captured square
        finish = next(
            t for t, sq in sorted(own_changes, reverse=True)
            if t <= record["t"] and sq in {move.destination, *move.captures}
            and t >= (finishes[-1] if finishes else 0)
        )
        finishes.append(finish)
    costs = charged(out)
    gaps = [b - a for a, b in zip([events[0]["t"], *finishes], finishes, strict=False)]
    assert [cost for _, cost in costs] == gaps
    assert sum(cost for _, cost in costs) == finishes[-1] - events[0]["t"]
    slow = [r["t"] - f for r, f in zip(moves, finishes, strict=True)]
    assert max(slow) >= 250  # some moves were proved well after they were finished
