"""What the stories agree on: the plies to commit.

Every story claims the plies it has played since the base (a story whose last
ply is open again, carried on, still claims it as it was: going on proves
nothing yet). The board commits exactly the plies on which every story within
MARGIN of the best agrees; where two stories fit, they disagree and nothing is
committed until the hands tell them apart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import Move
from host.recognition.story import Story


def claims(story: Story) -> tuple[Move, ...]:
    """The plies `story` says were played since the base."""
    moves = tuple(ply.move for ply in story.plies)
    if story.ply is not None and story.ply.was is not None:
        moves = (*moves, story.ply.was)
    return moves


def agreement(stories: list[Story]) -> tuple[Move, ...]:
    """The longest run of plies every story in `stories` claims."""
    runs = [claims(story) for story in stories]
    shortest = min(len(run) for run in runs)
    agreed: list[Move] = []
    for i in range(shortest):
        move = runs[0][i]
        if any(run[i] != move for run in runs[1:]):
            break
        agreed.append(move)
    return tuple(agreed)


@dataclass(frozen=True)
class Verdict:
    """What to do with the committed game: replace its last move by `corrected` (the
    same piece went on), then commit `new`, each with when it was finished."""

    corrected: tuple[Move, float] | None
    new: tuple[tuple[Move, float], ...]
    #: when the committed last move, agreed as it was, was finished (its mover may have
    #: acted on it again before the next player began: lifted and put back, one more
    #: captured piece taken off)
    kept: float | None = None

    def __bool__(self) -> bool:
        return self.corrected is not None or bool(self.new)


def verdict(stories: list[Story], committed: Move | None) -> Verdict:
    """The change to the committed game that `stories` (those within MARGIN) agree on.
    `committed`: the game's last move when the stories' first ply is it (None when the
    base is the game's start). A ply was finished at the latest time a standing story
    says: where they disagree whether the next player had started when a captured
    piece came off, it may have come off with the move."""
    agreed = agreement(stories)
    finished = [
        max((s.plies[i].finished for s in stories if i < len(s.plies)), default=0.0)
        for i in range(len(agreed))
    ]
    open_at = 0 if committed is None else 1
    corrected, kept = None, None
    if committed is not None and agreed and agreed[0] != committed:
        if agreed[0].origin != committed.origin:
            return Verdict(None, ())  # (another piece: not a move going on)
        corrected = (agreed[0], finished[0])
    elif committed is not None and agreed:
        kept = _finished_by_all(stories, committed)
    new = tuple(zip(agreed[open_at:], finished[open_at:], strict=True))
    return Verdict(corrected, new, kept)


def rebased(story: Story, committed: tuple[Move, ...]) -> Story | None:
    """`story` counted from the position before the last of `committed` (the plies
    committed since its base), or None if it does not claim them all."""
    run = claims(story)
    if run[: len(committed)] != committed:
        return None
    return replace(story, plies=story.plies[len(committed) - 1 :])


def _finished_by_all(stories: list[Story], committed: Move) -> float | None:
    """When every story in `stories` says the committed move was finished, at the
    earliest (None while one has it open again: it is not finished in that one)."""
    times = [
        s.plies[0].finished for s in stories if s.plies and s.plies[0].move == committed
    ]
    return min(times) if len(times) == len(stories) else None
