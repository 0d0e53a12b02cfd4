"""Replay a family's streams and count what went wrong, the way the issue counts it.

Only the first place where the committed game leaves the played one counts (what
follows is a different game), so each stream adds at most one to wrong, false or
missed:

- wrong: a different move was committed for a move that was played;
- false: a move committed that was never played (past the end of the played moves,
  a move re-read or taken back where no piece went on, or a move committed while an
  illegal move stood on the board);
- missed: a played move never committed;
- illegal: a move committed while an illegal move stood on the board (other than
  the move played just before it, whose piece had landed first);
- alarms: "the board is wrong" said where it should not be, or not said where it
  should (illegal moves held past the grace period, boards switches cannot read).

Corrections ("move-corrected") replace the last committed move, takebacks undo it,
so the committed game is what the board finally believes.
"""

from __future__ import annotations

import inspect
import json
from collections import Counter
from dataclasses import dataclass, field

from engine import get_variant
from host.streams.replay import replay

from .driver import STALL, Driver, Scenario
from .families import FAMILIES
from .timing import MODEL, PROFILES

KINDS = ("wrong", "false", "missed", "illegal", "alarms")


@dataclass
class Tally:
    """Counts for one family (or one stream)."""

    streams: int = 0
    moves: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    #: (variant, seed, what) for the first few failures, to reproduce them
    failures: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.streams += other.streams
        self.moves += other.moves
        self.counts.update(other.counts)
        self.failures.extend(other.failures[: max(0, 5 - len(self.failures))])

    @property
    def clean(self) -> bool:
        return not any(self.counts[k] for k in KINDS)


def generate(
    family: str,
    variant: str,
    seed: str,
    plies: int = 10,
    *,
    scan: tuple[float, float] = (10, 20),
    bounce: float = 0.3,
    timing: str = MODEL.name,
    stall: float = STALL,
) -> Scenario:
    """The stream of `family` in `variant` for `seed` (deterministic): a switch scan
    every `scan` ms (drawn once), each switch chattering with chance `bounce`, the
    hands' durations drawn from the profile named `timing` (hands/timing.py), the host
    reading late with chance `stall` when a scan would see a change (table.py)."""
    driver = Driver(
        family, variant, seed, scan=scan, bounce=bounce, timing=PROFILES[timing], stall=stall
    )
    FAMILIES[family](driver, plies)
    return driver.scenario()


def run_scenario(
    scenario: Scenario, *, touch_move: bool | None = None
) -> list[dict]:
    out: list[dict] = []
    options: dict = {}
    if "touch_move" in inspect.signature(replay).parameters:
        options["touch_move"] = scenario.touch_move if touch_move is None else touch_move
    replay(
        get_variant(scenario.variant),
        (json.dumps(e) for e in scenario.events),
        out.append,
        fen=scenario.fen,
        notices=True,
        **options,
    )
    return out


def judge(scenario: Scenario, out: list[dict]) -> Tally:
    """Compare what the board committed with what the hands played."""
    tally = Tally(streams=1, moves=len(scenario.expected))
    committed: list[str] = []
    corrections = takebacks = alarms = illegal = 0
    for record in out:
        t = record.get("t", 0)
        if "move" in record or "move-corrected" in record:
            if "move" in record:
                committed.append(record["fen"])
            else:
                corrections += 1
                if committed:
                    committed[-1] = record["fen"]
            # A move committed while an illegal board stands is an illegal move accepted,
            # unless it is the move played before it (its proof came first: the
            # illegal piece was lifted as the reply's start, put down just after).
            n = len(committed) - 1
            played = n < len(scenario.expected) and committed[n] == scenario.expected[n]
            if any(a <= t <= b for a, b in scenario.illegal_windows) and not played:
                illegal += 1
        elif "takeback" in record:
            takebacks += 1
            if committed:
                committed.pop()
        elif record.get("notice") == "illegal-board":
            alarms += 1
    expected = scenario.expected
    counts = tally.counts
    n = 0
    while n < min(len(expected), len(committed)) and expected[n] == committed[n]:
        n += 1
    if n < len(expected) and n < len(committed):
        counts["wrong"] += 1
        why = f"ply {n + 1}: committed {committed[n]} instead of {expected[n]}"
    elif len(committed) > len(expected):
        counts["false"] += 1
        why = f"{len(committed) - len(expected)} moves committed past the end: {committed[n]}"
    elif len(committed) < len(expected):
        counts["missed"] += 1
        why = f"ply {n + 1} never committed: {expected[n]}"
    else:
        why = ""
    if not scenario.corrections and (corrections or takebacks):
        counts["false"] += corrections + takebacks
        why = why or f"{corrections} corrections, {takebacks} takebacks where no piece went on"
    if illegal:
        counts["illegal"] += illegal
        why = why or f"{illegal} moves committed while an illegal move stood"
    if alarms != scenario.alarms:
        counts["alarms"] += abs(alarms - scenario.alarms)
        why = why or f"{alarms} illegal-board notices, {scenario.alarms} expected"
    if why:
        tally.failures.append((scenario.variant, scenario.seed, why))
    return tally


def soak(
    families: list[str],
    variants: list[str],
    seeds: list[str],
    *,
    plies: int = 10,
    touch_move: bool | None = None,
    scan: tuple[float, float] = (10, 20),
    bounce: float = 0.3,
    timing: str = MODEL.name,
    stall: float = STALL,
) -> dict[str, Tally]:
    """Generate, replay and judge every (family, variant, seed); a tally per family.

    `touch_move` forces the setting: streams whose verdict depends on it (a piece that
    goes on) keep their own setting and are skipped when it is forced otherwise."""
    tallies: dict[str, Tally] = {}
    for family in families:
        total = Tally()
        for variant in variants:
            for seed in seeds:
                scenario = generate(
                    family, variant, seed, plies, scan=scan, bounce=bounce, timing=timing,
                    stall=stall,
                )
                if not scenario.expected and not scenario.ambiguous:
                    continue  # no such position in this variant
                if touch_move is not None and touch_move != scenario.touch_move:
                    if scenario.corrections or scenario.touch_move:
                        continue
                    scenario.touch_move = touch_move
                total.add(judge(scenario, run_scenario(scenario)))
        tallies[family] = total
    return tallies


def table(tallies: dict[str, Tally]) -> str:
    """A Markdown table of the tallies."""
    rows = [
        "| family | streams | moves | wrong | false | missed | illegal | alarms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for family, t in tallies.items():
        c = t.counts
        rows.append(
            f"| {family} | {t.streams} | {t.moves} | {c['wrong']} | {c['false']} | "
            f"{c['missed']} | {c['illegal']} | {c['alarms']} |"
        )
    return "\n".join(rows)
