"""The board found as a person finds it: the slab of wood, its four edges, the grid inside.

The scenes are the kinds issue 19 reports missed: a crowded finished game photographed by a
phone from 45 degrees over the near edge, the board filling the frame's width, on a dark
wooden table, also under a coloured lamp; a crowded board from above on a light grey floor
with bowls and feet around it. They are made from `vision.synth` renders: the table or the
floor painted around the board's slab, the picture cropped to the board's width.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from tests.vision.test_synth_aimed import slab_of
from vision import grid, read_board
from vision.outline import outlines
from vision.perturb import Cast
from vision.synth import Scene, Synthetic, random_position, render


def paint_around(image: np.ndarray, slab: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """``image`` with ``ground`` (same shape, float) everywhere off the quad ``slab``."""
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(slab).astype(np.int32), 255)
    a = cv2.GaussianBlur(inside.astype(np.float32) / 255.0, (0, 0), 0.8)[:, :, None]
    out: np.ndarray = np.clip(image * a + ground * (1.0 - a), 0, 255).astype(np.uint8)
    return out


def dark_table(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """A dark wooden table top: dark brown with grain."""
    h, w = shape[:2]
    brown = np.array([28.0, 42.0, 66.0]) * rng.uniform(0.8, 1.2)
    x = np.arange(w, dtype=np.float64)
    wobble = cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 25) * 40
    grain = 1.0 + 0.18 * np.sin(2 * np.pi * (x[None, :] + wobble) / rng.uniform(12, 30))
    out: np.ndarray = brown[None, None, :] * grain[:, :, None] + rng.normal(0, 3, (h, w, 1))
    return out


@functools.lru_cache(maxsize=None)  # the lamps' tests light the same renders
def crowded_on_dark_table(seed: int, taken: float = 0.82) -> tuple[np.ndarray, Synthetic, np.ndarray]:
    """A 19x19 board with ``taken`` of its points occupied, seen from 45 degrees over the
    near edge (stones standing up), on a dark wooden table, the picture cropped so the
    board fills its width and turned so the near edge is at the bottom; returns the
    picture (960 x 720), the render and the homography lattice -> picture."""
    scene = Scene(width=1280, height=960, camera_tilt=45.0, stone_height=0.2, turn=8.0)
    shot = render(random_position(19, seed, stones=taken), seed, scene)
    slab = slab_of(shot, seed)
    image = paint_around(shot.image.astype(np.float64), slab,
                         dark_table(shot.image.shape, np.random.default_rng(seed)))
    x0, x1 = slab[:, 0].min(), slab[:, 0].max()
    out_w, out_h = 960, 720
    s = out_w / (x1 - x0)
    top = slab[:, 1].mean() - 0.5 * out_h / s
    # Cropped to the board's width, then turned half round: the renderer's camera looks
    # from beyond the top edge.
    crop = np.array([[s, 0, -x0 * s], [0, s, -top * s], [0, 0, 1.0]])
    turn = np.array([[-1, 0, out_w - 1], [0, -1, out_h - 1], [0, 0, 1.0]])
    to_picture = turn @ crop
    picture = cv2.warpAffine(image, to_picture[:2], (out_w, out_h), flags=cv2.INTER_AREA,
                             borderMode=cv2.BORDER_REFLECT)
    return picture, shot, to_picture @ shot.homography


def grid_error_cells(found: np.ndarray, truth_h: np.ndarray, size: int) -> float:
    """The worst distance (cells) from a corner ``found`` to the nearest true grid corner."""
    truth = grid.corners(truth_h, size)
    cell = np.linalg.norm(truth[1] - truth[0]) / (size - 1)
    d = np.linalg.norm(found[:, None, :] - truth[None, :, :], axis=2).min(axis=1)
    return float(d.max() / cell)


def assert_found_at_19(picture: np.ndarray, truth_h: np.ndarray) -> None:
    reading = read_board(picture)
    assert reading.size == 19
    assert grid_error_cells(reading.corners, truth_h, 19) < 0.25


@pytest.mark.parametrize("seed", [0, 3])
def test_crowded_board_from_45_degrees_filling_the_frame_on_a_dark_table(seed: int) -> None:
    picture, shot, truth_h = crowded_on_dark_table(seed)
    assert sum(row.count("X") + row.count("O") for row in shot.position.rows()) >= 265
    assert_found_at_19(picture, truth_h)


@pytest.mark.parametrize("seed, hue", [(0, 225.0), (3, 225.0), (0, 30.0), (3, 30.0)])
def test_the_same_under_a_blue_and_an_orange_lamp(seed: int, hue: float) -> None:
    picture, _, truth_h = crowded_on_dark_table(seed)
    assert_found_at_19(Cast(hue, 0.7).apply(picture).image, truth_h)


def light_grey_floor(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """A light grey floor, mottled."""
    h, w = shape[:2]
    grey = rng.uniform(165, 190)
    mottle = cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 6) * 40
    out: np.ndarray = (grey + mottle + rng.normal(0, 3, (h, w)))[:, :, None] * np.array(
        [1.0, 1.0, 0.99])[None, None, :]
    return out


def put_things_around(image: np.ndarray, slab: np.ndarray, rng: np.random.Generator) -> None:
    """Two bowls of stones and two feet on the floor ``image`` beside the quad ``slab``
    (4, 2), each touching the board's side or near it, in place."""
    centre = slab.mean(axis=0)
    side = float(np.linalg.norm(slab[1] - slab[0]))
    for k in range(4):
        a, b = slab[k], slab[(k + 1) % 4]
        mid = a + (b - a) * rng.uniform(0.3, 0.7)
        out = (mid - centre) / np.linalg.norm(mid - centre)
        if k % 2 == 0:  # a bowl of wood heaped with stones
            r = 0.12 * side
            at = mid + out * (r + 0.02 * side)
            xy = (int(at[0]), int(at[1]))
            cv2.circle(image, xy, int(r), (40.0, 75.0, 120.0), -1, cv2.LINE_AA)
            for _ in range(30):
                p = at + rng.uniform(-0.7, 0.7, 2) * r
                g = float(rng.choice([25.0, 225.0]))
                cv2.circle(image, (int(p[0]), int(p[1])), int(0.2 * r), (g, g, g), -1,
                           cv2.LINE_AA)
        else:  # a foot in a dark sock, its toe near the board
            toe = mid + out * 0.03 * side
            heel = toe + out * 0.35 * side
            cv2.line(image, (int(toe[0]), int(toe[1])), (int(heel[0]), int(heel[1])),
                     (55.0, 50.0, 50.0), int(0.1 * side), cv2.LINE_AA)


