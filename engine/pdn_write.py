"""Writing a game as strict PDN, so that any PDN reader can load it back.

Lenient in, strict out: tags in Seven Tag Roster order with `?` for unknowns,
GameType in its long form (a short `20` is ambiguous to readers that do not
know the number), FEN only when the game does not start from the initial
position, moves in the variant's official notation, lines at most 80 columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import IllegalMoveError, Move, Position, Variant

__all__ = ["ROSTER", "write_game"]

# Seven Tag Roster order and the placeholder the PDN standard uses for unknowns.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_UNKNOWN = {"Date": "????.??.??"}

LINE_WIDTH = 80


def write_game(
    variant: Variant,
    tags: Mapping[str, str],
    moves: Iterable[Move],
    result: str,
    start_fen: str | None = None,
) -> str:
    """One game as PDN text, ending with a blank line (so games can be concatenated).

    `result` is written both as the Result tag and as the game terminator, and
    wins over any Result in `tags`. Tags beyond the roster follow in the
    order given; GameType and FEN are always computed here, never copied.
    Raises `IllegalMoveError` if a move is not legal in sequence.
    """
    start = Position.from_fen(start_fen, variant) if start_fen else variant.initial_position()
    skip = {name.lower() for name in (*ROSTER, "GameType", "FEN")}
    lines = []
    for name in ROSTER:
        value = result if name == "Result" else tags.get(name) or _UNKNOWN.get(name, "?")
        lines.append(_tag(name, value))
    lines.append(_tag("GameType", variant.pdn_game_type))
    if start.fen() != variant.initial_position().fen():
        lines.append(_tag("FEN", start.fen()))
    lines += [_tag(name, value) for name, value in tags.items() if name.lower() not in skip]
    words = [*_movetext(variant, start, moves), result]
    return "\n".join(lines) + "\n\n" + _wrap(words) + "\n\n"


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _movetext(variant: Variant, start: Position, moves: Iterable[Move]) -> list[str]:
    """Move texts with move numbers; `1...` when the second mover starts (after a FEN).

    Numbers count moves of the variant's first mover (Black in English and
    Pool), as the files of those variants do.
    """
    words: list[str] = []
    position, number = start, 1
    for move in moves:
        if move not in position.legal_moves():
            raise IllegalMoveError(f"move {move} is not legal in {position.fen()}")
        first = position.turn == variant.first_to_move
        if first:
            words.append(f"{number}.")
        elif not words:  # the game starts (from a FEN) with the second mover
            words.append(f"{number}...")
        words.append(position.move_text(move))
        if not first:
            number += 1
        position = position.play(move)
    return _glue_numbers(words)


def _glue_numbers(words: list[str]) -> list[str]:
    """Attach each move number to its move so a line never ends with `12.`."""
    glued: list[str] = []
    for word in words:
        if glued and glued[-1].endswith("."):
            glued[-1] = f"{glued[-1]} {word}"
        else:
            glued.append(word)
    return glued


def _wrap(words: list[str]) -> str:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > LINE_WIDTH:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return "\n".join(lines)
