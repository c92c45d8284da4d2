"""Each perturbation of `vision.perturb` does what its name says, on generated images, and
moves labelled points where it moves the pixels."""

from __future__ import annotations

import numpy as np
import pytest

from vision.perturb import (
    STANDARD, Blur, Board, Brightness, Cast, Chain, CropMargin, Downscale, Gamma, Grayscale,
    Jpeg, Noise, Perturbation, Steeper, Turn, by_name, hue_colour)
from vision.synth import Scene, random_position, render


def _texture(seed: int = 0, shape: tuple[int, int] = (120, 160)) -> np.ndarray:
    """A seeded colourful picture with edges and flat patches."""
    rng = np.random.default_rng(seed)
    img = np.zeros((*shape, 3), np.uint8)
    for _ in range(25):
        y, x = rng.integers(0, shape[0] - 20), rng.integers(0, shape[1] - 20)
        img[y:y + rng.integers(5, 30), x:x + rng.integers(5, 30)] = rng.integers(20, 236, 3)
    return img


def _grey(level: int, shape: tuple[int, int] = (40, 50)) -> np.ndarray:
    return np.full((*shape, 3), level, np.uint8)


def _dot(shape: tuple[int, int], at: tuple[int, int]) -> np.ndarray:
    """Black but for a 3x3 white square centred at ``at`` (x, y)."""
    img = np.zeros((*shape, 3), np.uint8)
    img[at[1] - 1:at[1] + 2, at[0] - 1:at[0] + 2] = 255
    return img


def _brightest(img: np.ndarray) -> np.ndarray:
    """The centroid (x, y) of the pixels at least half as bright as the brightest."""
    grey = img.astype(np.float64).sum(axis=2)
    ys, xs = np.nonzero(grey >= grey.max() / 2)
    w = grey[ys, xs]
    return np.array([np.sum(xs * w), np.sum(ys * w)]) / np.sum(w)


def test_the_list_is_issue_19s_with_unique_printable_names() -> None:
    names = [p.name for p in STANDARD]
    assert len(names) == len(set(names)) == 34
    assert sum(isinstance(p, Cast) for p in STANDARD) == 16  # 8 hues x 2 strengths
    assert {p.hue for p in STANDARD if isinstance(p, Cast)} == {0, 45, 90, 135, 180, 225, 270, 315}
    for p in STANDARD:  # the repr is the code that makes it
        assert eval(repr(p)) == p  # noqa: S307


def test_names_pick_perturbations_and_an_unknown_one_is_named() -> None:
    assert by_name("turn 90,gamma 0.6") == [Turn(90), Gamma(0.6)]
    assert len(by_name("cast")) == 16
    with pytest.raises(ValueError, match="'sepia'"):
        by_name("sepia")


@pytest.mark.parametrize("hue, strongest", [(0, 2), (120, 1), (240, 0)])  # BGR: red, green, blue
def test_a_cast_tints_toward_its_hue_and_keeps_a_greys_brightness(hue: int, strongest: int) -> None:
    out = Cast(hue, 0.6).apply(_grey(90)).image[0, 0].astype(float)  # (none clipped at 255)
    assert int(np.argmax(out)) == strongest
    assert out[strongest] - min(out) > 50
    luma = 0.114 * out[0] + 0.587 * out[1] + 0.299 * out[2]
    assert luma == pytest.approx(90, abs=1.5)


def test_a_stronger_cast_tints_more() -> None:
    weak, strong = (Cast(270, s).apply(_grey(120)).image[0, 0].astype(int) for s in (0.3, 0.6))
    assert np.ptp(strong) > np.ptp(weak) > 10


def test_hue_colours_run_round_the_wheel() -> None:
    assert hue_colour(60).tolist() == [0, 1, 1]  # yellow, BGR
    assert hue_colour(180).tolist() == [1, 1, 0]  # cyan
    assert hue_colour(300).tolist() == [1, 0, 1]  # magenta


def test_brightness_scales_levels_and_clips() -> None:
    assert Brightness(0.6).apply(_grey(100)).image[0, 0, 0] == 60
    assert Brightness(1.4).apply(_grey(100)).image[0, 0, 0] == 140
    assert Brightness(1.4).apply(_grey(200)).image[0, 0, 0] == 255


def test_gamma_under_one_lightens_over_one_darkens_and_keeps_the_ends() -> None:
    img = np.stack([_grey(v, (2, 2)) for v in (0, 128, 255)])
    light, dark = Gamma(0.6).apply(img[1]).image, Gamma(1.6).apply(img[1]).image
    assert light[0, 0, 0] > 128 > dark[0, 0, 0]
    assert Gamma(1.6).apply(img[0]).image.max() == 0
    assert Gamma(0.6).apply(img[2]).image.min() == 255


def test_a_lower_jpeg_quality_spoils_more() -> None:
    img = _texture()
    err = {q: np.abs(Jpeg(q).apply(img).image.astype(int) - img).mean() for q in (30, 70, 95)}
    assert err[30] > err[70] > err[95] > 0
    assert Jpeg(95).name == "saved as jpeg"


