"""The quadrilateral around a mask's points (`vision.quad.quad_around`), which both the net
of lines (`vision.grid_candidates.outer_quad`) and the slab of wood (`vision.outline`) are
cut down to."""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid_candidates import _outer_pixels
from vision.quad import quad_around

BOARD = np.array([[120, 80], [520, 110], [560, 470], [90, 430]], dtype=np.int32)


def _filled(corners: np.ndarray, shape: tuple[int, int] = (600, 700)) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, corners.astype(np.int32), 255)
    return mask


def test_a_four_sided_mask_gives_its_four_corners_in_order_around_it() -> None:
    quad = quad_around(cv2.findNonZero(_filled(BOARD)), (0.01, 0.15, 29))
    assert quad.shape == (4, 2) and quad.dtype == np.float64
    # The same corners, a pixel or so off, starting anywhere but in order around.
    start = int(np.argmin(np.linalg.norm(quad - BOARD[0], axis=1)))
    turned = np.roll(quad, -start, axis=0)
    if np.linalg.norm(turned[1] - BOARD[1]) > np.linalg.norm(turned[1] - BOARD[3]):
        turned = np.r_[turned[:1], turned[1:][::-1]]
    assert np.abs(turned - BOARD).max() <= 1.5


def test_a_shape_with_no_four_corners_gives_its_extreme_points_along_the_diagonals() -> None:
    # An octagon, turned so that no two vertices tie, simplified with tolerances too tight
    # to leave four vertices.
    angles = np.radians(np.arange(8) * 45.0 + 10.0)
    octagon = np.c_[300 + 200 * np.cos(angles), 300 + 200 * np.sin(angles)].astype(np.float32)
    quad = quad_around(octagon, (0.0001, 0.0002, 2))
    x, y = octagon[:, 0], octagon[:, 1]
    expected = octagon[[np.argmin(x + y), np.argmax(x - y), np.argmax(x + y), np.argmin(x - y)]]
    assert np.array_equal(quad, expected.astype(np.float64))


def test_the_outer_pixels_of_a_mask_span_the_hull_of_all_its_pixels() -> None:
    # A net of lines with specks inside and outside it: the hull of the pixels on the blobs'
    # outer borders is the hull of every pixel, vertex for vertex, from the same vertex on.
    rng = np.random.default_rng(5)
    for _ in range(20):
        mask = np.zeros((300, 400), np.uint8)
        for _ in range(12):
            a, b = rng.integers(0, 300, 2), rng.integers(0, 300, 2)
            cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255,
                     int(rng.integers(1, 4)))
        mask[rng.random(mask.shape) < 0.002] = 255
        assert np.array_equal(cv2.convexHull(_outer_pixels(mask)),
                              cv2.convexHull(cv2.findNonZero(mask)))