def crowded_on_a_grey_floor(seed: int) -> tuple[np.ndarray, Synthetic]:
    """A 19x19 board, crowded, photographed from above on a light grey floor with bowls
    and feet around it."""
    shot = render(random_position(19, seed, stones=0.82), seed, Scene(turn=10.0))
    slab = slab_of(shot, seed)
    rng = np.random.default_rng(seed)
    floor = light_grey_floor(shot.image.shape, rng)
    put_things_around(floor, slab, rng)
    return paint_around(shot.image.astype(np.float64), slab, floor), shot


@pytest.mark.parametrize("seed", [2, 4])
def test_crowded_board_from_above_on_a_light_grey_floor_with_bowls_and_feet(seed: int) -> None:
    picture, shot = crowded_on_a_grey_floor(seed)
    assert_found_at_19(picture, shot.homography)


SLAB = np.array([[250, 120], [710, 120], [790, 620], [170, 620]], dtype=np.float64)


def plain_slab(seed: int, corners: np.ndarray = SLAB, lines: int = 19,
               shape: tuple[int, int] = (720, 960), jitter: float = 40.0
               ) -> tuple[np.ndarray, np.ndarray]:
    """A picture (``shape``) of a slab of wood, a grid of ``lines`` lines and a few stones
    on it, seen in perspective on a darker cloth, its corners ``corners`` each moved up to
    ``jitter`` px either way at random; and those corners (4, 2)."""
    rng = np.random.default_rng(seed)
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
    corners = corners + rng.uniform(-jitter, jitter, (4, 2))
    side = 600
    board = np.empty((side, side, 3))
    board[:] = rng.uniform([80, 150, 190], [120, 190, 230])
    board *= 1.0 + 0.04 * np.sin(np.arange(side) / rng.uniform(5, 12))[:, None, None]
    for k in range(lines):
        p = int(45 + k * 510 / (lines - 1))
        cv2.line(board, (p, 45), (p, 555), (40.0, 40.0, 40.0), 2)
        cv2.line(board, (45, p), (555, p), (40.0, 40.0, 40.0), 2)
    for _ in range(60 * lines // 19):
        i, j = rng.integers(0, lines, 2)
        g = float(rng.choice([25.0, 230.0]))
        cv2.circle(board, (int(45 + i * 510 / (lines - 1)), int(45 + j * 510 / (lines - 1))),
                   int(13 * 18 / (lines - 1)), (g, g, g), -1)
    warp = cv2.getPerspectiveTransform((square * side).astype(np.float32),
                                       corners.astype(np.float32))
    h, w = shape
    picture = np.empty((h, w, 3))
    picture[:] = rng.uniform(30, 110, 3)
    inside = cv2.warpPerspective(np.ones((side, side), np.float32), warp, (w, h))
    wood = cv2.warpPerspective(board, warp, (w, h))
    picture = picture * (1 - inside[:, :, None]) + wood * inside[:, :, None]
    picture += rng.normal(0, 3, picture.shape)
    return np.clip(picture, 0, 255).astype(np.uint8), corners


@pytest.mark.parametrize("seed", range(5))
def test_a_plain_slab_s_outline_is_its_four_corners_within_a_few_pixels(seed: int) -> None:
    picture, corners = plain_slab(seed)
    found = outlines(picture)
    assert found, "no outline"
    quad = found[0].quad
    assert found[0].seen == (True, True, True, True)
    # The same corners, in the same order (clockwise from the top-left).
    assert np.abs(quad - corners).max() < 4.0, f"\n{quad}\n{corners}"


def test_a_grey_picture_has_no_slab_of_wood() -> None:
    picture, _ = plain_slab(0)
    assert outlines(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)) == []