@pytest.mark.parametrize("factor", [0.5, 0.35])
def test_downscaling_shrinks_the_picture_and_moves_points_with_it(factor: float) -> None:
    out = Downscale(factor).apply(_dot((200, 300), (150, 80)))
    assert out.image.shape[:2] == (round(200 * factor), round(300 * factor))
    assert np.allclose(_brightest(out.image), out.points([[150, 80]])[0], atol=0.6)


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_a_turn_moves_a_dot_where_its_points_go(degrees: int) -> None:
    out = Turn(degrees).apply(_dot((60, 100), (70, 20)))
    assert out.image.shape[:2] == ((60, 100) if degrees == 180 else (100, 60))
    assert np.allclose(_brightest(out.image), out.points([[70, 20]])[0], atol=1e-6)


def test_a_turn_is_90_180_or_270() -> None:
    with pytest.raises(ValueError, match="45"):
        Turn(45)


def test_grayscale_makes_the_channels_equal() -> None:
    out = Grayscale().apply(_texture()).image
    assert out.shape == (120, 160, 3)
    assert np.array_equal(out[:, :, 0], out[:, :, 1]) and np.array_equal(out[:, :, 1], out[:, :, 2])


def test_blur_softens_edges() -> None:
    def sharpness(img: np.ndarray) -> float:  # mean squared step between neighbours
        return float(np.mean(np.diff(img.astype(float), axis=1) ** 2))
    img = _texture()
    assert sharpness(Blur(1.5).apply(img).image) < 0.5 * sharpness(img)


def test_noise_has_its_spread_and_its_seed() -> None:
    out = Noise(8.0).apply(_grey(128, (100, 100))).image.astype(float)
    assert out.std() == pytest.approx(8.0, rel=0.1)
    assert np.array_equal(Noise(8.0).apply(_grey(128)).image, Noise(8.0).apply(_grey(128)).image)
    assert not np.array_equal(Noise(8.0, 1).apply(_grey(128)).image,
                              Noise(8.0).apply(_grey(128)).image)


def test_a_cropped_margin_leaves_half_a_cell_beyond_the_outer_line() -> None:
    shot = render(random_position(9, 3), 3, Scene(turn=0.0))
    board = Board(shot.corners, 9)
    out = CropMargin("left").apply(shot.image, board)
    left = float(out.points(shot.corners)[:, 0].min())
    assert left == pytest.approx(0.5 * board.cell, abs=1.0)
    h, w = shot.image.shape[:2]
    assert out.image.shape[0] == h and w - out.image.shape[1] == pytest.approx(
        shot.corners[:, 0].min() - 0.5 * board.cell, abs=1.0)
    assert np.array_equal(out.image[:, -1], shot.image[:, -1])  # the other side untouched


@pytest.mark.parametrize("side", ["right", "top", "bottom"])
def test_a_margin_is_cropped_on_the_side_named(side: str) -> None:
    shot = render(random_position(9, 4), 4, Scene(turn=0.0))
    board = Board(shot.corners, 9)
    out = CropMargin(side).apply(shot.image, board)
    moved = out.points(shot.corners)
    h, w = out.image.shape[:2]
    gap = {"right": w - 1 - moved[:, 0].max(), "top": moved[:, 1].min(),
           "bottom": h - 1 - moved[:, 1].max()}[side]
    assert gap == pytest.approx(0.5 * board.cell, abs=1.5)


def test_cropping_needs_the_board() -> None:
    with pytest.raises(ValueError, match="corners"):
        CropMargin().apply(_texture())


def test_a_steeper_view_narrows_the_top_and_keeps_the_frame() -> None:
    h, w = 300, 400
    out = Steeper(20.0).apply(_dot((h, w), (300, 60)))
    frame = out.points([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    top, bottom = frame[1, 0] - frame[0, 0], frame[2, 0] - frame[3, 0]
    assert top < 0.9 * bottom  # the top went away
    assert frame.min() >= -0.5 and (frame[:, 0].max() <= w - 0.5) and frame[:, 1].max() <= h - 0.5
    assert np.allclose(_brightest(out.image), out.points([[300, 60]])[0], atol=0.7)


def test_a_chain_moves_points_through_every_step() -> None:
    chain = Chain((Turn(90), Downscale(0.5)))
    out = chain.apply(_dot((100, 200), (40, 30)))
    assert chain.name == "turn 90, downscale 50%"
    assert out.image.shape[:2] == (100, 50)
    assert np.allclose(_brightest(out.image), out.points([[40, 30]])[0], atol=0.6)


@pytest.mark.parametrize("p", STANDARD, ids=lambda p: p.name)
def test_every_perturbation_gives_a_bgr_image_and_is_pure(p: Perturbation) -> None:
    shot = render(random_position(9, 1), 1, Scene(width=320, height=240))
    before = shot.image.copy()
    board = Board(shot.corners, 9)
    a, b = p.apply(shot.image, board), p.apply(shot.image, board)
    assert a.image.dtype == np.uint8 and a.image.ndim == 3 and a.image.shape[2] == 3
    assert np.array_equal(a.image, b.image)
    assert np.array_equal(shot.image, before)
