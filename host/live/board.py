"""The board a live game is played on, in the variant's own numbering.

`LiveBoard` hides which board it is (the simulator, GPIO on a Pi, a
microcontroller on USB) and how it stands: mirrored variants (Portuguese,
Spanish, Italian) are played on the same board turned a quarter turn, which
is a renumbering of its squares, so changing between them needs no reopening.

A real board may be missing when the game starts (a USB board plugged in after
power-on, SPI not enabled yet, a permission udev has not applied yet): made
with `wait=True`, a `LiveBoard` then starts *waiting* (`waiting` says why,
`ready` is False) instead of failing; whoever runs it tries `open_device()`
again (off the event loop: opening may take seconds) and `install()`s what it
returns. While it waits it keeps the last LED frame and draws it when the board
comes, and scanning it is a mistake (`poll` refuses).

The simulator (`--board sim`) also has hands: `lift`, `place` and `set_up`
change its switches at once; the debouncer and the recogniser then see the
change on their next scans exactly as they would see a real magnet. A real
board refuses simulated hands (`HandsRefused`): its pieces are real.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Variant
from hardware.base import BoardNotReady, BoardUnavailable, Colour, EventListener, Snapshot
from hardware.board import Board, open_board
from hardware.debounce import DEFAULT_SCAN_PERIOD, Debouncer
from hardware.layout import Layout, LayoutError, load_layout
from hardware.mock import MockBoard
from host.errors import DeviceNotReady, UserError
from host.squares import SquareMap
from host.voice.request_errors import RequestError

SIMULATED = ("sim", "mock")


class HandsRefused(RequestError):
    """A simulated hand (or a variant) cannot be used on this board: `code` and `params`
    say why (host/voice/request_errors.py); the message is the English line."""


def quarter_turn(layout: Layout) -> dict[int, int]:
    """Board square -> square counted from White's seat once the board is turned a quarter."""
    turned = layout.rotated(1)
    return dict(zip(layout.sensor_squares, turned.sensor_squares, strict=True))


