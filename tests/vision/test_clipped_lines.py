"""Finding a board whose wood an exposure took to the ceiling in every channel: the light
is so strong that the wood is 255 in blue, green and red alike, so no colour channel kept
its contrast (`test_clipped_channels` is the case where one did). The printed lines are ink,
far darker than the wood, and are left as shallow dips under that flat plateau: shallower
than the contrast a line needs on wood that kept its noise (``line_offset``), yet sure, as
the plateau carries no noise. A photo saved in grey is left as it is
(`test_clipped_channels`): only a colour photo's channels can say that every one of them
lost the wood the grey lost.

    wood at 255 everywhere, lines a few levels under it, black stones
    ###########################
    #  |   |   |   |   |   |  #     <- a dip of 3 to 5 levels, not the 6 the grey needs
    #--+---+---O---+---+---+--#
    #  |   |   |   |   |   |  #
    ###########################
"""

from __future__ import annotations

import importlib

import cv2
import numpy as np
import pytest

from vision.config import VISION
from vision.errors import BoardNotFound
from vision.locate import ceiling_dips, line_image, locate, to_gray, working_image

from .square_board import AT, BOARD, CELL, N, SIDE, TABLE, camera, cells_off, ink_lines

locate_module = importlib.import_module("vision.locate")
CFG = VISION.locate
SEEDS = range(6)


def clipped_board(seed: int, dip: float) -> np.ndarray:
    """A 9x9 board square-on (`square_board`) on a dark table, black stones on a seeded
    tenth of its points, its wood over the ceiling in every channel and its lines ``dip``
    levels under what the wood shows (sensor noise and the ceiling, then the `camera`)."""
    rng = np.random.default_rng(seed)
    img = np.zeros((SIDE, SIDE, 3), np.float64)
    img[:] = (40, 55, 70)
    # A warm wood (blue the least of its channels) under a light rising from the left:
    # every channel past the ceiling all over the board.
    gain = np.linspace(0.98, 1.12, SIDE)[None, :, None]
    img[TABLE:TABLE + BOARD, TABLE:TABLE + BOARD] = \
        (np.array([258.0, 275.0, 285.0]) * gain)[:, TABLE:TABLE + BOARD]
    img += rng.normal(0.0, 1.5, img.shape)  # the sensor's noise, before it clips
    img = np.minimum(img, 255.0)
    img -= dip * ink_lines(2)[:, :, None]  # the ink: ``dip`` under what the wood shows
    for (j, i), pick in np.ndenumerate(rng.random((N, N))):
        if pick < 0.1:
            tint = tuple(float(v) for v in 25.0 + rng.normal(0.0, 2.0, 3))  # never neutral
            cv2.circle(img, (AT + CELL * i, AT + CELL * j), int(0.47 * CELL), tint,
                       -1, cv2.LINE_AA)
    return camera(img, 92)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_wood_is_at_the_ceiling_in_every_channel(seed: int) -> None:
    image = clipped_board(seed, 4.0)
    middle = locate_module._middle(image, CFG)
    assert float(np.mean(np.min(middle, axis=2) >= CFG.ceiling)) >= CFG.clipped_board


@pytest.mark.parametrize("seed", SEEDS)
def test_the_grey_alone_shows_no_net_of_lines(seed: int) -> None:
    """What the dips are read for: in the grey the lines' contrast is under
    ``line_offset``, and no net of lines is left to find the board by. Without them the
    board is lost, or placed right by what else shows: on seed 0 the slab's edges say
    where the grid its few black stones fit ends (`vision.grid_score.slab_chooses`)."""
    image = clipped_board(seed, 4.0)
    work = working_image(to_gray(image), CFG)
    assert locate_module._net(work[0], CFG) is None
    try:
        found = locate(image, None, VISION, work=work)
    except BoardNotFound:
        return
    assert found.size == N
    assert cells_off(found.homography) < 0.1


@pytest.mark.parametrize("seed", SEEDS)
def test_the_grid_is_found_in_the_dips_under_the_clipped_wood(seed: int) -> None:
    image = clipped_board(seed, 4.0)
    assert np.array_equal(line_image(image, CFG), ceiling_dips(np.min(image, axis=2), CFG))
    found = locate(image, None, VISION)
    assert found.size == N
    assert cells_off(found.homography) < 0.1


def test_a_dip_of_the_ceilings_noise_leaves_the_ceiling_by_a_lines_contrast() -> None:
    levels = np.arange(256, dtype=np.uint8)[None, :]
    spread = ceiling_dips(levels, CFG).astype(int)[0]
    step = round(CFG.ceiling_noise)
    assert spread[255] == 255
    assert 255 - spread[255 - step] >= CFG.line_offset - 1  # rounding
    assert np.all(np.diff(spread) >= 0)  # the order of levels is kept: stones stay dark
