"""A black stone lying off its point is still a whole dark disc of a stone's size, centred
nearer its point than any other; its neighbours' discs reach over the point, but are centred
a cell away. Boards drawn square-on in the tests."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.config import STONES
from vision.stones import read_stones

CELL = 40


def board(stones: dict[tuple[int, int], tuple[float, float]], seed: int,
          n: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """A square-on n x n board, light wood and dark lines, with a black stone (a disc 0.48
    cell in radius) for each (row, column) point at its (x, y) offset in cells; the image
    and its lattice -> pixel homography."""
    rng = np.random.default_rng(seed)
    side = (n + 1) * CELL
    wood = np.array([rng.uniform(110, 150), rng.uniform(160, 190), rng.uniform(200, 225)])
    img = np.tile(wood, (side, side, 1))
    for k in range(n):
        p = CELL * (k + 1)
        cv2.line(img, (CELL, p), (n * CELL, p), (40.0, 50.0, 60.0), 2)
        cv2.line(img, (p, CELL), (p, n * CELL), (40.0, 50.0, 60.0), 2)
    for (r, c), (dx, dy) in stones.items():
        centre = (round(CELL * (c + 1 + dx)), round(CELL * (r + 1 + dy)))
        cv2.circle(img, centre, round(0.48 * CELL), (25.0, 25.0, 28.0), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img + rng.normal(0, 3, img.shape), (0, 0), 1.0)
    hom = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1.0]])
    return np.clip(img, 0, 255).astype(np.uint8), hom


def diagram(labels: np.ndarray) -> list[str]:
    return ["".join(".XO"[v] for v in row) for row in labels]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("toward", [(0.45, 0.0), (0.0, 0.45), (0.3, 0.3), (0.4, 0.4)])
def test_a_black_stone_pushed_off_its_point_in_a_group_is_read_black(
        seed: int, toward: tuple[float, float]) -> None:
    # . . . . .
    # . X X . .      the stone at the middle lies ``toward`` off its point, away from
    # . X X>. .      its group, its point's lines showing again
    # . . . . .
    stones = {(3, 3): (0.0, 0.0), (3, 4): (0.0, 0.0), (4, 3): (0.0, 0.0), (4, 4): toward}
    image, hom = board(stones, seed)
    labels, _ = read_stones(image, hom, 9)
    assert diagram(labels)[2:6] == [".........", "...XX....", "...XX....", "........."]


@pytest.mark.parametrize("seed", range(3))
def test_a_stone_nearer_the_next_point_is_that_points(seed: int) -> None:
    # . X X . .
    # . X . X .      pushed 0.55 cell right, the stone is nearer the next point: its
    # . . . . .      own reads empty (its lines show), the next one black
    stones = {(3, 3): (0.0, 0.0), (3, 4): (0.0, 0.0), (4, 3): (0.0, 0.0), (4, 4): (0.55, 0.0)}
    image, hom = board(stones, seed)
    labels, _ = read_stones(image, hom, 9)
    assert diagram(labels)[3:5] == ["...XX....", "...X.X..."]


@pytest.mark.parametrize("seed", range(3))
def test_an_empty_point_inside_a_black_group_stays_empty(seed: int) -> None:
    # X X X
    # X . X      every neighbour's disc reaches over the middle, none is centred there
    # X X X
    stones = {(r, c): (0.0, 0.0) for r in (3, 4, 5) for c in (3, 4, 5) if (r, c) != (4, 4)}
    image, hom = board(stones, seed)
    labels, _ = read_stones(image, hom, 9)
    assert diagram(labels)[3:6] == ["...XXX...", "...X.X...", "...XXX..."]


def sleeve_edge(seed: int, n: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """An empty square-on n x n board (as `board`) with a dark band across it, its width
    waving between 0.69 and 0.95 cell (the dark edge of a sleeve or the shadow along a
    hand): where it bulges, a disc of a stone's body fits in it, off the points."""
    image, hom = board({}, seed, n)
    img = image.astype(np.float64)
    rng = np.random.default_rng(100 + seed)
    t = np.linspace(0.0, 1.0, 400)
    phase = rng.uniform(0, 2 * np.pi)
    for k in t:
        x, y = CELL * (1.3 + 7.4 * k), CELL * (2.2 + 5.7 * k)
        half = CELL * (0.82 + 0.13 * np.sin(10 * np.pi * k + phase)) / 2
        cv2.circle(img, (round(x), round(y)), round(half), (60.0, 55.0, 70.0), -1, cv2.LINE_AA)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 1.0), 0, 255).astype(np.uint8), hom


@pytest.mark.parametrize("seed", range(4))
def test_a_dark_band_with_no_black_group_beside_gains_no_stones_off_points(seed: int) -> None:
    # . . . . .
    # .\\\ . .      a sleeve's dark edge over empty points: a stone-sized disc fits in it
    # . .\\\ .      where it bulges, but no black stone of a group lies beside: no stone
    # . . .\\\      is taken to lie off its point (what the points themselves show stays)
    image, hom = sleeve_edge(seed)
    labels, _ = read_stones(image, hom, 9)
    no_bodies = dataclasses.replace(STONES, off_disc=1.0)  # no disc a cell wide fits
    assert diagram(labels) == diagram(read_stones(image, hom, 9, no_bodies)[0])
