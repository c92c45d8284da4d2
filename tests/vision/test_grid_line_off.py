"""A crowded board whose first line is bare: a grid a whole line off still has every black
stone on one of its points, so the stones cannot place it (issue 19, downscaled photos).

The lines can: the board's grid ends at its outer lines, while past the outer line of a
grid a line off, the board's first line runs on::

    the board's own grid:   wood | + X O X ... X O  | wood
                                   ^ outer lines  ^
    a grid a line off:      wood | + X O X ... X O  | wood
                                     ^ outer lines    ^
                                (a bare line runs     (nothing past the
                                 on past it)           board's edge)

so `vouched` moves such a grid back onto the board's own, and leaves the board's own grid
where it is.
"""

from __future__ import annotations

import numpy as np
import pytest

from rules import Position
from vision import grid
from vision.config import VISION
from vision.grid import GridFit
from vision.grid_score import vouched
from vision.locate import working
from vision.stone_lattice import dark_centres
from vision.synth import Scene, Synthetic, random_position, render

TOP_DOWN = Scene(width=600, height=600, turn=0.0)
"""A board from above filling a Roboflow-sized (608 px) frame, its lattice's i = 0 on the
picture's left."""


def bare_first_line(seed: int, scene: Scene = TOP_DOWN) -> Synthetic:
    """A board 80% taken whose leftmost line (i = 0) holds no stone."""
    rows = ["." + row[1:] for row in random_position(19, seed, stones=0.8).rows()]
    return render(Position(rows), seed, scene)


def cells_apart(a: np.ndarray, b: np.ndarray, cell: float) -> float:
    """How far apart (cells of ``cell`` px) the grids ``a`` and ``b`` put their worst point."""
    pts = grid.lattice(19)
    return float(np.linalg.norm(grid.apply(a, pts) - grid.apply(b, pts), axis=1).max() / cell)


def vouched_from(shot: Synthetic, di: int) -> tuple[np.ndarray, np.ndarray, float]:
    """The board's own grid in the working image, and what `vouched` makes of it moved
    ``di`` lines along i, with the cell's size (px) there."""
    small, to_full = working(shot.image, VISION.locate)
    own = np.linalg.inv(to_full) @ shot.homography
    own /= own[2, 2]
    found = dark_centres(small, VISION.locate)
    assert found is not None, "the black stones are found"
    fit = vouched(small, GridFit(grid.shifted(own, di, 0), 19, 0.1), found.centres, 19, VISION)
    cell = float(np.linalg.norm(grid.apply(own, np.array([[1.0, 9.0]]))
                                - grid.apply(own, np.array([[0.0, 9.0]]))))
    return own, fit.homography, cell


@pytest.mark.parametrize("seed", range(4))
def test_a_grid_a_line_off_is_moved_onto_the_bare_line_it_left_out(seed: int) -> None:
    own, found, cell = vouched_from(bare_first_line(seed), 1)
    assert cells_apart(found, own, cell) < 0.1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scene", [TOP_DOWN, Scene(width=600, height=600, turn=0.0,
                                                   bevel=True, surface="light table")],
                         ids=["plain", "bright bevel, light table"])
def test_the_boards_own_grid_stays_where_it_is(seed: int, scene: Scene) -> None:
    own, found, cell = vouched_from(bare_first_line(seed, scene), 0)
    assert cells_apart(found, own, cell) < 0.1
