"""A deliberately plain reference for the tactical tests: material-only minimax.

Why: a tactical test must not trust the search it tests. This is an
independent, exhaustive alpha-beta on the public `Position` API with nothing
but material at the leaves and no table, no ordering tricks, no reductions:
slow, but on the small positions of the tests it proves what a shot wins.
Captures never use up depth (they are forced), so every exchange is played
to its end; a quiet leaf is scored only when the side to move has no capture.
"""

from __future__ import annotations

from engine import Position

LOSS = -100_000


def piece_value(position: Position) -> tuple[int, int]:
    """(man, king) values: a king counts for 3 men with flying kings, 1.5 without."""
    return (100, 300) if position.variant.flying_kings else (100, 150)


def material(position: Position) -> int:
    """Material balance from the side to move's view."""
    man, king = piece_value(position)
    mover = position.turn
    other = "B" if mover == "W" else "W"
    own_kings, own_men = position.count(mover)
    opp_kings, opp_men = position.count(other)
    return man * (own_men - opp_men) + king * (own_kings - opp_kings)


def minimax(position: Position, depth: int, alpha: int = LOSS - 1, beta: int = -LOSS + 1,
            ply: int = 0) -> int:
    """Best material balance the side to move can force within `depth` quiet plies."""
    moves = position.legal_moves()
    if not moves:
        return LOSS + ply
    capture = moves[0].is_capture
    if depth <= 0 and not capture:
        return material(position)
    next_depth = depth if capture else depth - 1
    best = LOSS - 1
    for move in moves:
        score = -minimax(position.play(move), next_depth, -beta, -alpha, ply + 1)
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


def move_values(position: Position, depth: int) -> dict[str, int]:
    """Each legal move's exact minimax value (material after `depth` quiet plies)."""
    return {position.move_text(m): -minimax(position.play(m), depth - (not m.is_capture), ply=1)
            for m in position.legal_moves()}
