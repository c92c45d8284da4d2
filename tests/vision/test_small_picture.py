"""A board in a small picture (a photo shrunk for sending: a cell about 8 px, its stones
about as small as the working image's floors) where the picture as taken shows no grid is
looked for again in the picture enlarged by a whole factor, and its grid given in the
picture's own pixels. Not where the picture is large enough, nor where nothing is there."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import BoardNotFound, read_board
from vision.config import VISION
from vision.evaluate import ShotTally
from vision.reading import locate_in_any_light, located
from vision.synth import Scene, random_position, render

SMALL = Scene(width=240, height=180)
"""A crowded board seen from above, in a picture 240 px wide."""


@pytest.mark.parametrize("seed", [2, 5])
def test_a_crowded_board_in_a_small_picture_is_placed_and_read(seed: int) -> None:
    shot = render(random_position(19, seed, stones=0.8), seed, SMALL)
    tally = ShotTally(19)
    tally.add(shot)
    assert tally.found == 1, tally.missed  # as taken: "grid lines too weak to trust"
    assert tally.corner[0] <= 0.25, tally.missed  # its grid in the small picture's pixels
    assert tally.right >= 0.98 * tally.shown, tally.missed


def test_a_small_picture_with_no_board_is_not_found_with_the_first_looks_reason() -> None:
    rng = np.random.default_rng(3)
    wood = np.clip(rng.normal((90, 150, 200), 6.0, (180, 240, 3)), 0, 255).astype(np.uint8)
    with pytest.raises(BoardNotFound) as as_taken:
        locate_in_any_light(wood, None, VISION)
    with pytest.raises(BoardNotFound) as both:
        located(wood, None, VISION)
    assert str(both.value) == str(as_taken.value)


def test_a_picture_as_wide_as_work_least_is_looked_at_only_as_taken() -> None:
    # The same picture, found enlarged above, is not enlarged where it counts as large
    # enough: the picture as taken shows no grid.
    shot = render(random_position(19, 2, stones=0.8), 2, SMALL)
    config = dataclasses.replace(VISION, locate=dataclasses.replace(VISION.locate,
                                                                    work_least=240))
    with pytest.raises(BoardNotFound):
        read_board(shot.image, config=config)
