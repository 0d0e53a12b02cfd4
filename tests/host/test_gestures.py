"""Board commands with a spare piece, on the mock board, and never from ordinary play."""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path

import pytest
from humanise import Stream, humanise, play_move, random_game
from replaykit import VARIANTS

from engine import Game, get_variant
from hardware.board import open_board
from hardware.layout import load_layout
from host.config import DEFAULT_COLOURS, Config
from host.gestures.commands import AWAY, MENU_TIMEOUT, GestureDetector, start_menu
from host.recognition.costs import GRACE
from host.recognition.recogniser import Recogniser
from host.records.journal import Journal
from host.session import Session
from host.squares import SquareMap
from host.streams.bounce import without_bounce
from host.streams.events import run_stream
from host.streams.replay import apply, parse_events
from host.voice.announce import Announcer

GAMES = int(os.environ.get("DRAUGHTSBOARD_SOAK", "30"))


class Table:
    """A session on the mock board, driven square by square in the variant's numbering,
    polled every 10 ms on a simulated clock as the live loop polls it."""

    def __init__(self, tmp_path: Path, variant: str = "brazilian", **config) -> None:
        self.variant = get_variant(variant)
        layout = load_layout(f"standard-{self.variant.size}x{self.variant.size}")
        if self.variant.mirrored:
            layout = layout.rotated(1)
        self.board = open_board("mock", layout)
        self.mock = self.board.backend
        self.squares = SquareMap(self.variant, self.board.squares)
        self.mock.set_occupied(
            self.squares.hardware_squares(self.variant.initial_position().occupied())
        )
        self.frames: list[dict] = []
        self.announcer = Announcer("en")
        cfg = Config(
            variant=variant,
            journal=tmp_path / "journal.jsonl",
            games_dir=tmp_path / "games",
            data_dir=tmp_path,
            speech=False,
            **config,
        )
        self.clock = 0.0
        self.session = Session(
            cfg,
            self.announcer,
            draw=lambda f: self.frames.append(self.squares.frame(f)),
            resume=False,
        )
        self.step(0.5)

    def step(self, seconds: float) -> None:
        end = self.clock + seconds
        while self.clock < end - 1e-9:
            self.clock = round(self.clock + 0.01, 6)
            snap = self.board.poll(now=self.clock)
            self.session.observe(self.clock, self.squares.occupied(snap.occupied))
            if self.session.quit:
                return

    def lift(self, square: int, then: float = 0.3) -> None:
        self.mock.lift(self.squares.to_hardware_map[square])
        self.step(then)

    def place(self, square: int, then: float = 0.3) -> None:
        self.mock.place(self.squares.to_hardware_map[square])
        self.step(then)

    def move(self, text: str) -> None:
        position = self.session.game.position
        move = position.parse_move(text)
        for c in move.captures:
            self.lift(c, 0.1)
        self.lift(move.origin)
        self.place(move.destination, 1.0)
        assert self.session.game.moves[-1] == move

    def kinds(self) -> list[str]:
        return [a.kind for a in self.announcer.history]

    def lit(self) -> dict[int, tuple[int, int, int]]:
        """The last frame, in the variant's squares."""
        return {self.squares.to_variant_map[k]: c for k, c in self.frames[-1].items()}

    def options(self) -> dict[str, int]:
        menu = [a for a in self.announcer.history if a.kind == "menu"]
        assert menu, "no menu was opened"
        event = self.session.gestures
        assert event is not None and event.active
        return {opt: sq for sq, opt in event._menu.options.items()}  # noqa: SLF001

    def empty(self) -> list[int]:
        return sorted(
            set(range(1, self.variant.num_squares + 1)) - self.session.recogniser.expected
        )


def open_menu(table: Table, square: int | None = None) -> int:
    """Put a spare piece on an empty square and hold it until the menu opens."""
    if square is None:
        forbidden = set()
        if table.session.game.moves:
            last = table.session.game.moves[-1]
            forbidden = {last.origin, *last.captures}
        square = next(sq for sq in table.empty() if sq not in forbidden)
    menus = table.kinds().count("menu")
    table.place(square, 1.9)
    assert table.kinds().count("menu") == menus  # not yet: 2 s
    table.step(0.3)
    assert table.kinds()[-1] == "menu"
    return square


def choose(table: Table, spare: int, option: int, hold: float = 1.1) -> None:
    table.lift(spare, 0.4)
    table.place(option, hold)


