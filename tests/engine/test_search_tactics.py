"""The search finds winning shots in five variants: 2-for-1, 3-for-1, combinations, breakthroughs.

Each position was built for this file (by hand, or picked from positions a
search over random play proposed) and each claim is proved here, every run,
by `reference_search` (a plain material-only minimax that shares nothing with
the search but the move generator): at the shot's own depth the shot is the
only move that wins material, and two plies deeper it still wins it, so it
is not refuted just past the horizon. Then the search, at a fixed depth (so
the test does not depend on the machine's speed), must play it, White to
move and, the board turned round, Black to move.

Kinds: "2-for-1" and "3-for-1" give one man to take two or three;
"combination" gives two men or more before the big capture; "breakthrough"
sacrifices to open the way to the crowning row.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine import Move, Position, get_variant
from engine.search import analyse
from tests.engine.reference_search import material, move_values

SEARCH_DEPTH = 6
SHOT_DEPTH = 3  # quiet plies the reference needs to see each shot through
GAIN = 100  # at least one man


@dataclass(frozen=True)
class Shot:
    variant: str
    fen: str
    move: str
    kind: str
    note: str

    def __str__(self) -> str:
        return f"{self.variant}-{self.kind}-{self.move}"


SHOTS = [
    Shot("brazilian", "W:W19,21,23,24,25,26,27,28,29:B2,3,4,6,8,10,12,13,14,18", "f4-g5",
         "2-for-1", "h6xf4 g3xc3: a man down, level again"),
    Shot("brazilian", "W:W21,22,23,24,26,27,28,30,31:B1,4,5,7,8,12,14,15", "c3-d4",
         "3-for-1", "e5xc3 d2xf8: three men and a king for one"),
    Shot("brazilian", "W:W9,13,18,21,26:B8,10,19,27", "d2-e3", "combination",
         "f4xd2, d4-c5 d6xb4, a5xg3: two given, three taken"),
    Shot("brazilian", "W:W7,12,24,26:B9,13,14,25", "d2-c3", "breakthrough",
         "b2xd4 pulls the man off the crowning row's guard, e7-d8 crowns"),
    Shot("brazilian", "W:W13,15,17,21:B5,7,20", "a5-b6", "2-for-1",
         "a7xc5 b4xf8: two men and a king"),
    Shot("international", "W:W22,25,30,35,39,43:B1,9,12,13,19,29,32", "30-24", "2-for-1",
         "19x30 35x33"),
    Shot("international", "W:W28,30,31,34,35,39,40,50:B6,7,10,14,15,18,20", "30-24",
         "3-for-1", "20x29 34x1: three men and a king"),
    Shot("international", "W:W27,28,30,32,37,38,40,45:B2,7,8,13,14,18,26", "27-21",
         "combination", "26x17, 28-22 17x28, 32x1: two given, three taken and a king"),
    Shot("international", "W:W6,26,38,44,46:B5,7,10,12,13,45", "44-40", "breakthrough",
         "45x34 lets 6-1 crown"),
    Shot("international", "W:W18,22,27,39,41:B7,9,19,25,26,35", "18-12", "2-for-1",
         "7x18 22x4: two men and a king"),
    Shot("russian", "W:W20,21,24,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,8,12,18", "h4-g5",
         "2-for-1", "h6xf4 g3xc3"),
    Shot("russian", "W:W23,26,27,28:B9,12,13,20,25", "d2-c3", "3-for-1",
         "b2xd4 e3xa7"),
    Shot("russian", "W:W12,15,17,19,20,21,26:B5,6,9,10,24,27,28", "e5-f6", "combination",
         "g3 takes and is crowned on the way; the rest falls"),
    Shot("russian", "W:W7,11,20,26:B5,14,25", "d2-c3", "breakthrough",
         "b2xd4, e7-f8 crowns and the king wins a man"),
    Shot("english", "W:W12,17,18,19,21,24,26,30:B1,3,7,8,9,10,11", "17-14", "2-for-1",
         "10x17 21x5"),
    Shot("english", "W:W13,22,25,26,28,30,31,32:B2,4,6,8,9,10,11,14,16", "22-18", "3-for-1",
         "14x23 26x3: three men and a king"),
    Shot("english", "W:W18,19,22,25,31,32:B5,7,9,10,26", "18-14", "combination",
         "9x18 22x6, then 6-2 crowns: two given, three taken"),
    Shot("english", "W:W15,16,20,21,22,31:B1,3,7,8,19", "16-11", "breakthrough",
         "7x16 20x4: through to the crowning row"),
    Shot("portuguese", "W:W11,14,17,18,21:B24,25,28,30,31", "21-26", "2-for-1",
         "30x21 17x26"),
    Shot("portuguese", "W:W1,2,4,5,8,10,19:B14,16,21,26,27,28,31,32", "8-12", "3-for-1",
         "16x7 4x25: four for one"),
    Shot("portuguese", "W:W4,7,9,10,12,17,18:B20,25,26,28,29,31,32", "18-21", "combination",
         "25x18, 12-15 20x11, 7x30: two given, three taken and a king"),
    Shot("portuguese", "W:W6,16,18,20:B23,27,29", "18-22", "breakthrough",
         "27x18 20x27, then 27-30 crowns"),
]


def turned_round(position: Position) -> Position:
    """The same position with colours swapped and the board turned half a circle."""
    last = position.variant.num_squares + 1
    parts: dict[str, list[str]] = {"W": [], "B": []}
    for square, piece in position.pieces().items():
        colour = "B" if piece.color == "W" else "W"
        parts[colour].append(("K" if piece.king else "") + str(last - square))
    turn = "B" if position.turn == "W" else "W"
    return Position.from_fen(f"{turn}:W{','.join(parts['W'])}:B{','.join(parts['B'])}",
                             position.variant)


def turned_move(position: Position, move: Move) -> Move:
    last = position.variant.num_squares + 1
    turned = turned_round(position)
    key = (last - move.origin, last - move.destination,
           frozenset(last - s for s in move.captures))
    (match,) = [m for m in turned.legal_moves()
                if (m.origin, m.destination, m.captures) == key]
    return match


def setting(shot: Shot) -> tuple[Position, Move]:
    position = Position.from_fen(shot.fen, get_variant(shot.variant))
    return position, position.parse_move(shot.move)


def test_every_variant_has_each_kind_of_shot() -> None:
    kinds = {(s.variant, s.kind) for s in SHOTS}
    for variant in ("brazilian", "international", "russian", "english", "portuguese"):
        for kind in ("2-for-1", "3-for-1", "combination", "breakthrough"):
            assert (variant, kind) in kinds


@pytest.mark.parametrize("shot", SHOTS, ids=str)
def test_the_shot_is_real(shot: Shot) -> None:
    """Reference minimax: the shot alone wins material, and still does deeper."""
    position, move = setting(shot)
    assert not position.legal_moves()[0].is_capture  # a quiet position: the shot is a choice
    start = material(position)
    values = move_values(position, SHOT_DEPTH)
    text = position.move_text(move)
    winners = [m for m, value in values.items() if value - start >= GAIN]
    assert winners == [text]
    deeper = move_values(position, SHOT_DEPTH + 2)
    assert deeper[text] - start >= GAIN
    after = position.play(move)  # a sacrifice: the opponent must capture
    assert after.legal_moves()[0].is_capture


@pytest.mark.parametrize("turned", [False, True], ids=["white", "black"])
@pytest.mark.parametrize("shot", SHOTS, ids=str)
def test_search_plays_the_shot(shot: Shot, turned: bool) -> None:
    position, move = setting(shot)
    if turned:
        move = turned_move(position, move)
        position = turned_round(position)
    analysis = analyse(position, depth=SEARCH_DEPTH)
    if analysis.best != move:  # only another move the reference proves as good will do
        values = move_values(position, SHOT_DEPTH + 2)
        assert values[position.move_text(analysis.best)] >= values[position.move_text(move)], (
            f"played {position.move_text(analysis.best)}, the shot is {shot.move}")
    assert analysis.pv and analysis.pv[0] == analysis.best
    line_end = position  # the search's own line wins the material (or the game)
    for step in analysis.pv:
        line_end = line_end.play(step)
    gained = material(line_end) * (1 if line_end.turn == position.turn else -1)
    assert gained - material(position) >= GAIN or analysis.mate, [str(m) for m in analysis.pv]
