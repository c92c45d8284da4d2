"""A full board seen steeply, whose stones repeat every cell: a grid a row off is vouched
for by them almost as well as the board's own (issue 19, honest confidence).

Geometry says what the stones cannot: the board is a slab cut symmetric, with wood a
margin wide beyond each outer line. A grid a row off has the slab's edge or the table
beyond one outer line and the wood beyond the opposite one::

    the board's own grid:   table | wood  X O X ... X O X  wood | table
                                          ^ outer lines ^
    a grid a row off:       table | wood  X O X ... X O X  wood | table
                                                ^ outer lines   ^
                                    (wood and stones)      (the slab's edge)

so either the reader places the board right, or the board confidence it reports falls
under `LocateConfig.min_confidence` (`vision.grid_score.BoardDoubts.lopsided`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import BoardNotFound, grid, read_board
from vision.config import VISION
from vision.grid import GridFit
from vision.grid_score import board_doubts, trusted
from vision.locate import working
from vision.synth import Scene, Synthetic, random_position, render

FULL_STEEP = Scene(width=720, height=960, camera_tilt=50.0, stone_height=0.2,
                   framing="phone aimed", turn=4.0, surface="dark table", jitter=0.12,
                   line_width=1 / 22, blur=2.0, noise=9.0, cast=0.6, exposure=0.4,
                   resaved=60)
"""The scenes benchmark's "aimed phone 50, full, lamp, exposure, resaved": a phone aimed at
a finished game from 50 degrees over the near edge, under a lamp, saved twice."""


def full_board(seed: int) -> Synthetic:
    return render(random_position(19, seed, stones=0.9), seed, FULL_STEEP)


def cells_off(shot: Synthetic, homography: np.ndarray) -> float:
    """How far (cells) the grid ``homography`` puts its worst point from the true one."""
    pts = grid.lattice(19)
    truth = grid.apply(shot.homography, pts)
    cell = np.linalg.norm(grid.apply(shot.homography, pts + [1.0, 0.0]) - truth, axis=1)
    return float((np.linalg.norm(grid.apply(homography, pts) - truth, axis=1) / cell).max())


def test_a_full_steep_board_is_placed_right_or_not_trusted() -> None:
    """Seed 3 of the scene: its stones vouched for a grid a row off (1.2 cells at worst)
    with board confidence 0.36 before its margins were weighed."""
    shot = full_board(3)
    try:
        reading = read_board(shot.image)
    except BoardNotFound:
        return  # not found is honest too
    off = cells_off(shot, reading.homography)
    assert off < 0.5 or reading.board_confidence < VISION.locate.min_confidence, \
        f"a grid {off:.2f} cells off trusted at {reading.board_confidence:.2f}"


@pytest.mark.parametrize("seed", [1, 3])
def test_a_grid_a_row_off_has_lopsided_margins_and_the_boards_own_has_not(seed: int) -> None:
    shot = full_board(seed)
    small, to_full = working(shot.image, VISION.locate)
    own = np.linalg.inv(to_full) @ shot.homography
    own /= own[2, 2]
    mine = board_doubts(small, GridFit(own, 19, 0.6), VISION.locate)
    assert mine.lopsided < 0.1
    for di, dj in ((1, 0), (0, 1)):  # pushed onto the right or the near edge
        slipped = board_doubts(small, GridFit(grid.shifted(own, di, dj), 19, 0.6),
                               VISION.locate)
        assert slipped.lopsided > 0.3
        assert trusted(0.6, slipped, VISION.locate) < 0.5 * trusted(0.6, mine, VISION.locate)
    assert trusted(0.6, mine, VISION.locate) >= VISION.locate.min_confidence


def test_margins_unseen_on_one_side_are_no_evidence_of_lopsidedness() -> None:
    """A band beyond an outer line outside the picture tells nothing: a board cut by the
    frame on one side is not doubted for it."""
    shot = full_board(1)
    small, to_full = working(shot.image, VISION.locate)
    own = np.linalg.inv(to_full) @ shot.homography
    h, w = small.shape
    # Keep the left part of the picture only: the board's right margin leaves it.
    cut = small[:, : int(0.8 * w)].copy()
    seen = board_doubts(small, GridFit(own / own[2, 2], 19, 0.6), VISION.locate)
    cropped = board_doubts(cut, GridFit(own / own[2, 2], 19, 0.6), VISION.locate)
    assert cropped.lopsided <= max(seen.lopsided, 0.3)


def test_the_weight_is_a_config_field() -> None:
    quiet = dataclasses.replace(VISION.locate,
                                doubt_weights=(*VISION.locate.doubt_weights[:2], 0.0))
    shot = full_board(3)
    small, to_full = working(shot.image, VISION.locate)
    own = np.linalg.inv(to_full) @ shot.homography
    slipped = board_doubts(small, GridFit(grid.shifted(own / own[2, 2], 1, 0), 19, 0.6),
                           VISION.locate)
    assert trusted(0.6, slipped, quiet) > trusted(0.6, slipped, VISION.locate)
