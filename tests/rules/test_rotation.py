"""Quarter turns: a reading turned as the camera's picture would be, and a game in
progress turned with it (the same game, played on the turned board)."""

from __future__ import annotations

import pytest

from rules import (
    Color, Game, MovePlayed, Observation, Phase, Point, Position, Reason, preset,
    rotate_observation, rotate_point, rotate_position,
)
from rules.rotation import ROTATIONS, check_rotation, rotate_cells, rotated_size

from tests.rules.diagrams import play
from tests.rules.random_games import play_random_game


def test_a_quarter_turn_of_a_reading_turns_its_picture_clockwise() -> None:
    """Rows top first: the left column, read upwards, becomes the top row."""
    seen = Observation.from_rows([
        "X . O ?",
        ". . . .",
        "O . . X",
    ], time=2.5, source="camera 0")
    turned = rotate_observation(seen, 90)
    assert turned.rows() == [
        "O.X",
        "...",
        "..O",
        "X.?",
    ]
    assert (turned.width, turned.height) == (3, 4)
    assert (turned.time, turned.source) == (2.5, "camera 0")


@pytest.mark.parametrize("degrees, rows", [
    (0, ["X..", "..O", "..."]),
    (90, ["..X", "...", ".O."]),
    (180, ["...", "O..", "..X"]),
    (270, [".O.", "...", "X.."]),
])
def test_each_turn_of_a_reading(degrees: int, rows: list[str]) -> None:
    seen = Observation.from_rows(["X..", "..O", "..."])
    assert rotate_observation(seen, degrees).rows() == rows


def test_the_confidence_of_each_point_turns_with_it() -> None:
    # A1 black (0.1), B1 empty (0.2), A2 empty (0.3), B2 white (0.4).
    seen = Observation(2, 2, (1, 0, 0, 2), (0.1, 0.2, 0.3, 0.4))
    assert seen.rows() == [".O", "X."]
    turned = rotate_observation(seen, 90)
    assert turned.rows() == ["X.", ".O"]
    assert turned.cells == (0, 2, 1, 0) and turned.confidence == (0.2, 0.4, 0.1, 0.3)


def test_a_turned_reading_of_a_position_is_the_turned_position() -> None:
    pos = Position(["X.O.", "..X.", "O..."])
    for degrees in ROTATIONS:
        assert rotate_observation(Observation.of(pos), degrees).position() == \
            rotate_position(pos, degrees)


@pytest.mark.parametrize("width, height", [(19, 19), (9, 9), (7, 3), (2, 25)])
def test_four_quarter_turns_are_no_turn(width: int, height: int) -> None:
    cells = tuple(range(width * height))
    turned: tuple[int, ...] = cells
    w, h = width, height
    for _ in range(4):
        turned = rotate_cells(turned, w, h, 90)
        w, h = rotated_size(w, h, 90)
    assert turned == cells
    assert rotate_cells(rotate_cells(cells, width, height, 90), height, width, 270) == cells


@pytest.mark.parametrize("degrees, a1, t19", [
    (0, "A1", "T19"), (90, "A19", "T1"), (180, "T19", "A1"), (270, "T1", "A19"),
])
def test_the_corners_go_round_clockwise(degrees: int, a1: str, t19: str) -> None:
    assert rotate_point(Point.from_gtp("A1"), 19, 19, degrees).gtp() == a1
    assert rotate_point(Point.from_gtp("T19"), 19, 19, degrees).gtp() == t19


@pytest.mark.parametrize("degrees", [45, -90, 360, 1, True])
def test_only_quarter_turns(degrees: int) -> None:
    with pytest.raises(ValueError, match="rotate must be one of 0, 90, 180, 270"):
        check_rotation(degrees)


# -- a game in progress -----------------------------------------------------------------


def test_a_turned_game_is_the_same_game_on_the_turned_board() -> None:
    game = Game("japanese", 9)
    # Black F4 takes White's stone at E4, a ko.
    play(game, "D4 F5 E5 G4 E3 F3 pass E4 F4")
    before = game.position
    captures = list(game.captures)
    game.rotate(90)
    assert game.position == rotate_position(before, 90)
    assert game.captures == captures and game.number == 9
    assert game.to_move is Color.WHITE
    # White may not retake at once, on the turned board either: the ko is at the turned E4.
    ko = rotate_point(Point.from_gtp("E4"), 9, 9, 90)
    assert game.legality(ko) is Reason.KO
    game.pass_()
    game.pass_()
    assert game.legality(ko, Color.WHITE) is None


def test_turning_a_game_matches_playing_the_turned_moves() -> None:
    """Random games with captures and ko refusals: turning the game afterwards equals
    playing every move at its turned point from the start, refusals included."""
    rules = preset("chinese")
    for seed in range(4):
        record = play_random_game(rules, 9, seed, judge_all=False, max_plies=160)
        moves = [step.event for step in record.steps]
        for degrees in (90, 180, 270):
            game = Game(rules, 9)
            direct = Game(rules, 9)
            for m in moves:
                if isinstance(m, MovePlayed):
                    game.play(m.point, m.color)
                    direct.play(rotate_point(m.point, 9, 9, degrees), m.color)
                else:
                    game.pass_(m.color)
                    direct.pass_(m.color)
            game.rotate(degrees)
            assert game.position == direct.position
            assert game.captures == direct.captures and game.to_move is direct.to_move
            for p in game.position.points():
                assert game.legality(p) == direct.legality(p), (seed, degrees, p)


def test_handicap_stones_turn_with_the_board() -> None:
    game = Game("aga", 9, handicap=3)
    play(game, "E5")
    game.rotate(180)
    assert game.handicap_stones == 3 and game.to_move is Color.BLACK
    black = {p.gtp() for p in game.position.stones(Color.BLACK)}
    assert black == {"G7", "C7", "C3"}  # C3 G3 G7 turned half round
    assert [p.gtp() for p in game.position.stones(Color.WHITE)] == ["E5"]


def test_dead_stones_and_the_counting_phase_survive_the_turn() -> None:
    game = Game("japanese", 9)
    play(game, "C3 G7 pass pass")
    game.mark_dead([Point.from_gtp("G7")])
    game.rotate(270)
    assert game.phase is Phase.COUNTING
    dead = rotate_point(Point.from_gtp("G7"), 9, 9, 270)
    assert game.score().dead_stones == (dead,)


def test_a_finished_game_stays_finished() -> None:
    game = Game("japanese", 9)
    play(game, "C3 pass pass")
    score, _ = game.finish()
    game.rotate(90)
    assert game.phase is Phase.OVER and game.winner is score.winner
    resigned = Game("chinese", 9)
    play(resigned, "D4")
    resigned.resign(Color.WHITE)
    resigned.rotate(90)
    assert resigned.phase is Phase.OVER and resigned.winner is Color.BLACK


def test_a_rectangular_game_swaps_its_sides() -> None:
    game = Game("chinese", 7, 3)
    play(game, "A1 G3")
    game.rotate(90)
    assert (game.width, game.height) == (3, 7)
    assert game.position.rows() == [
        "X..",
        "...",
        "...",
        "...",
        "...",
        "...",
        "..O",
    ]
    game.undo()
    assert game.position.rows()[0] == "X.."
