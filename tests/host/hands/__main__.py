"""`python -m hands [--streams N] [--family F ...] [--variant V ...] [--plies P]
[--scan LOW HIGH] [--bounce P] [--stall P] [--timing model|human] [-v]`
(run from tests/host, or with tests/host on PYTHONPATH): replay N seeded streams
of each family in each variant and print wrong/false/missed per family."""

from __future__ import annotations

import argparse
import sys
import time

from engine import VARIANTS

from .driver import STALL
from .families import FAMILIES
from .score import soak, table
from .timing import PROFILES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hands", description=__doc__)
    parser.add_argument("--streams", type=int, default=5, help="seeds per family and variant")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES))
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--plies", type=int, default=10)
    parser.add_argument(
        "--touch-move",
        choices=("on", "off"),
        help="force the setting (streams whose verdict depends on it keep their own)",
    )
    parser.add_argument(
        "--scan", nargs=2, type=float, default=(10, 20), metavar=("LOW", "HIGH"),
        help="switch scan period range in ms (default 10 20: the real scanner)",
    )
    parser.add_argument(
        "--bounce", type=float, default=0.3, help="chance a switch chatters on a change"
    )
    parser.add_argument(
        "--stall", type=float, default=STALL,
        help="chance the host is busy and reads late (40-300 ms) when a scan would see a "
        f"change (default {STALL})",
    )
    parser.add_argument(
        "--timing", choices=sorted(PROFILES), default="model",
        help="the hands' durations: the model pace (the families' own, some ranges just "
        "under bounds the board was first tuned to) or measured human ones (hands/timing.py "
        "names the sources)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list failures")
    args = parser.parse_args(argv)
    families = args.family or list(FAMILIES)
    variants = args.variant or list(VARIANTS)
    seeds = [str(s) for s in range(args.first_seed, args.first_seed + args.streams)]
    began = time.monotonic()
    forced = None if args.touch_move is None else args.touch_move == "on"
    tallies = soak(
        families,
        variants,
        seeds,
        plies=args.plies,
        touch_move=forced,
        scan=tuple(args.scan),
        bounce=args.bounce,
        stall=args.stall,
        timing=args.timing,
    )
    print(table(tallies))
    print(f"\n{time.monotonic() - began:.1f} s", file=sys.stderr)
    if args.verbose:
        for family, tally in tallies.items():
            for variant, seed, why in tally.failures:
                print(f"{family} {variant} seed {seed}: {why}")
    return 0 if all(t.clean for t in tallies.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
