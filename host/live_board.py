"""The board a live game is played on, in the variant's own numbering.

`LiveBoard` hides which board it is (the simulator, GPIO on a Pi, a
microcontroller on USB) and how it stands: mirrored variants (Portuguese,
Spanish, Italian) are played on the same board turned a quarter turn, which
is a renumbering of its squares, so changing between them needs no reopening.

The simulator (`--board sim`) also has hands: `lift`, `place` and `set_up`
change its switches at once; the debouncer and the recogniser then see the
change on their next scans exactly as they would see a real magnet. A real
board refuses simulated hands (`HandsRefused`): its pieces are real.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Variant
from hardware.base import BoardUnavailable, Colour, EventListener
from hardware.board import Board, open_board
from hardware.debounce import Debouncer
from hardware.layout import Layout, LayoutError, load_layout
from hardware.mock import MockBoard
from host.errors import UserError
from host.squares import SquareMap

SIMULATED = ("sim", "mock")


class HandsRefused(Exception):
    """A simulated hand cannot do this here; the message says why, in one line."""


def quarter_turn(layout: Layout) -> dict[int, int]:
    """Board square -> square counted from White's seat once the board is turned a quarter."""
    turned = layout.rotated(1)
    return dict(zip(layout.sensor_squares, turned.sensor_squares, strict=True))


class LiveBoard:
    """One opened board (`spec` as in `hardware.board.open_board`) for one variant at a time."""

    def __init__(
        self, spec: str, variant: Variant, *, layout: str | None = None, brightness: float = 0.3
    ) -> None:
        self.spec = spec
        self.simulated = spec in SIMULATED
        self._layout_name = layout
        self._brightness = brightness
        self._listener: EventListener | None = None
        self._layout_in_use = ""
        self.board, self.layout = self._open(variant)
        self.variant = variant
        self.squares = self._map(variant)

    # -- the board as the session sees it ------------------------------------------

    @property
    def scan_period(self) -> float:
        return self.board.scan_period

    @property
    def layout_name(self) -> str:
        """The wiring in use as configured (`draughtsboard status` shows it): the layout's
        name or file, or standard-NxN for the variant's size (always, on the simulator)."""
        return self._layout_in_use

    @property
    def debouncer(self) -> Debouncer:
        """The switches' debouncer (its rejected flickers tell of a chattering switch)."""
        return self.board.debouncer

    def poll(self) -> tuple[float, frozenset[int]]:
        """Scan once: (time, debounced occupancy in the variant's squares)."""
        snapshot = self.board.poll()
        return snapshot.time, self.squares.occupied(snapshot.occupied)

    def settle(self) -> tuple[float, frozenset[int]]:
        """The first reading of a board just opened (`Board.settle`): the debouncer starts
        from an empty board, so a plain first `poll` would show every piece lifted and a
        resumed game flashing "wrong". Once scanning runs, `poll` is right."""
        snapshot = self.board.settle()
        return snapshot.time, self.squares.occupied(snapshot.occupied)

    def show(self, frame: Mapping[int, Colour]) -> None:
        """Light an LED frame given in the variant's squares."""
        self.board.show(self.squares.frame(frame))

    def on_event(self, listener: EventListener | None) -> None:
        self._listener = listener
        self.board.on_event(listener)

    def can_play(self, variant: Variant) -> str | None:
        """Why `variant` cannot be played on this board, or None if it can."""
        if self.simulated or variant.size == self.variant.size:
            return None
        return (
            f"this board is {self.variant.size}x{self.variant.size}; "
            f"{variant.name} needs a {variant.size}x{variant.size} board"
        )

    def use(self, variant: Variant) -> None:
        """Play `variant` from now on: renumber the squares (a quarter turn for the mirrored
        variants), and, for the simulator only, change the board's size if needed."""
        reason = self.can_play(variant)
        if reason is not None:
            raise HandsRefused(reason)
        if variant.size != self.variant.size:
            self.board.close()
            self.board, self.layout = self._open(variant)
            if self._listener is not None:
                self.board.on_event(self._listener)
        self.variant = variant
        self.squares = self._map(variant)

    def close(self) -> None:
        """LEDs dark, device released. Safe to call twice."""
        self.board.close()

    # -- simulated hands ----------------------------------------------------------------

    def refuse_if_real(self) -> None:
        """Simulated hands are for the simulator only: a real board refuses them."""
        if not self.simulated:
            raise HandsRefused(
                "this is a real board: move its pieces by hand (simulated hands are refused)"
            )

    @property
    def mock(self) -> MockBoard:
        self.refuse_if_real()
        backend = self.board.backend
        assert isinstance(backend, MockBoard)
        return backend

    @property
    def truth(self) -> frozenset[int]:
        """The squares the simulator's pieces really stand on (variant squares)."""
        return self.squares.occupied(self.mock.occupied)

    def lift(self, square: int) -> None:
        if square not in self.truth:
            raise HandsRefused(f"no piece on square {square} to lift")
        self.mock.lift(self.squares.to_hardware_map[square])

    def place(self, square: int) -> None:
        if square in self.truth:
            raise HandsRefused(f"square {square} already holds a piece")
        self.mock.place(self.squares.to_hardware_map[square])

    def set_up(self, occupied: Iterable[int]) -> frozenset[int]:
        """Put pieces on exactly these squares, as a person setting up would, and scan until
        the debouncer has accepted them. Returns the debounced board (variant squares)."""
        self.mock.set_occupied(self.squares.hardware_squares(occupied))
        sensed = frozenset[int]()
        for _ in range(self.board.debouncer.agreeing_scans + 1):
            _, sensed = self.poll()
        return sensed

    # -- opening -----------------------------------------------------------------------

    def _open(self, variant: Variant) -> tuple[Board, Layout]:
        standard = f"standard-{variant.size}x{variant.size}"
        # The simulator follows the variant's size; a real board keeps its own wiring.
        name = standard if self.simulated else (self._layout_name or standard)
        self._layout_in_use = name
        try:
            layout = load_layout(name)
            board = open_board(self.spec, layout)
        except (BoardUnavailable, LayoutError, ValueError) as error:
            raise UserError(str(error)) from None
        board.brightness = min(self._brightness, layout.max_brightness)
        if isinstance(board.backend, MockBoard):
            board.backend.history = 8  # it blinks for days: keep the latest frames only
        return board, layout

    def _map(self, variant: Variant) -> SquareMap:
        turned = quarter_turn(self.layout) if variant.mirrored else None
        return SquareMap(variant, self.board.squares, turned)
