"""A board so crowded its lines hide is placed by its stones inside the slab of wood.

A finished game covers four fifths of the points: a phone held over the near edge sees
the lines only in slivers between the stones, but it sees the stones, black and white
discs on a regular lattice, and the slab's four edges around them. The scenes are
`vision.synth`'s phone aimed at the board (filling the frame's width, on a dark table,
stones pushed off their points, thin lines, soft focus; drawn in `test_synth_aimed`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_synth_aimed import crowded, slab_of
from vision import grid
from vision.config import VISION
from vision.evaluate import corner_error_cells
from vision.locate import _framed_stones, _stones_placed, _through_stones, locate, to_gray
from vision.outline import Outline, stone_bounds, stone_profiles
from vision.stone_lattice import dark_centres


def test_the_stones_profiles_peak_on_the_lattice_lines() -> None:
    shot = crowded(2)
    gray = to_gray(shot.image)
    across_x, _, warp = stone_profiles(gray, slab_of(shot, 2), 19)
    lo, hi = stone_bounds()
    lines = grid.apply(warp @ shot.homography, grid.lattice(19))[:19, 0]  # the row j = 0
    lines = np.sort(lines)
    between = 0.5 * (lines[1:] + lines[:-1])
    on = np.interp(lines, np.arange(len(across_x)), across_x).mean()
    off = np.interp(between, np.arange(len(across_x)), across_x).mean()
    assert lo <= lines.min() and lines.max() <= hi
    assert on > 1.2 * off


@pytest.mark.parametrize("seed", [0, 3])
def test_the_stones_place_the_grid_inside_the_slab_within_a_fifth_of_a_cell(seed: int) -> None:
    shot = crowded(seed)
    gray = to_gray(shot.image)
    stones = dark_centres(gray, VISION.locate)
    assert stones is not None
    quad = slab_of(shot, seed).astype(np.float32)
    inside = np.array([cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0
                       for x, y in stones.centres])
    slab = Outline(quad, (True, True, True, True), 1.0)
    fit = _stones_placed(gray, slab, 19, stones.centres[inside], None, VISION)
    assert corner_error_cells(fit.corners, shot.corners, 19) < 0.2
    assert fit.confidence >= VISION.locate.min_confidence  # the black stones vouch for it


@pytest.mark.parametrize("seed", [0, 6, 7])
def test_a_finished_game_seen_by_an_aimed_phone_is_found_by_its_stones(seed: int) -> None:
    # A board nine tenths full: the lines show only in slivers between the stones, too
    # few for any grid of lines to be trusted; the slab's edges and its stones place it.
    shot = crowded(seed)
    fit = locate(shot.image)
    assert fit.size == 19
    assert corner_error_cells(fit.corners, shot.corners, 19) < 0.25


def test_a_dark_band_along_the_pictures_border_is_no_row_of_stones() -> None:
    # A photo cut close to the board's edge may keep a sliver of something dark along its
    # border (the table, a frame's shadow): deepest on the border, it gives dark "centres"
    # there, a row of stones past the board's edge, which vouch for a grid a line too far
    # out and deny the board's own. No stone's centre is seen on the picture's outermost
    # pixels; the stones on the board still witness.
    shot = crowded(1)
    top = int(np.ceil(slab_of(shot, 1)[:2, 1].max())) + 2  # cut inside the far margin
    gray = to_gray(shot.image)[top:].copy()
    clean = dark_centres(gray, VISION.locate)
    assert clean is not None
    gray[:int(round(clean.radius))] = 10  # the band, as deep as a stone's radius
    stones = dark_centres(gray, VISION.locate)
    assert stones is not None
    c = stones.centres
    assert (c[:, 1] < 1).sum() > 10  # the band gives a row of centres
    h, w = gray.shape
    witnesses = _framed_stones(stones, gray.shape, VISION)
    framed = (c >= 1).all(axis=1) & (c[:, 0] <= w - 2) & (c[:, 1] <= h - 2)
    assert framed.sum() > 100  # the board's own black stones
    assert witnesses is not None and np.array_equal(witnesses.centres, c[framed])


def test_black_stones_nearly_on_one_line_leave_the_grid_as_it_was() -> None:
    # Nine black stones along a diagonal and one beside it, each pushed about 0.03 cell:
    # the homography fitted to them is singular (they place no lattice), and refitting
    # the grid to it once raised numpy's LinAlgError out of `read_board`.
    h = np.array([[30.0, 0, 50], [0, 30.0, 40], [0, 0, 1]])
    points = np.array([[k, 18 - k] for k in range(1, 18, 2)] + [[8, 11]], float)
    pushed = points + np.random.default_rng(1).normal(0, 0.03, points.shape)
    refit = _through_stones(h, grid.apply(h, pushed), 19, (700, 700), VISION)
    assert np.isfinite(refit).all() and abs(np.linalg.det(refit)) > 1.0
