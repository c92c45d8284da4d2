"""A grid's confidence: the whole board's grid beats any patch of it or a lattice of the
wrong size, since a patch's lines run on past its outer lines and the board's do not."""

from __future__ import annotations

import numpy as np
import pytest

from vision import read_board
from vision.calibrated import FITTED
from vision.calibration import SURE, calibrate
from vision.config import LOCATE
from vision.evaluate import corner_error_cells
from vision.grid import GridFit
from vision.grid_score import (
    board_doubts, confidence, lattice_score, mistaken_placements, placed_confidence, runs_on,
    trusted)
from vision.locate import locate, to_gray
from vision.stones import read_stones
from vision.synth import Scene, random_position, render


def _patch(whole: GridFit, first: int, size: int) -> GridFit:
    """The ``size`` x ``size`` lattice starting at line ``first`` of ``whole``'s grid."""
    shift = np.array([[1, 0, first], [0, 1, first], [0, 0, 1]], dtype=np.float64)
    return GridFit(whole.homography @ shift, size, 0.0)


def test_the_lines_of_a_whole_board_stop_at_its_edge_lines() -> None:
    shot = render(random_position(19, 5, stones=0.3), 5)
    gray = to_gray(shot.image)
    whole = GridFit(shot.homography, 19, 0.0)
    assert runs_on(gray, whole, LOCATE) < 0.2


def test_a_patch_of_the_grid_is_seen_to_run_on_and_loses_to_the_whole() -> None:
    #   . . . . . . . . . . . . . . . . . . .
    #   . . . . . + - - - - - - - + . . . . .     a 9 x 9 patch in the middle of a 19 x 19
    #   . . . . . |  patch        | . . . . .     grid: every line of it goes on past it
    #   . . . . . + - - - - - - - + . . . . .
    shot = render(random_position(19, 6, stones=0.3), 6)
    gray = to_gray(shot.image)
    whole = GridFit(shot.homography, 19, 0.0)
    patch = _patch(whole, 5, 9)
    assert runs_on(gray, patch, LOCATE) > 0.5
    assert confidence(gray, patch, LOCATE) < 0.5 * confidence(gray, whole, LOCATE)


def test_a_lattice_of_the_wrong_size_scores_below_the_right_one() -> None:
    shot = render(random_position(13, 7, stones=0.3), 7)
    gray = to_gray(shot.image)
    right = GridFit(shot.homography, 13, 0.0)
    # A 9-line lattice over the same outer lines: its spacing is 1.5 of the board's cells.
    scale = np.diag([12 / 8, 12 / 8, 1.0])
    wrong = GridFit(shot.homography @ scale, 9, 0.0)
    assert confidence(gray, right, LOCATE) > 0.5
    assert confidence(gray, wrong, LOCATE) < 0.5 * confidence(gray, right, LOCATE)


def test_a_lattice_of_every_other_line_running_past_the_board_is_not_its_grid() -> None:
    #   - - - - - - - - - - - -     13 lines two cells apart, from 3 lines outside the
    #   :   + - - - - - - - + :     board to 3 past it: every other line of the board
    #   :   |   board       | :     lies on one of them, nothing crosses past its outer
    #   :   + - - - - - - - + :     lines (they lie off the board), but those outer lines
    #   - - - - - - - - - - - -     are not drawn at all
    shot = render(random_position(19, 0, stones=0.4), 0,
                  Scene(stone_colours=((25, 25, 25), (50, 50, 210))))
    gray = to_gray(shot.image)
    whole = GridFit(shot.homography, 19, 0.0)
    wide = GridFit(shot.homography @ np.array([[2.0, 0, -3], [0, 2, -3], [0, 0, 1]]), 13, 0.0)
    assert runs_on(gray, wide, LOCATE) < 0.1
    assert lattice_score(gray, wide, LOCATE) < 0.01
    assert lattice_score(gray, whole, LOCATE) > 0.5
    # Black and red stones, darker than the wood alike, hide more of the lines than black
    # and white ones: the board's own grid is doubted, and the wide lattice had won.
    found = locate(shot.image)
    assert found.size == 19 and corner_error_cells(found.corners, shot.corners, 19) < 0.1


# A board confidence under `min_confidence` says "do not trust this board" (vision_confidence.py
# judges the raw board confidence at that threshold).
THRESHOLD = LOCATE.min_confidence


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_grid_a_line_off_or_a_patch_of_the_board_is_not_trusted(seed: int) -> None:
    #   + - - - - - - - - +          the right grid: its lines stop at its outer lines and
    #   | + - - - - - - - | - +      half a cell of wood lies beyond them. A line off: the
    #   | |               | . |      board's outer line crosses on past the grid's on one
    #   + | - - - - - - - + . |      side, the table lies under its outer line on the other.
    #     + - - - - - - - - - +
    shot = render(random_position(19, seed, stones=0.3), seed)
    gray = to_gray(shot.image)
    whole = GridFit(shot.homography, 19, 0.0)
    assert placed_confidence(gray, whole, LOCATE) >= THRESHOLD
    for name, wrong in mistaken_placements(whole, (9, 13)).items():
        assert placed_confidence(gray, wrong, LOCATE) < THRESHOLD, name


def test_the_board_confidence_read_board_reports_weighs_the_doubts() -> None:
    shot = render(random_position(19, 4, stones=0.3), 4)
    reading = read_board(shot.image)
    assert reading.doubts is not None and reading.doubts.runs_past < 0.1
    assert reading.board_confidence == pytest.approx(
        trusted(reading.grid_confidence, reading.doubts, LOCATE))
    assert reading.board_confidence >= THRESHOLD


@pytest.mark.parametrize("seed", [1, 2])
def test_the_calibrated_board_confidence_is_sure_of_the_board_and_of_no_grid_mistaken_for_it(
        seed: int) -> None:
    # The same placements as above, weighed and read as read_board weighs and reads the grid
    # it finds, then calibrated (vision.calibrated, fitted with such placements in dev
    # photos): the board's own grid at SURE or more, every one mistaken for it under.
    shot = render(random_position(19, seed, stones=0.3), seed)
    gray = to_gray(shot.image)
    whole = GridFit(shot.homography, 19, 0.0)

    def calibrated(fit: GridFit) -> float:
        own, doubts = confidence(gray, fit, LOCATE), board_doubts(gray, fit, LOCATE)
        labels, conf = read_stones(shot.image, fit.homography, fit.size)
        return calibrate(FITTED, labels, conf, fit.homography, trusted(own, doubts, LOCATE),
                         shot.image.shape, doubts)[1]
    assert calibrated(whole) >= SURE
    for name, wrong in mistaken_placements(whole, (9, 13)).items():
        assert calibrated(wrong) < SURE, name
