"""Take back against the computer: one take back undoes the person's move and the
computer's reply together, the board is guided back piece by piece (both pieces' way
lit), the computer does not play its move again meanwhile, and the board and the game
never disagree silently.

Driven through the session and the computer player on the session's own clock; the
computer's search is replaced by an opponent that answers with the first legal move
when the test says so (the real worker's answers arrive the same way, on the loop)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import Move, Position, get_variant
from engine.search.api import Analysis
from host.computer.opponent import ComputerMove, SearchJob
from host.computer.player import ComputerPlayer
from host.config import Config
from host.recognition.costs import CARRY, GRACE, SETTLE
from host.session import Session
from host.voice.announce import Announcer

BRAZILIAN = get_variant("brazilian")
#: a hand's pace between two actions: a carried piece takes far longer than a push
#: (the recogniser reads a landing surely within CARRY of the lift as a knock, never a
#: move)
HAND = 3 * CARRY


class ScriptedOpponent:
    """Answers each search with the first legal move, when `answer()` is called; a
    cancelled search is forgotten (the real worker drops it). The calls are those of
    host/computer/opponent.py `Opponent` that the computer player makes."""

    def __init__(self) -> None:
        self.waiting: list[tuple[SearchJob, Any]] = []

    def start(self, game, level, *, on_result=None, clock=None):  # type: ignore[no-untyped-def]
        job = SearchJob(len(self.waiting) + 1, game.position, level, on_result, self._cancel)
        self.waiting.append((job, on_result))
        return job

    def _cancel(self, job: SearchJob) -> None:
        self.waiting = [(j, call) for j, call in self.waiting if j is not job]

    def hint(self, game, seconds=2.0, on_result=None):  # type: ignore[no-untyped-def]
        return self.start(game, 0, on_result=on_result)

    def prepare(self, variant) -> None:  # type: ignore[no-untyped-def]
        pass  # nothing to warm up: the answers are scripted

    def new_game(self) -> None:
        pass

    def answer(self) -> Move:
        job, on_result = self.waiting.pop()
        move = job.position.legal_moves()[0]
        on_result(ComputerMove(move, Analysis(move, 0, None, 1, 1, 0.1, (move,), False), 1))
        return move

    def close(self) -> None:
        pass


class Table:
    """A session with the computer as Black, and the hands that play on its board."""

    def __init__(self, tmp_path: Path, fen: str | None = None) -> None:
        config = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False,
                        data_dir=tmp_path, white="human", black="computer:1")
        start = Position.from_fen(fen, BRAZILIAN) if fen else None
        self.board = set((start or BRAZILIAN.initial_position()).occupied())
        self.now = 0.0
        self.session = Session(config, Announcer("en"), resume=False, now=0.0,
                               occupied=frozenset(self.board), start=start)
        self.opponent = ScriptedOpponent()
        self.computer = ComputerPlayer(self.session, lambda: self.opponent,
                                       post=lambda call: call(), clock=lambda: self.now)
        self.computer.start()

    def step(self, seconds: float = 0.05) -> None:
        self.now += seconds
        self.session.observe(self.now, frozenset(self.board))

    def lift(self, square: int) -> None:
        self.board.discard(square)
        self.step(HAND)

    def place(self, square: int) -> None:
        self.board.add(square)
        self.step(HAND)

    def play(self, move: Move) -> None:
        self.lift(move.origin)
        for square in move.captured_order or sorted(move.captures):
            self.lift(square)
        self.place(move.destination)
        self.step(SETTLE + 0.1)
        self.step(SETTLE + 0.1)

    def said(self, kind: str) -> list[str]:
        return [a.text for a in self.session.announcer.history if a.kind == kind]


def test_one_takeback_undoes_the_persons_move_and_the_computers_reply(tmp_path: Path) -> None:
    table = Table(tmp_path)
    session = table.session
    start = session.game.position
    mine = start.parse_move("c3-d4")
    table.play(mine)
    reply = table.opponent.answer()
    table.play(reply)
    assert session.game.moves == [mine, reply]
    assert session.takeback_plies() == 2
    session.command(table.now, "takeback")
    assert session.game.moves == [] and session.game.position == start
    assert table.said("takeback") == [f"Move {start.play(mine).move_text(reply)} taken back.",
                                      "Move c3-d4 taken back."]
    # Each piece's way back is lit in turn: take from where it stands (blinking), put
    # on its own square (steady); the computer does not think meanwhile (its move is
    # taken back: the person's turn).
    assert session.recogniser.correcting
    assert not table.computer.thinking and table.computer.move is None
    ways = {(mine.destination, mine.origin), (reply.destination, reply.origin)}
    for _ in range(2):
        roles, blink = session.hint.roles, session.hint.blink
        wrong = {sq for sq, role in roles.items() if role == "wrong"}
        (take,) = wrong & blink
        (put,) = wrong - blink
        assert (take, put) in ways
        ways.remove((take, put))
        table.lift(take)
        table.place(put)
    assert not ways
    table.step(SETTLE + 0.1)
    assert not session.recogniser.correcting
    assert table.said("board-ok")
    assert session.game.moves == []
    record = session.journal.read()
    assert record is not None and record.moves == []


def test_a_takeback_while_the_computers_move_is_lit_undoes_only_the_persons(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    session = table.session
    mine = session.game.position.parse_move("c3-d4")
    table.play(mine)
    table.opponent.answer()  # lit, not carried out
    assert table.computer.move is not None
    assert session.takeback_plies() == 1
    session.command(table.now, "takeback")
    assert session.game.moves == [] and table.computer.move is None
    roles = session.hint.roles
    assert roles == {mine.destination: "wrong", mine.origin: "wrong"}
    assert "move-from" not in roles.values()  # the computer's move is no longer lit
    # A board left as it was is never read as the move again: it stays to put right.
    table.step(GRACE + 1)
    assert session.game.moves == [] and session.recogniser.correcting


def test_the_same_board_is_not_replayed_when_the_computers_reply_is_taken_back_alone(
    tmp_path: Path,
) -> None:
    """Two people's rules (one ply) are not what a person playing the computer gets: the
    computer would light the same move again on a board that already shows it."""
    table = Table(tmp_path)
    session = table.session
    mine = session.game.position.parse_move("c3-d4")
    table.play(mine)
    table.play(table.opponent.answer())
    session.command(table.now, "takeback")
    assert not table.opponent.waiting  # nothing to search: it is the person's turn
    table.step(GRACE + 1)
    assert session.game.moves == []


def test_nothing_of_yours_to_take_back_and_none_after_a_resignation(tmp_path: Path) -> None:
    config_black_first = "B:W21,22,23:B9,10,11"
    table = Table(tmp_path, fen=config_black_first)  # Black (the computer) begins
    session = table.session
    table.play(table.opponent.answer())
    assert session.takeback_plies() == 0
    session.command(table.now, "takeback")
    assert len(session.game.moves) == 1
    assert table.said("no-move-of-yours")
    table.play(session.game.position.legal_moves()[0])
    session.resign(table.now, "W")
    assert session.takeback_plies() == 0
    session.command(table.now, "takeback")
    assert len(session.game.moves) == 2
    assert table.said("takeback-after-end") == [
        "The game ended by resignation: start a new game."]
