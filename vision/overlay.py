"""The picture a user checks first: the grid found and the stones read, drawn on the photo
(`draw`), and text written where the grid puts it, such as the board's coordinates
(`label`)."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from . import grid
from .reading import Reading


def draw(image: np.ndarray, reading: Reading, *, corners: bool = True) -> np.ndarray:
    """A copy of ``image`` (BGR or grey uint8) with the grid lines in green, the corners
    numbered 1-4 (top-left first, clockwise; not when ``corners`` is False), and a ring
    per stone: blue for black, red for white; a point read with confidence under 0.6 gets
    a yellow dot."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    out = np.ascontiguousarray(out[:, :, :3])
    n = reading.size
    h = reading.homography
    thick = max(1, round(max(out.shape[:2]) / 800))
    for k in range(n):
        ends = grid.apply(h, np.array([[k, 0], [k, n - 1], [0, k], [n - 1, k]], dtype=float))
        cv2.line(out, tuple(np.rint(ends[0]).astype(int)), tuple(np.rint(ends[1]).astype(int)),
                 (0, 200, 0), thick, cv2.LINE_AA)
        cv2.line(out, tuple(np.rint(ends[2]).astype(int)), tuple(np.rint(ends[3]).astype(int)),
                 (0, 200, 0), thick, cv2.LINE_AA)
    for idx, c in enumerate(reading.corners if corners else ()):
        cv2.putText(out, str(idx + 1), tuple(np.rint(c).astype(int) + 4), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * thick + 0.3, (0, 255, 255), thick, cv2.LINE_AA)
    pts = grid.apply(h, grid.lattice(n))
    cell = float(np.linalg.norm(reading.corners[1] - reading.corners[0])) / (n - 1)
    rows = reading.rows()
    for (i, j), p in zip(grid.lattice(n).astype(int), pts):
        centre = tuple(np.rint(p).astype(int))
        ch = rows[j][i]
        if ch != ".":
            colour = (255, 0, 0) if ch == "X" else (0, 0, 255)
            cv2.circle(out, centre, max(2, int(0.42 * cell)), colour, thick + 1, cv2.LINE_AA)
        conf = reading.confidence[(n - 1 - j) * n + i]
        if conf < 0.6:
            cv2.circle(out, centre, max(2, int(0.12 * cell)), (0, 255, 255), -1)
    return out


def label(image: np.ndarray, homography: np.ndarray,
          marks: Iterable[tuple[float, float, str]],
          colour: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """Write each mark's text on ``image`` (BGR uint8, in place; returned) centred on its
    lattice position ``(i, j)`` through ``homography`` (see `vision.grid`; positions off the
    grid are fine), as tall as half a cell there, in ``colour`` on a dark outline so that
    it reads on wood, stones and cloth alike."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    for i, j, text in marks:
        centre, right, down = grid.apply(homography, np.array([[i, j], [i + 1, j], [i, j + 1]]))
        cell = min(float(np.linalg.norm(right - centre)), float(np.linalg.norm(down - centre)))
        thick = max(1, round(cell / 18))
        scale = cv2.getFontScaleFromHeight(font, max(6, round(0.45 * cell)), thick)
        (w, h), _ = cv2.getTextSize(text, font, scale, thick)
        org = (int(round(centre[0] - w / 2)), int(round(centre[1] + h / 2)))
        cv2.putText(image, text, org, font, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(image, text, org, font, scale, colour, thick, cv2.LINE_AA)
    return image
