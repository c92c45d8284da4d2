"""Stones on a crowded board seen steeply, once the board is found (issue 19): seen from a
slant, a stone's body is seen leaning away from the camera, over the cell centres behind
it. On a crowded board nearly every centre touches a stone, and the wood the points are
judged against comes from the centres that keep the wood's colour; a black stone leaning
over a centre darkens it but leaves the wood's hue in the rest of it, and an empty point
judged against that darker "wood" looks light: white.

Measured on the scenes benchmark's "phone 60, crowded", seeds 0 to 2 (main 0817607): the
grid lies within 0.06 cell of the truth everywhere, and 9 of the 1,083 points were read
wrong, 8 of them empty points read white, every one behind or beside black stones."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from rules import Cell
from vision import grid, read_board
from vision.config import VISION
from vision.evaluate import to_array
from vision.illuminant import under_white
from vision.stones import PointFeatures, _leaning_over, features
from vision.synth import Scene, Synthetic, random_position, render

STEEP = Scene(width=720, height=960, camera_tilt=60.0, stone_height=0.2, framing="phone",
              turn=5.0, surface="dark table")
"""The scenes benchmark's "phone 60, crowded": a phone held upright over the near edge,
60 degrees off vertical, the board filling the frame's width on a dark table."""


@functools.cache
def shot(seed: int, scene: Scene = STEEP) -> Synthetic:
    return render(random_position(19, seed, stones=0.8), seed, scene)


@functools.cache
def read(seed: int) -> np.ndarray:
    """The steep shot ``seed`` read: (19, 19) 0 empty, 1 black, 2 white, row 0 at the top."""
    reading = read_board(shot(seed).image)
    assert reading.size == 19
    return to_array(reading.rows())


def wrong_points(seed: int) -> int:
    s = shot(seed)
    return int(((read(seed) != to_array(s.position.rows())) & ~s.hidden).sum())


@functools.cache
def steep_features(seed: int) -> PointFeatures:
    s = shot(seed)
    return features(under_white(s.image, VISION.light), s.homography, 19, VISION.stones)


def leaned_over(f: PointFeatures, row: int, col: int) -> set[tuple[int, int]]:
    """The cell centres (row, column, counted as `vision.stones.local_wood` counts them:
    centre (r, c) lies between points r - 1, r and c - 1, c) that a stone on the point
    (row, col) alone leans over, by the features ``f``."""
    stones = np.zeros((19, 19), bool)
    stones[row, col] = True
    return {(int(r), int(c)) for r, c in np.argwhere(_leaning_over(f, stones, VISION.stones))}


def test_seen_from_overhead_a_stone_leans_over_no_centre() -> None:
    # Every stone's body seen right over its point: no lift at all.
    f = steep_features(0)
    on_points = (grid.lattice(19).reshape(19, 19, 2) + 1.0) * VISION.stones.cell
    assert leaned_over(dataclasses.replace(f, points=on_points), 9, 9) == set()


def test_seen_from_60_degrees_a_stone_leans_over_the_two_centres_behind_it() -> None:
    # Row 0 of the picture is the board's far side: a stone leans towards it, over the
    # centres between its own row and the row behind (centre row 9 for point row 9).
    assert leaned_over(steep_features(0), 9, 9) == {(9, 9), (9, 10)}


def test_a_crowded_board_seen_from_60_degrees_reads_empty_points_behind_black_stones() -> None:
    # Main read 9 of these 1,083 points wrong; no board perfect.
    assert sum(wrong_points(seed) for seed in range(3)) <= 5
    assert wrong_points(2) == 0


def test_the_wood_a_leaning_black_stone_darkens_is_no_reference() -> None:
    # Seed 2, point (4, 4): empty, a black stone in front of it and one either side of the
    # point behind; main read it white against centres those stones' sides had darkened.
    assert to_array(shot(2).position.rows())[4, 4] == Cell.EMPTY
    assert read(2)[4, 4] == Cell.EMPTY