def test_the_start_menu_chooses_a_variant(tmp_path: Path) -> None:
    table = Table(tmp_path)
    menu = start_menu(table.variant)
    russian = next(sq for sq, opt in menu.items() if opt == "variant:russian")
    table.place(russian, 1.5)
    assert table.session.next_variant is None
    table.step(0.7)
    assert table.kinds()[-1] == "variant-chosen"
    assert table.announcer.history[-1].text == "Variant chosen: Russian draughts."
    # a request for the runtime, which renumbers the board for it (tests/host/test_live.py)
    assert table.session.next_variant == "russian" and not table.session.quit
    assert table.lit() == {russian: DEFAULT_COLOURS["choice"]}


def test_a_variant_chosen_in_an_event_stream_starts_there(tmp_path: Path) -> None:
    """`run --events` honours the start menu too: the new game starts on the same squares
    and the piece that chose it is ignored until it is taken off."""
    cfg = Config(journal=tmp_path / "j.jsonl", games_dir=tmp_path / "g", speech=False)
    announcer = Announcer("en")
    session = Session(cfg, announcer, resume=False)
    menu = start_menu(get_variant("brazilian"))
    russian = next(sq for sq, opt in menu.items() if opt == "variant:russian")
    run_stream(session, [json.dumps({"t": 100, "place": russian}),
                         json.dumps({"t": 4000, "lift": russian})])
    assert session.variant.name == "russian" and session.next_variant is None
    kinds = [a.kind for a in announcer.history]
    assert kinds.count("variant-chosen") == 1 and "new-game" in kinds
    assert "illegal-board" not in kinds and not session.recogniser.correcting
    assert Journal(cfg.journal).read().variant == "russian"  # type: ignore[union-attr]


def test_the_start_menu_covers_every_variant_of_the_board_and_the_level() -> None:
    menu8 = start_menu(get_variant("brazilian"))
    assert sorted(menu8.values()) == sorted(
        [f"variant:{n}" for n in VARIANTS if get_variant(n).size == 8] + ["level"]
    )
    v = get_variant("brazilian")
    assert all(v.square_coords(sq)[1] in (3, 4) for sq in menu8)  # the empty middle rows
    menu10 = start_menu(get_variant("international"))
    assert sorted(menu10.values()) == ["level", "variant:international"]


def test_the_level_square_counts_up_while_the_piece_stays(tmp_path: Path) -> None:
    table = Table(tmp_path)
    level = next(sq for sq, opt in start_menu(table.variant).items() if opt == "level")
    table.place(level, 2.1)
    # the level feeds the players: the computer takes Black, the person White
    assert table.session.players == {"W": "human", "B": "computer:1"}
    table.step(2.0)
    assert table.session.players == {"W": "human", "B": "computer:2"}
    for _ in range(3):  # 3, 4, then off: two people again
        table.step(2.0)
    assert table.session.players == {"W": "human", "B": "human"}
    table.step(2.0)
    assert table.session.players["B"] == "computer:1"
    table.lift(level, 3.0)
    assert table.session.players["B"] == "computer:1"
    texts = [a.text for a in table.announcer.history if a.kind.startswith("level")]
    assert texts == ["Computer at level 1.", "Computer at level 2.", "Computer at level 3.",
                     "Computer at level 4.", "Two players, no computer.", "Computer at level 1."]
    assert "illegal-board" not in table.kinds() and not table.session.quit


def test_the_level_square_changes_the_side_the_computer_already_plays(tmp_path: Path) -> None:
    table = Table(tmp_path, white="computer:3")
    level = next(sq for sq, opt in start_menu(table.variant).items() if opt == "level")
    table.place(level, 2.1)  # counts on from the level it plays at
    assert table.session.players == {"W": "computer:4", "B": "human"}


