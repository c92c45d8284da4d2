"""Judging a grid on a board an exposure clipped: a light from one side brightens the board
until, over most of it, the wood and then the lines themselves reach the sensor's ceiling
(255 in every channel). There no line can show, drawn or not. The board's own grid stays
trusted on the lines that do show, and a grid a line off stays untrusted: the guard any
judging of grids "only where lines could show" must keep.

    left: lines plain        middle: wood clipped,       right: wood and lines
                             lines still dark            clipped, nothing shows
    +---+---+---+---+---+---+---+---+
    |   |   |   |   |   .   .   .   .
    +---+---+---+---+---+ . . . . . .
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.config import VISION
from vision.grid import GridFit, shifted
from vision.grid_score import placed_confidence
from vision.synth import Scene, random_position, render

CELL = 32
N = 9
WOOD = (150, 200, 225)  # BGR, a light kaya
INK = 60.0
TABLE_COLOUR = (40, 55, 70)  # BGR, dark wood
BOARD = (N + 1) * CELL  # the slab: half a cell of wood and more past the outer lines
TABLE = 2 * CELL  # a dark table around it
SIDE = BOARD + 2 * TABLE
AT = TABLE + CELL  # the first line's pixel
HOMOGRAPHY = np.array([[CELL, 0, AT], [0, CELL, AT], [0, 0, 1]], np.float64)
CFG = VISION.locate


def lit_board(seed: int, brightest: float) -> np.ndarray:
    """A 9x9 board square-on (a cell ``CELL`` px, its lattice at ``HOMOGRAPHY``) on a dark
    table, with black
    stones on a seeded tenth of its points, lit from the right: the light rises from x1 on
    the left edge to x``brightest`` on the right before the sensor clips (noise, then the
    ceiling, then a slight blur and a JPEG). At 6 the wood clips from about a fifth of the
    way across and the lines (``INK``) from about two thirds."""
    rng = np.random.default_rng(seed)
    img = np.zeros((SIDE, SIDE, 3), np.float64)
    img[:] = TABLE_COLOUR
    img[TABLE:TABLE + BOARD, TABLE:TABLE + BOARD] = WOOD
    end = AT + (N - 1) * CELL
    for k in range(N):
        p = AT + CELL * k
        cv2.line(img, (AT, p), (end, p), (INK, INK, INK), 2)
        cv2.line(img, (p, AT), (p, end), (INK, INK, INK), 2)
    for (j, i), pick in np.ndenumerate(rng.random((N, N))):
        if pick < 0.1:
            cv2.circle(img, (AT + CELL * i, AT + CELL * j), int(0.47 * CELL), (25, 25, 25),
                       -1, cv2.LINE_AA)
    gain = np.linspace(1.0, brightest, SIDE)[None, :, None]
    img = img * gain + rng.normal(0.0, 2.0, img.shape)
    photo = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (3, 3), 0.7)
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    out: np.ndarray = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
    return out


def test_the_drawn_light_clips_wood_and_lines_on_the_right() -> None:
    gray = lit_board(0, 6.0)
    rows = slice(AT, AT + (N - 1) * CELL)
    line = AT + 7 * CELL  # the eighth vertical line, in the clipped part
    assert (gray[rows, line] >= 254).mean() > 0.9
    assert (gray[rows, AT] < 150).mean() > 0.9  # the first line shows plainly


@pytest.mark.parametrize("seed", range(6))
def test_a_board_clipped_over_most_of_its_lines_is_still_trusted(seed: int) -> None:
    """The lines the light clipped away do not sink the board's own grid: the lines that
    show (a third of the board and the outer lines there) carry it over the floor."""
    gray = lit_board(seed, 6.0)
    assert placed_confidence(gray, GridFit(HOMOGRAPHY, N, 0.0), CFG) >= CFG.min_confidence


@pytest.mark.parametrize("seed", range(6))
def test_a_grid_a_line_off_on_clipped_wood_is_not_trusted(seed: int) -> None:
    """Where the lines cannot show, a grid a line off cannot be told from the board's by
    them: the lines that do show must decide, and they do not trust it. (Judging a grid
    only where its lines could show, with no more, trusts one of these: seed 0, a line
    towards the plain side, 0.28.)"""
    gray = lit_board(seed, 6.0)
    for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        off = placed_confidence(gray, GridFit(shifted(HOMOGRAPHY, di, dj), N, 0.0), CFG)
        assert off < CFG.min_confidence, (di, dj, off)


def test_an_overexposed_scene_clips_the_wood_in_every_channel() -> None:
    """`Scene.overexposed`: the light over what the exposure was set for, before the sensor
    clips; (1, 1) leaves the seed's picture as it was."""
    position = random_position(9, 4, 0.2)
    scene = Scene(glare=False, gradient=0.0)
    plain = render(position, 4, scene)
    assert (render(position, 4, dataclasses.replace(scene, overexposed=(1.0, 1.0))).image
            == plain.image).all()
    lit = render(position, 4, dataclasses.replace(scene, overexposed=(3.5, 3.5)))
    corners = lit.corners.astype(np.float32)
    board = np.zeros(lit.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(board, cv2.convexHull(corners).astype(np.int32), 1)
    clipped = (lit.image >= 254).all(axis=2)
    assert clipped[board > 0].mean() > 0.35  # the wood between the stones, which never clip
    assert (plain.image >= 254).all(axis=2)[board > 0].mean() < 0.05
