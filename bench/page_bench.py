"""The board's page in a browser: place to page update, page weight, socket bytes a move.

Why these: on the simulator the page *is* the board, so a piece put down must show
on the page as a real piece shows on a real board: at once (target: p99 at most
50 ms from the hand's place to the page drawing it). A phone on a club's Wi-Fi pays
for every byte: the page's weight and what the socket carries for each move are
reported, so a change that bloats either is seen.

- Place to page update: a real `draughtsboard run --board sim` and Debian's
  Chromium driven by Playwright (as tests/web does). In the page, a press and a
  release on the lifted piece's square put it back (the page's own hands: a
  `place` over its socket); the time runs from the release to the moment the
  page has drawn the square full again (a MutationObserver on the square), so it
  holds the page's socket, the server, the debouncer's scans (a floor of 10 to
  20 ms that is the board's, not the page's), the state's way back and the
  page's drawing. The lift that comes before each place is timed the same way.
- Page weight: the bytes of HTML, JavaScript and CSS the page loads, as served,
  and gzip-compressed (what a compressing server would send).
- Socket bytes a move: what one watching page receives while a hand plays
  ordinary moves (lift, captured pieces taken off, place, the move committed).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from importlib import resources
from pathlib import Path
from tempfile import TemporaryDirectory

import aiohttp

from bench.web_bench import Server, _percentile
from engine import Game, get_variant

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--no-first-run"]
TARGET_P99_MS = 50.0
STATIC = resources.files("host.web") / "static"
PAGE_FILES = ("index.html", "i18n.js", "hands.js", "board.js", "sound.js", "panel.js", "dialogs.js",
              "clock.js", "app.js", "style.css")
PIECE = 22

# In the page: press and release on a square (the page's own pointer hands), and the
# ms until the square's piece is drawn as `want` ("" lifted, else a piece).
CLICK_AND_WAIT = """async ([square, want]) => {
  const cell = document.querySelector(`[data-square="${square}"]`);
  const box = cell.getBoundingClientRect();
  const at = {bubbles: true, pointerId: 1, button: 0, isPrimary: true,
              clientX: box.x + box.width / 2, clientY: box.y + box.height / 2};
  return await new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if ((cell.dataset.piece !== "") === (want !== "")) {
        watch.disconnect();
        resolve(performance.now() - start);
      }
    });
    watch.observe(cell, {attributes: true, attributeFilter: ["data-piece"]});
    const start = performance.now();
    cell.dispatchEvent(new PointerEvent("pointerdown", at));
    window.dispatchEvent(new PointerEvent("pointerup", at));
  });
}"""


# The page's own share: each socket message's handler (the state parsed and the whole
# page redrawn), timed around the page's `onmessage`.
TIME_HANDLER = """
window.__handled = [];
const Native = window.WebSocket;
window.WebSocket = function (url) {
  const socket = new Native(url);
  Object.defineProperty(socket, "onmessage", { set(handler) {
    socket.addEventListener("message", (event) => {
      const start = performance.now();
      handler(event);
      window.__handled.push(performance.now() - start);
    });
  }});
  return socket;
};
window.WebSocket.OPEN = Native.OPEN;
"""


def _browser_latencies(url: str, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """(place ms, lift ms, the page's handling ms of each message) for `rounds` lifts and
    places of one piece in a real page."""
    from playwright.sync_api import sync_playwright

    places: list[float] = []
    lifts: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(TIME_HANDLER)
        page.goto(url)
        page.wait_for_selector('#link-badge[data-link="live"]')
        page.wait_for_selector(f'[data-square="{PIECE}"][data-piece="W"]')
        for _ in range(rounds):
            lifts.append(page.evaluate(CLICK_AND_WAIT, [PIECE, ""]))
            page.wait_for_timeout(120)  # a hand's pace
            places.append(page.evaluate(CLICK_AND_WAIT, [PIECE, "W"]))
            page.wait_for_timeout(300)  # the board settles: a touch, no move
        handled = page.evaluate("window.__handled")
        browser.close()
    return places, lifts, handled


async def _socket_bytes(url: str, plies: int) -> tuple[float, float, int]:
    """(bytes, messages) one watcher receives per move while a hand plays `plies`
    ordinary moves, and the state message's size at the end."""
    ws_url = url.replace("http://", "ws://") + "/ws"
    game = Game(get_variant("brazilian"))
    received = [0, 0]
    last = 0
    async with aiohttp.ClientSession() as client:
        hands = await client.ws_connect(ws_url)
        watcher = await client.ws_connect(ws_url)

        async def count() -> None:
            nonlocal last
            async for message in watcher:
                received[0] += len(message.data.encode("utf-8"))
                received[1] += 1
                if '"type": "state"' in message.data[:30]:
                    last = len(message.data.encode("utf-8"))

        await asyncio.sleep(0.5)
        received[:] = [0, 0]
        counter = asyncio.create_task(count())
        ids = 0
        for _ in range(plies):
            move = game.legal_moves()[0]
            actions = [{"lift": move.origin}]
            actions += [{"lift": sq} for sq in (move.captured_order or sorted(move.captures))]
            actions.append({"place": move.destination})
            for action in actions:
                ids += 1
                await hands.send_str(json.dumps({"id": ids, "hands": action}))
                await asyncio.sleep(0.05)
            game.push(move)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:  # until the move is committed and shown
                async with client.get(url + "/api/state") as response:
                    if len((await response.json())["moves"]) == len(game.moves):
                        break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
        counter.cancel()
        await watcher.close()
        await hands.close()
    return received[0] / plies, received[1] / plies, last


def _weight() -> list[tuple[str, int, int]]:
    rows = []
    for name in PAGE_FILES:
        data = (STATIC / name).read_bytes()
        rows.append((name, len(data), len(gzip.compress(data, 9))))
    return rows


def run(rounds: int = 100, plies: int = 20) -> str:
    weight = _weight()
    total, total_gz = sum(r[1] for r in weight), sum(r[2] for r in weight)
    with TemporaryDirectory() as tmp:
        server = Server(Path(tmp), "127.0.0.1:0")
        try:
            # the browser first: it lifts and puts back a piece of the start position
            if CHROMIUM.exists():
                places, lifts, handled = _browser_latencies(server.url + "/", rounds)
            else:
                places = lifts = handled = []
            per_move, messages, state_size = asyncio.run(_socket_bytes(server.url, plies))
        finally:
            server.stop()
    lines = [
        "## The board's page in a browser: place to page update, weight, bytes a move",
        "",
        "Module `bench/page_bench.py` (`python -m bench --only page`). A real",
        "`draughtsboard run --board sim` and Debian's Chromium (Playwright). In the page,",
        "the page's own pointer hands lift a piece and put it back; each time runs from",
        "the pointer's release to the page drawing the square again (socket, server,",
        "the debouncer's 2 scans 10 ms apart, the state back, the drawing).",
        "",
    ]
    if places:
        p99 = _percentile(places, 0.99)
        verdict = "PASS" if p99 <= TARGET_P99_MS else "**FAIL**"
        lines += [
            "| action | n | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |",
            "|---|---:|---:|---:|---:|---:|",
            *(
                f"| {name} | {len(xs)} | {_percentile(xs, 0.5):.1f} | "
                f"{_percentile(xs, 0.95):.1f} | {_percentile(xs, 0.99):.1f} | {max(xs):.1f} |"
                for name, xs in (("place -> page drawn", places), ("lift -> page drawn", lifts))
            ),
            "",
            f"Target: place to page update p99 at most {TARGET_P99_MS:g} ms: {p99:.1f} ms, "
            f"{verdict}.",
            "",
            "The page's own share, handling each socket message (the state parsed, the",
            f"page redrawn): p50 {_percentile(handled, 0.5):.1f} ms, p99 "
            f"{_percentile(handled, 0.99):.1f} ms over {len(handled)} messages; the rest",
            "is the debouncer's floor, the server and the machine's load (see the header).",
            "",
        ]
    else:
        lines += [f"(no browser: {CHROMIUM} is missing; the latency was not measured)", ""]
    lines += [
        "Page weight (bytes as served; gzip -9 for a compressing server):",
        "",
        "| file | bytes | gzip |",
        "|---|---:|---:|",
        *(f"| {name} | {raw:,} | {gz:,} |" for name, raw, gz in weight),
        f"| **total** | **{total:,}** | **{total_gz:,}** |",
        "",
        f"Socket: one watching page receives {per_move:,.0f} bytes in {messages:.1f} messages",
        f"per move ({plies} plies of an ordinary Brazilian game, each lift, captured piece",
        f"taken off and place, then the move committed); a whole state is {state_size:,}",
        "bytes (the whole state after every change, docs/web.md).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
