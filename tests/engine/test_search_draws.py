"""The search and the draw rules: it takes a draw it cannot do better than, avoids one it can.

A side that cannot win must not avoid a draw the rules grant: the losing side
walks into a repetition; the winning side steps out of one, and out of the
no-progress and endgame-limit counts, with a capture or a man's move.
"""

from __future__ import annotations

import random

from engine import Game, Position, get_variant
from engine.game import ENDGAME_LIMIT, NO_PROGRESS
from engine.search import RootState, Searcher, SearchOptions, analyse, root_from_game
from engine.search.draws import LineDraws
from engine.search.evaluate import evaluator_for
from tests.engine.helpers import quiet_walk


def shuffled_english_game() -> Game:
    """Black (two men down) and White shuffle their kings back to the start once."""
    variant = get_variant("english")
    game = Game(variant, Position.from_fen("B:WK32,21,22,23:BK1,12", variant))
    for text in ("1-5", "32-28", "5-1", "28-32"):
        game.push(game.position.parse_move(text))
    assert game.repetitions() == 2
    return game


def test_the_losing_side_repeats_the_position() -> None:
    game = shuffled_english_game()
    fresh = analyse(Game(game.variant, game.positions[0]), depth=6)
    assert fresh.score < -150  # without the history, Black is simply lost
    analysis = analyse(game, depth=6)
    assert game.position.move_text(analysis.best) == "1-5"  # back towards the repetition
    assert analysis.score == 0


def test_the_winning_side_steps_out_of_the_repetition() -> None:
    game = shuffled_english_game()
    game.push(game.position.parse_move("1-5"))
    analysis = analyse(game, depth=6)
    assert game.position.move_text(analysis.best) != "32-28"  # that would repeat
    assert analysis.score > 150


def test_the_root_reads_the_game_counters() -> None:
    game = shuffled_english_game()
    root = root_from_game(game)
    counters = game.draw_counters()
    assert root.no_progress == 4 == 2 * game.variant.no_progress_moves - counters[NO_PROGRESS]
    assert counters[ENDGAME_LIMIT] is None and root.limits is None
    assert len(root.history) == 4  # all four earlier positions may still come back


def test_history_stops_at_the_last_mans_move() -> None:
    game = shuffled_english_game()
    game.push(game.position.parse_move("1-5"))
    game.push(game.position.parse_move("23-19"))  # a man moves: nothing before can recur
    root = root_from_game(game)
    assert root.history == () and root.no_progress == 0


def _brazilian_root(no_progress: int) -> tuple[Position, RootState]:
    variant = get_variant("brazilian")
    # Two kings and a man against a king off the long diagonal: a win, in time.
    position = Position.from_fen("W:WK29,K30,17:BK1", variant)
    return position, RootState(position.white, position.black, position.kings, True,
                               no_progress=no_progress)


def test_no_progress_count_makes_the_winner_move_a_man() -> None:
    variant = get_variant("brazilian")
    limit = 2 * variant.no_progress_moves
    position, root = _brazilian_root(limit - 2)  # two plies before the draw
    searcher = Searcher(variant)
    result = searcher.search(root, SearchOptions(max_depth=5, margin=10_000))
    by_move = {(m[0], m[1]): score for m, score in result.root_scores}
    man_bit = variant.square_to_bit[17]
    man_moves = {k: s for k, s in by_move.items() if k[0] == man_bit}
    king_moves = {k: s for k, s in by_move.items() if k[0] != man_bit}
    assert result.best[0] == man_bit and result.score > 200
    assert king_moves and all(score <= 0 for score in king_moves.values())
    # With the count far away, the same king moves keep their winning score.
    _, relaxed = _brazilian_root(0)
    relaxed_result = Searcher(variant).search(relaxed, SearchOptions(max_depth=5,
                                                                     margin=10_000))
    assert max(s for m, s in relaxed_result.root_scores if m[0] != man_bit) > 200
    assert man_moves


