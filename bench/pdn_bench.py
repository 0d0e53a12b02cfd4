"""PDN reading at collection scale: games per second and peak memory, against pydraughts.

Why: clubs check whole collections (`draughtsboard check-game`), and the board
itself is a Raspberry Pi Zero 2 with 512 MB, so reading must run in the same
memory whatever the file's size. The issue measured 135 s and 842 MB on an
11 MB, 11,400-game file before anything was printed. This module writes a
synthetic collection of that size (random legal games, a third each Russian
without GameType but with Cyrillic tags and `:` captures, International with
GameType, English without GameType, so inference works as in real files;
eleven tags and lidraughts-style clock comments, about 1 KB a game),
then runs `check-game` on it and on a quarter of it in fresh processes,
taking wall time and the peak resident set size of each (`os.wait4`). Equal
peaks for the whole file and the quarter mean memory does not grow with the
file.

pydraughts (the pure-Python peer, `.venv-bench` only) reads PDN text into
tags and move strings without checking moves, so it is compared with our
text-only layer (`engine.pdn_records.read_records`) on the same files. Its
reader re-joins the rest of the file after every game, so its time grows
with the square of the file; it is measured on small files only, and the
section says so.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine import Game, get_variant
from engine.pdn import write_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = 11_400
QUICK_GAMES = 400
PEER_GAMES = (250, 500)  # pydraughts is quadratic: 500 games already take seconds
QUICK_PEER_GAMES = (100,)
POOL = 90  # distinct random games, repeated with other tags up to GAMES

NAMES = ("Иванов", "Петров", "Сидоров", "Kuznetsov", "Silva", "Santos", "de Vries", "Smith")


@dataclass
class Run:
    """One measured process: what it did, how long it read, and its peak resident memory."""

    what: str
    games: int
    size: int
    seconds: float
    peak_kb: int
    status: int

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def _progress(message: str) -> None:
    print(f"[bench]   {message}", file=sys.stderr, flush=True)


def _random_game(variant: str, rng: random.Random) -> Game:
    game = Game(get_variant(variant))
    for _ in range(rng.randrange(40, 100)):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    return game


def _pool(seed: int) -> list[str]:
    """Distinct random games as PDN, each with a `{n}` slot in its Round tag."""
    rng = random.Random(seed)
    texts = []
    for index in range(POOL):
        variant = ("russian", "international", "english")[index % 3]
        game = _random_game(variant, rng)
        tags = {"Event": "Synthetic collection", "Site": f"Club {index % 7}",
                "Date": f"2024.{1 + index % 12:02}.{1 + index % 28:02}", "Round": "{n}",
                "White": rng.choice(NAMES), "Black": rng.choice(NAMES),
                "WhiteElo": str(rng.randrange(1200, 2400)),
                "BlackElo": str(rng.randrange(1200, 2400)), "TimeControl": "300+3"}
        text = write_game(game, tags)
        # A clock comment every other move, as lidraughts exports write them.
        text = re.sub(r"(?m)(?<=\s)(\d*[13579]\. )",
                      lambda m: f"{{[%clock w0:0{rng.randrange(5)}:{rng.randrange(60):02} "
                                f"B0:0{rng.randrange(5)}:{rng.randrange(60):02}]}} {m.group(1)}",
                      text)
        if variant != "international":
            text = re.sub(r'\[GameType "[^"]*"\]\n', "", text)
        if variant == "russian":  # Russian habit: captures written with ':'
            head, _, moves = text.partition("\n\n")
            text = head + "\n\n" + re.sub(r"(?<=[a-h][1-8])x(?=[a-h])", ":", moves)
        texts.append(text)
    return texts


def write_collection(path: Path, games: int, seed: int = 2024) -> int:
    """Write `games` games to `path` (UTF-8); return its size in bytes."""
    pool = _pool(seed)
    with path.open("w", encoding="utf-8") as handle:
        for number in range(games):
            handle.write(pool[number % len(pool)].replace("{n}", str(number + 1)))
    return path.stat().st_size


# Each measured process runs `work` between two clock readings and reports, on
# stderr, the seconds taken and its peak resident set size: VmHWM, which a new
# program starts afresh (ru_maxrss would include the forked bench process).
_CHILD = """
import sys, time
def _peak_kb():
    try:
        with open('/proc/self/status') as status:
            for line in status:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
begin = time.perf_counter()
status = 0
{work}
sys.stderr.write(f'\\nMEASURED {{time.perf_counter() - begin}} {{_peak_kb()}}\\n')
sys.exit(status)
"""


def _measure(what: str, games: int, path: Path, work: str) -> Run:
    """Run `work` in a fresh interpreter, output discarded; its time and peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _CHILD.format(work=work), str(path)], cwd=ROOT,
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=False)
    measured = re.search(r"^MEASURED (\S+) (\d+)$", done.stderr, re.MULTILINE)
    if done.returncode not in (0, 1) or not measured:
        raise RuntimeError(f"{what} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    run = Run(what, games, path.stat().st_size, float(measured.group(1)),
              int(measured.group(2)), done.returncode)
    _progress(f"{what}: {games:,} games, {run.seconds:.1f} s, peak {run.peak_kb / 1024:.1f} MB")
    return run


