"""A draw offered to the computer: declined in the opening, accepted when it stands worse or
the ending is dead level, declined with its reason otherwise; a move lapses the offer.

First the rules themselves (`engine.search.offers`), then offers through the live
runtime as the page makes them (`Control("draw")`), with the real search worker.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import Game, get_variant
from engine.search.offers import (
    BETTER,
    DEAD_LEVEL,
    NO_WIN,
    NOT_WORSE,
    OPENING,
    OPENING_MOVES,
    WORSE,
    WORSE_BY,
    answer_draw_offer,
)
from host.computer.player import ComputerPlayer
from host.live.runtime import Control
from tests.host.test_computer_player import (
    LateOpponent,
    carry_out,
    final,
    running,
    runtime_for,
    said,
    until,
)

BRAZILIAN = get_variant("brazilian")
# White (the person) to move; Black is the computer.
BLACK_FIVE_DOWN = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10"
BLACK_FIVE_UP = "W:W22,23,24,25,26,27,28:B1,2,3,4,5,6,7,8,9,10,11,12"
LEVEL_ENDING = "W:W26,30:B3,7"  # two men each: an ending (the rules are given the score)
# two kings each, placed so that every depth of search scores it 0 (not a material draw)
LEVEL_KINGS = "W:WK25,K30:BK3,K8"
KING_AGAINST_KING = "W:WK32:BK1"


# -- the rules -------------------------------------------------------------------------------


def test_in_the_opening_the_computer_always_plays_on() -> None:
    game = Game(BRAZILIAN)
    for _ in range(2 * OPENING_MOVES - 1):
        assert answer_draw_offer(game, "B", -5000).reason == OPENING  # however bad it is
        game.push(game.legal_moves()[0])
        if game.outcome() is not None:
            break
    assert game.ply == 2 * OPENING_MOVES - 1
    game.push(game.legal_moves()[0])
    assert answer_draw_offer(game, "B", -5000) .reason == WORSE


def test_worse_by_a_man_accepts_anything_less_declines() -> None:
    game = Game.from_fen(BLACK_FIVE_DOWN, BRAZILIAN)  # set up: no opening
    assert answer_draw_offer(game, "B", -WORSE_BY).accept
    assert answer_draw_offer(game, "B", -WORSE_BY).reason == WORSE
    assert answer_draw_offer(game, "B", -29990).accept  # lost by force: take the draw
    assert answer_draw_offer(game, "B", -WORSE_BY + 1) == answer_draw_offer(game, "B", 0)
    assert answer_draw_offer(game, "B", 0).reason == NOT_WORSE
    assert answer_draw_offer(game, "B", WORSE_BY).reason == BETTER


def test_a_dead_level_ending_is_accepted_a_level_middlegame_is_not() -> None:
    ending = Game.from_fen(LEVEL_ENDING, BRAZILIAN)
    assert answer_draw_offer(ending, "B", 0).reason == DEAD_LEVEL
    assert not answer_draw_offer(ending, "B", 40).accept
    middlegame = Game.from_fen("W:W21,22,23,24,25,26,27,28:B5,6,7,8,9,10,11,12", BRAZILIAN)
    assert answer_draw_offer(middlegame, "B", 0).reason == NOT_WORSE
    bare = Game.from_fen(KING_AGAINST_KING, BRAZILIAN)
    assert answer_draw_offer(bare, "B", 300).reason == NO_WIN  # nobody can win


# -- offers at the board ----------------------------------------------------------------------


@pytest.mark.parametrize(("fen", "answer", "ends"), [
    (BLACK_FIVE_DOWN, "The computer accepts the draw.", True),
    (LEVEL_KINGS, "The computer accepts the draw.", True),
    (KING_AGAINST_KING, "The computer accepts the draw.", True),
    (BLACK_FIVE_UP, "The computer declines the draw: it stands better.", False),
])
def test_an_offer_on_the_persons_turn_is_weighed_and_answered(
        tmp_path: Path, fen: str, answer: str, ends: bool) -> None:
    runtime = runtime_for(tmp_path, black="computer:2", fen=fen, backend="process")
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        runtime.control(Control("draw"))
        assert said(runtime, "draw-offer-computer") == ["White offers the computer a draw."]
        await until(lambda: any(a.kind.startswith("computer-draw")
                                for a in session.announcer.history))
        runtime.stop()
        await task

    asyncio.run(play())
    answers = [a.text for a in session.announcer.history if a.kind.startswith("computer-draw")]
    assert answers == [answer]
    outcome = session.recogniser.outcome
    if ends:
        assert outcome is not None and outcome.winner is None and outcome.reason == "agreement"
        assert said(runtime, "draw-agreed") == ["Draw agreed."]
    else:
        assert outcome is None and not said(runtime, "draw-agreed")


@pytest.mark.parametrize("language", ["en", "pt-BR"])
def test_an_offer_in_the_opening_is_declined_at_once_with_the_reason(
        tmp_path: Path, language: str) -> None:
    runtime = runtime_for(tmp_path, black="computer:1")
    session = runtime.session
    session.set_language(0.0, language)

    async def play() -> None:
        task = await running(runtime)
        computer = runtime.computer
        assert computer is not None
        await carry_out(runtime, session.game.position.parse_move("c3-d4"))
        await until(lambda: computer.move is not None)
        await carry_out(runtime, computer.move)
        await until(lambda: len(session.game.moves) == 2)
        runtime.control(Control("draw"))  # no search: the rule alone answers
        assert not computer.thinking
        runtime.stop()
        await task

    asyncio.run(play())
    expected = {
        "en": "The computer declines the draw: it is still the opening (the first 15 moves "
              "of each side).",
        "pt-BR": "O computador recusa o empate: ainda é a abertura (os primeiros 15 lances "
                 "de cada lado).",
    }[language]
    assert said(runtime, "computer-draw-declined-opening") == [expected]
    assert session.recogniser.outcome is None


def test_an_offer_while_it_thinks_is_answered_by_that_search(tmp_path: Path) -> None:
    """White is the computer here, thinking about its first move, five men down: the
    offer is answered when its search ends, and its move is never lit."""
    fen = "W:W21,22,23,24,25,26,27:B1,2,3,4,5,6,7,8,9,10,11,12"
    runtime = runtime_for(tmp_path, white="computer:3", black="human", fen=fen,
                          backend="process")
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        computer = runtime.computer
        assert computer is not None
        await until(lambda: computer.thinking)
        runtime.control(Control("draw"))  # Black, the person, offers
        await until(lambda: session.recogniser.outcome is not None)
        assert computer.move is None and not computer.thinking
        runtime.stop()
        await task

    asyncio.run(play())
    assert said(runtime, "computer-draw-accepted") == ["The computer accepts the draw."]
    assert said(runtime, "draw-offer-computer") == ["Black offers the computer a draw."]
    assert not said(runtime, "computer-move")


def test_a_move_played_before_the_answer_lapses_the_offer(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, fen=BLACK_FIVE_DOWN)
    session = runtime.session
    late = LateOpponent()  # answers when the test says
    computer = ComputerPlayer(session, lambda: late, post=lambda deliver: deliver(),
                              clock=lambda: 5.0)
    session.command(1.0, "draw")
    assert len(late.callbacks) == 1  # the offer's search
    offer_answer = late.callbacks[-1]
    start = session.game.position
    human = start.legal_moves()[0]
    session.observe(1.1, start.occupied() - {human.origin})
    session.observe(1.2, final(start, human))
    session.observe(2.0, final(start, human))
    assert session.game.moves == [human] and computer.thinking  # its own move now
    from engine.search.api import Analysis
    from host.computer.opponent import ComputerMove

    reply = start.legal_moves()[0]
    offer_answer(ComputerMove(reply, Analysis(reply, 900, None, 1, 1, 0.1, (reply,), False), 0))
    assert not [a for a in session.announcer.history if a.kind.startswith("computer-draw")]
    assert session.recogniser.outcome is None


def test_between_two_people_a_draw_is_their_agreement(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, black="human")
    runtime.session.command(1.0, "draw")
    assert said(runtime, "draw-agreed") == ["Draw agreed."]
    assert not said(runtime, "draw-offer-computer")


def test_an_only_move_played_unsearched_is_weighed_before_answering(tmp_path: Path) -> None:
    """Its one legal move comes back unsearched (no score): the offer made while it
    'thought' is weighed by a search of its own once that move is lit."""
    from engine.search.api import Analysis
    from host.computer.opponent import ComputerMove

    runtime = runtime_for(tmp_path, white="computer:4", black="human",
                          fen="W:W22,25,26:B11,18,3,4,5,6,7,8,9,10")  # 22x13 is forced
    session = runtime.session
    late = LateOpponent()
    computer = ComputerPlayer(session, lambda: late, post=lambda deliver: deliver(),
                              clock=lambda: 5.0)
    computer.start()
    assert computer.thinking and len(late.callbacks) == 1
    session.command(1.0, "draw")  # Black, the person, offers while White "thinks"
    (only,) = session.game.legal_moves()
    late.callbacks[0](ComputerMove(only, Analysis(only, 0, None, 0, 0, 0.0, (only,), False,
                                                  "only-move"), 4))
    assert computer.move == only  # lit: it is the only move whatever the answer
    assert len(late.callbacks) == 2  # and a search to weigh the offer
    late.callbacks[1](ComputerMove(only, Analysis(only, -400, None, 6, 900, 0.5, (only,),
                                                  False), 0))
    assert said(runtime, "computer-draw-accepted") == ["The computer accepts the draw."]
    assert session.recogniser.outcome is not None
