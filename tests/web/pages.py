"""What the page tests share: Playwright's `expect`, the patience for a loaded machine,
and finding the board page's squares.

`expect` is None where Playwright is missing: the `browser` fixture (conftest.py) skips
those tests, or fails them where chromium is required, before anything calls it.
"""

from __future__ import annotations

from conftest import BoardServer

try:
    from playwright.sync_api import expect
except ModuleNotFoundError:  # the `browser` fixture skips, or fails where chromium is required
    expect = None

#: ms: generous, the machine may be loaded; the board's settle and grace times are real
SLOW = 10_000

if expect is not None:
    # Every assertion waits as long (Playwright's own default is 5 s): on a loaded
    # two-core machine a page's update after a real action has taken longer, and a
    # state that never comes still fails. (`expect.set_options`, Playwright >= 1.23.)
    expect.set_options(timeout=SLOW)


def square(page, n: int):  # type: ignore[no-untyped-def]
    """The page's square `n`, in the variant's own numbering."""
    return page.locator(f'[data-square="{n}"]')


def open_board(page, board: BoardServer, path: str = ""):  # type: ignore[no-untyped-def]
    """Open the board's page (or `path` on its server) and wait for its live link."""
    page.goto(board.base + path if path else board.url)
    expect(page.locator("#link-badge")).to_have_attribute("data-link", "live", timeout=SLOW)
    return page