def test_resign_from_the_board(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.move("c3-d4")
    spare = open_menu(table)
    options = table.options()
    assert set(options) == {"draw:W", "resign:W", "draw:B", "resign:B", "takeback", "hint"}
    lit = table.lit()
    assert lit[options["draw:W"]] == DEFAULT_COLOURS["draw"]
    assert lit[options["takeback"]] == DEFAULT_COLOURS["takeback"]
    assert lit[spare] == DEFAULT_COLOURS["command"]
    # each player's choices are on their own half
    v = table.variant
    assert v.square_coords(options["resign:W"])[1] < 4 <= v.square_coords(options["resign:B"])[1]
    # the resign square blinks: lit in one phase, dark in the other
    table.step(0.45)
    assert table.lit().get(options["resign:B"]) != lit.get(options["resign:B"])
    choose(table, spare, options["resign:B"])
    assert table.session.recogniser.outcome.reason == "resignation"
    assert table.announcer.history[-2].text == "Black resigns."
    assert Journal(tmp_path / "journal.jsonl").read().result == "1-0"
    assert any(p.read_text().count('[Result "1-0"]') for p in (tmp_path / "games").glob("*.pdn"))
    table.lift(options["resign:B"], GRACE + 1)
    assert "illegal-board" not in table.kinds()


def test_draw_offered_and_accepted_from_the_board(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.move("c3-d4")
    spare = open_menu(table)
    draw_white = table.options()["draw:W"]
    choose(table, spare, draw_white)
    assert (
        table.announcer.history[-1].text
        == "White offers a draw. Black accepts by choosing draw too."
    )
    assert table.session.recogniser.outcome is None
    table.lift(draw_white, 0.5)
    spare = open_menu(table)
    choose(table, spare, table.options()["draw:B"])
    outcome = table.session.recogniser.outcome
    assert outcome is not None and outcome.winner is None and outcome.reason == "agreement"
    assert "draw-agreed" in table.kinds()


def test_a_move_declines_a_draw_offer(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.move("c3-d4")
    spare = open_menu(table)
    choose(table, spare, table.options()["draw:W"])
    table.lift(table.session.gestures._spent.square, 0.5)  # noqa: SLF001
    table.move("f6-g5")
    spare = open_menu(table)
    choose(table, spare, table.options()["draw:B"])
    assert table.session.recogniser.outcome is None
    assert [a.kind for a in table.announcer.history].count("draw-offer") == 2


def test_takeback_from_the_board_guides_the_move_back(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.move("c3-d4")
    spare = open_menu(table)
    takeback = table.options()["takeback"]
    choose(table, spare, takeback)
    assert table.session.game.moves == []
    assert "takeback" in table.kinds()
    # the board shows where to put the piece back; the spare piece is not "wrong"
    moved = table.session.game.position.parse_move("c3-d4")
    table.lift(moved.destination)
    table.place(moved.origin, 1.0)
    assert table.kinds()[-1] == "board-ok"
    table.lift(takeback, GRACE + 1)
    assert table.kinds()[-1] == "board-ok" and not table.session.recogniser.correcting


def test_taking_the_spare_piece_off_or_touching_the_game_closes_the_menu(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.move("c3-d4")
    spare = open_menu(table)
    table.lift(spare, AWAY + 0.2)
    assert table.kinds()[-1] == "menu-closed" and table.session.recogniser.outcome is None
    spare = open_menu(table)
    piece = next(iter(table.session.game.position.pieces()))
    table.lift(piece, 0.2)
    assert table.kinds()[-1] == "menu-closed"
    table.place(piece, 0.5)
    table.lift(spare, 0.5)
    assert table.session.game.moves and table.session.recogniser.outcome is None


def test_a_menu_left_alone_times_out_and_the_piece_is_then_a_wrong_board(tmp_path: Path) -> None:
    # e.g. a switch stuck closed under an empty square: the board must say so in the end
    table = Table(tmp_path)
    table.move("c3-d4")
    open_menu(table)
    table.step(MENU_TIMEOUT)
    assert "menu-closed" in table.kinds()
    table.step(GRACE + 0.5)
    assert table.kinds()[-1] == "illegal-board"


def test_a_spare_piece_put_down_briefly_does_nothing(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.move("c3-d4")
    square = table.empty()[0]
    table.place(square, 1.8)
    table.lift(square, GRACE + 1)
    assert table.kinds() == ["move"]


def test_putting_a_capture_back_slowly_is_a_takeback_not_a_command(tmp_path: Path) -> None:
    table = Table(tmp_path)
    for text in ("c3-d4", "f6-e5"):
        table.move(text)
    capture = table.session.game.position.parse_move("d4xf6")
    table.move("d4xf6")
    (taken,) = capture.captures
    # the hand puts the captured piece back first and pauses, then the capturing piece
    table.place(taken, 2.6)
    assert "menu" not in table.kinds()
    table.lift(capture.destination, 0.3)
    table.place(capture.origin, 1.0)
    assert "takeback" in table.kinds() and "menu" not in table.kinds()
    assert len(table.session.game.moves) == 2


def test_no_command_after_the_end_or_with_gestures_off(tmp_path: Path) -> None:
    table = Table(tmp_path / "off", gestures=False)
    table.move("c3-d4")
    table.place(table.empty()[0], GRACE + 0.5)
    assert table.kinds()[-1] == "illegal-board" and "menu" not in table.kinds()
    table = Table(tmp_path / "end")
    table.move("c3-d4")
    table.session.command(table.clock, "draw")
    table.place(table.empty()[0], 5.0)
    assert "menu" not in table.kinds()


# -- ordinary play never triggers a command ---------------------------------------------


def lockstep(variant_name: str, events: list[dict]) -> tuple[list[str], list[str]]:
    """Replay events through the recogniser and the gesture detector together, as the
    session runs them (switch bounce dropped first, as the board's debouncer and
    `run --events` drop it), firing every timer of either; returns (FENs committed,
    gestures)."""
    variant = get_variant(variant_name)
    rec = Recogniser(Game(variant))
    det = GestureDetector(variant)
    fens: list[str] = []
    gestures: list[str] = []
    occupied = rec.expected

    def feed(now: float) -> None:
        gestures.extend(e.kind for e in det.observe(now, occupied, rec))
        fens.extend(
            e.data["fen"] for e in rec.observe(now, det.mask(occupied, rec)) if e.kind == "move"
        )

    def run_until(limit_ms: int) -> None:
        while True:
            pending = [d for d in (rec.next_deadline(), det.next_deadline()) if d is not None]
            if not pending:
                return
            due = math.ceil(min(pending) * 1000 - 1e-3)
            if due >= limit_ms:
                return
            before = (rec.next_deadline(), det.next_deadline())
            feed(due / 1000)
            if (rec.next_deadline(), det.next_deadline()) == before:
                return

    for event in without_bounce(parse_events((json.dumps(e) for e in events), variant)):
        run_until(event.t)
        occupied = apply(occupied, event)
        feed(event.t / 1000)
    run_until(10**12)
    return fens, gestures


@pytest.mark.parametrize("name", VARIANTS)
def test_noisy_soak_games_trigger_no_command(name: str) -> None:
    variant = get_variant(name)
    for seed in range(GAMES):
        rng = random.Random(f"{name}-{seed}")
        game = random_game(variant, rng, max_plies=rng.randint(20, 120))
        gap = (0, 199) if seed % 3 == 0 else (700, 1600)  # fast replies too
        events, fens = humanise(variant, list(game.moves), rng, gap=gap)
        committed, gestures = lockstep(name, events)
        assert committed == fens, f"seed {seed}"
        assert gestures == [], f"seed {seed}: {gestures}"


@pytest.mark.parametrize("name", ["brazilian", "international", "russian", "english"])
def test_slow_takebacks_and_dropped_pieces_trigger_no_command(name: str) -> None:
    """Harsher hands: captures put back one by one with long pauses before the piece
    returns, and a spare piece dropped on an empty square for up to 1.9 s."""
    variant = get_variant(name)
    for seed in range(max(GAMES // 3, 6)):
        rng = random.Random(f"hands-{name}-{seed}")
        plan = random_game(variant, rng, max_plies=40)
        stream = Stream(rng, t=300)
        game = Game(variant)
        occupied = set(game.position.occupied())
        fens: list[str] = []
        for move in plan.moves:
            pos = game.position
            play_move(stream, pos, move, occupied, 500)
            stream.wait(400, 900)
            if move.captures and rng.random() < 0.5:  # take it back slowly, then replay it
                for c in move.captures:
                    stream.act("place", c)
                    occupied.add(c)
                    stream.wait(1500, 2900)
                stream.act("lift", move.destination)
                stream.wait(200, 500)
                stream.act("place", move.origin)
                occupied = set(pos.occupied())
                stream.wait(900, 1500)
                fens.append(pos.play(move).fen())  # committed, then taken back
                fens.append("takeback")
                play_move(stream, pos, move, occupied, 500)
                stream.wait(400, 900)
            empty = [sq for sq in range(1, variant.num_squares + 1) if sq not in occupied]
            if rng.random() < 0.3:
                sq = rng.choice(empty)
                stream.act("place", sq)
                stream.wait(100, 1900)
                stream.act("lift", sq)
                stream.wait(300, 800)
            game.push(move)
            fens.append(game.fen())
            stream.wait(700, 1500)
        committed, gestures = lockstep(name, stream.events)
        expected = []
        for fen in fens:
            if fen == "takeback":
                continue
            expected.append(fen)
        assert gestures == [], f"seed {seed}: {gestures}"
        assert committed == expected, f"seed {seed}"


def test_the_picture_in_the_docs_is_drawn_from_the_code() -> None:
    from host.gestures.diagram import render

    docs = Path(__file__).resolve().parents[2] / "docs"
    assert (docs / "gestures.svg").read_text(encoding="utf-8") == render(), (
        "regenerate: python -m host.gestures.diagram > docs/gestures.svg"
    )
    assert "gestures.svg" in (docs / "play.md").read_text(encoding="utf-8")
