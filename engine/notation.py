"""Move text: read every common form, write the variant's official one.

Written: numeric (`32-28`, `28x19`) or algebraic (`c3-d4`, `c3xe5`) by
variant. A multi-capture is written as the variant's books write it
(`Variant.capture_notation`): every landing (`10x19x26`) for English /
American checkers (seed 004), otherwise origin and destination, with every
landing only where those two alone would name more than one legal move. Read: numeric or algebraic
squares separated by `-`, `x` or `:` (or nothing: `a3b4`), any subset of the
landing squares of a capture in order, and the short algebraic form (`ab4`:
file of origin and destination) used in Russian and Brazilian books.
"""

from __future__ import annotations

import re

from engine.errors import IllegalMoveError, cut, shown
from engine.position import Move, Position
from engine.variant import FULL

# ASCII only: `\d` would also take other scripts' digits, which no file uses.
_SHORT = re.compile(r"^([a-j])([a-j])(\d{1,2})$", re.ASCII)
_TOKEN = re.compile(r"\d+|[a-j]\d{1,2}|[-x:]", re.ASCII)
_MAX_DIGITS = 3  # a longer number is no square (and int() refuses 4,300 digits)


def square_text(position: Position, square: int) -> str:
    variant = position.variant
    return variant.square_name(square) if variant.notation == "algebraic" else str(square)


def move_text(position: Position, move: Move) -> str:
    legal = position.legal_moves()
    if move not in legal:
        raise IllegalMoveError(f"{move!r} is not legal in {position.fen()}")

    def name(square: int) -> str:
        return square_text(position, square)

    if not move.captures:
        return f"{name(move.origin)}-{name(move.destination)}"
    every_landing = position.variant.capture_notation == FULL or any(
        m.origin == move.origin and m.destination == move.destination and m != move for m in legal
    )
    squares = (move.origin, *move.path) if every_landing else (move.origin, move.destination)
    return "x".join(name(s) for s in squares)


def parse_move(position: Position, text: str) -> Move:
    """The legal move `text` names; IllegalMoveError saying why if none or several."""
    matches = readings(position, text)
    if len(matches) == 1:
        return matches[0]
    raw = text.strip()
    if not matches:
        squares = _squares(position, raw)
        if squares is None:  # short form: nothing more precise to say
            raise IllegalMoveError(f"{raw} is not a legal move here", "not-legal", move=raw)
        raise explain(position, squares[0], squares[-1])
    options = ", ".join(move_text(position, m) for m in matches)
    raise IllegalMoveError(f"{raw} is ambiguous: it could be {options}", "ambiguous",
                           move=raw, options=options)


def readings(position: Position, text: str) -> list[Move]:
    """Every legal move `text` could name (none, one, or several if it is ambiguous).

    Raises IllegalMoveError only when the text cannot be read as a move at all.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move is text, not {type(text).__name__}", "unreadable",
                               move=cut(repr(text)))
    variant = position.variant
    raw = text.strip()
    legal = position.legal_moves()
    short = _SHORT.match(_clean(raw))
    if short:
        from_file, to_file, rank = short.groups()
        destination = variant.square_from_name(to_file + rank)
        if destination is None:
            raise IllegalMoveError(f"{to_file}{rank} is not a dark square", "no-square",
                                   square=to_file + rank)
        return [
            m for m in legal
            if m.destination == destination and variant.square_name(m.origin)[0] == from_file
        ]
    squares = _squares(position, raw)
    assert squares is not None
    origin, *via, destination = squares
    return [
        m for m in legal
        if m.origin == origin and m.destination == destination
        and (not via or any(_follows(path, via) for path in m.paths))
    ]


def _clean(raw: str) -> str:
    return raw.lower().replace(" ", "").rstrip("!?+#*")


def _squares(position: Position, raw: str) -> list[int] | None:
    """The squares a long-form move names, in order; None for the short form."""
    variant = position.variant
    cleaned = _clean(raw)
    if not cleaned:
        raise IllegalMoveError("empty move", "unreadable", move=raw)
    if _SHORT.match(cleaned):
        return None
    tokens = _TOKEN.findall(cleaned)
    if "".join(tokens) != cleaned or tokens[0] in "-x:" or tokens[-1] in "-x:":
        raise IllegalMoveError(f"cannot read move {shown(raw)}", "unreadable", move=cut(raw))
    squares = []
    for token in tokens:
        if token in "-x:":
            continue
        if token.isdigit():
            if len(token) > _MAX_DIGITS:
                raise IllegalMoveError(f"there is no square {cut(token, 12)}", "no-square",
                                       square=cut(token, 12))
            number = int(token)
            if not 1 <= number <= variant.num_squares:
                raise IllegalMoveError(f"there is no square {number}", "no-square",
                                       square=number)
            squares.append(number)
        else:
            square = variant.square_from_name(token)
            if square is None:
                raise IllegalMoveError(f"{token} is not a dark square", "no-square",
                                       square=token)
            squares.append(square)
    if len(squares) < 2:
        raise IllegalMoveError(f"cannot read move {shown(raw)}: it needs an origin and a "
                               "destination", "unreadable", move=cut(raw))
    return squares


def _follows(path: tuple[int, ...], via: list[int]) -> bool:
    """Whether the squares `via` appear in order among the landings of `path`."""
    landings = iter(path[:-1])
    return all(any(square == landing for landing in landings) for square in via)


def explain(position: Position, origin: int, destination: int) -> IllegalMoveError:
    """Why no legal move goes from `origin` to `destination`, in words for a player."""
    colour_name = {"W": "White", "B": "Black"}
    name = square_text(position, origin)
    to_name = square_text(position, destination)
    piece = position.piece_at(origin)
    mover = position.turn
    if piece is None:
        return IllegalMoveError(f"there is no piece on {name}", "no-piece", square=name)
    if piece.color != mover:
        return IllegalMoveError(
            f"{name} holds a {colour_name[piece.color]} piece and it is {colour_name[mover]}'s "
            "turn", "opponent-piece", square=name, side=mover)
    legal = position.legal_moves()
    if not legal:
        return IllegalMoveError(f"{colour_name[mover]} has no legal move", "no-legal-move",
                                side=mover)
    if legal[0].is_capture:
        takes = ", ".join(sorted({move_text(position, m) for m in legal}))
        most = max(len(m.captures) for m in legal)
        if position.variant.capture_rule == "free" or most == 1:
            return IllegalMoveError(f"capture is mandatory: {takes}", "capture-mandatory",
                                    moves=takes)
        return IllegalMoveError(
            f"capture is mandatory, taking the most pieces ({most}): {takes}",
            "capture-most", count=most, moves=takes)
    if position.piece_at(destination) is not None:
        return IllegalMoveError(f"{to_name} is occupied", "occupied", square=to_name)
    own = [m for m in legal if m.origin == origin]
    if not own:
        return IllegalMoveError(f"the piece on {name} cannot move", "cannot-move", square=name)
    targets = ", ".join(square_text(position, m.destination) for m in own)
    return IllegalMoveError(
        f"the piece on {name} cannot go to {to_name}; it can go to {targets}",
        "wrong-destination", square=name, destination=to_name, targets=targets)
