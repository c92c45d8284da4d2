"""White stones under a lamp that lifts a light wood to the sensor's ceiling in two colour
channels. A magenta lamp takes the wood's red and blue to 255, and a white stone's with
them; only green still tells a white stone from the wood, a fifth lighter. Mixed into the
lightness, red and blue add as much to the wood as to the stone and leave the stone under
`white_rise` over the wood, where it read empty. So a point's rise over its wood is also
measured in the channels the wood keeps under the ceiling (`kept_lightness`).

    the lightness (red, green, blue)           green alone
    wood 175, white stone 185 (+6%)            wood 114, white stone 141 (+22%)
    . . . . .                                  . . . . .
    . . O . .   empty                          . . O . .   white
    . . . . .                                  . . . . .

(The medians over seed 0's white stones of `lamp_board` below.)
"""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from vision.config import VISION
from vision.illuminant import under_white
from vision.stones import (_kept_rise, bare_wood, features, judged, kept_lightness, local_wood,
                           read_stones)

from .square_board import AT, BOARD, CELL, N, SIDE, TABLE, camera, ink_lines

SEEDS = range(6)
WOOD = (0.62, 0.72, 0.80)  # a light yellow wood's reflectance in blue, green and red
WHITE = (0.88, 0.88, 0.88)  # a white stone's
BLACK = (0.05, 0.05, 0.05)
LAMP = (640.0, 180.0, 500.0)  # a magenta lamp (blue, green, red), bright enough to clip
FALLOFF = 0.35  # the lamp's light falls off so across the board, brightest on the right
CROWD = 0.4  # this share of the points hold stones, three fifths of them white
INK = 0.3  # a printed line takes this share of the light the wood returns
H = np.array([[CELL, 0.0, AT], [0.0, CELL, AT], [0.0, 0.0, 1.0]])  # lattice -> pixels


