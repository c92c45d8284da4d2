"""A quadrilateral around a set of points: the four corners of a board's net of lines, of
its cells, or of its slab of wood, from the points of a mask."""

from __future__ import annotations

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
