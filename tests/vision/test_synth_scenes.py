"""The scenes `vision.synth` draws for issue 19's missed kinds draw what they say, and each
optional part leaves the rest of the seed's picture as it was."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision import grid
from vision.synth import Scene, Synthetic, random_position, render

SMALL = Scene(width=480, height=360)
PHONE = Scene(width=360, height=480, camera_tilt=45.0, stone_height=0.2, framing="phone",
              turn=5.0)


def _shot(scene: Scene, seed: int = 2, taken: float = 0.5, size: int = 9) -> Synthetic:
    return render(random_position(size, seed, stones=taken), seed, scene)


def _board_mask(shot: Synthetic, size: int = 9, grow: float = 0.0) -> np.ndarray:
    """The pixels inside the grid's outline moved out by ``grow`` cells."""
    n = size - 1
    outline = grid.apply(shot.homography, np.array(
        [[-grow, -grow], [n + grow, -grow], [n + grow, n + grow], [-grow, n + grow]]))
    mask = np.zeros(shot.image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.rint(outline).astype(np.int32)], 1)
    return mask.astype(bool)


def _grey(img: np.ndarray) -> np.ndarray:
    return img.astype(np.float64).mean(axis=2)


def test_the_phone_view_has_the_near_edge_at_the_bottom_and_the_board_as_wide_as_the_frame() -> None:
    for tilt in (35.0, 60.0):
        shot = _shot(dataclasses.replace(PHONE, camera_tilt=tilt), taken=0.8)
        c = shot.corners  # top-left, top-right, bottom-right, bottom-left on screen
        h, w = shot.image.shape[:2]
        assert c[:, 1].max() > 0.8 * h  # the grid's near side low in the frame
        assert np.ptp(c[:, 0]) > 0.7 * w  # the grid alone (less the margins) spans most of it
        near, far = np.linalg.norm(c[2] - c[3]), np.linalg.norm(c[1] - c[0])
        assert near > 1.1 * far  # the near edge is the wider
        assert c.min() > 0 and c[:, 0].max() < w and c[:, 1].max() < h


def test_a_steeper_phone_sees_the_board_flatter() -> None:
    def depth(tilt: float) -> float:
        c = _shot(dataclasses.replace(PHONE, camera_tilt=tilt)).corners
        return float(np.ptp(c[:, 1]) / np.ptp(c[:, 0]))
    assert depth(60.0) < 0.8 * depth(35.0)


@pytest.mark.parametrize("surface, low, high", [("dark table", 0, 80), ("light table", 140, 255),
                                                 ("grey floor", 130, 215)])
def test_the_surface_is_what_the_board_lies_on(surface: str, low: float, high: float) -> None:
    shot = _shot(dataclasses.replace(SMALL, surface=surface, glare=False, gradient=0.0))
    around = ~_board_mask(shot, grow=1.5)
    level = float(np.median(_grey(shot.image)[around]))
    assert low <= level <= high
    if surface == "grey floor":  # grey: the channels close together
        spread = np.ptp(np.median(shot.image[around], axis=0))
        assert spread < 20


def test_a_coloured_lamp_tints_the_whole_picture() -> None:
    plain = _shot(SMALL)
    lit = _shot(dataclasses.replace(SMALL, cast=0.6))
    assert np.ptp(lit.image.reshape(-1, 3).mean(axis=0)) > np.ptp(plain.image.reshape(-1, 3).mean(axis=0)) + 25


def test_a_flash_burns_a_white_spot_into_the_board() -> None:
    plain, flashed = _shot(dataclasses.replace(SMALL, glare=False)), \
        _shot(dataclasses.replace(SMALL, glare=False, flash=True))
    board = _board_mask(plain)
    white = (_grey(flashed.image) >= 250) & board
    assert white.sum() > 30 and ((_grey(plain.image) >= 250) & board).sum() < white.sum() / 5


