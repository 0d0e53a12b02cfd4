"""The computer opponent at the table: its move lit and announced, carried out by a hand,
nothing else accepted for it, hints, and every search stopped when the game moves on.

The recogniser's hook (`Recogniser.allow_only`) is tested on its own first; then the
whole flow through the live runtime on the simulator (real switches' debouncer, real
settle timers, the real search worker)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from engine import Game, Move, Position, get_variant
from host.computer.opponent import Opponent
from host.computer.player import ComputerPlayer
from host.config import Config
from host.live.board import LiveBoard
from host.live.runtime import Control, Hands, Refused, Runtime
from host.recognition.costs import GRACE, SETTLE
from host.recognition.recogniser import Recogniser
from host.records.games import pdn_text
from host.session import Session
from host.voice.announce import Announcer

BRAZILIAN = get_variant("brazilian")


def final(position: Position, move: Move) -> frozenset[int]:
    return (position.occupied() - {move.origin} - move.captures) | {move.destination}


# -- the recogniser's hook ------------------------------------------------------------------


def test_only_the_allowed_move_is_accepted_and_another_is_guided_back() -> None:
    game = Game(BRAZILIAN)
    rec = Recogniser(game, hint_level="off")
    start = game.position
    chosen = start.parse_move("c3-d4")
    other = start.parse_move("g3-h4")
    rec.allow_only(0.0, [chosen])
    # lit whatever the hint level: the piece to move and where it goes
    assert rec.hint.roles == {chosen.origin: "move-from", chosen.destination: "destination"}
    wrong = final(start, other)
    rec.observe(0.1, start.occupied() - {other.origin})
    events = rec.observe(0.2, wrong)
    events += rec.observe(0.2 + SETTLE + 0.1, wrong)
    assert not game.moves and "move" not in [e.kind for e in events]
    events = rec.observe(0.2 + GRACE + 0.1, wrong)
    assert [e.kind for e in events] == ["illegal-board"]
    assert set(rec.hint.roles) == {other.origin, other.destination}  # put it back
    events = rec.observe(4.0, start.occupied())
    assert [e.kind for e in events] == ["board-ok"]
    assert rec.hint.roles[chosen.origin] == "move-from"  # then the move to play
    rec.observe(4.1, start.occupied() - {chosen.origin})
    rec.observe(4.2, final(start, chosen))
    events = rec.observe(4.2 + SETTLE + 0.01, final(start, chosen))
    assert [e.kind for e in events][:1] == ["move"] and game.moves == [chosen]
    assert rec.allowed is None  # the next turn is free again


def test_nothing_is_accepted_while_the_computer_thinks_and_a_takeback_lifts_it() -> None:
    game = Game(BRAZILIAN)
    rec = Recogniser(game)
    start = game.position
    move = start.parse_move("c3-d4")
    rec.allow_only(0.0, [])
    assert rec.hint.roles == {}
    rec.observe(0.1, start.occupied() - {move.origin})
    rec.observe(0.2, final(start, move))
    rec.observe(1.0, final(start, move))
    assert not game.moves
    rec.allow_only(1.0, None)  # free again: the same board is now a move
    rec.observe(1.0 + SETTLE + 0.1, final(start, move))
    assert game.moves == [move]
    rec.allow_only(2.0, [])
    rec.take_back(2.1)
    assert rec.allowed is None and not game.moves


def test_an_allowed_capture_lights_each_landing_and_the_pieces_to_take() -> None:
    # two double captures through the same first landing (h2xf4xd6, h2xf4xh6)
    game = Game(BRAZILIAN, Position.from_fen("W:W28:B24,15,16", BRAZILIAN))
    double, elsewhere = game.legal_moves()
    assert double.path[0] == elsewhere.path[0] and double.destination != elsewhere.destination
    rec = Recogniser(game, hint_level="off")
    rec.allow_only(0.0, [double])
    roles = rec.hint.roles
    assert roles[double.origin] == "move-from"
    assert roles[double.path[0]] == "landing" and roles[double.destination] == "destination"
    assert {sq for sq, role in roles.items() if role == "remove"} == set(double.captures)
    # in the air: the next landing is shown, one after the other
    start = game.position.occupied()
    rec.observe(0.1, start - {double.origin})
    rec.observe(0.2, start - {double.origin} | {double.path[0]})
    assert rec.hint.roles.get(double.path[1]) == "landing"
    assert elsewhere.destination not in rec.hint.roles  # only the allowed one goes on


# -- through the live runtime ---------------------------------------------------------------


def runtime_for(tmp_path: Path, *, white: str = "human", black: str = "computer:1",
                fen: str | None = None, backend: str = "thread") -> Runtime:
    variant = BRAZILIAN
    start = Position.from_fen(fen, variant) if fen else None
    board = LiveBoard("sim", variant)
    occupied = board.set_up((start or variant.initial_position()).occupied())
    config = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False,
                    data_dir=tmp_path, white=white, black=black)
    session = Session(config, Announcer("en"), resume=False, now=time.monotonic(),
                      occupied=occupied, start=start)
    return Runtime(session, board, opponent=lambda: Opponent(backend, seed=7))


async def until(check, timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def running(runtime: Runtime) -> asyncio.Task[None]:
    """The runtime started (its computer player exists once `run` has begun)."""
    task = asyncio.create_task(runtime.run(console=False))
    await until(lambda: runtime.computer is not None)
    return task


async def carry_out(runtime: Runtime, move: Move) -> None:
    """A hand plays `move`: lifts the piece, takes the captured ones, puts it down."""
    await runtime.hands(Hands("lift", move.origin))
    for square in move.captured_order or sorted(move.captures):
        await runtime.hands(Hands("lift", square))
    await runtime.hands(Hands("place", move.destination))


async def computer_move(runtime: Runtime) -> Move:
    computer = runtime.computer
    assert computer is not None
    await until(lambda: computer.move is not None)
    assert computer.move is not None
    return computer.move


def said(runtime: Runtime, kind: str) -> list[str]:
    return [a.text for a in runtime.session.announcer.history if a.kind == kind]


def test_a_person_plays_the_computer_at_level_1_for_a_few_moves(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, backend="process")
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        for ply in range(3):
            human = session.game.legal_moves()[0]
            await carry_out(runtime, human)
            await until(lambda ply=ply: len(session.game.moves) == 2 * ply + 1)
            move = await computer_move(runtime)
            state = runtime.state()
            assert state["computer"]["move"]["from"] == move.origin
            assert state["leds"][str(move.origin)] == "move-from"
            assert state["leds"][str(move.destination)] == "destination"
            assert said(runtime, "computer-move")[-1].startswith("The computer plays ")
            await carry_out(runtime, move)
            await until(lambda ply=ply: len(session.game.moves) == 2 * ply + 2)
            assert session.game.moves[-1].origin == move.origin
        runtime.stop()
        await task

    asyncio.run(play())
    assert len(said(runtime, "computer-move")) == 3
    record = session.journal.read()
    assert record is not None and len(record.moves) == 6
    pdn = pdn_text(record, "*", session.tags())
    assert '[Black "Computer (level 1)"]' in pdn and '[White "?"]' in pdn


def test_the_computer_plays_both_sides(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, white="computer:1", black="computer")
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        for ply in range(4):
            move = await computer_move(runtime)
            await carry_out(runtime, move)
            await until(lambda ply=ply: len(session.game.moves) == ply + 1)
        runtime.stop()
        await task

    asyncio.run(play())
    assert session.tags() == {"White": "Computer (level 1)", "Black": "Computer (level 2)"}


def test_another_move_carried_out_for_the_computer_is_refused_and_guided(
    tmp_path: Path,
) -> None:
    runtime = runtime_for(tmp_path, white="computer:1", black="human")
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        move = await computer_move(runtime)
        other = next(m for m in session.game.legal_moves() if m.origin != move.origin)
        await carry_out(runtime, other)
        await until(lambda: session.recogniser.correcting)
        await asyncio.sleep(SETTLE * 2)
        assert not session.game.moves  # never taken for the computer's
        assert said(runtime, "computer-move-again")[-1].endswith(
            f"play {session.game.position.move_text(move)}.")
        # back to the position: the computer's move is lit again, then carried out
        await runtime.hands(Hands("lift", other.destination))
        await runtime.hands(Hands("place", other.origin))
        await until(lambda: not session.recogniser.correcting)
        assert session.hint.roles[move.origin] == "move-from"
        await carry_out(runtime, move)
        await until(lambda: len(session.game.moves) == 1)
        assert session.game.moves[0].origin == move.origin
        runtime.stop()
        await task

    asyncio.run(play())


def test_a_takeback_or_a_new_game_stops_the_search_at_once(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, black="computer:4")  # up to 3 s a move
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        computer = runtime.computer
        assert computer is not None
        human = session.game.position.parse_move("c3-d4")
        await carry_out(runtime, human)
        await until(lambda: computer.thinking)
        job = computer._job  # noqa: SLF001 - the search the takeback must stop
        assert job is not None and job.wait_started(10)
        runtime.control(Control("takeback"))
        assert job.done() and job.result() is None
        # it lets go (how fast: docs/BENCHMARKS.md, cancel latency; not timed here)
        assert job.wait_stopped(10), "the search did not stop"
        assert not computer.thinking and computer.move is None
        await asyncio.sleep(0.3)
        assert computer.move is None and session.recogniser.allowed is None
        assert "move-from" not in session.hint.roles.values()
        # the board is guided back; then a new game while it thinks again
        await runtime.hands(Hands("lift", human.destination))
        await runtime.hands(Hands("place", human.origin))
        await carry_out(runtime, human)
        await until(lambda: computer.thinking)
        job = computer._job  # noqa: SLF001
        assert job is not None
        runtime.control(Control("new", players={"W": "human", "B": "human"}))
        assert job.done() and job.result() is None
        assert job.wait_stopped(10)
        await asyncio.sleep(0.3)
        assert computer.move is None and not computer.thinking
        assert session.players == {"W": "human", "B": "human"}
        runtime.stop()
        await task

    asyncio.run(play())


class LateOpponent:
    """An opponent whose answer the test hands back when it likes, even after a cancel:
    the window in which a real worker's reply crosses a takeback on its way (the real
    `host.computer.opponent.Opponent` drops a cancelled job's answer, but not one already
    posted)."""

    def __init__(self) -> None:
        self.callbacks: list = []

    def start(self, game, level, *, on_result=None, clock=None):  # type: ignore[no-untyped-def]
        from host.computer.opponent import SearchJob

        self.callbacks.append(on_result)
        return SearchJob(len(self.callbacks), game.position, level, on_result, lambda j: None)

    def hint(self, game, seconds=2.0, on_result=None):  # type: ignore[no-untyped-def]
        return self.start(game, 0, on_result=on_result)

    def prepare(self, variant) -> None:  # type: ignore[no-untyped-def]
        self.prepared = variant

    def new_game(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_an_answer_that_crosses_a_takeback_is_never_lit(tmp_path: Path) -> None:
    from engine.search.api import Analysis
    from host.computer.opponent import ComputerMove

    runtime = runtime_for(tmp_path)
    session = runtime.session
    late = LateOpponent()
    posted: list = []
    computer = ComputerPlayer(session, lambda: late, post=posted.append, clock=lambda: 5.0)
    start = session.game.position
    human = start.parse_move("c3-d4")
    session.observe(1.0, start.occupied() - {human.origin})
    session.observe(1.1, final(start, human))
    session.observe(1.1 + SETTLE + 0.01, final(start, human))
    assert session.game.moves == [human] and computer.thinking
    reply = session.game.legal_moves()[0]
    late.callbacks[-1](ComputerMove(reply, Analysis(reply, 0, None, 1, 1, 0.1, (reply,), False),
                                    1))  # the answer is already on its way...
    session.command(2.0, "takeback")  # ...when the move is taken back
    for deliver in posted:
        deliver()
    assert computer.move is None and session.recogniser.allowed is None
    assert "move-from" not in session.hint.roles.values()
    assert not said(runtime, "computer-move")


def test_a_hint_lights_the_best_move_until_the_board_changes(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, black="human",
                          fen="W:W27,28:B18,19")
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        computer = runtime.computer
        assert computer is not None
        runtime.control(Control("hint"))
        await until(lambda: runtime.state()["computer"]["hint"] is not None)
        hint = runtime.state()["computer"]["hint"]
        assert runtime.state()["leds"][str(hint["from"])] == "move-from"
        assert said(runtime, "hint")[-1] == f"Hint: {hint['text']}."
        assert session.recogniser.allowed is None  # a hint does not bind anyone
        await runtime.hands(Hands("lift", hint["from"]))
        assert runtime.state()["computer"]["hint"] is None
        assert "move-from" not in runtime.state()["leds"].values()
        runtime.stop()
        await task

    asyncio.run(play())


def test_a_hint_is_refused_on_the_computers_turn_and_without_a_computer(tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, white="computer:1")

    async def play() -> None:
        task = await running(runtime)
        with pytest.raises(Refused, match="computer's turn"):
            runtime.control(Control("hint"))
        runtime.stop()
        await task

    asyncio.run(play())
    bare = runtime_for(tmp_path / "b")
    bare._make_opponent = None  # noqa: SLF001 - a runtime built without a computer
    with pytest.raises(Refused, match="no computer"):
        bare.control(Control("hint"))


def test_a_hint_asked_with_the_spare_piece_is_lit_while_the_piece_still_stands(
    tmp_path: Path,
) -> None:
    runtime = runtime_for(tmp_path, black="human")
    session = runtime.session
    session.config = session.config.with_overrides(gesture_hold=1.0)
    session.gestures = session._gesture_detector(session.variant)  # noqa: SLF001 - hold 1 s

    async def play() -> None:
        task = await running(runtime)
        await carry_out(runtime, session.game.position.parse_move("c3-d4"))
        await until(lambda: len(session.game.moves) == 1)
        await runtime.hands(Hands("place", 15, piece="W"))  # the spare piece: the menu
        await until(lambda: "hint" in runtime.state()["leds"].values())
        square = next(int(sq) for sq, role in runtime.state()["leds"].items() if role == "hint")
        await runtime.hands(Hands("lift", 15))
        await runtime.hands(Hands("place", square, piece="W"))
        await until(lambda: runtime.state()["computer"]["hint"] is not None)
        hint = runtime.state()["computer"]["hint"]
        await until(lambda: runtime.state()["leds"].get(str(hint["from"])) == "move-from")
        assert square in session.sensed  # the spare piece still stands there
        assert said(runtime, "hint") == [f"Hint: {hint['text']}."]
        runtime.stop()
        await task

    asyncio.run(play())


@pytest.mark.parametrize(
    ("language", "refusal"),
    [("en", "No hint: it is the computer's turn. Carry out its lit move, {move}."),
     ("pt-BR", "Sem dica: é a vez do computador. Faça o lance aceso, {move}.")],
)
def test_a_hint_chosen_on_the_board_on_the_computers_turn_is_said_and_its_move_blinks(
    tmp_path: Path, language: str, refusal: str
) -> None:
    runtime = runtime_for(tmp_path, black="computer:1")
    session = runtime.session
    session.set_language(0.0, language)
    session.config = session.config.with_overrides(gesture_hold=0.5)
    session.gestures = session._gesture_detector(session.variant)  # noqa: SLF001 - hold 0.5 s

    async def play() -> None:
        task = await running(runtime)
        computer = runtime.computer
        assert computer is not None
        await carry_out(runtime, session.game.position.parse_move("c3-d4"))
        move = await computer_move(runtime)
        text = session.game.position.move_text(move)
        assert not runtime.state()["blink"]  # lit steadily while it waits for a hand
        await runtime.hands(Hands("place", 15, piece="W"))  # the spare piece: the menu
        await until(lambda: "hint" in runtime.state()["leds"].values())
        square = next(int(sq) for sq, role in runtime.state()["leds"].items() if role == "hint")
        await runtime.hands(Hands("lift", 15))
        await runtime.hands(Hands("place", square, piece="W"))
        await until(lambda: said(runtime, "hint-refused"))
        assert said(runtime, "hint-refused") == [refusal.format(move=text)]
        assert not said(runtime, "hint")  # no search was asked for
        # after the chosen square's confirmation, the computer's move blinks: what to do
        lit = {move.origin, *move.path}
        await until(lambda: lit <= set(runtime.state()["blink"]), timeout=5)
        state = runtime.state()
        assert state["leds"][str(move.origin)] == "move-from"
        assert state["leds"][str(move.destination)] == "destination"
        assert state["computer"]["hint"] is None and state["computer"]["move"]["text"] == text
        await runtime.hands(Hands("lift", square))  # the spare piece off: still the same
        # then the blinking stops by itself, the move still lit, still the only one allowed
        await until(lambda: not runtime.state()["blink"], timeout=10)
        assert runtime.state()["leds"][str(move.origin)] == "move-from"
        assert list(session.recogniser.allowed or []) == [move]
        await carry_out(runtime, move)
        await until(lambda: len(session.game.moves) == 2)
        runtime.stop()
        await task

    asyncio.run(play())


def test_a_hint_asked_on_the_board_while_the_computer_thinks_is_said_and_not_searched(
    tmp_path: Path,
) -> None:
    runtime = runtime_for(tmp_path)
    session = runtime.session
    late = LateOpponent()  # never answers unless told
    computer = ComputerPlayer(session, lambda: late, post=lambda deliver: deliver(),
                              clock=lambda: 5.0)
    start = session.game.position
    human = start.parse_move("c3-d4")
    session.observe(1.0, start.occupied() - {human.origin})
    session.observe(1.1, final(start, human))
    session.observe(1.1 + SETTLE + 0.01, final(start, human))
    assert computer.thinking and len(late.callbacks) == 1
    before = session.hint
    session.bus.publish("hint-request", 2.0)  # what the board's menu does
    assert said(runtime, "hint-refused-thinking") == [
        "No hint: the computer is thinking about its move."]
    assert len(late.callbacks) == 1 and computer.thinking  # its own search goes on
    assert session.hint == before


class RecordingOpponent(Opponent):
    """The real opponent, remembering every search job it started."""

    def __init__(self) -> None:
        super().__init__("process", seed=7)
        self.jobs: list = []

    def start(self, game, level, **kwargs):  # type: ignore[no-untyped-def, override]
        job = super().start(game, level, **kwargs)
        self.jobs.append(job)
        return job


def test_the_worker_is_ready_before_the_computers_first_turn(tmp_path: Path) -> None:
    """Started with the game, not at the computer's first turn: the first search begins
    warm (no interpreter to start, nothing to build in the move's time)."""
    runtime = runtime_for(tmp_path, black="computer:2")
    recorded: list[RecordingOpponent] = []
    runtime._make_opponent = lambda: recorded.append(RecordingOpponent()) or recorded[-1]  # noqa: SLF001
    session = runtime.session

    async def play() -> None:
        task = await running(runtime)
        assert len(recorded) == 1  # made with the game: nobody has moved yet
        opponent = recorded[0]
        assert await asyncio.to_thread(opponent.wait_ready, "brazilian", 30)
        await carry_out(runtime, session.game.position.parse_move("c3-d4"))
        await computer_move(runtime)
        runtime.stop()
        await task

    asyncio.run(play())
    (job,) = recorded[0].jobs
    assert job.warm is True


def test_a_game_between_people_starts_no_worker_until_the_computer_joins(
        tmp_path: Path) -> None:
    runtime = runtime_for(tmp_path, black="human")
    recorded: list[RecordingOpponent] = []
    runtime._make_opponent = lambda: recorded.append(RecordingOpponent()) or recorded[-1]  # noqa: SLF001

    async def play() -> None:
        task = await running(runtime)
        await asyncio.sleep(0.1)
        assert recorded == []  # two people: no search process
        runtime.control(Control("new", variant="russian",
                                players={"W": "human", "B": "computer:3"}))
        assert len(recorded) == 1
        assert await asyncio.to_thread(recorded[0].wait_ready, "russian", 30)
        assert recorded[0].jobs == []  # ready, and still nothing asked of it
        runtime.stop()
        await task

    asyncio.run(play())
