"""Reading stones on a board the exposure clipped in part: a light that brightens the wood
across the board until, on its bright side, every channel reaches the sensor's ceiling
(255). There the wood has lost its colour to the ceiling, not to a stone, and its faint
lines are under the contrast a line needs to be seen; a white stone shows neither lighter
nor less coloured than that wood. Boards drawn square-on, read on their true grid."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.config import STONES
from vision.stones import BLACK, EMPTY, WHITE, at_ceiling, features, read_stones

CELL = 32
N = 9
WOOD = (120, 190, 225)  # BGR, a light kaya
LINE = (100, 160, 190)  # faint lines: under 0.06 of the wood's lightness once clipped
BLACK_STONE = (25, 25, 25)
WHITE_STONE = (235, 238, 240)


def clipped_board(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 9x9 board with stones at random (seeded), lit from the right so strongly that the
    wood of all but the two left-hand columns is clipped white: the image,
    its lattice -> pixel homography and the stones drawn (N, N) as `Cell` codes."""
    rng = np.random.default_rng(seed)
    side = (N + 1) * CELL
    img = np.zeros((side, side, 3), np.float64)
    img[:] = WOOD
    for k in range(N):
        p = CELL * (k + 1)
        cv2.line(img, (CELL, p), (N * CELL, p), LINE, 2)
        cv2.line(img, (p, CELL), (p, N * CELL), LINE, 2)
    stones = np.full((N, N), EMPTY, np.int64)
    for (j, i), pick in np.ndenumerate(rng.random((N, N))):
        if pick < 0.15:
            stones[j, i] = BLACK
        elif pick < 0.30:
            stones[j, i] = WHITE
    for (j, i), cell in np.ndenumerate(stones):
        if cell != EMPTY:
            colour = BLACK_STONE if cell == BLACK else WHITE_STONE
            cv2.circle(img, (CELL * (i + 1), CELL * (j + 1)), int(0.47 * CELL), colour, -1,
                       cv2.LINE_AA)
    # The light: from x1.4 on the left to x2.8 on the right (255 / 120 = 2.1: every
    # channel of the wood clips from about the third column on, most of the board).
    gain = np.linspace(1.4, 2.8, side)[None, :, None]
    img = img * gain + rng.normal(0.0, 2.0, img.shape)
    photo = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (3, 3), 0.8)
    homography = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1]], np.float64)
    return photo, homography, stones


def test_the_drawn_light_clips_the_wood_on_the_right() -> None:
    photo, _, _ = clipped_board(0)
    lab = cv2.cvtColor(photo, cv2.COLOR_BGR2LAB)[:, :, 0].astype(float)
    assert at_ceiling(lab[:, -CELL // 2], STONES).mean() > 0.9  # the right margin
    assert not at_ceiling(lab[:, CELL // 2], STONES).any()  # the left margin


@pytest.mark.parametrize("seed", range(8))
def test_empty_inner_points_on_clipped_wood_stay_empty(seed: int) -> None:
    """Where the exposure clipped the board's wood, clipped wood beside a point whose lines
    are hidden is no stone over that wood: an empty point on clipped wood (its four cell
    centres at the ceiling) is judged against it, not against darker wood further off. (On
    the outer lines the wood beyond the grid is no reference: not looked at here.)"""
    photo, homography, stones = clipped_board(seed)
    labels, _ = read_stones(photo, homography, N, STONES)
    centres = at_ceiling(features(photo, homography, N, STONES).centre_light, STONES)
    on_clipped = centres[:-1, :-1] & centres[1:, :-1] & centres[:-1, 1:] & centres[1:, 1:]
    inner = np.zeros((N, N), bool)
    inner[1:-1, 1:-1] = True
    looked = inner & on_clipped & (stones == EMPTY)
    assert looked.sum() >= 10
    wrong = [(int(j), int(i)) for j, i in zip(*np.nonzero(looked & (labels != EMPTY)))]
    assert wrong == []


@pytest.mark.parametrize("seed", range(4))
def test_stones_on_the_unclipped_wood_are_read(seed: int) -> None:
    photo, homography, stones = clipped_board(seed)
    labels, _ = read_stones(photo, homography, N, STONES)
    left = np.zeros((N, N), bool)
    left[:, :2] = True
    placed = (stones != EMPTY) & left
    assert (labels[placed] == stones[placed]).all()
    assert (labels[stones == BLACK] == BLACK).all()
