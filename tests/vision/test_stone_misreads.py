"""Misreadings seen on photos the reader had never seen, each as the rule it breaks: an
object lying on the board is no lattice of stones, and in a grey photo the wood has no
colour for a white stone to take away. Scenes are drawn in the tests (`misreads`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.stones import BLACK, EMPTY, WHITE, read_stones

from .misreads import off_point, scene

CELL = 36


def faint_board(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 9x9 board seen square-on in grey: pale wood, faint lines (a worn board, a soft
    photo), a few black and white stones; the image, its lattice -> pixel homography and
    its truth (9, 9) of 0 empty, 1 black, 2 white.

        . . . . . . . . .
        . . X . . . O . .     (the stones drawn at random points, the
        . . . . . . . . .      rest empty, outer lines included)
    """
    rng = np.random.default_rng(seed)
    n = 9
    side = (n + 1) * CELL
    wood = rng.uniform(170, 215)
    img = np.full((side, side), wood)
    ink = wood - rng.uniform(8, 14)  # faint: a cross of lines barely seen
    for k in range(n):
        p = CELL * (k + 1)
        cv2.line(img, (CELL, p), (n * CELL, p), float(ink), 1)
        cv2.line(img, (p, CELL), (p, n * CELL), float(ink), 1)
    truth = np.zeros((n, n), np.int64)
    for colour in (1, 2):
        for _ in range(4):
            truth[rng.integers(n), rng.integers(n)] = colour
    for (j, i), colour in np.ndenumerate(truth):
        if colour:
            grey = rng.uniform(20, 45) if colour == 1 else min(255.0, wood * 1.25)
            cv2.circle(img, (CELL * (i + 1), CELL * (j + 1)), int(0.46 * CELL), float(grey), -1,
                       cv2.LINE_AA)
    img = cv2.GaussianBlur(img + rng.normal(0, 3, img.shape), (0, 0), 1.0)
    grey = np.clip(img, 0, 255).astype(np.uint8)
    hom = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1.0]])
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), hom, truth


@pytest.mark.parametrize("seed", range(4))
def test_in_grayscale_empty_points_with_faint_lines_are_empty(seed: int) -> None:
    # A grey photo has no colour: that a point lacks the wood's colour says nothing.
    image, hom, truth = faint_board(seed)
    labels, _ = read_stones(image, hom, 9)
    assert not ((labels == WHITE) & (truth == EMPTY)).any(), labels


@pytest.mark.parametrize("seed", range(4))
def test_in_grayscale_white_stones_are_still_white(seed: int) -> None:
    # They rise above the wood in lightness, which grey keeps.
    image, hom, truth = faint_board(seed)
    labels, _ = read_stones(image, hom, 9)
    assert np.array_equal(labels, truth), labels


def test_an_object_lying_on_the_board_is_not_read_surely_as_stones() -> None:
    # An object is flat and wide, not a lattice of discs: at a point under it the cell
    # centres around look the same as the point, where between stones the wood shows.
    under = sure = 0
    for seed in range(5):
        shot = scene("object", 9, seed, 0.35, frame=(480, 360))
        labels, confidence = read_stones(shot.image, shot.homography, 9)
        stones = shot.hidden & (labels != EMPTY)
        under += int(stones.sum())
        sure += int((stones & (confidence >= 0.6)).sum())
    assert under >= 10  # the scenes do put objects where stones would be read
    assert sure <= under // 10, (sure, under)


@pytest.mark.parametrize("seed", range(3))
def test_stones_beside_an_object_are_still_read_surely(seed: int) -> None:
    shot = scene("object", 9, seed, 0.35, frame=(480, 360))
    labels, confidence = read_stones(shot.image, shot.homography, 9)
    seen = ~shot.hidden & (shot.truth != EMPTY)
    assert np.array_equal(labels[seen], shot.truth[seen])
    assert (confidence[seen] >= 0.6).mean() >= 0.95


def test_black_stones_off_their_points_in_black_groups_are_read_black() -> None:
    # A black stone 0.2 to 0.6 cell off its point is still a whole dark disc centred nearer
    # its point than any other; its neighbours' discs reach over the point but are centred
    # a cell away. (Off the outer lines, outwards, no disc is looked for: past them may lie
    # a dark table.)
    moved = missed = wrong = 0
    for seed in range(4):
        shot = off_point(9, seed, 0.6)
        labels, _ = read_stones(shot.image, shot.homography, 9)
        black = shot.truth == BLACK
        inside = black.copy()
        inside[[0, -1], :] = inside[:, [0, -1]] = False
        moved += int(inside.sum())
        missed += int((inside & (labels != BLACK)).sum())
        wrong += int((~black & (labels != shot.truth)).sum())
    assert moved >= 50  # the scenes do lay many stones off their points
    assert missed <= moved // 10, (missed, moved)  # main missed 12 of 60
    assert wrong <= 4, wrong
