"""Shared `--variant` / `--fen` / `--fens` handling for the engine sub-commands.

Turns the engine's input errors into `UserError`, so a mistyped variant or a
malformed FEN is one clear line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

from engine import VARIANTS, EngineError, Position, UnknownVariantError, Variant, get_variant
from host.errors import UserError


def add_variant_argument(parser: argparse.ArgumentParser, required: bool = False) -> None:
    parser.add_argument(
        "--variant",
        default=None if required else "brazilian",
        required=required,
        help=f"rules to play by: {', '.join(VARIANTS)}"
        + ("" if required else " (default: brazilian)"),
    )


def variant_from(name: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownVariantError as error:
        raise UserError(str(error)) from None


def position_from(variant: Variant, fen: str | None) -> Position:
    if fen is None:
        return variant.initial_position()
    try:
        return Position.from_fen(fen, variant)
    except EngineError as error:
        raise UserError(str(error)) from None


def add_position_arguments(parser: argparse.ArgumentParser) -> argparse._MutuallyExclusiveGroup:
    """`--fen` (one position) or `--fens FILE|-` (one FEN a line), exactly one of them;
    the group is returned, for a command that takes other sources as well."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--fen", help="the position (PDN FEN)")
    source.add_argument("--fens", metavar="FILE", help="a file with one FEN per line, or -")
    return source


class GivenPositions:
    """The positions of `--fen` or `--fens`, each with the FEN line it came from (None for
    `--fen`). A bad line in a file is reported on stderr and skipped, so one typo does not
    cost the whole batch; `status` is then 2. A bad `--fen` is a `UserError`."""

    def __init__(self, variant: Variant, args: argparse.Namespace) -> None:
        self.variant = variant
        self.fen: str | None = args.fen
        self.source: str | None = args.fens
        self.status = 0

    def __iter__(self) -> Iterator[tuple[Position, str | None]]:
        if self.source is None:
            yield position_from(self.variant, self.fen), None
            return
        for line_number, fen in fen_lines(self.source):
            try:
                position = Position.from_fen(fen, self.variant)
            except EngineError as error:
                print(f"draughtsboard: {self.source}, line {line_number}: {error}",
                      file=sys.stderr)
                self.status = 2
                continue
            yield position, fen


def fen_lines(source: str) -> Iterable[tuple[int, str]]:
    """Non-blank lines with their numbers. Bytes that are not UTF-8 become U+FFFD,
    so a line of binary garbage is one FEN error like any other, not a crash."""
    try:
        stream = (_stdin() if source == "-"
                  else open(source, encoding="utf-8", errors="replace"))  # noqa: SIM115
    except OSError as error:
        raise UserError(f"cannot read {source}: {error.strerror or error}") from None
    with stream:
        try:
            for number, line in enumerate(stream, start=1):
                if line.strip():
                    yield number, line.strip()
        except OSError as error:  # a directory, a vanished file
            raise UserError(f"cannot read {source}: {error.strerror or error}") from None


def _stdin() -> TextIO:
    buffer = getattr(sys.stdin, "buffer", None)  # absent when a test put text in its place
    if buffer is None:
        return sys.stdin
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="replace")
