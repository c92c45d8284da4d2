"""Where the stones reach only one outer line of an axis and the lines hide under them, the
slab of wood says where the grid ends (`vision.grid_score.slab_chooses`, issue 19).

A grid the stones place inside a crowded board's slab may be the board's own or the same
lattice a whole line off: where no black stone stands on the far row, both have every stone
on a point, and on a crowded board the lines barely show to choose. A board's outer lines
lie half a cell to a cell inside its edges on every side; the grid a line off puts one of
them a cell nearer its edge, on it or past it::

    slab edge |  margin  | outer line ... outer line |  margin  | slab edge
    the board's own:   0.7 cell either side
    a line off:        1.7 cells on one side, -0.3 on the other (past the edge)
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid
from vision.config import VISION
from vision.evaluate import corner_error_cells
from vision.grid import GridFit
from vision.grid_score import slab_chooses, slab_margins
from vision.locate import locate
from vision.outline import Outline
from vision.synth import Scene, random_position, render

N = 19
CELL = 20.0
OPEN_TOP = np.array([[False, False], [True, False]])  # the stones miss the line j = 0
OPEN_BOTTOM = np.array([[False, False], [False, True]])  # ... the line j = N - 1
TRUST = VISION.outline.slab_trust
"""The most the slab's word on a grid's phase counts for (the lines' full word is 1)."""


EVERY_SIDE = (True, True, True, True)


def board(margin: float = 0.7, seen: tuple[bool, bool, bool, bool] = EVERY_SIDE
          ) -> tuple[GridFit, Outline]:
    """A grid of 20 px cells seen square on, and its slab ``margin`` cells beyond its outer
    lines on every side (corners clockwise from the top-left; sides top, right, bottom,
    left ``seen`` or cut by the picture's border)."""
    h = np.array([[CELL, 0.0, 50.0], [0.0, CELL, 40.0], [0.0, 0.0, 1.0]])
    lo, hi = -margin, N - 1 + margin
    quad = grid.apply(h, np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]]))
    return GridFit(h, N, 0.5), Outline(quad, seen, 1.0)


def test_the_slab_margins_of_a_board_are_its_margins_on_every_side() -> None:
    fit, slab = board(0.7)
    assert np.allclose(slab_margins(fit.homography, N, slab), 0.7)


def test_the_slab_vouches_for_the_boards_own_grid_where_the_stones_miss_its_far_row() -> None:
    fit, slab = board(0.7)
    assert slab_chooses(fit, OPEN_TOP, slab, VISION) == TRUST


def test_the_slab_does_not_vouch_for_a_grid_a_line_off() -> None:
    # The same lattice a line down: its first line is the board's second, which holds
    # stones, and its last lies past the slab's bottom edge, where no stone stands.
    fit, slab = board(0.7)
    off = GridFit(grid.shifted(fit.homography, 0, 1), N, 0.5)
    assert slab_chooses(off, OPEN_BOTTOM, slab, VISION) == 0.0


@pytest.mark.parametrize("margin", [0.45, 0.7, 1.0])
def test_an_outline_a_third_of_a_cell_short_on_the_open_side_still_chooses(
        margin: float) -> None:
    fit, slab = board(margin)
    quad = slab.quad.copy()
    quad[:2, 1] += CELL / 3  # the far edge traced a third of a cell inwards
    assert slab_chooses(fit, OPEN_TOP, Outline(quad, slab.seen, 1.0), VISION) == TRUST


def test_a_side_the_pictures_border_cuts_says_nothing_of_where_the_grid_ends() -> None:
    # The picture ends at the slab's bottom and left: the outline stands on its border
    # there, wherever the board's edge is. Bottom cut: the top edge still speaks, less
    # surely than both (a margin a cell wider than this board's is one a thick board's
    # near edge may nearly have).
    fit, slab = board(0.7, seen=(True, True, False, False))
    assert np.isnan(slab_margins(fit.homography, N, slab)[1, 1])
    assert 0.0 < slab_chooses(fit, OPEN_TOP, slab, VISION) < TRUST
    # Top and bottom both cut: nothing says where the grid ends along that axis, and a
    # border standing a line nearer than a board's margin does not count against it.
    fit, slab = board(0.2, seen=(False, True, False, True))
    off = GridFit(grid.shifted(fit.homography, 0, 1), N, 0.5)
    assert slab_chooses(fit, OPEN_TOP, slab, VISION) == 0.0
    assert slab_chooses(off, OPEN_BOTTOM, slab, VISION) == 0.0


def test_without_a_slab_only_the_stones_and_the_lines_choose() -> None:
    fit, _ = board()
    assert slab_chooses(fit, OPEN_TOP, None, VISION) == 0.0
    assert slab_chooses(fit, np.zeros((2, 2), bool), None, VISION) == 1.0


LAMP_AIMED = Scene(width=720, height=960, camera_tilt=50.0, stone_height=0.2,
                   framing="phone aimed", turn=4.0, surface="dark table", jitter=0.12,
                   line_width=1 / 22, blur=2.0, noise=9.0, cast=0.6, exposure=0.4,
                   resaved=60)
"""`benchmarks/vision_scenes.py`'s "aimed phone 50, full, lamp, exposure, resaved": a
finished game photographed by a phone from 50 degrees under a coloured lamp, saved twice."""


def test_a_finished_game_whose_far_row_shows_no_black_stone_is_placed_by_its_slab() -> None:
    # Seed 6: the lamp and the soft focus hide the lines; the black stones on the far row,
    # foreshortened and crowded, are not seen on their points, so the stones reach three
    # outer lines only. Before the slab chose, no grid was trusted (confidence 0.00); the
    # slab vouches for it, doubtfully, and the point net then confirms it.
    shot = render(random_position(19, 6, stones=0.9), 6, LAMP_AIMED)
    fit = locate(shot.image)
    assert fit.size == 19
    assert corner_error_cells(fit.corners, shot.corners, 19) < 0.25
