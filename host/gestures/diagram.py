"""docs/gestures.svg: the picture of the board commands, drawn from the code that runs them.

Why generated: the squares of the start menu and where the in-game menu puts
its choices come from `host.gestures.commands`; drawing them from it keeps the picture
true (a test compares the file with this output). Regenerate with
`python -m host.gestures.diagram > docs/gestures.svg`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from engine import Game, Outcome, get_variant
from host.config import DEFAULT_COLOURS
from host.gestures.commands import GestureDetector, start_menu
from host.voice.messages import VARIANT_NAMES

CELL = 44
MARGIN = 24
GAP = 60
LIGHT, DARK = "#f3e7cf", "#8a6a4a"


@dataclass
class _State:
    expected: frozenset[int]
    game: Game
    outcome: Outcome | None = None
    correcting: bool = False


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _board(x0: int, game: Game, lit: dict[int, str], labels: dict[int, str], spare: int | None):
    v = game.variant
    out = []
    pieces = game.position.pieces()
    for rank in range(v.size):
        for file in range(v.size):
            x, y = x0 + file * CELL, MARGIN + (v.size - 1 - rank) * CELL
            sq = v.square_at(file, rank)
            fill = DARK if sq is not None else LIGHT
            if sq is not None and sq in lit:
                fill = _hex(DEFAULT_COLOURS[lit[sq]])
            dash = (
                ' stroke="#000" stroke-width="3" stroke-dasharray="6 4"'
                if (sq is not None and lit.get(sq) == "resign")
                else ""
            )
            out.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"{dash}/>'
            )
            if sq is None:
                continue
            cx, cy = x + CELL // 2, y + CELL // 2
            piece = pieces.get(sq)
            if piece is not None:
                colour = "#fafafa" if piece.color == "W" else "#222"
                out.append(f'<circle cx="{cx}" cy="{cy}" r="15" fill="{colour}" stroke="#555"/>')
            if sq == spare:
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="15" fill="#fafafa" stroke="#000" '
                    'stroke-width="3"/>'
                    f'<text x="{cx}" y="{cy + 5}" font-size="14" text-anchor="middle">+</text>'
                )
            if sq in labels:
                out.append(
                    f'<text x="{cx}" y="{cy + 4}" font-size="10" text-anchor="middle" '
                    f'fill="#000">{escape(labels[sq])}</text>'
                )
    return out


def render() -> str:
    """The SVG: the start menu (left), a menu opened during a game (right), a legend."""
    v = get_variant("brazilian")
    width_board = v.size * CELL
    start = Game(v)
    menu = start_menu(v)
    short = {
        "brazilian": "BR", "russian": "RU", "english": "EN", "pool": "POOL",
        "portuguese": "PT", "spanish": "ES", "italian": "IT", "international": "INT",
    }  # fmt: skip
    labels = {
        sq: (short[o.split(":")[1]] if o.startswith("variant") else "LEVEL")
        for sq, o in menu.items()
    }
    left = _board(MARGIN, start, dict.fromkeys(menu, "choice"), labels, None)

    game = Game(v)
    for text in ("c3-d4", "f6-g5", "g3-h4", "b6-a5"):
        game.push(game.position.parse_move(text))
    state = _State(game.position.occupied(), game)
    detector = GestureDetector(v)
    spare = 18
    options = detector._options(spare, state)  # noqa: SLF001 - the picture shows exactly these
    lit = {sq: o.split(":")[0] for sq, o in options.items()}
    lit[spare] = "command"
    names = {"draw:W": "draw W", "resign:W": "resign W", "draw:B": "draw B",
             "resign:B": "resign B", "takeback": "back", "hint": "hint"}  # fmt: skip
    x1 = MARGIN + width_board + GAP
    right = _board(x1, game, lit, {sq: names[o] for sq, o in options.items()}, spare)

    height = MARGIN * 2 + width_board + 130
    width = x1 + width_board + MARGIN
    legend_y = MARGIN + width_board + 28
    names_of = [
        f"{short[o.split(':')[1]]} {VARIANT_NAMES['en'][o.split(':')[1]]}"
        for o in menu.values()
        if o.startswith("variant")
    ]
    half = (len(names_of) + 1) // 2
    variants = ", ".join(names_of[:half]) + ","
    variants_2 = ", ".join(names_of[half:])
    captions = [
        f'<text x="{MARGIN}" y="16" font-size="13" font-weight="bold">'
        "At the start: hold a spare piece 2 s on a middle square</text>",
        f'<text x="{x1}" y="16" font-size="13" font-weight="bold">'
        "In a game: hold it 2 s on an empty square, then onto a choice 1 s</text>",
        f'<text x="{MARGIN}" y="{legend_y}" font-size="11">{escape(variants)}</text>',
        f'<text x="{MARGIN}" y="{legend_y + 16}" font-size="11">{escape(variants_2)}; '
        "LEVEL: off (two players), then the computer's level 1-4, one up every 2 s.</text>",
        f'<text x="{MARGIN}" y="{legend_y + 34}" font-size="11">White sits at the bottom. '
        "Each player's draw and resign are on their own half; resign blinks (dashed here); "
        "back = take back the last move; hint = the best move, lit 6 s.</text>",
        f'<text x="{MARGIN}" y="{legend_y + 52}" font-size="11">A draw is agreed when both '
        "choose draw with no move between. Take the spare piece off to cancel; a move, or "
        "15 s, closes the menu.</text>",
    ]
    swatches = []
    for i, role in enumerate(("command", "draw", "resign", "takeback", "hint", "choice")):
        x = MARGIN + i * 125
        swatches.append(
            f'<rect x="{x}" y="{legend_y + 66}" width="16" height="16" '
            f'fill="{_hex(DEFAULT_COLOURS[role])}" stroke="#555"/>'
            f'<text x="{x + 22}" y="{legend_y + 79}" font-size="11">{role}</text>'
        )
    body = "\n".join([*left, *right, *captions, *swatches])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">\n'
        f'<rect width="{width}" height="{height}" fill="#fff"/>\n{body}\n</svg>\n'
    )


if __name__ == "__main__":
    print(render(), end="")
