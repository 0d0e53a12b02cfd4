"""Start-up: time to ready and resident memory of `draughtsboard run`.

Why: the board is an appliance on a Raspberry Pi Zero 2 (512 MB, slow CPU);
it must be playing soon after power-on and the host must stay under 60 MB
resident. Each case starts the real command in a fresh process, waits for
its "ready" log line (the board opened, the session built, the first frame
drawn), keeps it running one second, reads VmRSS and VmHWM (peak) from
/proc, and stops it. `--board gpio` runs over the fakes of RPi.GPIO and
NeoPixel (bench/fake_pi.py), so the real scanner and pixel code are loaded
as on a Pi; the Pi's C libraries are not. The reference row is a bare
`python -c pass`, measured in the same run, so the host's own cost is the
difference. Both cases serve the board's page (on a free loopback port), as
`run` does by default; bench/web_bench.py measures the page's own share.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MB = 60
RUNS = 3
SETTLE = 1.0


def _memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in kB from /proc/PID/status."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


def _measure(argv: list[str], ready: str | None, workdir: Path) -> tuple[float, int, int]:
    """Seconds to the ready line (or to exit), resident and peak kB one second later."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(workdir / "cfg"), "XDG_DATA_HOME": str(workdir)}
    env["DRAUGHTSBOARD_SYSTEM_CONFIG"] = str(workdir / "no-system.toml")
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if ready is None:
            rss, hwm = 0, 0
            proc.wait(timeout=60)
            return time.perf_counter() - start, rss, hwm
        assert proc.stderr is not None
        for line in proc.stderr:
            if ready in line:
                break
        else:
            raise RuntimeError(f"{' '.join(argv)} exited before it was ready")
        took = time.perf_counter() - start
        time.sleep(SETTLE)
        rss, hwm = _memory_kb(proc.pid)
        return took, rss, hwm
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _baseline_kb() -> int:
    """A bare interpreter's resident memory, read from inside it."""
    code = (
        "import pathlib\n"
        "for l in pathlib.Path('/proc/self/status').read_text().splitlines():\n"
        "    if l.startswith('VmRSS'): print(l.split()[1])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def cases() -> list[tuple[str, list[str]]]:
    common = ["run", "--no-speech", "--new", "--log-level", "info", "--listen", "127.0.0.1:0"]
    return [
        ("`run --board sim`", [sys.executable, "-m", "host.cli", *common, "--board", "sim"]),
        (
            "`run --board gpio` (fakes)",
            [sys.executable, "-m", "bench.fake_pi", *common, "--board", "gpio"],
        ),
    ]


def run(runs: int = RUNS) -> str:
    rows = []
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bare = [_measure([sys.executable, "-c", "pass"], None, work)[0] for _ in range(runs)]
        bare_kb = _baseline_kb()
        rows.append(
            f"| bare `python -c pass` (reference) | {statistics.median(bare) * 1000:.0f} | "
            f"{bare_kb / 1024:.1f} | - | 1.0 |"
        )
        for name, argv in cases():
            samples = [_measure(argv, "ready:", work) for _ in range(runs)]
            took = statistics.median(s[0] for s in samples)
            rss = max(s[1] for s in samples) / 1024
            hwm = max(s[2] for s in samples) / 1024
            rows.append(
                f"| {name} | {took * 1000:.0f} | {rss:.1f} | {hwm:.1f} | "
                f"{rss / (bare_kb / 1024):.1f} |"
            )
            ok = "under" if hwm < TARGET_MB else "OVER"
            verdicts.append(f"- {name}: peak {hwm:.1f} MB, {ok} the {TARGET_MB} MB target.")
    return "\n".join(
        [
            "## Start-up: time to ready and resident memory",
            "",
            "Command: `make bench` (this section: `bench/startup_bench.py`). Each case is a "
            f"fresh process serving the board's page, {runs} runs: time from start to its "
            "`ready:` log line (median), "
            f"resident memory {SETTLE:.0f} s after ready and the peak (VmHWM), the largest "
            "of the runs; the ratio is resident memory over a bare interpreter's, measured "
            "in the same run. Target on a Pi Zero 2: under "
            f"{TARGET_MB} MB resident.",
            "",
            "| case | to ready (ms) | resident (MB) | peak (MB) | x bare Python |",
            "|---|---:|---:|---:|---:|",
            *rows,
            "",
            *verdicts,
            "",
        ]
    )


if __name__ == "__main__":
    print(run())
