"""The ground surrounds the board (issue 19's missed kind): a crowded board photographed by a
phone from 50 degrees over its near edge, filling the frame's width, on a dark wooden table
under a coloured lamp, dim, saved twice. The table fills so much of the picture's middle
that its colour is among the middle's commonest, where the board's wood is looked for; the
wood itself, dim and split by the light into several colours, gives no slab of its own. A
colour that takes most of all four sides of the picture's border is the ground, never the
board: the board is the figure standing out from it (`vision.outline.surrounds`)."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from vision import BoardNotFound, read_board
from vision.config import OUTLINE
from vision.evaluate import corner_error_cells, to_array
from vision.outline import surrounds
from vision.synth import Scene, Synthetic, random_position, render

TABLE = np.array([20.0, 0.0, 10.0])
WOOD = np.array([60.0, 10.0, 40.0])


def picture(board: list[tuple[float, float]], width: int = 192,
            height: int = 256) -> np.ndarray:
    """A picture (as `vision.outline._lab` gives it) of the table with the board's slab
    drawn over it: ``board`` the slab's corners as shares of the frame's width and height
    (outside 0 .. 1 where the frame cuts the board)."""
    out = np.empty((height, width, 3), np.float32)
    out[:] = TABLE
    corners = np.array([[x * width, y * height] for x, y in board], np.int32)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [corners], 255)
    out[mask > 0] = WOOD
    return out


def test_the_table_around_a_board_filling_the_frames_width_is_ground() -> None:
    # Seen from 45 degrees, the slab reaches the frame's left and right sides over
    # about a third of their length; top and bottom are the table's.
    lab = picture([(0.05, 0.35), (0.95, 0.35), (1.02, 0.75), (-0.02, 0.75)])
    assert surrounds(lab, TABLE, OUTLINE)
    assert not surrounds(lab, WOOD, OUTLINE)


def test_a_board_filling_a_landscape_frames_height_leaves_the_table_as_it_was() -> None:
    # The slab takes most of the top and bottom sides: the table takes all of two sides
    # only, as it does beside a board the frame cuts on one side; it is not called ground
    # (the outline looks as before), and the board's wood is not either.
    lab = picture([(0.2, -0.02), (0.8, -0.02), (0.85, 1.02), (0.15, 1.02)], 256, 192)
    assert not surrounds(lab, TABLE, OUTLINE)
    assert not surrounds(lab, WOOD, OUTLINE)


def test_a_board_cut_on_one_side_is_no_ground_nor_is_the_table_beside_it() -> None:
    # A crop that cuts the wood margin off the left: the board takes most of the left
    # side of the border, so neither colour surrounds; the outline looks as before.
    lab = picture([(-0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (-0.1, 0.9)])
    assert not surrounds(lab, WOOD, OUTLINE)
    assert not surrounds(lab, TABLE, OUTLINE)


def test_a_board_running_off_every_side_is_taken_for_ground() -> None:
    # Then the frame cuts all four of its sides and no edge of its own is left to fit.
    lab = picture([(-0.1, -0.1), (1.1, -0.1), (1.1, 1.1), (-0.1, 1.1)])
    assert surrounds(lab, WOOD, OUTLINE)


DIM = Scene(width=720, height=960, camera_tilt=50.0, stone_height=0.2, framing="phone aimed",
            turn=4.0, surface="dark table", jitter=0.12, line_width=1 / 22, blur=2.0,
            noise=9.0, cast=0.6, exposure=0.4, resaved=60)
"""The scenes benchmark's "aimed phone 50, full, lamp, exposure, resaved"."""


@functools.cache
def dim(seed: int) -> Synthetic:
    return render(random_position(19, seed, stones=0.9), seed, DIM)


@pytest.mark.parametrize("seed", [2])
def test_a_full_board_on_a_table_among_its_middles_colours_is_read(seed: int) -> None:
    shot = dim(seed)
    try:
        reading = read_board(shot.image)
    except BoardNotFound as lost:
        pytest.fail(f"seed {seed}: {lost}")
    assert reading.size == 19
    assert corner_error_cells(reading.corners, shot.corners, 19) < 0.25
    right = (to_array(reading.rows()) == to_array(shot.position.rows()))[~shot.hidden]
    assert right.mean() >= 0.97


def test_the_table_is_among_the_middles_colours_in_that_scene() -> None:
    from vision.outline import _lab, neutral, shrink, wood_colours
    small, _ = shrink(dim(2).image, OUTLINE.side)
    lab = _lab(neutral(small, OUTLINE), OUTLINE)
    assert sum(surrounds(lab, c, OUTLINE) for c in wood_colours(lab, OUTLINE)) == 1