def test_sunlight_brightens_patches_of_the_board() -> None:
    plain, sunny = _shot(SMALL), _shot(dataclasses.replace(SMALL, sun=True))
    board = _board_mask(plain)
    gain = _grey(sunny.image)[board] - _grey(plain.image)[board]
    assert 0.05 < np.mean(gain > 40) < 0.8  # patches, not the whole board


def test_a_bevel_brightens_the_wood_at_the_edge_only() -> None:
    plain, bevelled = _shot(SMALL), _shot(dataclasses.replace(SMALL, bevel=True))
    diff = _grey(bevelled.image) - _grey(plain.image)
    assert np.abs(diff[_board_mask(plain, grow=-0.5)]).mean() < 2  # the grid's inside as it was
    ring = _board_mask(plain, grow=1.3) & ~_board_mask(plain, grow=0.4)
    assert np.mean(diff[ring] > 25) > 0.04  # a band of the margin much brighter


@pytest.mark.parametrize("thing, least, most", [("phone", 4, 20), ("lid", 6, 30), ("pen", 0, 6)])
def test_an_object_on_the_board_covers_and_hides_points(thing: str, least: int, most: int) -> None:
    plain, covered = _shot(SMALL), _shot(dataclasses.replace(SMALL, on_board=thing))
    assert least <= int(covered.hidden.sum()) <= most
    changed = np.abs(_grey(covered.image) - _grey(plain.image)) > 30
    assert changed.sum() > 150 and (changed & _board_mask(plain)).sum() > 0.7 * changed.sum()


def test_stones_of_any_colours_are_coloured() -> None:
    shot = _shot(dataclasses.replace(SMALL, any_colours=True), taken=0.6)
    rows = shot.position.rows()
    at = np.rint(grid.apply(shot.homography, grid.lattice(9))).astype(int)
    colours = np.array([shot.image[y, x].astype(float) for (x, y), ch in
                        zip(at, "".join(rows)) if ch in "XO"])
    assert np.median(np.ptp(colours, axis=1)) > 20  # not greys


def test_a_grayscale_photo_has_equal_channels() -> None:
    img = _shot(dataclasses.replace(SMALL, grayscale=True)).image
    assert np.array_equal(img[:, :, 0], img[:, :, 1]) and np.array_equal(img[:, :, 1], img[:, :, 2])


def test_feet_stand_beside_the_board_not_on_it() -> None:
    plain = _shot(dataclasses.replace(SMALL, surface="grey floor"))
    feet = _shot(dataclasses.replace(SMALL, surface="grey floor", feet=True))
    changed = np.abs(_grey(feet.image) - _grey(plain.image)) > 30
    assert changed.sum() > 500
    assert (changed & _board_mask(plain, grow=0.3)).sum() == 0


def test_more_hands_reach_in() -> None:
    one = _shot(dataclasses.replace(SMALL, hand=True))
    two = _shot(dataclasses.replace(SMALL, hand=True, hands=1))
    changed = np.abs(_grey(two.image) - _grey(one.image)) > 30
    assert changed.sum() > 300


@pytest.mark.parametrize("part", [dict(bevel=True), dict(flash=True), dict(cast=0.6),
                                  dict(on_board="lid"), dict(surface="dark table"),
                                  dict(any_colours=True), dict(feet=True, hands=1)])
def test_a_part_turned_on_leaves_the_truth_and_the_rest_as_the_seed_drew_them(part: dict) -> None:
    plain = _shot(SMALL)
    other = _shot(dataclasses.replace(SMALL, **part))
    assert np.array_equal(plain.homography, other.homography)
    assert plain.position == other.position
    assert other.hidden.sum() >= plain.hidden.sum()


def test_unknown_kinds_are_named() -> None:
    for part, word in ((dict(framing="drone"), "drone"), (dict(surface="lawn"), "lawn"),
                       (dict(on_board="cat"), "cat")):
        with pytest.raises(ValueError, match=word):
            _shot(dataclasses.replace(SMALL, **part))
