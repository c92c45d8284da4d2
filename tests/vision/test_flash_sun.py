"""Reading stones in light added to the scene: a flash's hot spot and patches of sunlight
(issue 19: "a flash hot spot and sunlight patches read as white stones").

The patch lifts the wood, the lines and the stones under it alike: judged against the wood
around it in the same light, a black stone there stays darker than that wood, an empty
point keeps its cross of lines, and a white stone hides its lines however washed out it is.
Where the light clips the wood and its lines alike, nothing tells: such a point is not
read surely. Boards read on their true grid, so only the stone reading is judged."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rules import Cell
from vision.config import LIGHT, POINT_NET, STONES
from vision.evaluate import to_array
from vision.illuminant import under_white
from vision.stones import features, read_stones, washed_out
from vision.synth import Scene, random_position, render

from .test_stone_light import drawn_board

STILL_MISREAD = pytest.mark.xfail(strict=True, reason=(
    "issue 19: a flash's hot spot is still misread, by the point net too; the rule tried "
    "(stones.lit_patch, reverted) cost robustness rows"))

SEEDS = range(4)
SURE = 0.6  # a point read at this confidence or more is promised right (issue 19)


def misread(scene: Scene) -> list[tuple[int, int]]:
    """For each seed, the points of a half-full 19x19 board drawn as ``scene`` read wrong
    on the true grid, and how many of those were read at `SURE` or more."""
    out = []
    for seed in SEEDS:
        shot = render(random_position(19, seed, stones=0.5), seed, scene)
        labels, conf = read_stones(under_white(shot.image, LIGHT), shot.homography, 19,
                                   STONES, LIGHT, POINT_NET)
        wrong = (labels != to_array(shot.position.rows())) & ~shot.hidden
        out.append((int(wrong.sum()), int((wrong & (conf >= SURE)).sum())))
    return out


@pytest.fixture(scope="module")
def flash() -> list[tuple[int, int]]:
    return misread(Scene(flash=True))


@pytest.fixture(scope="module")
def sun() -> list[tuple[int, int]]:
    return misread(Scene(sun=True))


@STILL_MISREAD
def test_a_hot_spot_costs_few_points(flash: list[tuple[int, int]]) -> None:
    # Now 9 points wrong on these 4 boards, 4 of them surely (13 and 5 read without the
    # point net; lit_patch got 8 and 1).
    assert sum(wrong for wrong, _ in flash) <= 8


def test_points_lost_to_a_hot_spot_are_not_read_surely(flash: list[tuple[int, int]]) -> None:
    # 4 (three white stones washed out by the glare and a black one read empty) before
    # stones.washed_out held the readings where the glare clipped everything at one half.
    assert sum(sure for _, sure in flash) <= 1


def test_white_stones_in_sunlight_are_read(sun: list[tuple[int, int]]) -> None:
    # Read without the point net, 10 points were wrong, 3 of them surely (white stones
    # washed out read empty); with it, none.
    assert sum(wrong for wrong, _ in sun) <= 2
    assert sum(sure for _, sure in sun) == 0


ROWS = [
    ".........",
    ".......X.",
    ".........",
    "...X.....",
    "...OX....",
    ".........",
    "......O..",
    ".O.......",
    ".........",
]
N = len(ROWS)


def glared_board(add: float) -> tuple[np.ndarray, np.ndarray]:
    """`ROWS` drawn square-on (`drawn_board`), a hot spot of ``add`` grey levels at its
    core centred on the middle point, on the black stone there (a flash's glare on a
    glossy board adds the same light to whatever lies under it): the image and its
    lattice -> pixel homography."""
    image, homography = drawn_board(ROWS, wood=(90, 150, 190))
    side = image.shape[0]
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    middle, spread = side / 2, 1.5 * side / (N + 1)  # a cell and a half
    spot = np.exp(-((xx - middle) ** 2 + (yy - middle) ** 2) / (2 * spread ** 2))
    noise = np.random.default_rng(0).normal(0.0, 2.0, image.shape)
    glared = image + add * spot[:, :, None] + noise
    photo = cv2.GaussianBlur(np.clip(glared, 0, 255).astype(np.uint8), (3, 3), 0.8)
    return photo, homography


@pytest.mark.parametrize("add", [160.0, 180.0, pytest.param(200.0, marks=STILL_MISREAD)])
def test_under_glare_a_black_stone_stays_black_and_the_wood_empty(add: float) -> None:
    """The glare (core at the middle point, a black stone on it) lifts the black stone
    past the wood outside the spot, but not past the wood beside it, whose lines still
    show. (Read without the point net, from 160 grey levels on that stone reads empty or
    white, surely; with it, at 200 one point is wrong, at 0.14.)"""
    photo, homography = glared_board(add)
    labels, _ = read_stones(photo, homography, N, net=POINT_NET)
    assert (labels == to_array(ROWS)).all(), f"read\n{labels}"


def test_where_glare_clips_the_wood_nothing_is_read_surely_wrong() -> None:
    """The core clips the wood, its lines and the black stone alike: what is read there
    wrong is not read surely. (Read without the point net, the stone on the core reads
    empty at 0.98, the black stone beside it empty at 0.61; with it, at 0.51 and 0.49.)"""
    photo, homography = glared_board(250.0)
    labels, conf = read_stones(photo, homography, N, net=POINT_NET)
    assert (conf[labels != to_array(ROWS)] < SURE).all()


def test_where_glare_clips_every_line_around_the_picture_is_washed_out() -> None:
    """The core of a hot spot of 400 grey levels (on the black stone at the middle) clips
    the stone, the wood around it and their lines: nothing there tells. (At 250 the lines
    of the points beside the stone still show: a bare point there would show its cross.)"""
    photo, homography = glared_board(400.0)
    washed = washed_out(features(photo, homography, N, STONES, LIGHT), STONES, LIGHT)
    assert washed[N // 2, N // 2]
    assert not washed[0].any() and not washed[:, 0].any(), "the spot's core is all it clips"


def test_a_white_stone_on_clipped_wood_whose_lines_show_is_not_washed_out() -> None:
    """Wood and white stones both at the sensor's ceiling, but the lines still ink on the
    wood: a bare point in that light would show its cross, so a hidden cross is a stone."""
    photo, homography = drawn_board(ROWS, wood=(255, 255, 255), colours=((25, 25, 25),
                                                                         (255, 255, 255)))
    f = features(photo, homography, N, STONES, LIGHT)
    whites = to_array(ROWS) == Cell.WHITE
    assert not washed_out(f, STONES, LIGHT)[whites].any()
