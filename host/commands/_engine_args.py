"""Shared `--variant` / `--fen` handling for the engine sub-commands.

Turns the engine's input errors into `UserError`, so a mistyped variant or a
malformed FEN is one clear line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse

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
