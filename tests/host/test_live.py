"""The live runtime: real-time scanning on asyncio, the update bus, stdin and signals."""

from __future__ import annotations

import asyncio
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import get_variant
from host.announce import Announcer
from host.bus import Update, UpdateBus
from host.config import Config
from host.live import Control, Hands, Refused, Runtime
from host.live_board import LiveBoard
from host.pieces import PieceTracker, position_pieces
from host.session import Session

ROOT = Path(__file__).resolve().parents[2]


def config(tmp_path: Path, **kw) -> Config:
    return Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False, **kw)


def live(tmp_path: Path, variant: str = "brazilian") -> Runtime:
    board = LiveBoard("sim", get_variant(variant))
    occupied = board.set_up(get_variant(variant).initial_position().occupied())
    session = Session(config(tmp_path, variant=variant), Announcer("en"), resume=False,
                      now=time.monotonic(), occupied=occupied)
    return Runtime(session, board)


async def until(check, timeout: float = 5.0) -> None:  # type: ignore[no-untyped-def]
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
        u.kind == "settings" and u.data == {"hints": "off", "language": "en"} for u in seen)
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


def test_the_tracker_follows_hands_and_shows_kings_as_the_game_knows_them() -> None:
    variant = get_variant("brazilian")
    position = variant.initial_position()
    tracker = PieceTracker(position_pieces(position))
    board = set(position.occupied())
    board -= {22}
    tracker.follow(frozenset(board), position)
    board |= {18}
    tracker.follow(frozenset(board), position)
    assert tracker.pieces(position)[18] == "W"
    # A black man taken off and a spare black king put down from the tray.
    board -= {9}
    tracker.follow(frozenset(board), position)
    tracker.placing(13, "BK")
    board |= {13}
    tracker.follow(frozenset(board), position)
    assert tracker.pieces(position)[13] == "BK"
    crowned = position.from_fen("W:WK29:B1", variant)
    tracker.reset({29: "W", 1: "B"})
    assert tracker.pieces(crowned) == {1: "B", 29: "WK"}  # the switch cannot see the crown


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
    assert "needs a 10x10 board" in (board.can_play(get_variant("international")) or "")
    assert board.can_play(get_variant("portuguese")) is None  # same board, turned
    with pytest.raises(Exception, match="real board"):
        board.lift(22)


def _run(*args: str, stdin, tmp_path: Path) -> subprocess.Popen[str]:  # type: ignore[no-untyped-def]
    return subprocess.Popen(
        [sys.executable, "-m", "host.cli", "run", "--board", "sim", "--listen", "off",
         "--no-speech", "--journal", str(tmp_path / "j.jsonl"), "--games-dir",
         str(tmp_path / "g"), "--language", "en", *args],
        cwd=ROOT, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


@pytest.mark.parametrize("stdin", ["devnull", "closed-pipe"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_run_keeps_going_without_a_terminal_and_stops_cleanly(
    tmp_path: Path, stdin: str, sig: int
) -> None:
    proc = _run(stdin=subprocess.DEVNULL if stdin == "devnull" else subprocess.PIPE,
                tmp_path=tmp_path)
    if stdin == "closed-pipe":
        assert proc.stdin is not None
        proc.stdin.close()
    time.sleep(1.5)
    assert proc.poll() is None  # still running: the page and the board are its controls
    proc.send_signal(sig)
    assert proc.wait(timeout=10) == 0
    assert proc.stdout is not None
    out = proc.stdout.read()
    assert "Traceback" not in out


def test_typed_commands_are_read_from_a_terminal(tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    proc = _run(stdin=terminal, tmp_path=tmp_path)
    os.close(terminal)
    try:
        time.sleep(1.5)
        os.write(controller, b"resign\n")
        time.sleep(0.5)
        os.write(controller, b"quit\n")
        out, _ = proc.communicate(timeout=10)
    finally:
        os.close(controller)
    assert proc.returncode == 0, out
    assert "Commands: takeback, new, resign, draw, quit" in out
    assert "White resigns." in out


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
