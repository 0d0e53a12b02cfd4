"""Opening the board a config names, laid out for its variant.

One place for what `run`, `service leds-off` and the start-up benchmark all
need: the layout (the config's, else the standard one for the variant's
size), turned a quarter turn for the mirrored variants, and the backend.
Failures are one `UserError` sentence (a missing library, a bad port).
"""

from __future__ import annotations

from engine import get_variant
from hardware.board import Board
from host.config import Config
from host.errors import UserError


def layout_name(config: Config) -> str:
    """The layout the config means: its own, or standard-NxN for the variant."""
    size = get_variant(config.variant).size
    return config.layout or f"standard-{size}x{size}"


def open_configured_board(config: Config) -> Board:
    """The board named by `config.board`, for `config.variant`, at the configured brightness."""
    from hardware.base import BoardUnavailable
    from hardware.board import open_board
    from hardware.layout import LayoutError, load_layout

    variant = get_variant(config.variant)
    try:
        layout = load_layout(layout_name(config))
        if variant.mirrored:
            layout = layout.rotated(1)
        board = open_board(config.board, layout)
    except (BoardUnavailable, LayoutError, ValueError) as error:
        raise UserError(str(error)) from None
    board.brightness = config.brightness
    return board