CHECK_GAME = "from host.cli import main\nstatus = main(['check-game', sys.argv[1]])"
READ_GAMES = ("from engine.pdn import read_games\n"
              "sum(1 for _ in read_games(sys.argv[1], on_error=lambda e: None))")
RECORDS = "from engine.pdn_records import read_records\nsum(1 for _ in read_records(sys.argv[1]))"
IMPORTS = "import engine.pdn, host.cli"
PYDRAUGHTS = "from draughts.PDN import PDNReader\nPDNReader(filename=sys.argv[1])"


def _peer() -> tuple[str | None, str]:
    try:
        from importlib.metadata import version

        import draughts.PDN  # noqa: F401
    except ImportError as error:
        return None, f"pydraughts is not importable here ({error}); run `make bench`"
    return version("pydraughts"), ""


def run(quick: bool = False) -> str:
    games = QUICK_GAMES if quick else GAMES
    peer_sizes = QUICK_PEER_GAMES if quick else PEER_GAMES
    peer_version, peer_note = _peer()
    with tempfile.TemporaryDirectory(prefix="pdn-bench-") as folder:
        work = Path(folder)
        big, quarter = work / "collection.pdn", work / "quarter.pdn"
        _progress(f"writing {games:,} games")
        write_collection(big, games)
        write_collection(quarter, games // 4)
        runs = [
            _measure("interpreter and imports only", 0, big, IMPORTS),
            _measure("`draughtsboard check-game FILE`", games, big, CHECK_GAME),
            _measure("`draughtsboard check-game FILE`, a quarter of it", games // 4, quarter,
                     CHECK_GAME),
            _measure("`engine.pdn.read_games(FILE)`", games, big, READ_GAMES),
            _measure("`engine.pdn_records.read_records(FILE)` (text only)", games, big,
                     RECORDS),
        ]
        peer_rows: list[tuple[Run, Run | None]] = []
        for size in peer_sizes:
            small = work / f"peer-{size}.pdn"
            write_collection(small, size)
            ours = _measure("`read_records` (text only)", size, small, RECORDS)
            theirs = (_measure(f"pydraughts {peer_version} `PDNReader(filename=FILE)`", size,
                               small, PYDRAUGHTS) if peer_version else None)
            peer_rows.append((ours, theirs))
    return _document(runs, peer_rows, peer_version, peer_note, quick)


def _mb(kb: int) -> str:
    return f"{kb / 1024:.1f}"


def _document(runs: list[Run], peer_rows: list[tuple[Run, Run | None]],
              peer_version: str | None, peer_note: str, quick: bool) -> str:
    base, whole, part = runs[0], runs[1], runs[2]
    out = [
        "## PDN reading",
        "",
        "Module `bench/pdn_bench.py`. A synthetic collection of random legal games (a third "
        "each: Russian without GameType, Cyrillic names and `:` captures; International with "
        "GameType; English without GameType), read in a fresh process per row. Seconds: the "
        "reading alone (`time.perf_counter` around the call, imports excluded); peak RSS: the "
        "process's high-water mark (`VmHWM`), interpreter included. Output discarded. Taken on "
        "the shared 2-core machine described above, under load from other work.",
        "",
        "| what | games | file | seconds | games/s | peak RSS (MB) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for item in runs:
        rate = f"{item.rate:,.0f}" if item.games else "-"
        size = f"{item.size / 1e6:.1f} MB" if item.games else "-"
        out.append(f"| {item.what} | {item.games:,} | {size} | {item.seconds:.1f} | {rate} | "
                   f"{_mb(item.peak_kb)} |")
    growth = (whole.peak_kb - part.peak_kb) / 1024
    out += [
        "",
        f"Memory against file size: the whole file peaks at {_mb(whole.peak_kb)} MB, a quarter "
        f"of it at {_mb(part.peak_kb)} MB ({growth:+.1f} MB for four times the games); the "
        f"interpreter with the modules imported is {_mb(base.peak_kb)} MB of that. Before this "
        "reader, the issue measured 135 s and 842 MB for an 11 MB, 11,400-game file (a "
        "different file, not rerun here). The time is the rules engine's: every move is "
        "generated and checked, and games without GameType are replayed in every variant "
        "that fits until the file's variant is clear.",
        "",
        "### Against pydraughts",
        "",
    ]
    if peer_version is None:
        out.append(f"Not measured: {peer_note}.")
    else:
        out += [
            f"pydraughts {peer_version} `PDNReader` reads tags and move strings without "
            "checking them, so it is set against our text-only layer on the same files. "
            "Its reader re-reads the rest of the file after each game (time grows with the "
            "square of the file), hence the small files.",
            "",
            "| games | file | ours (s) | pydraughts (s) | ratio | ours peak (MB) | "
            "pydraughts peak (MB) |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for ours, theirs in peer_rows:
            assert theirs is not None
            out.append(f"| {ours.games:,} | {ours.size / 1e3:.0f} kB | {ours.seconds:.2f} | "
                       f"{theirs.seconds:.2f} | {theirs.seconds / ours.seconds:.1f}x | "
                       f"{_mb(ours.peak_kb)} | {_mb(theirs.peak_kb)} |")
    if quick:
        out += ["", "Quick run: a small collection; figures not comparable."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
