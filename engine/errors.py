"""The engine's errors about input, and how a message quotes that input.

Every error a caller can provoke with bad input (a FEN, a move text, a square
number, a variant name, a perft depth) is an `EngineError`, itself a
`ValueError`, carrying one plain sentence: the command line prints it as it
is, the board says it to the player.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of the engine's errors about input (FEN, moves, squares, PDN)."""


class FenError(EngineError):
    """A FEN string that cannot be read; the message says where and why."""


class UnknownVariantError(EngineError):
    """A variant name or PDN GameType the engine does not serve."""


class NothingToTakeBack(EngineError, IndexError):
    """`Game.pop()` at the start of a game (an IndexError too, as a list's pop is)."""


class IllegalMoveError(EngineError):
    """A move that is not legal here; the message says why, for a player.

    `code` and `params` carry the same reason in a form the host can
    translate (see host/voice/messages.py); the message itself is English.
    """

    def __init__(self, message: str, code: str = "illegal", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def cut(text: str, limit: int = 40) -> str:
    """`text` cut to a readable length for a message: input may be a whole
    file's worth of garbage, and a message must stay one short line."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(text: str, limit: int = 40) -> str:
    """`text` cut (see `cut`) and quoted."""
    return repr(cut(text, limit))


def square_out_of_range(square: int, count: int) -> EngineError:
    """The error for a square number outside 1..`count`. A number of thousands
    of digits is not printed (`str()` of it raises: Python's int-string limit)."""
    what = f"square {square}" if -10**6 < square < 10**6 else "square that large"
    return EngineError(f"there is no {what}: squares run from 1 to {count}")
