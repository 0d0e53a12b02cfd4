"""A real mosquitto for the tests: its own config, password file and ACL, on a free port.

The config is the one `draughtsboard broker-config` generates (so the tests
check the files clubs will run), bound to 127.0.0.1; started as root it stays
root (`user root`), since the test's temporary folder is root's. Besides the
relay's account it has a second one with the same rights, `watcher`, for the
tests' own observers (an account is one connection at a time: its user name
is its client id).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

from host.broadcast.broker_config import BrokerPlan, generate
from host.broadcast.mqtt import BrokerSettings
from tests.tools import find


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Broker:
    """One mosquitto process; `stop`/`start` keep the port, config and data."""

    def __init__(self, folder: Path, board_ids: tuple[str, ...],
                 tls: tuple[Path, Path] | None = None) -> None:
        """`tls`: (certificate, key) for an mqtts listener on `tls_port`."""
        self.folder = folder
        self.port = free_port()
        self.websockets = free_port()
        self.tls_port = free_port() if tls else None
        run_as = "root" if os.geteuid() == 0 else None
        self.plan = BrokerPlan(board_ids=board_ids, port=self.port, bind="127.0.0.1",
                               websockets=self.websockets, run_as=run_as,
                               public_host="127.0.0.1", tls_port=self.tls_port,
                               certfile=tls[0] if tls else None,
                               keyfile=tls[1] if tls else None,
                               relay_users=("relay", "watcher"))
        generate(self.plan, folder)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "mosquitto.log"

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def password_file(self, user: str) -> Path:
        return self.folder / "secrets" / f"{user}.password"

    def tls_url(self) -> str:
        return f"mqtts://127.0.0.1:{self.tls_port}"

    def settings(self, user: str | None, keepalive: int = 15) -> BrokerSettings:
        """How `user` connects (None: anonymous, which the broker refuses)."""
        if user is None:
            return BrokerSettings(self.url, keepalive=keepalive)
        return BrokerSettings(self.url, username=user, password_file=self.password_file(user),
                              keepalive=keepalive)

    def start(self) -> None:
        exe = find("mosquitto")
        assert exe is not None
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([exe, "-c", str(self.folder / "mosquitto.conf")],
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start listening within 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
