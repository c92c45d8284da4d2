"""The confidence of a point warns where the evidence disagrees, and changes no label.

A stone hides the cross of lines under it. A point judged against the wood nearest it as a
stone, whose every arm of its cross is hidden, is covered by something (a white stone
washed out by a patch of sunlight) even where the far wood says it is empty: read empty,
it is not read surely. Nor is a point read empty with its cross hidden that is lighter and
paler than the wood nearest it (a white stone a bright exposure lifts to near the wood's
lightness), unless the learned reader finds something else lying over it (a hand's skin
looks the same). Plain points and stones stay sure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.vision_scenes import SCENES
from vision.config import LIGHT, STONES, PointNetConfig
from vision.evaluate import to_array
from vision.illuminant import under_white
from vision.stones import (
    EMPTY, WHITE, classify, doubt, features, judged, read_stones, resolve_captured)
from vision.synth import Scene, random_position, render

from .test_stone_light import CELL, WOOD, drawn_board

ROWS = [
    ".......",
    ".X...O.",
    "...XO..",
    "..XOXO.",
    "..OXOX.",
    "...OX..",
    ".......",
]


def test_white_stones_washed_out_by_sunlight_and_read_empty_are_not_read_surely() -> None:
    # A patch of sunlight clips white stones and wood alike; the wood beside a stone keeps
    # its colour and the stone hides its cross, so the nearest judgement says stone: the
    # empty reading against the far wood is no sure one.
    shot = render(random_position(19, 1, stones=0.5), 1, Scene(sun=True))
    truth = to_array(shot.position.rows())
    labels, confidence = read_stones(shot.image, shot.homography, 19)
    washed = (truth == WHITE) & (labels == EMPTY)
    assert washed.sum() >= 5  # the scene does wash white stones out
    assert (confidence[washed] >= 0.6).sum() <= washed.sum() // 2, confidence[washed]


def test_plain_points_and_stones_stay_sure() -> None:
    image, hom = drawn_board(ROWS)
    labels, confidence = read_stones(image, hom, 7)
    assert np.array_equal(labels, to_array(ROWS))
    assert (confidence >= 0.6).all(), np.round(confidence, 2)


def test_doubt_changes_no_label() -> None:
    # The confidence carries the evidence; what a point is read as is decided before.
    image, hom = drawn_board(ROWS, shadows=[(3.0, 3.0, 2.0, 1.5)])
    f = features(image, hom, 7)
    expected, _ = resolve_captured(*classify(f), STONES.resolve_below)
    labels, _ = read_stones(image, hom, 7)
    assert np.array_equal(labels, expected)


LIFTED, TAKEN = SCENES["aimed phone 50, full, lamp, exposure, resaved"]
"""A phone at 50 degrees under a coloured lamp, exposed bright and saved twice, over a
finished game: the lamp lifts white stones to near the wood's lightness, and they hide
their crosses."""


def lifted_shot(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The picture as the stone stage sees it (under a neutral light), its grid, and the
    truth of the `LIFTED` board of ``seed``."""
    shot = render(random_position(19, seed, stones=TAKEN), seed, LIFTED)
    return under_white(shot.image, LIGHT), shot.homography, to_array(shot.position.rows())


@pytest.mark.parametrize("seed", [5, 6])
def test_white_stones_lifted_to_the_woods_lightness_and_read_empty_are_seldom_sure(
        seed: int) -> None:
    image, hom, truth = lifted_shot(seed)
    labels, confidence = read_stones(image, hom, 19)
    lifted = (truth == WHITE) & (labels == EMPTY)
    assert lifted.sum() >= 20  # the scene does lift white stones out of sight
    assert (confidence[lifted] >= 0.6).sum() <= lifted.sum() // 3, np.round(confidence[lifted], 2)


def test_the_learned_reader_reads_the_lifted_white_stones_it_is_left_to_decide() -> None:
    # The measured reader's doubt leaves those points to the learned reader, which sees them.
    lost = 0
    for seed in (5, 6):
        image, hom, truth = lifted_shot(seed)
        labels, _ = read_stones(image, hom, 19, net=PointNetConfig())
        lost += int(((truth == WHITE) & (labels == EMPTY)).sum())
    assert lost <= 7


def test_something_light_over_an_empty_point_is_doubted_unless_the_net_sees_it_hidden() -> None:
    #   . . . . . . .
    #   . X . . . O .
    #   . . . X O . .
    #   . . X O X O .
    #   . . O X O X .
    #   . ( ) O X . .     a patch a little lighter and paler than the wood over (5, 1)
    #   . . . . . . .
    image, hom = drawn_board(ROWS)
    patch = tuple(0.7 * w + 0.3 * 1.25 * float(np.mean(WOOD)) for w in WOOD)
    cv2.circle(image, (2 * CELL, 6 * CELL), int(0.45 * CELL), patch, -1, cv2.LINE_AA)
    noise = np.random.default_rng(1).normal(0.0, 2.0, image.shape)
    f = features(np.clip(image + noise, 0, 255).astype(np.uint8), hom, 7)
    labels, sure, first = judged(f)
    assert labels[5, 1] == EMPTY and sure[5, 1] >= 0.8  # no stone by its lightness
    assert doubt(f, labels, sure, first=first)[5, 1] < 0.6
    seen_hidden = np.zeros((7, 7))
    seen_hidden[5, 1] = 1.0
    assert doubt(f, labels, sure, first=first, hidden=seen_hidden)[5, 1] == sure[5, 1]
