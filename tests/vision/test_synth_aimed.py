"""The phone aimed at a crowded board, as `vision.synth` draws it for the scenes benchmark.

A finished game covers four fifths of the points: a phone held over the near edge, aimed
at the board's middle, frames it as wide as the picture, on a dark table, stones pushed
off their points, thin lines, soft focus; points out of the frame are hidden."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision import grid
from vision.synth import Scene, Synthetic, random_position, render

AIMED = Scene(width=540, height=720, camera_tilt=45.0, stone_height=0.2, framing="phone aimed",
              turn=4.0, surface="dark table", jitter=0.12, line_width=1 / 22, blur=2.0,
              noise=9.0)


def crowded(seed: int, scene: Scene = AIMED) -> Synthetic:
    return render(random_position(19, seed, stones=0.9), seed, scene)


def slab_of(shot: Synthetic, seed: int) -> np.ndarray:
    """The slab's true corners (4, 2) in the picture, in the grid corners' order:
    `vision.synth` draws its margin (a cell times uniform(0.7, 1.1)) first of all."""
    n, m = shot.position.width - 1, float(np.random.default_rng(seed).uniform(0.7, 1.1))
    return grid.apply(shot.homography, np.array([[-m, -m], [n + m, -m], [n + m, n + m],
                                                 [-m, n + m]]))


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


def test_a_photo_cut_inside_the_far_margin_keeps_the_board_and_its_far_outer_line() -> None:
    whole = crowded(1)
    for cut in (0.1, -0.15):  # inside the far margin; a sliver of the table left above it
        shot = crowded(1, dataclasses.replace(AIMED, far_cut=cut))
        top = whole.image.shape[0] - shot.image.shape[0]
        assert top > 0 and shot.image.shape[1] == whole.image.shape[1]
        assert np.allclose(shot.corners, whole.corners - [0.0, top])  # the same board, lower
        assert shot.position == whole.position
        far_edge = slab_of(shot, 1)[:2, 1]  # the slab's far corners, upright
        assert (far_edge.max() < 0) if cut > 0 else (far_edge.min() > 0)
        assert shot.corners[:, 1].min() > 0 and not shot.hidden.any()  # the far line shows
