"""A board so crowded its lines hide is placed by its stones inside the slab of wood.

A finished game covers four fifths of the points: a phone held over the near edge sees
the lines only in slivers between the stones, but it sees the stones, black and white
discs on a regular lattice, and the slab's four edges around them. The scenes are
`vision.synth`'s phone aimed at the board (filling the frame's width, on a dark table,
stones pushed off their points, thin lines, soft focus)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision import grid
from vision.config import VISION
from vision.evaluate import corner_error_cells
from vision.locate import _stones_placed, to_gray
from vision.outline import stone_bounds, stone_profiles
from vision.stone_lattice import dark_centres
from vision.synth import Scene, Synthetic, random_position, render

AIMED = Scene(width=540, height=720, camera_tilt=45.0, stone_height=0.2, framing="phone aimed",
              turn=4.0, surface="dark table", jitter=0.12, line_width=1 / 22, blur=2.0,
              noise=9.0)


def crowded(seed: int, scene: Scene = AIMED) -> Synthetic:
    return render(random_position(19, seed, stones=0.9), seed, scene)


def slab_of(shot: Synthetic, seed: int) -> np.ndarray:
    """The slab's true corners (4, 2): `vision.synth` draws its margin first of all."""
    m = float(np.random.default_rng(seed).uniform(0.7, 1.1))
    return grid.apply(shot.homography, np.array([[-m, -m], [18 + m, -m], [18 + m, 18 + m],
                                                 [-m, 18 + m]]))


def test_the_aimed_phone_frames_the_board_in_the_middle_as_wide_as_the_frame() -> None:
    shot = crowded(1)
    h, w = shot.image.shape[:2]
    slab = slab_of(shot, 1)
    assert 0.9 * w < np.ptp(slab[:, 0]) < 1.06 * w
    assert abs(slab[:, 1].mean() - h / 2) < 0.15 * h  # aimed at the middle, not the bottom
    assert sum(r.count("X") + r.count("O") for r in shot.position.rows()) >= 0.75 * 361


def test_points_out_of_the_frame_are_hidden() -> None:
    wide = dataclasses.replace(AIMED, fill=(1.2, 1.2))  # the grid's near corners leave it
    shot = crowded(0, wide)
    h, w = shot.image.shape[:2]
    at = grid.apply(shot.homography, grid.lattice(19))
    out = ((at < 0) | (at > [w - 1, h - 1])).any(axis=1).reshape(19, 19)
    assert out.any() and (shot.hidden == out).all()


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
    fit = _stones_placed(gray, quad, 19, stones.centres[inside], None, VISION)
    assert corner_error_cells(fit.corners, shot.corners, 19) < 0.2
    assert fit.confidence >= VISION.locate.min_confidence  # the black stones vouch for it
