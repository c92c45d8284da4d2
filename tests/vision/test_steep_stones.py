"""Stones on a crowded board seen steeply, once the board is found (issue 19).

Measured per point (`benchmarks/vision_scene_points.py`) on the scenes benchmark's "phone
60, crowded", seeds 0 to 2: the grid lies within 0.06 cell of the truth at every point,
and 9 of the 1,083 points are read wrong, 8 of them empty points read white, beside or
behind black stones, 5 of them on the far row. The grid is right; the stones' judgement
is not: on a crowded board every cell centre touches a stone, the wood a point is judged
against falls back to the centres that keep the wood's colour, and a black stone leaning
over a centre (its body seen up to 0.7 cell towards the far side at 60 degrees) darkens
it while leaving the wood's hue. Setting such centres aside fixed this row (9 -> 5 wrong,
a board perfect) but cost the "steeper 20" perturbation of the dev photos (99.734% ->
99.708%) and "phone 45, crowded, coloured lamp" (99.91% -> 99.63%), so it did not land.
The point net (`vision.point_net`), weighed with the measured reading, reads the point
empty: the test, marked as the failure it recorded until then, holds."""

from __future__ import annotations

import functools

import numpy as np

from rules import Cell
from tests.vision.test_steep_phase import steep as shot  # the same "phone 60, crowded" shots
from vision import Reading, grid, read_board
from vision.evaluate import to_array


@functools.cache
def reading(seed: int) -> Reading:
    out = read_board(shot(seed).image)
    assert out.size == 19
    return out


def read(seed: int) -> np.ndarray:
    """The steep shot ``seed`` read: (19, 19) 0 empty, 1 black, 2 white, row 0 at the top."""
    return to_array(reading(seed).rows())


def test_an_empty_point_behind_and_beside_black_stones_reads_empty_seen_from_60_degrees() -> None:
    # Seed 2, point (4, 4): empty, a black stone in front of it and one either side of the
    # point behind; read white against centres those stones' sides darken.
    assert to_array(shot(2).position.rows())[4, 4] == Cell.EMPTY
    assert read(2)[4, 4] == Cell.EMPTY


def test_the_grid_of_a_crowded_board_seen_from_60_degrees_is_right_where_points_go_wrong() -> None:
    # The misreads are the stones' judgement, not the grid's: the grid found lies within a
    # tenth of a cell of the truth at every point.
    s = shot(2)
    lat = grid.lattice(19)
    at = grid.apply(s.homography, lat)
    cell = np.linalg.norm(grid.apply(s.homography, lat + [1.0, 0.0]) - at, axis=1)
    off = np.linalg.norm(grid.apply(reading(2).homography, lat) - at, axis=1) / cell
    assert off.max() < 0.1
