"""Turn engine moves into the sensor events real hands produce.

Used by the soak test and the bench: random legal games become noisy event
streams (switch bounce, lift-and-return, touched opponent pieces, king slides
brushing squares, touch-downs on landing squares or a jump straight to the end,
captured pieces removed before, during or after landing). Every noisy state is
short enough to be a human pause, never a new move: touch-downs stay under the
hold time, touches under the grace period.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine import Game, Move, Position, Variant
from tests.host.hands.table import between as diagonal_between


@dataclass
class Stream:
    """Events as dicts in the replay input format, plus the time cursor in ms."""

    rng: random.Random
    t: int = 0
    events: list[dict[str, object]] = field(default_factory=list)
    bounce: float = 0.3

    def wait(self, low: int, high: int) -> None:
        self.t += self.rng.randint(low, high)

    def _raw(self, kind: str, square: int) -> None:
        self.events.append({"t": self.t, kind: square})

    def act(self, kind: str, square: int) -> None:
        """One lift or place, sometimes bouncing (X, not-X, X within a few ms)."""
        self._raw(kind, square)
        if self.rng.random() < self.bounce:
            other = "place" if kind == "lift" else "lift"
            self.t += self.rng.randint(1, 6)
            self._raw(other, square)
            self.t += self.rng.randint(1, 8)
            self._raw(kind, square)


def fidget(stream: Stream, pos: Position, occupied: set[int]) -> None:
    """Noise before a move: a piece lifted and put back, or an opponent's piece touched."""
    rng = stream.rng
    pieces = pos.pieces()
    choice = rng.random()
    if choice < 0.25:
        own = [sq for sq, p in pieces.items() if p.color == pos.turn]
        sq = rng.choice(own)
    elif choice < 0.45:
        theirs = [sq for sq, p in pieces.items() if p.color != pos.turn]
        if not theirs:
            return
        sq = rng.choice(theirs)
    else:
        return
    stream.act("lift", sq)
    stream.wait(80, 1500)
    stream.act("place", sq)
    stream.wait(150, 900)


def play_move(stream: Stream, pos: Position, move: Move, occupied: set[int], hold: int) -> None:
    """Events for `move`: a random landing path, removals in a random order and
    moment, touch-downs (each shorter than `hold` ms) or a jump to the end."""
    rng = stream.rng
    variant = pos.variant
    path = rng.choice(move.paths) if move.paths else move.path
    captures = list(move.captures)
    rng.shuffle(captures)
    before = [c for c in captures if rng.random() < 0.2]
    rest = [c for c in captures if c not in before]
    for c in before:
        stream.act("lift", c)
        occupied.discard(c)
        stream.wait(100, 600)
    if rng.random() < 0.15:  # lift and return the moving piece itself first
        stream.act("lift", move.origin)
        stream.wait(100, 900)
        stream.act("place", move.origin)
        stream.wait(100, 500)
    stream.act("lift", move.origin)
    occupied.discard(move.origin)
    stream.wait(150, 700)
    touch = rng.random() < 0.6
    here = move.origin
    for i, landing in enumerate(path):
        last = i == len(path) - 1
        for sq in diagonal_between(variant, here, landing):  # slide: brush empty squares
            if sq not in occupied and rng.random() < 0.5:
                stream._raw("place", sq)
                stream.wait(20, 90)
                stream._raw("lift", sq)
                stream.wait(10, 40)
        if last:
            stream.act("place", landing)
            occupied.add(landing)
        elif touch:
            stream.act("place", landing)
            stream.wait(120, hold - 80)
            if rest and rng.random() < 0.3:  # remove a captured piece while touching down
                c = rest.pop()
                stream.act("lift", c)
                occupied.discard(c)
                stream.wait(20, 60)
            stream.act("lift", landing)
            stream.wait(100, 400)
        elif rest and rng.random() < 0.3:  # remove one during the flight
            c = rest.pop()
            stream.act("lift", c)
            occupied.discard(c)
            stream.wait(100, 300)
        here = landing
    for c in rest:
        stream.wait(60, 600)
        stream.act("lift", c)
        occupied.discard(c)


def random_game(variant: Variant, rng: random.Random, max_plies: int = 120) -> Game:
    game = Game(variant)
    while len(game.moves) < max_plies and game.outcome() is None:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


def humanise(
    variant: Variant,
    moves: list[Move],
    rng: random.Random,
    *,
    hold: int = 500,
    noise: bool = True,
    gap: tuple[int, int] = (700, 1600),
) -> tuple[list[dict[str, object]], list[str]]:
    """Events for playing `moves` from the initial position, and the FENs after each.
    `gap` is the pause (ms) between one move's last event and the next player's first:
    (0, 199) is a fast reply, made before the last board has settled."""
    stream = Stream(rng, t=rng.randint(200, 900), bounce=0.3 if noise else 0.0)
    game = Game(variant)
    occupied = set(game.position.occupied())
    fens = []
    for move in moves:
        if noise:
            fidget(stream, game.position, occupied)
        play_move(stream, game.position, move, occupied, hold)
        game.push(move)
        assert occupied == set(game.position.occupied())
        fens.append(game.fen())
        stream.wait(*gap)
    return stream.events, fens
