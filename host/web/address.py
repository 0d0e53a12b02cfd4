"""Where the page is served, who may control it, and how people find it.

`--listen HOST:PORT` (default 127.0.0.1:8080, `off` for no page). Serving
only this computer needs no token: nobody else can reach it. Serving the LAN
is a decision the user makes explicitly with `--listen 0.0.0.0:8080` (or an
address); then every control needs a token: the configured one, else one made the
first time and kept in the data folder (`page-token`, owner-only) so phones keep
control across restarts until the owner rotates it (`run --new-token`). It is
printed with the page's address and drawn as a QR code on the console so a phone
can open the page already allowed to play.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import socket
import sys
import threading
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from host.errors import UserError
from host.voice.messages import console_line

DEFAULT_LISTEN = "127.0.0.1:8080"


@dataclass(frozen=True)
class Listen:
    host: str
    port: int

    @property
    def local_only(self) -> bool:
        """True when only this computer can connect (loopback addresses, "localhost")."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


def parse_listen(text: str) -> Listen | None:
    """`HOST:PORT`, `[IPv6]:PORT`, or `off` (None: no page)."""
    text = text.strip()
    if text.lower() in ("off", "no", "none"):
        return None
    host, sep, port_text = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise UserError(
            f"--listen must be HOST:PORT (for example 127.0.0.1:8080) or off, not {text!r}"
        )
    if host != "localhost":
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise UserError(f"--listen: {host!r} is not an IP address (or localhost)") from None
    return Listen(host, int(port_text))


#: the file in the data folder that keeps the page's token across restarts
TOKEN_FILE = "page-token"


def choose_token(
    listen: Listen, configured: str | None, data_dir: Path | None = None, *, rotate: bool = False
) -> str | None:
    """The configured token (checked with the config: `host.config.Token`); else, when
    serving the LAN, the one kept in `data_dir` (made the first time, and made afresh
    when `rotate`, `run --new-token`), so every phone keeps control across restarts;
    serving only this computer, none."""
    if configured:
        return configured
    if listen.local_only:
        return None
    if data_dir is None:
        return secrets.token_urlsafe(12)
    path = data_dir / TOKEN_FILE
    if not rotate:
        kept = _read_token(path)
        if kept is not None:
            return kept
    token = secrets.token_urlsafe(12)
    _keep_token(path, token)
    return token


def _read_token(path: Path) -> str | None:
    """The kept token, or None if there is none (or it is not a usable one)."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if len(text) >= 8 and not any(c.isspace() for c in text) else None


def _keep_token(path: Path, token: str) -> None:
    """Write the token readable by its owner only (0600), replacing any older one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        spare = path.with_name(path.name + ".new")
        descriptor = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            os.fchmod(file.fileno(), 0o600)
            file.write(token + "\n")
        os.replace(spare, path)
    except OSError as error:
        raise UserError(
            f"cannot keep the page's token in {path}: {error.strerror or error} "
            "(set `token` in the config, or check the data folder)"
        ) from None


def page_url(listen: Listen, port: int, token: str | None) -> str:
    """The address to open: the machine's LAN address when listening on every interface."""
    host = listen.host
    if host in ("0.0.0.0", "::"):
        host = lan_address() or "localhost"
    if ":" in host:
        host = f"[{host}]"
    url = f"http://{host}:{port}/"
    return url + (f"?token={token}" if token else "")


def lan_address() -> str | None:
    """This machine's address on the LAN (the route a datagram would take; none is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
        if not address.startswith("127."):
            return address
    return None


def print_address(
    url: str, token: str | None, out: TextIO | None = None, *, language: str = "en"
) -> None:
    """Tell the console where the page is, in the board's language; with a token, also
    as a QR code for a phone."""
    out = out or sys.stdout
    print(console_line(language, "page", url=url), file=out, flush=True)
    if token is None:
        return
    print(console_line(language, "token", token=token), file=out)
    try:
        import segno
    except ModuleNotFoundError:
        return
    segno.make(url, error="m").terminal(out=out, compact=True)
    out.flush()


def open_browser(url: str) -> None:
    """Open the page where a graphical browser can exist; never a text browser in this
    terminal, never an error (a Pi without a screen simply has none)."""
    graphical = sys.platform in ("darwin", "win32") or any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY")
    )
    if not graphical:
        return

    def run() -> None:
        with contextlib.suppress(Exception):
            webbrowser.open(url, new=2)

    threading.Thread(target=run, daemon=True).start()
