"""A crowded board seen by a phone from 60 degrees over its near edge (issue 19's missed
kind): the slab sits in the lower part of the frame, its rows foreshortened, its far row's
black stones too squashed to be told apart, so the stones vouch as much for a grid
squeezed a row short as for the board's own. Every stone lies on a point: the grid that
keeps the most of them on its points has the board's row phase (`on_points`)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from vision import BoardNotFound, read_board
from vision.config import VISION
from vision.evaluate import corner_error_cells
from vision.grid import GridFit
from vision.grid_score import on_points
from vision.locate import _lattice_apart, working
from vision.stone_lattice import dark_centres
from vision.synth import Scene, Synthetic, random_position, render

STEEP = Scene(width=720, height=960, camera_tilt=60.0, stone_height=0.2, framing="phone",
              turn=5.0, surface="dark table")
"""The scenes benchmark's "phone 60, crowded": a phone held upright over the near edge,
60 degrees off vertical, the board filling the frame's width on a dark table."""


@functools.cache
def steep(seed: int) -> Synthetic:
    return render(random_position(19, seed, stones=0.8), seed, STEEP)


def placed_within(shot: Synthetic, cells: float) -> bool:
    try:
        reading = read_board(shot.image)
    except BoardNotFound:
        return False
    return reading.size == 19 and \
        corner_error_cells(reading.corners, shot.corners, 19) < cells


def test_a_steep_board_lying_low_in_the_frame_is_found_on_its_own_grid() -> None:
    # Seed 0: the slab passes the picture's middle only a fifth of the frame away.
    assert placed_within(steep(0), 0.25)


def test_a_steep_board_whose_far_row_shows_no_black_stone_keeps_its_row_phase() -> None:
    # Seed 2: the stones vouch 0.63 for a grid squeezed a row short, 0.25 for the truth.
    assert placed_within(steep(2), 0.25)


def test_a_grid_squeezed_a_row_short_keeps_fewer_stones_on_its_points() -> None:
    shot = steep(2)
    small, to_full = working(shot.image, VISION.locate)
    found = dark_centres(small, VISION.locate)
    assert found is not None
    truth = np.linalg.inv(to_full) @ shot.homography
    truth /= truth[2, 2]
    # Its 19 rows span the board's rows 1 to 18: its far line on the board's second row.
    squeezed = truth @ np.array([[1, 0, 0], [0, 17 / 18, 1], [0, 0, 1.0]])
    right = on_points(small, GridFit(truth, 19, 0.0), found.centres, VISION)
    wrong = on_points(small, GridFit(squeezed, 19, 0.0), found.centres, VISION)
    assert right > 0.75
    assert right - wrong > VISION.outline.phase_rows / 19


def test_no_stones_are_on_no_grid() -> None:
    shot = steep(2)
    small, to_full = working(shot.image, VISION.locate)
    truth = np.linalg.inv(to_full) @ shot.homography
    assert on_points(small, GridFit(truth / truth[2, 2], 19, 0.0), np.zeros((0, 2)),
                     VISION) == 0.0


def test_grids_a_row_apart_are_another_phase_and_a_jittered_twin_the_same() -> None:
    # The stones' refits from combs moved by OutlineConfig.stone_phases: one that ends a
    # row off, or squeezed a row short, is another phase; one that ends a tenth of a cell
    # off the unmoved comb's grid is that grid (OutlineConfig.same_phase).
    h = np.array([[30.0, 2.0, 100.0], [1.0, 24.0, 80.0], [0.0002, 0.0009, 1.0]])  # steep
    a_row_off = h @ np.array([[1, 0, 0], [0, 1, 1.0], [0, 0, 1]])
    squeezed = h @ np.array([[1, 0, 0], [0, 17 / 18, 1], [0, 0, 1.0]])
    twin = h @ np.array([[1, 0, 0.1], [0, 1, -0.1], [0, 0, 1.0]])
    same = VISION.outline.same_phase
    assert _lattice_apart(h, a_row_off, 19) > same
    assert _lattice_apart(h, squeezed, 19) > same
    assert _lattice_apart(h, twin, 19) == pytest.approx(0.1)
    assert _lattice_apart(h, twin, 19) <= same
