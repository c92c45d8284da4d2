"""A 9x9 board drawn square-on over a table, for tests that set its light by hand: the
lattice at ``AT`` + ``CELL`` steps, the wood ``TABLE`` px in from the picture's border.
What each test's light does to the wood and the ink is its own; the geometry, the ink's
net of lines and what a camera does after the light (`camera`) are shared here."""

from __future__ import annotations

import cv2
import numpy as np

from vision import grid

N = 9
CELL = 32
BOARD = (N + 1) * CELL
TABLE = 2 * CELL
SIDE = BOARD + 2 * TABLE
AT = TABLE + CELL
FAR = AT + (N - 1) * CELL


def ink_lines(width: int) -> np.ndarray:
    """The mask (SIDE, SIDE) uint8, 1 on the board's grid lines drawn ``width`` px wide."""
    lines = np.zeros((SIDE, SIDE), np.uint8)
    for k in range(N):
        p = AT + CELL * k
        cv2.line(lines, (AT, p), (FAR, p), 1, width)
        cv2.line(lines, (p, AT), (p, FAR), 1, width)
    return lines


def camera(light: np.ndarray, quality: int) -> np.ndarray:
    """The picture (SIDE, SIDE, 3) uint8 a camera makes of ``light`` (float levels, each
    channel already clipped where the sensor clips it): a slight blur, then a JPEG of
    ``quality``."""
    shot = cv2.GaussianBlur(np.clip(light, 0, 255), (3, 3), 0.6)
    ok, data = cv2.imencode(".jpg", np.round(shot).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert out is not None
    return out


def cells_off(h: np.ndarray) -> float:
    """How far (cells) the farthest grid corner of the homography ``h`` lies from the drawn
    one's, the corners taken in whichever turn matches best."""
    truth = np.array([[AT, AT], [FAR, AT], [FAR, FAR], [AT, FAR]], np.float64)
    found = grid.corners(h, N)
    return float(min(np.abs(np.roll(found, r, axis=0) - truth).max() for r in range(4))) / CELL
