"""Hypothesis strategies for fuzzing text input: FEN, move text, numbers, argv bytes."""

from __future__ import annotations

import os

from hypothesis import strategies as st

from engine import VARIANTS

variant_names = st.sampled_from(sorted(VARIANTS))
numbers = st.one_of(
    st.integers(min_value=0, max_value=60).map(str),
    st.integers(min_value=0, max_value=10**30).map(str),
    st.integers(min_value=4200, max_value=6000).map(lambda n: "9" * n),  # int() refuses these
    st.integers(min_value=1, max_value=5000).map(lambda n: "0" * n + "1"),
)
# Bytes as `sys.argv` would carry them: undecodable bytes become lone surrogates.
argv_like = st.binary(max_size=200).map(os.fsdecode)


@st.composite
def fen_like(draw: st.DrawFn) -> str:
    """Text shaped like a FEN: side, colour sections, squares, kings, ranges, junk."""
    def square() -> str:
        king = draw(st.sampled_from(["", "K", "k"]))
        name = draw(st.one_of(numbers, st.builds(lambda f, n: f + n,
                                                 st.sampled_from(list("abcdefghijz")),
                                                 numbers)))
        end = draw(st.one_of(st.just(""), numbers.map(lambda n: "-" + n)))
        return king + name + end

    sections = [
        draw(st.sampled_from("WB")) + ",".join(square() for _ in range(draw(st.integers(0, 6))))
        for _ in range(draw(st.integers(0, 3)))
    ]
    side = draw(st.sampled_from(["W", "B", "?", "w", "", "X", "WB"]))
    extra = draw(st.sampled_from(["", ":H0", ":F" + "9" * 5000, ".", '"']))
    return ":".join([side, *sections]) + extra


@st.composite
def move_like(draw: st.DrawFn) -> str:
    """Text shaped like a move: squares (numeric or algebraic) and separators."""
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        parts.append(draw(st.one_of(numbers, st.builds(lambda f, n: f + n,
                                                       st.sampled_from(list("abcdefghk")),
                                                       numbers))))
        parts.append(draw(st.sampled_from(["-", "x", ":", "", " ", "X"])))
    return "".join(parts[:-1]) + draw(st.sampled_from(["", "!", "?", "+", "*", "#"]))