class LiveBoard:
    """One board (`spec` as in `hardware.board.open_board`) for one variant at a time.

    Invariant: `ready` is True exactly when a device is open (`waiting` is then None);
    while not ready, `waiting` holds the last reason the device could not be opened.
    """

    def __init__(
        self,
        spec: str,
        variant: Variant,
        *,
        layout: str | None = None,
        brightness: float = 0.3,
        wait: bool = False,
    ) -> None:
        """`wait`: a board that is missing or not ready (`BoardNotReady`) leaves this
        board waiting; without it, that is `DeviceNotReady`. Any other failure to open
        (a layout that cannot be read, a library missing) is a `UserError` either way."""
        self.spec = spec
        self.simulated = spec in SIMULATED
        self._layout_name = layout
        self._brightness = brightness
        self._listener: EventListener | None = None
        self._layout_in_use = ""
        self._frame: dict[int, Colour] = {}
        self._board: Board | None = None
        #: why the device is not open yet (None once it is)
        self.waiting: str | None = None
        self.layout = self._layout(variant)
        try:
            self.install(self.open_device(variant))
        except DeviceNotReady as error:
            if not wait:
                raise
            self.waiting = str(error)
        self.variant = variant
        self.squares = self._map(variant)

    # -- the board as the session sees it ------------------------------------------

    @property
    def ready(self) -> bool:
        """Is the device open (always, for the simulator)?"""
        return self._board is not None

    @property
    def board(self) -> Board:
        """The open device (`hardware.board.Board`); asking while waiting is a mistake."""
        if self._board is None:
            raise RuntimeError(f"the board is not open yet: {self.waiting}")
        return self._board

    @property
    def scan_period(self) -> float:
        return self._board.scan_period if self._board is not None else DEFAULT_SCAN_PERIOD

    @property
    def layout_name(self) -> str:
        """The wiring in use as configured (`draughtsboard status` shows it): the layout's
        name or file, or standard-NxN for the variant's size (always, on the simulator)."""
        return self._layout_in_use

    @property
    def debouncer(self) -> Debouncer | None:
        """The switches' debouncer (its rejected flickers tell of a chattering switch);
        None while waiting for the device."""
        return self._board.debouncer if self._board is not None else None

    def poll(self) -> tuple[float, frozenset[int]]:
        """Scan once: (time, debounced occupancy in the variant's squares)."""
        snapshot = self.read()
        return snapshot.time, snapshot.occupied

    def read(self) -> Snapshot:
        """Scan once: the debounced snapshot in the variant's squares, with the time of
        the last read that did not show its changes (`Snapshot.since`)."""
        snapshot = self.board.poll()
        return Snapshot(snapshot.time, self.squares.occupied(snapshot.occupied), snapshot.since)

    def settle(self) -> tuple[float, frozenset[int]]:
        """The first reading of a board just opened (`Board.settle`): the debouncer starts
        from an empty board, so a plain first `poll` would show every piece lifted and a
        resumed game flashing "wrong". Once scanning runs, `poll` is right."""
        snapshot = self.board.settle()
        return snapshot.time, self.squares.occupied(snapshot.occupied)

    def show(self, frame: Mapping[int, Colour]) -> None:
        """Light an LED frame given in the variant's squares (kept while waiting, and
        drawn when the device comes)."""
        self._frame = self.squares.frame(frame)
        if self._board is not None:
            self._board.show(self._frame)

    def on_event(self, listener: EventListener | None) -> None:
        self._listener = listener
        if self._board is not None:
            self._board.on_event(listener)

    def can_play(self, variant: Variant) -> HandsRefused | None:
        """Why `variant` cannot be played on this board (the refusal to raise), or None
        if it can."""
        if self.simulated or variant.size == self.variant.size:
            return None
        return HandsRefused("board-size", size=self.variant.size, variant=variant.name,
                            needs=variant.size)

    def use(self, variant: Variant) -> None:
        """Play `variant` from now on: renumber the squares (a quarter turn for the mirrored
        variants), and, for the simulator only, change the board's size if needed."""
        refusal = self.can_play(variant)
        if refusal is not None:
            raise refusal
        if variant.size != self.variant.size:  # the simulator only: it is never waiting
            self.board.close()
            self._board = None
            self._frame = {}  # numbered for the old size
            self.layout = self._layout(variant)
            self.install(self.open_device(variant))
        self.variant = variant
        self.squares = self._map(variant)

    def close(self) -> None:
        """LEDs dark, device released. Safe to call twice."""
        if self._board is not None:
            self._board.close()

    # -- simulated hands ----------------------------------------------------------------

    def refuse_if_real(self) -> None:
        """Simulated hands are for the simulator only: a real board refuses them."""
        if not self.simulated:
            raise HandsRefused("real-board")

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
            raise HandsRefused("no-piece-to-lift", square=square)
        self.mock.lift(self.squares.to_hardware_map[square])

    def place(self, square: int) -> None:
        if square in self.truth:
            raise HandsRefused("square-occupied", square=square)
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

    def open_device(self, variant: Variant | None = None) -> Board:
        """Open the device for the layout in use; changes nothing here, so it may run on
        another thread while the game's loop goes on. `DeviceNotReady` when it is missing
        or not ready (try again later), `UserError` for anything else."""
        try:
            board = open_board(self.spec, self.layout)
        except BoardNotReady as error:
            raise DeviceNotReady(str(error)) from None
        except (BoardUnavailable, ValueError) as error:  # ValueError: board and layout differ
            raise UserError(str(error)) from None
        board.brightness = min(self._brightness, self.layout.max_brightness)
        if isinstance(board.backend, MockBoard):
            board.backend.history = 8  # it blinks for days: keep the latest frames only
        return board

    def open_settled(self) -> tuple[Board, Snapshot]:
        """`open_device`, then its first settled reading (`Board.settle`, in the board's own
        squares): what a board that comes late starts from. Blocks (a USB board's
        handshake, the settling scans): run it off the game's loop."""
        board = self.open_device()
        try:
            return board, board.settle()
        except BaseException:
            board.close()
            raise

    def install(self, board: Board) -> None:
        """Make `board` (from `open_device`) the one in use: it gets the event listener and
        the last frame shown while waiting."""
        self._board = board
        self.waiting = None
        if self._listener is not None:
            board.on_event(self._listener)
        if self._frame:
            board.show(self._frame)

    def _layout(self, variant: Variant) -> Layout:
        standard = f"standard-{variant.size}x{variant.size}"
        # The simulator follows the variant's size; a real board keeps its own wiring.
        name = standard if self.simulated else (self._layout_name or standard)
        self._layout_in_use = name
        try:
            return load_layout(name)
        except LayoutError as error:
            raise UserError(str(error)) from None

    def _map(self, variant: Variant) -> SquareMap:
        turned = quarter_turn(self.layout) if variant.mirrored else None
        return SquareMap(variant, self.layout.squares, turned)
