"""`grow`: a lattice found on part of the grid is extended line by line to the whole board,
and a lattice a line off (its outer line out on the wood) slides back onto the board."""

from __future__ import annotations

import cv2
import numpy as np

from vision import grid
from vision.config import LOCATE, SIZES
from vision.grid import GridFit
from vision.grid_refine import grow

X0, CELL = 60.0, 28.0
BOARD = np.array([[CELL, 0, X0], [0, CELL, X0], [0, 0, 1]])  # lattice -> pixels


def _drawn_board(marks_every: int = 0) -> np.ndarray:
    """A 19 x 19 grid drawn dark on light wood; with ``marks_every``, every so many rows'
    line is drawn on a cell past the right edge line (grain, a scratch, a ruler's ticks)."""
    img = np.full((640, 640), 190, np.uint8)
    end = int(X0 + 18 * CELL)
    for k in range(19):
        p = int(round(X0 + k * CELL))
        cv2.line(img, (int(X0), p), (end, p), 60, 2)
        cv2.line(img, (p, int(X0)), (p, end), 60, 2)
    for k in range(0, 19, marks_every) if marks_every else ():
        p = int(round(X0 + k * CELL))
        cv2.line(img, (end, p), (int(end + CELL), p), 60, 2)
    return img


def _top_left(fit: GridFit) -> list[float]:
    corner: list[float] = np.round(grid.apply(fit.homography, [[0, 0]])[0], 1).tolist()
    return corner


def test_a_lattice_on_part_of_the_board_grows_to_the_whole_grid() -> None:
    #   + - - - - - - - - - +
    #   |  . . . . . . . .  |     a 9 x 9 lattice on lines 4..12 of the board
    #   |  . [9 x 9] . . .  |     grows to all 19 lines
    #   + - - - - - - - - - +
    patch = GridFit(grid.shifted(BOARD, 4, 4), 9, 0.0)
    grown = grow(_drawn_board(), patch, None, SIZES, LOCATE)
    assert grown.size == 19
    assert _top_left(grown) == [X0, X0]


def test_a_lattice_a_line_off_slides_onto_the_board() -> None:
    #   column:  1 2 ...          18 | 19 (wood)
    #            + - - - - - - - - + - -      the start takes lines 1..19: its right
    #            |                 | - -      outer line is out on the wood, where a few
    #            + - - - - - - - - +          marks cross into it (7 rows of 19), and the
    #   line 0 beyond its left side is drawn in full: the lattice is one line off.
    off = GridFit(grid.shifted(BOARD, 1, 0), 19, 0.0)
    grown = grow(_drawn_board(marks_every=3), off, None, SIZES, LOCATE)
    assert grown.size == 19
    assert _top_left(grown) == [X0, X0]
