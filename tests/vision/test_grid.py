"""Lattice geometry: a grid's homography follows its image when the image is resized, and
how much of a grid a picture shows."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import grid


def _centre(image: np.ndarray) -> np.ndarray:
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    return np.array([(xs * image).sum(), (ys * image).sum()]) / image.sum()


@pytest.mark.parametrize("factor, how", [(0.5, cv2.INTER_AREA), (0.25, cv2.INTER_AREA),
                                         (2.0, cv2.INTER_LINEAR)])
def test_a_grid_scaled_with_its_image_stays_on_the_same_spot(factor: float, how: int) -> None:
    # A round blob centred on pixel (27, 35), where the homography puts lattice point (0, 0).
    ys, xs = np.mgrid[0:64, 0:64]
    image = np.exp(-((xs - 27.0) ** 2 + (ys - 35.0) ** 2) / 18.0).astype(np.float32)
    h = np.array([[4.0, 0.0, 27.0], [0.0, 4.0, 35.0], [0.0, 0.0, 1.0]])
    resized = cv2.resize(image, None, fx=factor, fy=factor, interpolation=how)
    found = grid.apply(grid.scaled(h, factor), [[0, 0]])[0]
    assert np.allclose(found, _centre(resized), atol=0.02)


# A 19 x 19 grid of 10 px cells whose first point is pixel (5, 5): its last is (185, 185).
TENS = np.array([[10.0, 0.0, 5.0], [0.0, 10.0, 5.0], [0.0, 0.0, 1.0]])


def test_a_picture_around_the_grid_shows_all_of_it() -> None:
    assert grid.shown_share(TENS, 19, (200, 200, 3)) == 1.0
    # the last column 3 px past the picture's last pixel (182): a line the border cuts
    assert grid.shown_share(TENS, 19, (200, 183)) == 1.0


def test_a_picture_cut_through_the_grid_shows_the_part_inside_it() -> None:
    # 100 px wide: the columns at 5, 15 ... 95 are in it, the one at 105 is half a cell
    # and more past its last pixel (99), and so are the rest.
    assert grid.shown_share(TENS, 19, (200, 100)) == pytest.approx(10 / 19)
    # the picture's top-left quarter
    assert grid.shown_share(TENS, 19, (100, 100)) == pytest.approx(100 / 361)


def test_a_grid_with_a_point_on_the_horizon_shows_nothing() -> None:
    # Column 10 on the horizon: taken to infinity, no board seen.
    crossed = TENS @ np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-0.1, 0.0, 1.0]])
    with np.errstate(divide="ignore", invalid="ignore"):
        assert grid.shown_share(crossed, 19, (4000, 4000)) == 0.0
