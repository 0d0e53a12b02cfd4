"""Writing a game as strict PDN, so that any PDN reader, ours first, can load it back.

Lenient in, strict out: tags in Seven Tag Roster order with `?` for unknowns,
GameType in its long form (a short `20` is ambiguous to readers that do not
know the number), FEN only when the game does not start from the initial
position, moves in the variant's official notation, lines at most 80 columns.
What the reader would reject is refused here (`EngineError`, a `ValueError`):
a tag name that is not a PDN identifier, a value with a line break or other
control character, a result outside the PDN standard's forms. Quotes and
backslashes in values are escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from engine.game import Game
from engine.pdn_results import WRITTEN
from engine.position import EngineError, IllegalMoveError, Move, Position
from engine.variant import Variant

__all__ = ["ROSTER", "write_game"]

# Seven Tag Roster order and the placeholder the PDN standard uses for unknowns.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_UNKNOWN = {"Date": "????.??.??"}
_COMPUTED = frozenset({"gametype", "fen", "setup"})
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\u0085\u2028\u2029]")

LINE_WIDTH = 80


def write_game(
    game: Game | Variant,
    tags: Mapping[str, object] | None = None,
    moves: Iterable[Move] | None = None,
    result: str | None = None,
    start_fen: str | None = None,
    *,
    comments: Sequence[str | None] = (),
) -> str:
    """One game as PDN text, ending with a blank line (so games can be concatenated).

    `write_game(game, tags)`: the moves of `game` (any `Game`, a `PdnGame`
    too) from its start position. The result is `tags["Result"]` if given,
    else the engine's verdict if the game is over, else `*`; it is written
    both as the Result tag and as the terminator. Tags beyond the roster
    follow in the order given; GameType, FEN and SetUp are always computed
    here, never copied. The older form `write_game(variant, tags, moves,
    result, start_fen=None)` is still accepted.

    `comments[i]`, when given and not None, is written as `{...}` after the i-th move
    (the clocks after it: `engine.pdn_clocks.clock_comment`).

    Raises `EngineError` for a `game` that is neither a `Game` nor a
    `Variant`, tags that are not a mapping of names (text) to values (text or
    numbers; None is an unknown value), a bad tag name or value or a result
    outside `1-0 0-1 1/2-1/2 2-0 1-1 0-2 0-0 *`, `IllegalMoveError` for an
    illegal move.
    """
    if not isinstance(game, Game | Variant):
        raise EngineError(f"write_game writes a Game, not {type(game).__name__}")
    tags = {("Result" if name.lower() == "result" else name): value
            for name, value in _checked(tags).items() if value is not None}
    if isinstance(game, Variant):  # the older form
        variant = game
        start = Position.from_fen(start_fen, variant) if start_fen else variant.initial_position()
        played = list(moves or ())
        if result is not None:
            tags["Result"] = result
    else:
        variant, start, played = game.variant, game.positions[0], list(game.moves)
        if "Result" not in tags:
            outcome = game.outcome()
            tags["Result"] = outcome.result if outcome is not None else "*"
    final = _result(str(tags.get("Result", "*")))
    lines = []
    for name in ROSTER:
        value = final if name == "Result" else tags.get(name) or _UNKNOWN.get(name, "?")
        lines.append(_tag(name, value))
    lines.append(_tag("GameType", variant.pdn_game_type))
    if start.fen() != variant.initial_position().fen():
        lines += [_tag("SetUp", "1"), _tag("FEN", start.fen())]
    roster = {name.lower() for name in ROSTER}
    lines += [_tag(name, value) for name, value in tags.items()
              if name.lower() not in roster and name.lower() not in _COMPUTED]
    words = [*_movetext(variant, start, played, comments), final]
    return "\n".join(lines) + "\n\n" + _wrap(words) + "\n\n"


def _checked(tags: object) -> dict[str, object]:
    """`tags` as a dict, every name text and every value text, a number or None."""
    if tags is None:
        return {}
    if not isinstance(tags, Mapping):
        raise EngineError(f"tags are a mapping of tag names to values, not "
                          f"{type(tags).__name__}")
    for name, value in tags.items():
        if not isinstance(name, str):
            raise EngineError(f"a tag name is text, not {type(name).__name__} ({name!r:.20})")
        if value is not None and (isinstance(value, bool)
                                  or not isinstance(value, str | int | float)):
            raise EngineError(f"tag {name:.20}: a value is text or a number, "
                              f"not {type(value).__name__}")
    return dict(tags)


def _result(text: str) -> str:
    result = text.strip()
    if result not in WRITTEN:
        raise EngineError(f"result {text!r} is not a PDN result ({' '.join(WRITTEN)})")
    return result


def _tag(name: str, value: object) -> str:
    if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
        raise EngineError(f"tag name {name!r} is not a PDN tag name (a letter, then letters, "
                          "digits or _)")
    text = str(value)
    if _CONTROL.search(text):
        raise EngineError(f"tag {name}: a value cannot hold a line break or control character "
                          f"({text!r})")
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _movetext(
    variant: Variant, start: Position, moves: Iterable[Move], comments: Sequence[str | None] = ()
) -> list[str]:
    """Move texts with move numbers; `1...` when the second mover starts (after a FEN);
    each move's comment, if any, right after it (kept on the move's line).

    Numbers count moves of the variant's first mover (Black in English and
    Pool), as the files of those variants do.
    """
    words: list[str] = []
    position, number = start, 1
    for ply, move in enumerate(moves):
        if move not in position.legal_moves():
            raise IllegalMoveError(f"move {move} is not legal in {position.fen()}")
        first = position.turn == variant.first_to_move
        if first:
            words.append(f"{number}.")
        elif not words:  # the game starts (from a FEN) with the second mover
            words.append(f"{number}...")
        text = position.move_text(move)
        comment = comments[ply] if ply < len(comments) else None
        if comment:
            if "}" in comment or _CONTROL.search(comment):
                raise EngineError(f"a comment cannot hold '}}' or a line break: {comment!r}")
            text = f"{text} {{{comment}}}"
        words.append(text)
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
