"""What every page and file the board serves carries: the security headers, and static
files with validators and gzip. No web framework here: the page's aiohttp server and the
relay's standard-library spectator server (host/broadcast/spectators.py) both use it.

Static files are the package's own (no CDN). Each is read once, kept in memory with its
gzip form (made once, kept only when it is smaller) and an ETag (a hash of its bytes),
and read again only when the file changes (its size or time). Every answer says
`Cache-Control: no-cache`: the browser keeps the file but asks each time whether it
changed, so an updated board never runs yesterday's script; the answer to that question
is a bodiless 304 when the ETag (or, without one, `If-Modified-Since`) still matches.
The gzip form has its own ETag (`"...-gz"`), as a different representation must.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol

#: the page may load only its own scripts, styles and images, connect only to its own
#: server, and may not be framed by another site
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
         ".svg": "image/svg+xml"}
#: smaller files are sent as they are (the headers would outweigh the saving)
COMPRESS_FROM = 512


class RequestHeaders(Protocol):
    """A request's headers, looked up case-insensitively (aiohttp's CIMultiDictProxy,
    http.server's email.message.Message)."""

    def get(self, name: str, /) -> str | None: ...



@dataclass(frozen=True)
class Answer:
    """An HTTP answer for a static file: status, headers and body (empty for a 304)."""

    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class _File:
    body: bytes
    gzipped: bytes | None
    etag: str  # quoted, as sent
    modified: float  # seconds since the epoch
    kind: str
    stamp: tuple[int, int]  # (size, mtime_ns) it was read at


class StaticFiles:
    """The files of one package folder, served with validators and gzip (see the module)."""

    def __init__(self, folder: Traversable) -> None:
        self.folder = folder
        self._files: dict[str, _File] = {}

    def answer(self, name: str, request_headers: RequestHeaders) -> Answer | None:
        """The answer for `GET /static/NAME` (None: no such file), given the request's
        headers (case-insensitive mapping: `If-None-Match`, `If-Modified-Since`,
        `Accept-Encoding`)."""
        found = self._file(name)
        if found is None:
            return None
        use_gzip = found.gzipped is not None and accepts_gzip(
            request_headers.get("Accept-Encoding") or "")
        etag = found.etag[:-1] + '-gz"' if use_gzip else found.etag
        headers = {
            **SECURITY_HEADERS,
            "Content-Type": f"{found.kind}; charset=utf-8",
            "Cache-Control": "no-cache",
            "ETag": etag,
            "Last-Modified": email.utils.formatdate(found.modified, usegmt=True),
            "Vary": "Accept-Encoding",
        }
        if _not_modified(found, request_headers):
            return Answer(304, headers, b"")
        body = found.gzipped if use_gzip and found.gzipped is not None else found.body
        if use_gzip:
            headers["Content-Encoding"] = "gzip"
        return Answer(200, headers, body)

    def _file(self, name: str) -> _File | None:
        kind = TYPES.get(Path(name).suffix)
        if kind is None or "/" in name or "\\" in name or name.startswith("."):
            return None
        entry = self.folder / name
        try:
            if not entry.is_file():
                return None
            stamp, modified = _stamp(entry)
            known = self._files.get(name)
            if known is not None and known.stamp == stamp:
                return known
            body = entry.read_bytes()
        except OSError:
            return None
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gzipped = packed if len(body) >= COMPRESS_FROM and len(packed) < len(body) else None
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        found = _File(body, gzipped, etag, modified, kind, stamp)
        self._files[name] = found
        return found


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (`gzip`, `gzip;q=0.5`, `*`; not
    `gzip;q=0`)."""
    for part in header.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "*"):
            continue
        quality = params.strip().lower().removeprefix("q=")
        try:
            return not params.strip() or float(quality) > 0
        except ValueError:
            return True
    return False


def _not_modified(found: _File, request_headers: RequestHeaders) -> bool:
    tags = request_headers.get("If-None-Match")
    if tags is not None:
        bare = found.etag.strip('"')
        wanted = {tag.strip().removeprefix("W/").strip('"') for tag in tags.split(",")}
        return bool(wanted & {"*", bare, bare + "-gz"})
    since = request_headers.get("If-Modified-Since")
    if since is None:
        return False
    try:
        parsed = email.utils.parsedate_to_datetime(since)
    except (TypeError, ValueError, IndexError):
        return False
    return int(found.modified) <= parsed.timestamp()


def _stamp(entry: Traversable) -> tuple[tuple[int, int], float]:
    """(size, mtime_ns) and mtime of a package file; a file inside a zip has no time of
    its own (its hash still tells versions apart)."""
    if isinstance(entry, Path):
        stat = entry.stat()
        return (stat.st_size, stat.st_mtime_ns), stat.st_mtime
    return (0, 0), 0.0
