"""The piece tracker (host/recognition/piece_identity.py): who stands where, in bounded memory.

The host runs on a Pi Zero 2 (512 MB). A tracker that enumerated every way of
putting many pieces down in one scan once grew past 8 GB on a mock board's
first poll. These tests hold the tracker to its bound by counting readings (not
by timing), on streams no hand would make, and check that giving up identity
keeps the doubt (the board asks to check the colours) instead of guessing.
"""

from __future__ import annotations

import random

import pytest

from engine import get_variant
from engine.position import Piece
from host.recognition.piece_identity import MAX_READINGS, PieceTracker

WHITE, BLACK = Piece("W", False), Piece("B", False)


def _bound(num_squares: int) -> int:
    """What the tracker may hold at once: every kept reading times every piece in the
    air, part-way through a scan (and never more than that squared by the cap)."""
    return MAX_READINGS * max(num_squares, MAX_READINGS)


@pytest.mark.parametrize("variant", ["brazilian", "international"])
def test_an_adversarial_stream_keeps_the_tracker_bounded(variant: str) -> None:
    v = get_variant(variant)
    pieces = v.initial_position().pieces()
    tracker = PieceTracker(pieces)
    tracker.turn("W", ())
    rng = random.Random(f"bounded-{variant}")
    on = set(pieces)
    squares = range(1, v.num_squares + 1)
    for scan in range(600):
        if scan % 50 == 0:  # the board swept clean and set up again, each in one scan
            lifted, placed = set(on), set()
        elif scan % 50 == 1:
            lifted, placed = set(), set(rng.sample(list(squares), len(pieces)))
        else:  # anything: several pieces off and on in one scan
            lifted = set(rng.sample(sorted(on), min(len(on), rng.randint(0, 6))))
            empty = [sq for sq in squares if sq not in on]
            placed = set(rng.sample(empty, min(len(empty), rng.randint(0, 6))))
        on = (on - lifted) | placed
        tracker.update(lifted, placed)
        assert tracker.readings <= MAX_READINGS
    assert tracker.most_held <= _bound(v.num_squares)


def _swept_and_set_up() -> tuple[dict[int, Piece], PieceTracker]:
    """A Brazilian start whose every piece came off in one scan and went back in one."""
    pieces = get_variant("brazilian").initial_position().pieces()
    tracker = PieceTracker(pieces)
    tracker.update(pieces, ())
    tracker.update((), pieces)
    return dict(pieces), tracker


def test_a_board_set_up_in_one_scan_is_doubted_not_guessed() -> None:
    # Every piece comes off in one scan and goes back in one: any colour may be on any
    # square. The tracker gives up telling them apart, in a handful of readings, and
    # doubts every square rather than declare the board right.
    pieces, tracker = _swept_and_set_up()
    assert tracker.readings <= MAX_READINGS
    assert tracker.doubtful(pieces) == frozenset(pieces)
    assert tracker.sure_colour(1) is None
    assert tracker.pieces_at(1) == {WHITE, BLACK}


def test_a_doubted_piece_carries_its_doubt_where_it_goes() -> None:
    pieces, tracker = _swept_and_set_up()
    tracker.update([1], ())
    tracker.update((), [16])
    assert tracker.pieces_at(16) == {WHITE, BLACK}
    assert 16 in tracker.doubtful({**pieces, 16: WHITE})


def test_few_pieces_are_still_told_apart() -> None:
    # Below the bound nothing is given up: a white man lifted and put down alone is
    # the white man.
    tracker = PieceTracker({22: WHITE, 13: BLACK})
    tracker.update([22], ())
    tracker.update((), [18])
    assert tracker.pieces_at(18) == {WHITE}
    assert tracker.doubtful({18: WHITE, 13: BLACK}) == frozenset()


def test_a_captured_piece_knocked_off_and_put_back_is_not_the_movers_piece() -> None:
    # A man that a capture could take is knocked off while the mover's king is in the
    # hand, and put back on its square: it is that man again (not the king put down
    # there, with the man then fetched from the box for the king's landing square).
    king = Piece("W", True)
    tracker = PieceTracker({2: king, 7: BLACK, 16: BLACK})
    tracker.turn("W", [7, 16])
    tracker.update([2], ())
    tracker.update([16], ())
    tracker.update((), [16])
    tracker.update((), [11])
    assert tracker.pieces_at(16) == {BLACK}
    assert tracker.pieces_at(11) == {king}
