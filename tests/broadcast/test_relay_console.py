"""`draughtsboard relay` as an organiser starts it: it says where it connects, and a
broker it cannot reach is said on the console (once) while it keeps retrying, never a
silent wait. Needs no broker: the address is a port of ours that refuses connections."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from tests.paths import REPO


def test_a_relay_that_cannot_reach_its_broker_says_so_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    # A bound socket that never listens: connections to it are refused, and no other
    # program can take the port while the test holds it.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        url = f"mqtt://127.0.0.1:{held.getsockname()[1]}"
        relay = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "relay", "--broker", url,
             "--out", str(tmp_path / "out")],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )
        lines: list[str] = []
        said = threading.Event()

        def read() -> None:
            assert relay.stderr is not None
            for line in relay.stderr:
                lines.append(line)
                if "cannot connect" in line:
                    said.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            assert said.wait(30), lines
        finally:
            relay.send_signal(signal.SIGTERM)
            status = relay.wait(timeout=30)
        reader.join(timeout=5)
    assert lines[0] == f"relay: connecting to {url}\n"
    assert lines[1] == (f"relay: cannot connect to {url} (unreachable, TLS or certificate "
                        "problem); retrying\n")
    assert status == 0 and not any("Traceback" in line for line in lines), lines
