"""The live runtime: real-time scanning on asyncio, the update bus, stdin and signals, and the
board's commands, the page's controls and typed words acting on one game through it."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import time
from pathlib import Path

import pytest

from engine import get_variant
from host.config import Config
from host.gestures.commands import start_menu
from host.live.board import LiveBoard
from host.live.bus import Update, UpdateBus
from host.live.runtime import Control, Hands, Refused, Runtime
from host.session import Session
from host.voice.announce import Announcer
from host.voice.request_errors import error_text

ROOT = Path(__file__).resolve().parents[2]


def config(tmp_path: Path, **kw) -> Config:
    return Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False, **kw)


def live(tmp_path: Path, variant: str = "brazilian", *, real: bool = False, **kw) -> Runtime:
    """A runtime on the simulator; `real`: the board answers as a GPIO or USB board does
    (no simulated hands: a test moves the simulator's magnets itself)."""
    board = LiveBoard("sim", get_variant(variant))
    occupied = board.set_up(get_variant(variant).initial_position().occupied())
    board.simulated = not real
    session = Session(config(tmp_path, variant=variant, **kw), Announcer("en"), resume=False,
                      now=time.monotonic(), occupied=occupied)
    return Runtime(session, board)


async def until(check, timeout: float = 15.0) -> None:  # type: ignore[no-untyped-def]
    """Wait until `check()` holds; the deadline only catches a hung test (on a loaded
    two-core machine the runtime's real-time loop and its timers run late)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


# -- the bus ------------------------------------------------------------------------------


def test_every_change_is_published_in_order_and_a_failing_listener_is_dropped(
    tmp_path: Path,
) -> None:
    session = Session(config(tmp_path), Announcer("en"), resume=False)
    seen: list[Update] = []
    session.subscribe(seen.append)

    def broken(update: Update) -> None:
        raise RuntimeError("boom")

    session.subscribe(broken)
    start = session.recogniser.expected
    session.observe(0.1, start - {22})
    session.observe(0.3, start - {22} | {18})
    session.observe(0.7, start - {22} | {18})  # settled: committed
    kinds = [u.kind for u in seen]
    assert kinds[:2] == ["board", "leds"]
    assert seen[1].data == {"leds": {17: "destination", 18: "destination"}, "blink": []}
    move = kinds.index("move")
    assert seen[move].data["move"] == "c3-d4" and seen[move].data["ply"] == 1
    assert kinds[move + 1] == "announcement"  # journal first, then the bus, then the voice
    assert seen[move + 1].data["text"] == "White played c3-d4."
    assert "leds" in kinds[move:]
    session.command(1.0, "resign")
    outcome = [u for u in seen if u.kind == "outcome"][0]
    assert outcome.data == {"result": "1-0", "winner": "W", "reason": "resignation"}
    session.set_hints(1.1, "off")
    assert seen[-1].kind in ("settings", "leds") and any(
        u.kind == "settings" and u.data == {"hints": "off", "language": "en",
                                          "players": {"W": "human", "B": "human"}}
        for u in seen)
    session.new_game(2.0, get_variant("international"),
                     get_variant("international").initial_position().occupied())
    new = [u for u in seen if u.kind == "new-game"][-1]
    assert new.data["variant"] == "international" and session.game.variant.size == 10
    assert session.move_texts() == []


def test_the_bus_refuses_unknown_kinds_and_unsubscribes() -> None:
    bus = UpdateBus()
    got: list[Update] = []
    stop = bus.subscribe(got.append)
    bus.publish("board", 1.0, occupied=[1])
    stop()
    stop()  # twice is harmless
    bus.publish("board", 2.0, occupied=[2])
    assert [u.data["occupied"] for u in got] == [[1]]
    with pytest.raises(ValueError):
        bus.publish("gossip", 0.0)


# -- pieces as drawn ------------------------------------------------------------------------


def test_the_page_draws_recognitions_pieces_and_the_tray_piece_it_was_told(
    tmp_path: Path,
) -> None:
    # One truth: the runtime's state and `piece_on` are the session's (the recogniser's)
    # account; a spare piece put down from the simulator's tray is what the page said.
    runtime = live(tmp_path)

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await runtime.hands(Hands("lift", 22))
        await runtime.hands(Hands("place", 18))
        assert runtime.piece_on(18) == "W"
        await until(lambda: runtime.session.game.moves)
        await runtime.hands(Hands("lift", 9))  # a black man off (a knock)
        await runtime.hands(Hands("place", 13, piece="BK"))  # a black king from the tray
        state = runtime.state()
        assert state["pieces"] == {str(sq): p for sq, p in runtime.session.pieces().items()}
        assert state["pieces"]["13"] == "BK" and runtime.piece_on(13) == "BK"
        assert runtime.session.recogniser.pieces()[13] == "BK"
        runtime.stop()
        await task

    asyncio.run(play())


# -- the runtime --------------------------------------------------------------------------


def test_hands_go_through_switches_debouncer_and_recogniser_then_sigterm_blanks_leds(
    tmp_path: Path,
) -> None:
    runtime = live(tmp_path)
    mock = runtime.board.mock

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await asyncio.sleep(0.05)
        await runtime.hands(Hands("lift", 22))
        assert runtime.session.recogniser.sensed == runtime.board.truth  # seen when it returns
        assert mock.frames[-1]  # destinations lit on the simulated LEDs
        await runtime.hands(Hands("place", 18))
        await until(lambda: len(runtime.session.game.moves) == 1)
        with pytest.raises(Refused, match="no piece on square 14 to lift"):
            await runtime.hands(Hands("lift", 14))
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(task, 5)

    asyncio.run(play())
    assert mock.closed and mock.frames[-1] == {}  # LEDs dark on the way out
    assert runtime.state()["moves"] == ["c3-d4"]


def test_new_game_on_the_simulator_sets_the_pieces_up_like_a_person(tmp_path: Path) -> None:
    runtime = live(tmp_path)

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await runtime.hands(Hands("lift", 22))
        await runtime.hands(Hands("place", 18))
        await until(lambda: runtime.session.game.moves)
        runtime.control(Control("new", variant="spanish"))
        assert runtime.session.variant.name == "spanish"
        assert runtime.board.truth == get_variant("spanish").initial_position().occupied()
        assert not runtime.session.recogniser.correcting  # nothing to put right
        runtime.stop()
        await task

    asyncio.run(play())


def test_a_real_board_refuses_hands_and_other_sizes() -> None:
    board = LiveBoard("sim", get_variant("brazilian"))
    board.simulated = False  # as a GPIO or USB board answers
    refusal = board.can_play(get_variant("international"))
    assert refusal is not None and "needs a 10x10 board" in str(refusal)
    assert (refusal.code, refusal.params["needs"]) == ("board-size", 10)
    assert board.can_play(get_variant("portuguese")) is None  # same board, turned
    with pytest.raises(Exception, match="real board"):
        board.lift(22)


def test_a_board_that_breaks_stops_the_runtime_with_its_error(tmp_path: Path) -> None:
    runtime = live(tmp_path)
    mock = runtime.board.mock

    def broken() -> frozenset[int]:
        raise OSError("the cable is cut")

    async def main() -> None:
        asyncio.get_running_loop().call_later(0.1, lambda: setattr(mock, "scan", broken))
        await asyncio.wait_for(runtime.run(console=False), 5)

    with pytest.raises(OSError, match="the cable is cut"):
        asyncio.run(main())
    assert mock.closed and mock.frames[-1] == {}  # the LEDs were still put out


# -- board commands, page controls and typed words through the runtime ----------------------
# (real time on the simulator, the command piece held for the config's shortest hold, 1 s)


def said(runtime: Runtime) -> list[str]:
    return [item.text for item in runtime.session.announcer.history]


def test_a_board_command_is_drawn_on_the_page_and_resigns(tmp_path: Path) -> None:
    runtime = live(tmp_path, gesture_hold=1.0)
    session = runtime.session
    leds: list[Update] = []
    runtime.subscribe(lambda update: leds.append(update) if update.kind == "leds" else None)

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await runtime.hands(Hands("lift", 22))
        await runtime.hands(Hands("place", 17))
        await until(lambda: len(session.game.moves) == 1)
        # a spare piece from the tray, held on an empty square: the menu opens
        await runtime.hands(Hands("place", 15, piece="B"))
        await until(lambda: "Board commands: move the spare piece onto a lit square"
                    in " ".join(said(runtime)))
        state = runtime.state()
        assert 15 in state["occupied"] and state["pieces"]["15"] == "B"  # the page shows it
        assert state["leds"]["15"] == "command" and not state["correcting"]
        roles = sorted(state["leds"].values())
        assert roles.count("resign") == 2 and roles.count("draw") == 2 and "takeback" in roles
        assert any(u.data["leds"].get(15) == "command" for u in leds)  # published as lit
        variant = get_variant("brazilian")
        whites = [int(sq) for sq, role in state["leds"].items()
                  if role == "resign" and variant.square_coords(int(sq))[1] < 4]
        (resign,) = whites
        assert set(state["blink"]) >= {resign}
        await runtime.hands(Hands("lift", 15))
        await runtime.hands(Hands("place", resign, piece="B"))
        await until(lambda: session.recogniser.outcome is not None)
        runtime.stop()
        await task

    asyncio.run(play())
    outcome = session.recogniser.outcome
    assert outcome is not None and (outcome.winner, outcome.reason) == ("B", "resignation")
    assert "White resigns." in said(runtime)
    assert len(list((tmp_path / "g").glob("*.pdn"))) == 1  # the game is saved


def test_a_variant_chosen_on_a_real_board_starts_at_once_and_the_piece_is_ignored(
    tmp_path: Path,
) -> None:
    runtime = live(tmp_path, real=True, gesture_hold=1.0)
    session, board = runtime.session, runtime.board
    mock = board.board.backend
    menu = start_menu(get_variant("brazilian"))
    square = next(sq for sq, option in menu.items() if option == "variant:russian")
    hardware = board.squares.to_hardware_map[square]

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        mock.place(hardware)  # the spare piece, by a real hand
        await until(lambda: session.variant.name == "russian")
        assert "Variant chosen: Russian draughts." in said(runtime)
        assert "New Russian draughts game. White to move." in said(runtime)
        await asyncio.sleep(1.5)  # longer than the hold: the same piece chooses nothing more
        assert said(runtime).count("Variant chosen: Russian draughts.") == 1
        assert not session.recogniser.correcting and square in runtime.state()["occupied"]
        mock.lift(hardware)
        await until(lambda: square not in session.sensed)
        await asyncio.sleep(0.2)
        runtime.stop()
        await task

    asyncio.run(play())
    assert session.next_variant is None and not session.quit
    assert "illegal-board" not in [item.kind for item in session.announcer.history]
    assert session.journal.read().variant == "russian"  # type: ignore[union-attr]


def test_a_mirrored_variant_chosen_on_the_simulator_is_set_up_turned(tmp_path: Path) -> None:
    runtime = live(tmp_path, gesture_hold=1.0)
    session = runtime.session
    square = next(
        sq for sq, option in start_menu(get_variant("brazilian")).items()
        if option == "variant:portuguese"
    )

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await runtime.hands(Hands("place", square, piece="W"))
        await until(lambda: session.variant.name == "portuguese")
        await asyncio.sleep(0.2)
        runtime.stop()
        await task

    asyncio.run(play())
    portuguese = get_variant("portuguese").initial_position().occupied()
    assert runtime.board.truth == portuguese and session.sensed == portuguese
    assert not session.recogniser.correcting


def test_page_controls_and_typed_words_in_either_language_act_on_one_game(
    tmp_path: Path,
) -> None:
    runtime = live(tmp_path, gesture_hold=1.0)
    session = runtime.session
    initial = get_variant("brazilian").initial_position().occupied()

    async def play() -> None:
        task = asyncio.create_task(runtime.run(console=False))
        await runtime.hands(Hands("lift", 22))
        await runtime.hands(Hands("place", 17))
        await until(lambda: len(session.game.moves) == 1)
        runtime.typed("desfazer")  # takeback: the lights show what to put back
        assert session.game.moves == [] and session.recogniser.correcting
        await runtime.hands(Hands("lift", 17))
        await runtime.hands(Hands("place", 22))
        await until(lambda: not session.recogniser.correcting)
        runtime.control(Control("draw"))  # the page's button
        assert session.recogniser.outcome.reason == "agreement"  # type: ignore[union-attr]
        runtime.typed("nova")  # a new game: on the simulator the pieces are set up
        assert session.recogniser.outcome is None and runtime.board.truth == initial
        runtime.control(Control("resign"))
        assert session.recogniser.outcome.winner == "B"  # type: ignore[union-attr]
        runtime.control(Control("new", variant="international"))  # the simulator grows
        assert session.variant.size == 10 and runtime.board.truth == get_variant(
            "international").initial_position().occupied()
        runtime.typed("sair")
        await asyncio.wait_for(task, 5)

    asyncio.run(play())
    texts = said(runtime)
    for text in ("Draw agreed.", "White resigns.", "New international draughts game."):
        assert any(t.startswith(text) for t in texts), text
    assert session.quit


def test_a_refused_typed_command_is_said_in_the_boards_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    runtime = live(tmp_path)
    runtime.session.set_language(time.monotonic(), "pt-BR")

    def refuse(line: str) -> None:
        raise Refused("no-clock")

    monkeypatch.setattr(runtime, "typed", refuse)
    monkeypatch.setattr("sys.stdin", io.StringIO("pausar\n"))
    runtime._read_console()
    said_there = capsys.readouterr().err.strip()
    assert said_there and said_there != str(Refused("no-clock"))  # not the English line
    assert said_there == error_text("no-clock", {}, "pt-BR")
