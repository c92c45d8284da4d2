"""Finding the grid on a board whose grey the exposure clipped: too much light lifts the wood,
and then its ink lines, to the sensor's ceiling in the weighted grey, but a sensor clips each
colour channel on its own, and the channel the wood is weakest in (blue for a yellow wood
under a white light) still holds the lines. The lines are looked for there, the channel chosen
by how much of the board's middle each has lost to the ceiling, never by its name. Where
the ink lines still stand out of the clipped wood in grey, the grey is kept.

    grey: wood and lines at 255      the least clipped channel: the lines still dark
    . . . . . . . . .                +---+---+---+---+
    . . . . . . . . .                |   |   |   |   |
    . . . . . . . . .                +---+---+---+---+
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from vision import grid
from vision.config import VISION
from vision.errors import BoardNotFound
from vision.locate import line_image, locate, to_gray, working_image
from vision.synth import Scene, Synthetic, random_position, render

from .ceiling_middle import CFG, at_ceiling

N = 9
LIGHT = 2.4  # the light over what the exposure was set for: the wood clips in grey
SEEDS = range(7)
LOST = (0, 1, 2, 4)  # the seeds whose boards the grey alone loses, or finds a fifth of a cell off
KEPT = (5, 6)  # the seeds whose lines stand out in grey about as plainly as in any channel


@functools.cache
def clipped_board(seed: int, grayscale: bool = False) -> Synthetic:
    """A 9x9 board, a fifth of its points taken, under ``LIGHT`` times the light its exposure
    was set for (`Scene.overexposed`), its lines a real board's width (1/22 cell), with no
    glare nor shading to spare any part of it."""
    scene = Scene(overexposed=(LIGHT, LIGHT), line_width=1 / 22, glare=False, gradient=0.0,
                  grayscale=grayscale)
    return render(random_position(N, seed, 0.2), seed, scene)


def cells_off(found: grid.GridFit, shot: Synthetic) -> float:
    """How far (cells) the farthest of ``found``'s grid corners lies from the truth's."""
    cell = float(np.linalg.norm(shot.corners[1] - shot.corners[0])) / (N - 1)
    return float(np.abs(grid.corners(found.homography, N) - shot.corners).max()) / cell


@pytest.mark.parametrize("seed", SEEDS)
def test_the_light_clips_the_wood_in_grey_but_one_channel_keeps_more(seed: int) -> None:
    image = clipped_board(seed).image
    grey = float(at_ceiling(to_gray(image)))
    channels = at_ceiling(image)
    assert grey >= CFG.clipped_board
    assert channels.min() < grey


@pytest.mark.parametrize("seed", SEEDS)
def test_the_grid_of_a_clipped_board_is_found_in_the_channel_that_kept_its_lines(
        seed: int) -> None:
    """Those whose lines the grey lost (`LOST`) are found in the channel that kept them,
    the others in the grey, where their lines still stood out: each where it is."""
    shot = clipped_board(seed)
    found = locate(shot.image, None, VISION)
    assert found.size == N
    assert cells_off(found, shot) < 0.1


@pytest.mark.parametrize("seed", LOST)
def test_in_grey_alone_the_board_is_lost(seed: int) -> None:
    """What the channel is chosen for: the grey image loses these boards."""
    shot = clipped_board(seed)
    try:
        found = locate(shot.image, None, VISION, work=working_image(to_gray(shot.image), CFG))
    except BoardNotFound:
        return
    assert found.size != N or cells_off(found, shot) >= 0.1


@pytest.mark.parametrize("seed", LOST)
def test_the_image_is_the_channel_that_lost_least_of_the_board(seed: int) -> None:
    """Whichever channel that is: it is measured, not named."""
    image = clipped_board(seed).image
    lost = at_ceiling(image)
    chosen = line_image(image, CFG)
    assert np.array_equal(chosen, image[:, :, int(np.argmin(lost))])
    assert float(at_ceiling(chosen)) < float(at_ceiling(to_gray(image)))


@pytest.mark.parametrize("seed", KEPT)
def test_where_the_grey_lines_stand_out_of_the_clipped_wood_the_grey_is_kept(
        seed: int) -> None:
    image = clipped_board(seed).image
    assert float(at_ceiling(to_gray(image))) >= CFG.clipped_board
    assert np.array_equal(line_image(image, CFG), to_gray(image))


def test_a_well_exposed_photo_is_looked_at_in_grey_exactly() -> None:
    image = render(random_position(N, 3, 0.3), 3).image
    assert np.array_equal(line_image(image, CFG), to_gray(image))


def test_a_grey_photo_has_no_channel_to_choose() -> None:
    """A photo saved in grey keeps its clipped grey: every channel lost the same."""
    image = clipped_board(0, grayscale=True).image
    assert float(at_ceiling(to_gray(image))) >= CFG.clipped_board
    assert np.array_equal(line_image(image, CFG), to_gray(image))
    assert np.array_equal(line_image(to_gray(image), CFG), to_gray(image))
