"""White stones in a grey photo, where the wood has no colour for a stone to take away:
only lightness tells them from the wood. A white stone is lighter than the wood under the
same light, but never lighter than the sensor's ceiling: on wood lit near the ceiling it
clips there, and rises over the wood only as far as the room left allows. Scenes are drawn
in the tests (`misreads`) or here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.stones import BLACK, EMPTY, WHITE, read_stones

from .misreads import read, scene

CELL = 32


def bright_grey_board(seed: int, wood: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 9x9 board seen square-on in grey, its wood lit to the grey level ``wood`` (a
    photo exposed for the dark stones, or a bright room), the white stones clipped at 255
    with a soft darker rim, the black ones dark; the lines plain. The image, its lattice ->
    pixel homography and its truth (9, 9) of 0 empty, 1 black, 2 white.

        . . . . . . . . .
        . . X . . . O . .     (the stones drawn at random points,
        . . . . O . . . .      a third of the board taken)
    """
    rng = np.random.default_rng(seed)
    n = 9
    side = (n + 1) * CELL
    img = np.full((side, side), wood)
    for k in range(n):
        p = CELL * (k + 1)
        cv2.line(img, (CELL, p), (n * CELL, p), wood - 70.0, 1)
        cv2.line(img, (p, CELL), (p, n * CELL), wood - 70.0, 1)
    truth = rng.choice([EMPTY, BLACK, WHITE], size=(n, n), p=[0.67, 0.165, 0.165])
    r = int(0.47 * CELL)
    for (j, i), colour in np.ndenumerate(truth):
        centre = (CELL * (i + 1), CELL * (j + 1))
        if colour == BLACK:
            cv2.circle(img, centre, r, rng.uniform(20.0, 45.0), -1, cv2.LINE_AA)
        elif colour == WHITE:
            cv2.circle(img, centre, r, wood - rng.uniform(25.0, 45.0), -1, cv2.LINE_AA)
            cv2.circle(img, centre, r - 2, 255.0, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img + rng.normal(0, 2, img.shape), (0, 0), 0.8)
    grey = np.clip(img, 0, 255).astype(np.uint8)
    hom = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1.0]])
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), hom, truth


@pytest.mark.parametrize("seed", range(4))
def test_white_stones_on_grey_wood_lit_near_the_ceiling_are_white(seed: int) -> None:
    # The wood at 238 to 244 of 255: a white stone clipped at 255 rises 4.5% to 7% over it,
    # under the 8% a white stone must rise on wood with room above it.
    rng = np.random.default_rng(100 + seed)
    image, hom, truth = bright_grey_board(seed, float(rng.uniform(238.0, 244.0)))
    labels, _ = read_stones(image, hom, 9)
    assert (labels == truth).all(), labels


@pytest.mark.parametrize("seed", range(3))
def test_in_a_grey_photo_with_room_above_the_wood_no_empty_point_reads_white(seed: int) -> None:
    # The wood well under the ceiling: a white stone must rise the full `white_rise`.
    s = scene("grayscale", 9, seed, taken=0.4)
    labels, _ = read(s)
    assert not ((s.truth == EMPTY) & (labels == WHITE) & ~s.hidden).any(), labels
