"""A quadrilateral around a set of points: the four corners of a board's net of lines, of
its cells, or of its slab of wood, from the points of a mask."""

from __future__ import annotations

import itertools

import cv2
import numpy as np


def quad_around(points: np.ndarray, tolerances: tuple[float, float, int]) -> np.ndarray:
    """Four corners (4, 2) float64 around ``points`` ((k, 2) or (k, 1, 2), int32 or float32
    as `cv2.convexHull` takes them), in order around them: their convex hull simplified to
    four vertices (Douglas-Peucker) with the first of the tolerances
    ``np.linspace(*tolerances)`` (shares of the hull's perimeter) that leaves four; or, where
    none does, the hull's extreme points along the two diagonals (top-left, top-right,
    bottom-right, bottom-left)."""
    hull = cv2.convexHull(points)
    peri = cv2.arcLength(hull, True)
    for eps in np.linspace(*tolerances):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            out: np.ndarray = approx.reshape(4, 2).astype(np.float64)
            return out
        if len(approx) < 4:
            break
    p = hull.reshape(-1, 2).astype(np.float64)
    s, d = p[:, 0] + p[:, 1], p[:, 0] - p[:, 1]
    return np.array([p[np.argmin(s)], p[np.argmax(d)], p[np.argmax(s)], p[np.argmin(d)]])


def largest_on_hull(points: np.ndarray, tolerance: float) -> np.ndarray | None:
    """The quadrilateral of largest area (4, 2) float64, in order around ``points``, whose
    corners are vertices of their convex hull simplified (Douglas-Peucker) at ``tolerance``
    of its perimeter; None where that leaves under four vertices.

    Where the picture's border cuts a corner off a slab, its hull is a pentagon: the
    slab's three other corners and the cut's two ends. Simplified to four vertices
    (Douglas-Peucker keeps the hull's first point, wherever it starts), it may keep both
    cut ends and drop a slab corner; the largest quad keeps the three and one cut end,
    and the slab's edges fitted from there meet at the cut corner."""
    hull = cv2.convexHull(points)
    peri = cv2.arcLength(hull, True)
    p = cv2.approxPolyDP(hull, tolerance * peri, True).reshape(-1, 2).astype(np.float64)
    if len(p) < 4:
        return None
    x, y = p[:, 0], p[:, 1]
    best, area = None, -1.0
    for quad in itertools.combinations(range(len(p)), 4):
        k = list(quad)  # hull order, so the four stay in order around the points
        a = abs(float(np.sum(x[k] * np.roll(y[k], -1) - np.roll(x[k], -1) * y[k])))
        if a > area:
            best, area = p[k], a
    return best


def same_quad(a: np.ndarray, b: np.ndarray, same: float) -> bool:
    """Whether the quads ``a`` and ``b`` (4, 2) are one: each corner of ``a`` within
    ``same`` px of one of ``b``'s along both axes, whichever corner either starts at."""
    apart = np.abs(a[:, None, :] - b[None, :, :]).max(axis=2)
    return bool((apart.min(axis=1) < same).all())