def test_endgame_limit_ending_within_the_horizon_is_a_draw() -> None:
    """Russian 7.2.4: three kings against one, won by the stronger side's fifteenth move
    or drawn. Walked to the last moves of that count, the win is out of reach."""
    variant = get_variant("russian")
    position = Position.from_fen("W:WK29,K30,K31:BK12", variant)  # lone king off the road
    assert evaluator_for(variant)(position.white, position.black, position.kings, True) > 400
    fresh = Game(variant, position)
    assert analyse(fresh, depth=4).score > 400
    game = Game(variant, position)
    quiet_walk(game, 26, seed=4)
    assert game.outcome() is None and game.position.turn == "W"
    assert game.draw_counters()[ENDGAME_LIMIT] <= 3
    root = root_from_game(game)
    assert root.limits is not None  # the search carries the engine's own count
    assert analyse(game, depth=4).score == 0


def test_drawn_material_evaluates_near_zero() -> None:
    """Kings-only endings the stronger side cannot win score nothing."""
    for name, fen in (("brazilian", "W:WK29,K30:BK4"),  # two kings v one, flying
                      ("international", "W:WK46,K47:BK5"),
                      ("english", "W:WK29:BK4")):  # one short king v one
        variant = get_variant(name)
        position = Position.from_fen(fen, variant)
        score = evaluator_for(variant)(position.white, position.black, position.kings, True)
        assert score == 0, (name, score)
    # Two short kings beat one: English keeps the edge.
    variant = get_variant("english")
    position = Position.from_fen("W:WK29,K30:BK4", variant)
    assert evaluator_for(variant)(position.white, position.black, position.kings, True) > 100


def _quiet_start(variant_name: str, white: str, black: str, rng) -> Position:
    """A position with these pieces ("K" king, "m" man) on random squares, neither side
    able to capture: a king ending about to be played out."""
    variant = get_variant(variant_name)
    while True:
        squares = rng.sample(range(1, variant.num_squares + 1), len(white) + len(black))
        parts = {"W": [], "B": []}
        for colour, kinds in (("W", white), ("B", black)):
            for kind in kinds:
                square = squares.pop()
                rank = variant.square_coords(square)[1]
                if kind == "m" and rank in (0, variant.size - 1):
                    break  # no man on a crowning row (or its own back row, for simplicity)
                parts[colour].append(("K" if kind == "K" else "") + str(square))
        if len(parts["W"]) + len(parts["B"]) < len(white) + len(black):
            continue
        position = Position.from_fen(f"W:W{','.join(parts['W'])}:B{','.join(parts['B'])}",
                                     variant)
        turned = Position(variant, position.white, position.black, position.kings, "B")
        if not any(m.is_capture for m in position.legal_moves() + turned.legal_moves()):
            return position


def test_the_search_counts_endgame_limits_exactly_as_the_game_does() -> None:
    """Random king endings in the variants with endgame limits: the counts the search
    carries along a line (with its shortcuts for positions no limit concerns) fall due
    on exactly the plies where the game is drawn by an endgame limit."""
    rng = random.Random(11)
    checked = limit_draws = 0
    for name in ("russian", "international", "portuguese"):
        variant = get_variant(name)
        rules = LineDraws(variant)
        for white, black in (("KKK", "K"), ("KKm", "K"), ("Km", "K"), ("KK", "KK"),
                             ("KKK", "K"), ("KKmm", "Km")):
            game = Game(variant, _quiet_start(name, white, black, rng))
            limits = root_from_game(game).limits
            for _ in range(120):
                position = game.position
                outcome = game.outcome()
                due = rules.due(limits, position.white, position.black, position.kings,
                                position.turn == "W")
                if outcome is not None and outcome.reason == ENDGAME_LIMIT:
                    assert due, (name, game.fen(), game.ply)
                    limit_draws += 1
                if due:
                    assert outcome is not None, (name, game.fen(), game.ply)
                if outcome is not None:
                    break
                safe = [m for m in game.legal_moves()
                        if not any(r.is_capture for r in position.play(m).legal_moves())]
                move = rng.choice(safe or game.legal_moves())  # long games: few captures
                after = position.play(move)
                piece = position.piece_at(move.origin)
                limits = rules.after(
                    limits, (position.white, position.black, position.kings,
                             position.turn == "W"),
                    (after.white, after.black, after.kings, after.turn == "W"),
                    move.is_capture or not piece.king)
                game.push(move)
                checked += 1
    assert checked > 300 and limit_draws >= 5
