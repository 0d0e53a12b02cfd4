"""`draughtsboard selftest`: check every LED and every switch of a board.

For builders: it lights each LED in turn (a dark or wrong square shows a
wiring or chain-order mistake), lights the whole board in each colour (a bad
colour order or a weak supply shows at once), then draws a live map of the
switches while you lift and place pieces, and reports switches that never
changed or that chatter. Each change names the switch's row and column pins
and LED, which is what you need to fix a layout TOML file.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from hardware.base import BoardNotReady, BoardUnavailable, Colour
from hardware.board import Board, open_board
from hardware.layout import Layout, LayoutError, load_layout
from host.errors import DeviceNotReady, ExitStatus, UserError

COLOURS: tuple[tuple[str, Colour], ...] = (
    ("red", (255, 0, 0)),
    ("green", (0, 255, 0)),
    ("blue", (0, 0, 255)),
    ("white", (255, 255, 255)),
)
WALK_COLOUR: Colour = (255, 255, 255)
OCCUPIED_COLOUR: Colour = (0, 160, 0)
#: a switch chatters when its level flips back this often (and more often than it really changed)
CHATTER_REJECTS = 3


@dataclass
class SelftestReport:
    """What the sensor phase found."""

    squares: int
    never_changed: tuple[int, ...] = ()
    chattering: dict[int, int] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        return not self.never_changed and not self.chattering

    def lines(self) -> list[str]:
        if self.ok:
            return [f"All {self.squares} switches changed; none chattered."]
        out = []
        if self.never_changed:
            out.append(
                f"Switches that never changed: {_list(self.never_changed)} "
                "(check the magnet, the reed switch, its diode and wires)."
            )
        if self.chattering:
            detail = ", ".join(f"{sq} ({n} flickers)" for sq, n in sorted(self.chattering.items()))
            out.append(f"Switches that chatter: {detail} (check for a loose contact).")
        return out


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "selftest",
        help="check every LED and switch of a board",
        description="Light every LED in turn and the board in each colour, then show a live map "
        "of the switches while you lift and place pieces; report switches that never changed "
        "or that chatter. Exit status 1 if any did, 75 if the board is missing or not ready.",
    )
    parser.add_argument(
        "--board", required=True, metavar="BACKEND", help="gpio, serial:PORT_OR_URL, or sim"
    )
    parser.add_argument(
        "--layout",
        default="standard-8x8",
        metavar="FILE",
        help="layout TOML file, or a shipped layout name (default: standard-8x8)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        metavar="N",
        help="how long to watch the switches (default 60; 0 tests the LEDs only)",
    )
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if args.seconds < 0:
        raise UserError("--seconds cannot be negative")
    try:
        layout = load_layout(args.layout)
    except LayoutError as error:
        raise UserError(str(error)) from None
    try:
        board = open_board(args.board, layout)
    except BoardNotReady as error:  # not plugged in, not ready: exit status 75
        raise DeviceNotReady(str(error)) from None
    except (BoardUnavailable, ValueError) as error:  # ValueError: board and layout sizes differ
        raise UserError(str(error)) from None
    with board:
        try:
            report = run_selftest(
                board, sys.stdout, seconds=args.seconds, clock=time.monotonic, sleep=time.sleep
            )
        except KeyboardInterrupt:  # Ctrl-C during the LED checks: the LEDs go dark on exit
            print("Self-test stopped.", file=sys.stderr)
            return ExitStatus.INTERRUPTED
    return ExitStatus.OK if report.ok else ExitStatus.FOUND_PROBLEMS


def run_selftest(
    board: Board,
    out: TextIO,
    *,
    seconds: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    step: float = 0.05,
    hold: float = 0.6,
) -> SelftestReport:
    """Run the LED checks, then watch the switches for `seconds` (or until Ctrl-C)."""
    squares = board.squares
    print(
        f"LEDs: lighting squares 1..{squares} in turn; each should light alone, in order.", file=out
    )
    for square in range(1, squares + 1):
        board.show({square: WALK_COLOUR})
        sleep(step)
    for name, colour in COLOURS:
        print(f"LEDs: whole board {name}.", file=out)
        board.show(dict.fromkeys(range(1, squares + 1), colour))
        sleep(hold)
    board.show({})
    if seconds <= 0:
        return SelftestReport(squares)
    return _watch(board, out, seconds, clock, sleep)


def _watch(
    board: Board,
    out: TextIO,
    seconds: float,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> SelftestReport:
    layout = board.layout
    print(
        f"Switches: lift and place a piece on every square ({seconds:g} s, Ctrl-C to stop).",
        file=out,
    )
    end = clock() + seconds
    for _ in range(board.debouncer.agreeing_scans):  # settle on what is already on the board
        snapshot = board.poll()
        sleep(board.scan_period)
    shown = snapshot.occupied
    first_raw = board.last_raw
    board.show(dict.fromkeys(shown, OCCUPIED_COLOUR))
    _draw(out, layout, shown, "")
    rejected_before = Counter(board.debouncer.rejected)
    changes: Counter[int] = Counter()
    raw_changed: set[int] = set()
    interrupted = False
    try:
        while clock() < end:
            snapshot = board.poll()
            raw_changed |= board.last_raw ^ first_raw
            if snapshot.occupied != shown:
                message = ""
                for square in sorted(snapshot.occupied ^ shown):
                    changes[square] += 1
                    message = _describe(layout, square, square in snapshot.occupied)
                shown = snapshot.occupied
                board.show(dict.fromkeys(shown, OCCUPIED_COLOUR))
                _draw(out, layout, shown, message)
            sleep(board.scan_period)
    except KeyboardInterrupt:
        interrupted = True
    rejected = board.debouncer.rejected - rejected_before
    report = SelftestReport(
        squares=board.squares,
        never_changed=tuple(
            sq for sq in range(1, board.squares + 1) if sq not in raw_changed and not changes[sq]
        ),
        chattering={
            sq: n for sq, n in rejected.items() if n >= CHATTER_REJECTS and n > changes[sq]
        },
        interrupted=interrupted,
    )
    for line in report.lines():
        print(line, file=out)
    return report


def _describe(layout: Layout, square: int, placed: bool) -> str:
    """Which switch and LED a square is wired to: what a builder needs to fix a layout."""
    index = layout.sensor_squares.index(square)
    row, column = divmod(index, layout.columns)
    pins = ""
    if layout.row_pins:
        pins = f" (GPIO{layout.row_pins[row]} x GPIO{layout.column_pins[column]})"
    verb = "placed on" if placed else "lifted from"
    return (
        f"Piece {verb} square {square}: switch row {row} column {column}{pins}, "
        f"LED {layout.led_of_square(square)}."
    )


def board_map(layout: Layout, occupied: frozenset[int]) -> list[str]:
    """The board seen from White's seat: `[12]` holds a piece, ` 12 ` is empty."""
    at = {layout.cell_of_square(sq): sq for sq in range(1, layout.squares + 1)}
    lines = []
    for row in range(layout.size):
        cells = []
        for file in range(layout.size):
            square = at.get((row, file))
            if square is None:
                cells.append("    ")
            elif square in occupied:
                cells.append(f"[{square:2d}]")
            else:
                cells.append(f" {square:2d} ")
        lines.append("|" + "".join(cells) + "|")
    edge = "+" + "-" * (4 * layout.size) + "+"
    return [edge, *lines, edge, "        White's seat"]


def _draw(out: TextIO, layout: Layout, occupied: frozenset[int], message: str) -> None:
    if out.isatty():
        out.write("\x1b[H\x1b[2J")  # redraw in place on a terminal; append in a log
    lines = board_map(layout, occupied)
    lines.append(f"{len(occupied)} pieces. {message}")
    out.write("\n".join(lines) + "\n")
    out.flush()


def _list(squares: tuple[int, ...]) -> str:
    return ", ".join(map(str, squares))
