"""The automatic draw counts: no progress, and each endgame limit of the variant.

A `DrawState` is the counts after one ply. It is immutable so that `Game`
keeps one per ply and `pop` restores them exactly. The rules these counts
implement, and every choice made where a rule's text is silent, are in
docs/rules.md ("How a game ends"); the `EndgameLimit` fields that drive them
are in engine/variant.py.

An endgame count is tied to a *key*: the material while the count runs (or,
for a rule whose count survives promotions and captures inside its own
material, the rule itself). The count goes on while the key stays the same
and starts from zero when it changes. It holds the moves each colour has made
since it started, so that both "N moves each" and "the stronger side's Nth
move" can be read from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.position import Position
from engine.variant import (
    BLACK,
    EACH,
    FAMILY,
    LONE_KING_HOLDS,
    STRONG_KING_AT_START,
    WHITE,
    EndgameLimit,
    Variant,
)

Material = tuple[tuple[int, int], tuple[int, int]]  # White's and Black's (kings, men)


@dataclass(frozen=True)
class LimitCount:
    key: object  # what must stay the same for the count to go on
    white: int  # counted moves White has made since the count started
    black: int

    def moves_of(self, colour: str) -> int:
        return self.white if colour == WHITE else self.black


@dataclass(frozen=True)
class DrawState:
    no_progress: int  # plies since the last capture or man move
    limits: tuple[LimitCount | None, ...]  # one per variant.endgame_limits, None when off


def material(position: Position) -> Material:
    return position.count(WHITE), position.count(BLACK)


def start(variant: Variant, position: Position) -> DrawState:
    """The counts for a game starting at `position` (a set-up position starts every count)."""
    held = material(position)
    return DrawState(0, tuple(_begin(limit, position, held) for limit in variant.endgame_limits))


def after_move(variant: Variant, previous: DrawState, before: Position, after: Position,
               progress: bool) -> DrawState:
    """The counts once a move has led from `before` to `after`; `progress` is a
    capture or man move."""
    held = material(after)
    limits = []
    for limit, count in zip(variant.endgame_limits, previous.limits, strict=True):
        key = _key(limit, held)
        if key is None:
            limits.append(None)
        elif count is not None and count.key == key:
            limits.append(_counted(limit, count, before, after))
        else:
            limits.append(_begin(limit, after, held))
    return DrawState(0 if progress else previous.no_progress + 1, tuple(limits))


def limit_due(variant: Variant, state: DrawState, position: Position) -> EndgameLimit | None:
    """The first endgame limit (in the variant's order of precedence) whose count is up."""
    held = material(position)
    for limit, count in zip(variant.endgame_limits, state.limits, strict=True):
        if count is not None and _plies_left(limit, count, position, held) <= 0:
            return limit
    return None


def limit_plies_left(variant: Variant, state: DrawState, position: Position) -> int | None:
    """Plies before the nearest endgame limit falls due, None when none is counting.

    A 7.2.7 count is shown only while the lone king holds the long diagonal,
    and then assuming it keeps it.
    """
    held = material(position)
    left = [_plies_left(limit, count, position, held)
            for limit, count in zip(variant.endgame_limits, state.limits, strict=True)
            if count is not None and _advancing(limit, position, held)]
    return max(0, min(left)) if left else None


def lone_king_ending(variant: Variant, position: Position) -> bool:
    """Is the material one of the variant's endings limited against a lone king with at
    most three pieces on the stronger side (the FMJD's regulation-draw endings: three
    kings, two kings and a man, a king and two men, or less, against one king)?"""
    held = material(position)
    return any(
        limit.strong
        and limit.weak == ((1, 0),)
        and _stronger(limit, held)
        and max(sum(held[0]), sum(held[1])) <= 3
        for limit in variant.endgame_limits
    )


# ---------------------------------------------------------------- one limit
def _key(limit: EndgameLimit, held: Material) -> object | None:
    """What must stay the same for this limit's count to go on; None when it does not apply."""
    white, black = held
    if limit.both_kings_total:
        both_have_kings = white[0] and black[0]
        if both_have_kings and sum(white) + sum(black) in limit.both_kings_total:
            return held
        return None
    if not _stronger(limit, held):
        return None
    return limit.rule if limit.restart == FAMILY else held


def _stronger(limit: EndgameLimit, held: Material) -> tuple[str, ...]:
    """The colours that hold this limit's stronger material against the other's weaker one."""
    white, black = held
    colours = []
    if white in limit.strong and black in limit.weak:
        colours.append(WHITE)
    if black in limit.strong and white in limit.weak:
        colours.append(BLACK)
    return tuple(colours)


def _begin(limit: EndgameLimit, position: Position, held: Material) -> LimitCount | None:
    key = _key(limit, held)
    if key is None:
        return None
    if limit.long_diagonal == STRONG_KING_AT_START and not any(
        _king_on_long_diagonal(position, colour) for colour in _stronger(limit, held)
    ):
        return None
    return LimitCount(key, 0, 0)


def _counted(limit: EndgameLimit, count: LimitCount, before: Position,
             after: Position) -> LimitCount:
    """`count` with the move from `before` to `after` added, if this limit counts
    it: under "the stronger side's Nth move" only a move made by the side that
    held the stronger material counts (and, for 7.2.7, only one that leaves
    the lone king alone on the long diagonal)."""
    mover = before.turn
    if limit.counting != EACH and (
        mover not in _stronger(limit, material(before))
        or limit.long_diagonal == LONE_KING_HOLDS and not _lone_king_holds_long_diagonal(after,
                                                                                         mover)
    ):
        return count
    if mover == WHITE:
        return LimitCount(count.key, count.white + 1, count.black)
    return LimitCount(count.key, count.white, count.black + 1)


def _advancing(limit: EndgameLimit, position: Position, held: Material) -> bool:
    """Whether the count would go on if play went on as now (only 7.2.7 can stall)."""
    return limit.long_diagonal != LONE_KING_HOLDS or any(
        _lone_king_holds_long_diagonal(position, colour) for colour in _stronger(limit, held))


def _plies_left(limit: EndgameLimit, count: LimitCount, position: Position,
                held: Material) -> int:
    if limit.counting == EACH:
        return 2 * limit.moves - count.white - count.black
    # the stronger side's Nth move: 2r - 1 plies away if it is to move, else 2r
    return min(2 * (limit.moves - count.moves_of(colour)) - (position.turn == colour)
               for colour in _stronger(limit, held))


# ---------------------------------------------------------- long diagonal
def _king_on_long_diagonal(position: Position, colour: str) -> bool:
    mask = position.white if colour == WHITE else position.black
    return bool(mask & position.kings & position.variant.geometry.long_diagonal)


def _lone_king_holds_long_diagonal(position: Position, stronger: str) -> bool:
    """Whether the stronger side's opponent, a lone king, is alone on the long diagonal."""
    lone = position.black if stronger == WHITE else position.white
    on_diagonal = (position.white | position.black) & position.variant.geometry.long_diagonal
    return on_diagonal == lone

