"""The quadrilateral around a mask's points (`vision.quad.quad_around`), which both the net
of lines (`vision.grid_candidates.outer_quad`) and the slab of wood (`vision.outline`) are
cut down to, and the largest one on their hull's corners (`vision.quad.largest_on_hull`),
the slab's other first quad."""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid_candidates import _outer_pixels
from vision.quad import largest_on_hull, quad_around

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


def _around(quad: np.ndarray, corners: np.ndarray) -> bool:
    """Whether ``quad``'s corners are ``corners`` (4, 2), a pixel or two off, in order
    around, from any corner and either way round."""
    for turned in (quad, quad[::-1]):
        start = int(np.argmin(np.linalg.norm(turned - corners[0], axis=1)))
        if np.abs(np.roll(turned, -start, axis=0) - corners).max() <= 2.0:
            return True
    return False


def test_the_largest_quad_on_a_slab_with_a_glow_s_tip_beyond_an_edge_is_the_slab() -> None:
    # A lamp's glow on the table joined to the slab's top edge: a hull of five corners,
    # the glow's tip between the slab's top two, standing off that edge by more than the
    # simplification's tolerance. Of the quads on those five, the slab's is the largest.
    glow = np.r_[BOARD[:1], [[300, 40]], BOARD[1:]].astype(np.int32)
    quad = largest_on_hull(cv2.findNonZero(_filled(glow)), 0.01)
    assert quad is not None and quad.dtype == np.float64
    assert _around(quad, BOARD), quad


def test_the_largest_quad_on_a_slab_cut_by_the_picture_s_border_keeps_its_far_corners() -> None:
    # The picture's left border cuts the slab's bottom-left corner off: a pentagon whose
    # cut ends are (0, 313) and (0, 434). The largest quad on it keeps the slab's other
    # three corners and one of the cut's ends (`vision.outline` fits the slab's left and
    # bottom edges from there, and they meet at its corner beyond the border).
    slab = np.array([[120, 80], [520, 110], [560, 470], [-60, 430]])
    mask = _filled(np.round(slab).astype(np.int32))
    quad = largest_on_hull(cv2.findNonZero(mask), 0.01)
    assert quad is not None
    for corner in slab[:3]:
        assert np.linalg.norm(quad - corner, axis=1).min() <= 2.0, (corner, quad)
    fourth = quad[np.argmax([np.linalg.norm(slab[:3] - q, axis=1).min() for q in quad])]
    assert fourth[0] <= 1.0 and 312 <= fourth[1] <= 435, fourth


def test_a_hull_simplified_to_a_triangle_has_no_largest_quad() -> None:
    triangle = np.array([[100, 100], [500, 120], [300, 450]], dtype=np.int32)
    assert largest_on_hull(cv2.findNonZero(_filled(triangle)), 0.01) is None
