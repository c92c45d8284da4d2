"""Stones under a coloured lamp of any hue are read as under a white light (issue 19).

A lamp multiplies every surface's colour by its own gain per channel: the white stones show
the lamp's colour itself, the wood the lamp's colour times its own. Where the lamp is known
(`vision.illuminant.lamp_gains`) it is divided out before the stones are read. A green or
magenta lamp strong enough to clip the white stones' strongest channel keeps its strongest
gain over its weakest under `LightConfig.lamp_ratio`, as a room's light does; but no room
light is green (`LightConfig.room_green`), so it is still known for a lamp."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from vision import read_board
from vision.evaluate import to_array
from vision.illuminant import lamp_gains
from vision.perturb import Cast
from vision.synth import Scene, Synthetic, random_position, render

CROWDED = 0.8


@functools.lru_cache(maxsize=2)
def crowded(seed: int) -> Synthetic:
    """A crowded 9x9 board seen from above under a white light."""
    return render(random_position(9, seed, stones=CROWDED), seed, Scene(width=640, height=480))


@pytest.mark.parametrize("hue", [120, 135])
def test_a_green_lamp_that_clips_the_white_stones_is_a_lamp(hue: float) -> None:
    # Half the light of pure green: the white stones' green is at the sensor's ceiling,
    # which squeezes the ratio of their channels under lamp_ratio; the white is still far
    # off the line of room lights.
    lamp = Cast(hue, 0.5)
    gains = lamp_gains(lamp.apply(crowded(0).image).image)
    assert gains is not None
    assert int(np.argmax(gains)) == int(np.argmax(lamp.gains()))


@pytest.mark.parametrize("hue", [30, 210])
def test_a_warm_or_cool_room_light_is_no_lamp(hue: float) -> None:
    # A bulb's amber or a window's blue at a camera's white balance's leftover strength:
    # on the line of room lights, and its channels within lamp_ratio.
    assert lamp_gains(Cast(hue, 0.3).apply(crowded(0).image).image) is None


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("hue", [0, 60, 120])
def test_a_crowded_board_under_a_lamp_reads_as_the_truth(seed: int, hue: float) -> None:
    shot = crowded(seed)
    reading = read_board(Cast(hue, 0.5).apply(shot.image).image)
    assert reading.size == 9
    wrong = to_array(reading.rows()) != to_array(shot.position.rows())
    assert not wrong.any(), f"hue {hue}: {int(wrong.sum())} points read wrong"
