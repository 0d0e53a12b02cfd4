"""Who plays each side: a person, or the computer at a level.

Why a module of its own: the same words are read from the config file and
flags (`white = "human"`, `--black computer:3`), from the page's new-game
dialog and from the board's level gesture, and written into the saved game's
PDN tags; one spelling, checked in one place.

A player is written `human`, `computer` (the configured `computer_level`) or
`computer:N` with N a level from 1 (beginner) to 4 (strongest).
"""

from __future__ import annotations

from collections.abc import Mapping

HUMAN = "human"
COMPUTER = "computer"
#: the computer's levels (engine/search/levels.py), weakest first
COMPUTER_LEVELS = (1, 2, 3, 4)
ALLOWED = '"human", "computer" or "computer:N" with N from 1 to 4'
SIDES = ("W", "B")


class PlayerError(ValueError):
    """A player that cannot be read; the message says what is allowed."""


def parse_player(text: object) -> str:
    """The player as written canonically (`human`, `computer`, `computer:3`); PlayerError
    for anything else."""
    if isinstance(text, str):
        word, colon, level = text.strip().lower().partition(":")
        if word == HUMAN and not colon:
            return HUMAN
        if word == COMPUTER and not colon:
            return COMPUTER
        if word == COMPUTER and level.isdigit() and int(level) in COMPUTER_LEVELS:
            return f"{COMPUTER}:{int(level)}"
    raise PlayerError(f"a player must be {ALLOWED}, not {text!r}")


def level_of(player: str, default_level: int) -> int | None:
    """The computer's level for `player` (None for a person); plain `computer` plays at
    `default_level`."""
    if player == HUMAN:
        return None
    _, _, level = player.partition(":")
    return int(level) if level else default_level


def computer_levels(players: Mapping[str, str], default_level: int) -> dict[str, int]:
    """Side -> level for every side the computer plays."""
    levels = {side: level_of(players.get(side, HUMAN), default_level) for side in SIDES}
    return {side: level for side, level in levels.items() if level is not None}


def with_level(players: Mapping[str, str], level: int) -> dict[str, str]:
    """The players after the board's level gesture chose `level` (0: two people): the
    sides the computer plays change level; if it played none, it takes Black (the person
    plays White, the side that begins in most variants)."""
    if level == 0:
        return {side: HUMAN for side in SIDES}
    chosen = f"{COMPUTER}:{level}"
    computer_sides = [side for side in SIDES if players.get(side, HUMAN) != HUMAN]
    if not computer_sides:
        return {"W": HUMAN, "B": chosen}
    return {side: chosen if side in computer_sides else HUMAN for side in SIDES}


def resolved(players: Mapping[str, str], default_level: int) -> dict[str, str]:
    """The players with plain `computer` spelt at its level (`computer:N`): what the journal
    keeps, so a resumed game is played at the level it began with even if the configured
    `computer_level` changed meanwhile."""
    levels = computer_levels(players, default_level)
    return {side: f"{COMPUTER}:{levels[side]}" if side in levels else HUMAN for side in SIDES}


def players_or_none(data: object) -> dict[str, str] | None:
    """`{"W": ..., "B": ...}` read back from a file, checked; None if it is missing or
    not both sides' players (an old journal, or a damaged one: the config's then count)."""
    if not isinstance(data, dict) or set(data) != set(SIDES):
        return None
    try:
        return {side: parse_player(data[side]) for side in SIDES}
    except PlayerError:
        return None


def pdn_tags(players: Mapping[str, str], default_level: int) -> dict[str, str]:
    """The saved game's White/Black tags for the sides the computer plays."""
    names = {"W": "White", "B": "Black"}
    return {
        names[side]: f"Computer (level {level})"
        for side, level in computer_levels(players, default_level).items()
    }