def test_a_slab_running_off_both_sides_of_the_picture_keeps_its_top_and_bottom_edges() -> None:
    picture, corners = plain_slab(1)
    left, right = int(corners[:, 0].min()) + 60, int(corners[:, 0].max()) - 60
    cut = np.ascontiguousarray(picture[:, left:right])
    found = outlines(cut)
    assert found, "no outline"
    # Clockwise from the top-left: top, right, bottom, left; the picture's border cuts
    # the right and left sides, which are not fitted.
    assert found[0].seen == (True, False, True, False)
    quad = found[0].quad + [left, 0]
    # Where the found corners stand, the true top and bottom edges pass within a few px.
    for (a, b), ends in (((corners[0], corners[1]), quad[[0, 1]]),
                         ((corners[3], corners[2]), quad[[3, 2]])):
        for x, y in ends:
            on_edge = a[1] + (x - a[0]) / (b[0] - a[0]) * (b[1] - a[1])
            assert abs(on_edge - y) < 4.0, (a, b, x, y)


@pytest.mark.parametrize("seed", range(4))
def test_a_9x9_slab_far_off_is_found_though_it_fills_a_twentieth_of_a_wide_picture(
        seed: int) -> None:
    # A 9x9 board whose cells are about a 55th of the picture's width, its slab 9.4 cells
    # across: the smallest board a reader can read, under 6% of a 16:9 picture.
    corners = np.array([[880, 460], [1200, 460], [1230, 750], [850, 750]], dtype=np.float64)
    picture, corners = plain_slab(seed, corners, lines=9, shape=(1080, 1920), jitter=15.0)
    share = cv2.contourArea(corners.astype(np.float32)) / (1080 * 1920)
    assert share < 0.06
    found = outlines(picture)
    assert found, "no outline"
    # Within a quarter of a cell (the slab is 600 px of which the grid takes 510 in 8
    # cells): a pixel of the picture the outline is traced in, which the lines then refine.
    cell = np.ptp(corners[:, 0]) * (510 / 8) / 600
    assert np.abs(found[0].quad - corners).max() < cell / 4, f"\n{found[0].quad}\n{corners}"
