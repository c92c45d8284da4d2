"""The small pure parts: Go sense on a reading, lattice orientation, and scoring."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rules import Position
from vision import grid
from vision.evaluate import ShotTally, corner_error_cells, points_right, single_stone_rows
from vision.stones import BLACK, EMPTY, WHITE, resolve_captured
from vision.synth import Scene, random_position, render

CODE = {".": EMPTY, "X": BLACK, "O": WHITE}


def board(*rows: str) -> np.ndarray:
    return np.array([[CODE[ch] for ch in row] for row in rows])


def test_a_string_without_liberties_loses_its_least_certain_stone() -> None:
    # The white stone in the corner has no liberty: a photo cannot show that, so the least
    # certain stone among it and its neighbours is the misreading.
    labels = board(
        "OX.",
        "X..",
        "...",
    )
    conf = np.full((3, 3), 0.9)
    conf[0, 0] = 0.55
    fixed, new_conf = resolve_captured(labels, conf)
    assert fixed[0, 0] == EMPTY
    assert fixed[0, 1] == BLACK and fixed[1, 0] == BLACK
    assert new_conf[0, 0] < 0.55


def test_when_a_surrounding_stone_is_less_certain_that_one_goes() -> None:
    labels = board(
        "OX.",
        "X..",
        "...",
    )
    conf = np.full((3, 3), 0.9)
    conf[1, 0] = 0.52
    fixed, _ = resolve_captured(labels, conf)
    assert fixed[0, 0] == WHITE and fixed[1, 0] == EMPTY


def test_a_capture_not_yet_lifted_and_read_surely_stays() -> None:
    # White has just captured the black stone in the middle; it is still on the board.
    labels = board(
        ".O.",
        "OXO",
        ".O.",
    )
    conf = np.full((3, 3), 0.9)
    fixed, _ = resolve_captured(labels, conf, unsure=0.6)
    assert np.array_equal(fixed, labels)
    conf[0, 1] = 0.55  # but one of those white stones was read with doubt
    fixed, _ = resolve_captured(labels, conf, unsure=0.6)
    assert fixed[0, 1] == EMPTY and fixed[1, 1] == BLACK


def test_a_legal_reading_is_left_alone() -> None:
    labels = board(
        "XO.",
        "XO.",
        "...",
    )
    conf = np.full((3, 3), 0.7)
    fixed, new_conf = resolve_captured(labels, conf)
    assert np.array_equal(fixed, labels) and np.array_equal(new_conf, conf)


def test_upright_puts_row_zero_at_the_top_whatever_the_labelling() -> None:
    # A 9x9 grid seen square-on: lattice (i, j) at pixel (100 + 10 i, 50 + 10 j).
    true_h = np.array([[10.0, 0, 100], [0, 10, 50], [0, 0, 1]])
    turned = true_h @ np.array([[0, -1, 8], [1, 0, 0], [0, 0, 1]], dtype=float)  # relabelled
    for h in (true_h, turned):
        up = grid.upright(h, 9)
        np.testing.assert_allclose(grid.corners(up, 9),
                                   [[100, 50], [180, 50], [180, 130], [100, 130]], atol=1e-9)


def test_points_are_compared_under_the_best_rotation() -> None:
    truth = ["X..", "...", "..O"]
    turned = ["O..", "...", "..X"]  # the same board seen from the other side
    assert points_right(turned, truth) == 9
    assert points_right(None, truth) == 0
    assert points_right(["X" * 5] * 5, truth) == 0


def test_mirror_is_only_allowed_when_asked() -> None:
    truth = ["X..", "...", "..."]
    mirrored = ["...", "...", "X.."]
    rotated = ["..X", "...", "..."]
    assert points_right(rotated, truth) == 9
    assert points_right(["...", "...", ".X."], truth) == 7
    assert points_right(mirrored, truth, mirror=True) == 9


def test_single_stone_rows_count_rows_from_the_bottom() -> None:
    assert single_stone_rows(9, "C2", "B")[7] == "..X......"
    assert single_stone_rows(9, "center", "W")[4] == "....O...."
    with pytest.raises(ValueError, match="not on a 9x9"):
        single_stone_rows(9, "K10", "B")


def test_corner_error_is_in_cells_and_ignores_label_order() -> None:
    found = np.array([[0, 0], [180, 0], [180, 180], [0, 180]], dtype=float)
    labelled = np.array([[180, 180], [0, 0], [0, 185], [180, 0]], dtype=float)  # any order
    assert corner_error_cells(found, labelled, 19) == pytest.approx(0.5, abs=0.02)


def test_a_tally_of_synthetic_shots_counts_boards_found_placed_and_read() -> None:
    shot = render(random_position(9, 2, stones=0.3), 2)
    blank = dataclasses.replace(shot, image=np.full_like(shot.image, 128))  # no board in it
    tally = ShotTally(9)
    tally.add(shot)
    tally.add(blank)
    assert (tally.read, tally.found, tally.placed, tally.perfect) == (2, 1, 1, 1)
    assert tally.points == pytest.approx(50.0)  # the board not found counts all wrong
    assert len(tally.ms) == 2 and tally.columns().split()[:3] == ["2", "1", "1"]
    drawn = ShotTally.of(9, 3, 0.3, Scene())  # seeds 0, 1 and 2, drawn and read
    assert (drawn.read, drawn.perfect) == (3, 3)


def test_a_point_a_hand_hides_counts_neither_way() -> None:
    shot = render(random_position(9, 2, stones=0.3), 2)
    rows = shot.position.rows()
    rows[0] = ("X" if rows[0][0] != "X" else "O") + rows[0][1:]  # not what the photo shows
    hidden = np.zeros((9, 9), bool)
    hidden[0, 0] = True
    tally = ShotTally(9)
    tally.add(dataclasses.replace(shot, position=Position(rows), hidden=hidden))
    assert (tally.shown, tally.right, tally.perfect) == (80, 80, 1)
    assert tally.points == 100.0
    with_hand = render(random_position(19, 51, stones=0.15), 51, Scene(hand=True))
    assert 0 < with_hand.hidden.sum() < 19 * 19 / 4 and not shot.hidden.any()
