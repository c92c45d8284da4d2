"""`vision.illuminant`: a coloured lamp or an exposure too bright clips colour channels, and
the board is looked for again in a grey that leaves the clipped channels out, divides the
lamp's gains out and takes its contrast from the picture's own range (issue 19)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import BoardNotFound, read_board
from vision.config import LightConfig
from vision.illuminant import (
    LUMA, balanced, channel_weights, clipped_over, clipped_share, lamp_gains, neutral_gray, stretch,
    under_white, white_gains)
from vision.perturb import Brightness, Cast
from vision.synth import Scene, random_position, render

WOOD = np.array([195.0, 229.0, 242.0])  # BGR of a pale board under a bright white light
SIDE = 600
FIRST, LAST = 50.0, SIDE - 50.0  # where the outer lines lie before the perspective


def faint_board(seed: int, depth: float = 50.0) -> tuple[np.ndarray, np.ndarray]:
    """A seeded photo of an empty 19x19 board of pale wood filling the frame (no table, no
    stones: only its lines tell where it is), its lines ``depth`` levels darker than the
    wood before the blur (half that at their middles after it, as on a real pale board), a
    little perspective, blur and noise; and its grid corners (4, 2), top-left
    first, clockwise on screen. Bright enough that a lamp or x1.4 clips the wood."""
    rng = np.random.default_rng(seed)
    img = np.empty((SIDE, SIDE, 3), np.float32)
    img[:] = WOOD + rng.uniform(-5, 5, 3)
    at = [int(round(FIRST + k * (LAST - FIRST) / 18)) for k in range(19)]
    for p in at:
        img[at[0]:at[-1] + 1, p] -= depth
        img[p, at[0]:at[-1] + 1] -= depth
    frame = np.float32([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]])
    seen = frame + rng.uniform(-0.03, 0.03, (4, 2)).astype(np.float32) * SIDE
    h = cv2.getPerspectiveTransform(frame, seen)
    img = cv2.warpPerspective(img, h, (SIDE, SIDE), borderMode=cv2.BORDER_REPLICATE)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    img += rng.normal(0, 2.0, img.shape).astype(np.float32)
    grid = np.float32([[[at[0], at[0]], [at[-1], at[0]], [at[-1], at[-1]], [at[0], at[-1]]]])
    return np.clip(img, 0, 255).astype(np.uint8), cv2.perspectiveTransform(grid, h)[0]


def _line_contrast(gray: np.ndarray) -> float:
    """How much darker the line of `_straight_board` (column 300) is than the wood beside
    it, in grey levels."""
    g = gray.astype(np.float64)
    return float(np.median(g[100:500, 320:330]) - np.median(g[100:500, 299:302].min(axis=1)))


def _straight_board(depth: float = 50.0) -> np.ndarray:
    """The board's middle: pale wood with vertical lines every 30 px (one at column 300),
    no perspective; blurred, a line's middle is as dark as a real pale board's (26 levels
    under the wood in grey)."""
    img = np.empty((SIDE, SIDE, 3), np.float32)
    img[:] = WOOD
    img[:, ::30] -= depth
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.8), 0, 255).astype(np.uint8)


# --- what the lamp does, and what the neutral grey undoes ---------------------------------

def test_a_magenta_lamp_clips_red_and_blue_and_the_plain_grey_loses_the_lines() -> None:
    board = _straight_board()
    lit = Cast(315, 0.6).apply(board).image
    share = clipped_share(lit)
    assert share[0] > 0.9 and share[2] > 0.9 and share[1] == 0.0  # blue, red clipped; green not
    plain = _line_contrast(cv2.cvtColor(board, cv2.COLOR_BGR2GRAY))
    under_lamp = _line_contrast(cv2.cvtColor(lit, cv2.COLOR_BGR2GRAY))
    assert under_lamp < 0.5 * plain  # what the fixed threshold of grey levels misses


@pytest.mark.parametrize("lamp", [Cast(315, 0.6), Cast(135, 0.6), Cast(45, 0.6),
                                  Cast(225, 0.6), Brightness(1.4)], ids=lambda p: p.name)
def test_the_neutral_grey_keeps_the_lines_contrast_under_any_lamp(lamp: Cast | Brightness) -> None:
    board = _straight_board()
    lit = lamp.apply(board).image
    plain = _line_contrast(cv2.cvtColor(board, cv2.COLOR_BGR2GRAY))
    assert _line_contrast(neutral_gray(lit)) >= plain


def test_an_unclipped_neutral_picture_keeps_a_white_lights_weights() -> None:
    img = np.random.default_rng(1).integers(10, 240, (50, 60, 3)).astype(np.uint8)
    assert clipped_share(img).tolist() == [0.0, 0.0, 0.0]
    assert np.allclose(channel_weights(img), LUMA / LUMA.sum())


def test_a_channel_clipped_all_over_weighs_nothing_and_all_clipped_keeps_the_usual() -> None:
    img = np.random.default_rng(2).integers(10, 240, (50, 60, 3)).astype(np.uint8)
    img[:, :, 2] = 255
    w = channel_weights(img)
    assert w[2] == 0.0 and w.sum() == pytest.approx(1.0)
    assert np.allclose(channel_weights(np.full((5, 5, 3), 255, np.uint8)), LUMA)


def test_a_picture_is_clipped_over_where_one_channel_is_at_the_ceiling_on_a_quarter_of_it(
        ) -> None:
    # Red at the ceiling over the top rows: under a quarter of the picture is not enough,
    # a quarter or more is, whichever channel it is; a grey picture has no channel to lose.
    cfg = LightConfig()
    img = np.random.default_rng(4).integers(10, 240, (100, 60, 3)).astype(np.uint8)
    assert not clipped_over(img, cfg)
    for channel in range(3):
        spoiled = img.copy()
        spoiled[:24, :, channel] = 255
        assert not clipped_over(spoiled, cfg)
        spoiled[:25, :, channel] = 255
        assert clipped_over(spoiled, cfg)
    assert not clipped_over(np.full((100, 60), 255, np.uint8), cfg)


def test_the_clipped_share_is_read_off_a_sample_of_a_large_picture() -> None:
    # A 12 MP photo is read off every seventh row and column, as the lamp's gains are.
    big = np.full((3000, 4000, 3), 120, np.uint8)
    big[:800, :, 2] = 255  # 27% of the rows
    assert clipped_over(big, LightConfig())
    assert not clipped_over(big, LightConfig(clipped_again=0.3))


def test_the_white_patch_reads_the_lamps_gains_off_the_brightest_surfaces() -> None:
    rng = np.random.default_rng(3)
    grey = rng.integers(20, 200, (80, 80)).astype(np.float64)
    grey[:8, :8] = 250.0  # a white stone
    gains = np.array([0.5, 0.8, 1.0])
    lit = np.clip(grey[:, :, None] * gains[None, None, :], 0, 255).astype(np.uint8)
    assert white_gains(lit) == pytest.approx(gains * 250 / 255, abs=0.01)
    # Divided out, the lamp leaves the grey it found: within a level or two of white light's.
    neutral = np.repeat(grey[:, :, None], 3, axis=2).astype(np.uint8)
    diff = np.abs(neutral_gray(lit).astype(int) - neutral_gray(neutral).astype(int))
    assert np.percentile(diff, 99) <= 2


def test_stretch_maps_the_pictures_own_range_to_full_scale_and_leaves_a_flat_one() -> None:
    g = np.tile(np.arange(100, 151, dtype=np.uint8), (10, 1))
    out = stretch(g, LightConfig(stretch_percentiles=(0.0, 100.0)))
    assert out.min() == 0 and out.max() >= 254 and out.dtype == np.uint8  # levels floored
    flat = np.full((4, 4), 77, np.uint8)
    assert (stretch(flat) == 77).all()
    assert (neutral_gray(flat) == 77).all()  # a grey picture is only stretched


def test_only_eight_bit_grey_or_colour_pictures_are_taken() -> None:
    with pytest.raises(ValueError, match="uint8 BGR"):
        clipped_share(np.zeros((4, 4, 3), np.float32))
    with pytest.raises(ValueError, match="uint8 BGR"):
        white_gains(np.zeros((4, 4, 2), np.uint8))


# --- the board found under the lamp ---------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_pale_board_found_in_white_light_is_found_under_strong_lamps_and_x1_4(
        seed: int) -> None:
    photo, corners = faint_board(seed)
    cell = (LAST - FIRST) / 18
    for lamp in (None, Cast(315, 0.6), Cast(135, 0.6), Cast(45, 0.6), Cast(225, 0.6),
                 Brightness(1.4)):
        seen = photo if lamp is None else lamp.apply(photo).image
        name = "white light" if lamp is None else lamp.name
        try:
            reading = read_board(seen)
        except BoardNotFound as lost:
            pytest.fail(f"seed {seed}, {name}: {lost}")
        assert reading.size == 19, name
        assert np.abs(reading.corners - corners).max() < 0.25 * cell, name


def test_a_room_light_is_no_lamp_and_its_picture_is_read_as_taken() -> None:
    image, _ = faint_board(0)
    assert lamp_gains(image) is None
    assert under_white(image) is image
    assert lamp_gains(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) is None


@pytest.mark.parametrize("hue", [0, 60, 120, 180])
def test_a_coloured_lamps_gains_are_read_off_the_brightest_surfaces(hue: float) -> None:
    image, _ = faint_board(1)
    lamp = Cast(hue, 0.6)
    gains = lamp_gains(lamp.apply(image).image)
    assert gains is not None and gains.max() == 1.0
    # The channel the lamp gives least light is the weakest, as far under the strongest
    # as only a lamp puts it.
    assert int(np.argmin(gains)) == int(np.argmin(lamp.gains() * WOOD))
    assert gains.min() <= 1.0 / LightConfig().lamp_ratio


def test_balancing_divides_each_channel_by_its_gain_and_clips() -> None:
    image = np.full((4, 4, 3), (100, 200, 50), np.uint8)
    out = balanced(image, np.array([1.0, 0.5, 0.25]))
    assert out.shape == (4, 4, 3) and out.dtype == np.uint8
    assert tuple(out[0, 0]) == (100, 255, 200)
    assert np.array_equal(balanced(image, np.ones(3)), image)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stones_under_a_coloured_lamp_read_as_under_white_light(seed: int) -> None:
    """A half-filled board seen from above: under a lamp of green, cyan or blue-green light
    (white stones turn the lamp's colour and the wood loses its own) every point reads as
    the position is."""
    shot = render(random_position(19, seed, 0.5), seed, Scene())
    for hue in (60, 120, 180):
        reading = read_board(Cast(hue, 0.6).apply(shot.image).image, 19)
        assert reading.rows() == shot.position.rows(), f"hue {hue}"
