"""The confidence of a point warns where the evidence disagrees, and changes no label.

A stone hides the cross of lines under it. A point judged against the wood nearest it as a
stone, whose every arm of its cross is hidden, is covered by something (a white stone
washed out by a patch of sunlight) even where the far wood says it is empty: read empty,
it is not read surely. Plain points and stones stay sure."""

from __future__ import annotations

import numpy as np

from vision.config import STONES
from vision.evaluate import to_array
from vision.stones import EMPTY, WHITE, classify, features, read_stones, resolve_captured
from vision.synth import Scene, random_position, render

from .test_stone_light import drawn_board

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