@functools.cache
def lamp_board(seed: int, lamp: tuple[float, float, float] = LAMP, falloff: float = FALLOFF,
               crowd: float = CROWD) -> tuple[np.ndarray, np.ndarray]:
    """A 9x9 board square-on (`square_board`) on a dark table, a seeded ``crowd`` of its
    points holding stones (three fifths of them white), each stone with a glint at the
    top of its dome, lit by ``lamp`` (its strength varied by 3% by the seed), the light
    falling off by ``falloff`` from the right to the left: light times reflectance plus the
    sensor's noise, clipped at 255 in each channel on its own, then the `camera`. Returns
    the picture and the truth (N, N) of `Cell` codes, row 0 at the top."""
    rng = np.random.default_rng(seed)
    reflectance = np.zeros((SIDE, SIDE, 3), np.float64)
    reflectance[:] = (0.15, 0.18, 0.20)
    reflectance[TABLE:TABLE + BOARD, TABLE:TABLE + BOARD] = WOOD
    reflectance *= 1.0 - INK * ink_lines(2)[:, :, None]
    truth = np.zeros((N, N), np.int64)
    for (j, i), pick in np.ndenumerate(rng.random((N, N))):
        if pick < crowd:
            truth[j, i] = 2 if pick < 0.6 * crowd else 1
            centre = (AT + CELL * i, AT + CELL * j)
            cv2.circle(reflectance, centre, int(0.47 * CELL), WHITE if truth[j, i] == 2
                       else BLACK, -1, cv2.LINE_AA)
            cv2.circle(reflectance, (centre[0] - CELL // 8, centre[1] - CELL // 8),
                       CELL // 10, (1.0, 1.0, 1.0), -1, cv2.LINE_AA)
    ramp = np.linspace(1.0 - falloff, 1.0, SIDE)[None, :, None]
    img = reflectance * np.array(lamp) * ramp * rng.uniform(0.97, 1.03)
    img += rng.normal(0.0, 2.0, img.shape)
    return camera(np.clip(img, 0, 255), 90), truth


def wood_pixels(image: np.ndarray) -> np.ndarray:
    """The bare wood's pixels (m, 3) of a `lamp_board`: its cell centres' middles."""
    at = AT + CELL // 2 + CELL * np.arange(N - 1)
    return np.array([image[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3)
                     for y in at for x in at]).reshape(-1, 3)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_lamp_takes_the_woods_red_and_blue_to_the_ceiling_and_leaves_its_green(
        seed: int) -> None:
    blue, green, red = np.median(wood_pixels(lamp_board(seed)[0]), axis=0)
    assert min(blue, red) >= VISION.light.clip_level
    assert green < 0.6 * VISION.light.clip_level


@pytest.mark.parametrize("seed", SEEDS)
def test_in_the_lightness_a_white_stone_rises_too_little_over_the_wood_in_green_plenty(
        seed: int) -> None:
    image, truth = lamp_board(seed)
    f = features(image, H, N, VISION.stones, VISION.light)
    assert f.kept_light is not None and f.kept_centre_light is not None
    white = truth == 2
    rise = (f.light - local_wood(f.centre_light)) / local_wood(f.centre_light)
    kept = (f.kept_light - local_wood(f.kept_centre_light)) / local_wood(f.kept_centre_light)
    assert np.median(rise[white]) < VISION.stones.white_rise
    assert np.min(kept[white]) > 2 * VISION.stones.white_rise
    assert np.max(kept[truth == 0]) < VISION.stones.white_rise


@pytest.mark.parametrize("seed", SEEDS)
def test_the_measured_reader_reads_the_white_stones_under_the_lamp_white(seed: int) -> None:
    image, truth = lamp_board(seed)
    labels, _, _ = judged(features(under_white(image, VISION.light), H, N, VISION.stones,
                                   VISION.light), VISION.stones, VISION.light)
    assert np.array_equal(labels, truth)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_board_under_the_lamp_reads_right(seed: int) -> None:
    image, truth = lamp_board(seed)
    labels, _ = read_stones(under_white(image, VISION.light), H, N, VISION.stones,
                            VISION.light, VISION.point_net)
    assert np.array_equal(labels, truth)


@pytest.mark.parametrize("seed", SEEDS)
def test_under_a_white_light_no_channel_is_left_out(seed: int) -> None:
    image, truth = lamp_board(seed, (250.0, 250.0, 250.0))
    f = features(image, H, N, VISION.stones, VISION.light)
    assert f.kept_light is None and f.kept_centre_light is None
    labels, _ = read_stones(image, H, N, VISION.stones, VISION.light, VISION.point_net)
    assert np.array_equal(labels, truth)


def flat(bgr: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A picture (8, 8, 3) of one colour and every one of its pixels as the wood's."""
    return np.full((8, 8, 3), bgr, np.uint8), np.arange(64).reshape(4, 16)


@pytest.mark.parametrize("bgr", [(150, 180, 200), (255, 255, 255)])
def test_no_lightness_of_its_own_where_the_wood_clips_no_channel_or_all(
        bgr: tuple[int, int, int]) -> None:
    assert kept_lightness(*flat(bgr), VISION.light) is None


def test_the_kept_lightness_is_that_of_a_grey_of_the_channels_under_the_ceiling() -> None:
    grey_129 = cv2.cvtColor(np.full((1, 1, 3), 129, np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0]
    kept = kept_lightness(*flat((255, 129, 255)), VISION.light)
    assert kept is not None and np.all(kept[0] == grey_129)
    assert kept[1].tolist() == [False, True, False]  # blue, green, red: green kept
    # Blue and green kept, weighed as a white light's grey weighs them (0.114 : 0.587).
    both = kept_lightness(*flat((100, 200, 255)), VISION.light)
    level = round((0.114 * 100 + 0.587 * 200) / (0.114 + 0.587))
    expected = cv2.cvtColor(np.full((1, 1, 3), level, np.uint8), cv2.COLOR_BGR2LAB)[0, 0, 0]
    assert both is not None and np.all(both[0] == expected)
    assert both[1].tolist() == [True, True, False]


def test_where_a_left_out_channel_is_under_the_ceiling_the_lightness_alone_tells() -> None:
    """In a shade (here the far left of a lamp falling off by half) the lamp's red and blue
    are under the ceiling: there the lightness hid no rise, and the kept channels are not
    asked."""
    image, _ = lamp_board(0, LAMP, 0.5)
    f = features(image, H, N, VISION.stones, VISION.light)
    assert f.left_clipped is not None
    assert not f.left_clipped[:, 0].any() and f.left_clipped[:, -1].all()
    clean = np.zeros((N + 1, N + 1), bool)
    rise = _kept_rise(f, clean, bare_wood(f, VISION.stones), VISION.stones, VISION.light)
    assert rise is not None and np.all(rise[:, 0] == -1.0)
