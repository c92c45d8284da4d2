"""The robust homography fit behind `refine`: it keeps the points that agree, drops the ones
that do not, and does not care in what order the points come or how the lattice is labelled
(turning a photo relabels it)."""

from __future__ import annotations

import numpy as np

from vision import grid
from vision.consensus import agreeing_homography

TRUE = np.array([[1.02, 0.03, 0.10], [-0.02, 0.97, -0.05], [0.002, -0.001, 1.0]])


def _measured(seed: int, wrong: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 19 x 19 lattice, its points through TRUE with a little noise, and a share ``wrong``
    of them displaced by up to a third of a cell (another line's peak, a stone's rim)."""
    rng = np.random.default_rng(seed)
    src = grid.lattice(19)
    dst = grid.apply(TRUE, src) + rng.normal(0, 0.01, src.shape)
    bad = rng.random(len(src)) < wrong
    dst[bad] += rng.uniform(0.15, 0.35, (int(bad.sum()), 2)) * rng.choice([-1, 1], (int(bad.sum()), 2))
    return src, dst, bad


def test_the_points_that_agree_are_kept_and_the_others_dropped() -> None:
    src, dst, bad = _measured(1, 0.3)
    found = agreeing_homography(src, dst, 0.12)
    assert found is not None
    h, inliers = found
    assert np.array_equal(inliers, ~bad)
    assert np.abs(grid.apply(h, src) - grid.apply(TRUE, src)).max() < 0.01


def test_the_order_of_the_points_and_the_labelling_of_the_lattice_do_not_matter() -> None:
    #   0 1 2 ... 18          18 ... 2 1 0
    #   . . . .   .    ->     .   . . . .     the lattice as seen after turning the photo
    #   . . . .   .           .   . . . .     half a turn: (i, j) -> (18 - i, 18 - j),
    #                                         and the points listed in another order
    src, dst, _ = _measured(2, 0.45)
    order = np.random.default_rng(3).permutation(len(src))
    turned = 18 - src[order]
    a = agreeing_homography(src, dst, 0.12)
    b = agreeing_homography(turned, dst[order], 0.12)
    assert a is not None and b is not None
    assert np.array_equal(a[1][order], b[1])
    assert np.abs(grid.apply(a[0], src[order]) - grid.apply(b[0], turned)).max() < 1e-6


def test_too_few_points_give_no_fit() -> None:
    src = grid.lattice(19)[:3]
    assert agreeing_homography(src, src, 0.12) is None


def test_points_measured_all_on_one_line_fix_no_map() -> None:
    # Lattice points spread over the plane, all found on one line of the photo (a row of
    # stones' rims, say): the map taking them there is singular, no homography.
    src = grid.lattice(5).astype(float)
    dst = np.c_[src[:, 0] + 0.5 * src[:, 1], 2.0 * src[:, 0] + 1.0 * src[:, 1]]
    assert agreeing_homography(src, dst, 0.12) is None
