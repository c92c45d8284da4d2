"""Reading stones where the light is against us: shadows cast across empty points, and
stones darkening the wood beside them. Boards are drawn square-on here, one picture per
rule, so each test shows exactly the case it is about."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.config import STONES
from vision.stones import bare_wood, features, line_contrast, local_wood, read_stones

CELL = 40
WOOD = (120, 190, 225)  # BGR, a light kaya
PALE = (200, 212, 218)  # a pale, almost grey wood


def drawn_board(rows: list[str], wood: tuple[int, int, int] = WOOD,
                shadows: list[tuple[float, float, float, float]] = (),
                off: tuple[float, float] = (0.0, 0.0),
                colours: tuple[tuple[int, int, int], tuple[int, int, int]] = (
                    (25, 25, 25), (235, 238, 240))) -> tuple[np.ndarray, np.ndarray]:
    """A board seen square-on: ``rows`` of . X O (top row first), cells of CELL px, one
    cell of wood around the grid. ``shadows``: ellipses (i, j, half-width, half-height in
    cells) whose light is halved; ``off``: how far (cells) every stone lies off its point;
    ``colours``: the X and the O stones' (BGR). Returns the image and its lattice -> pixel
    homography."""
    n = len(rows)
    side = (n + 1) * CELL
    img = np.zeros((side, side, 3), np.float64)
    img[:] = wood
    for k in range(n):
        p = CELL * (k + 1)
        cv2.line(img, (CELL, p), (n * CELL, p), (40, 40, 40), 2)
        cv2.line(img, (p, CELL), (p, n * CELL), (40, 40, 40), 2)
    for i, j, a, b in shadows:
        mask = np.zeros((side, side), np.float64)
        cv2.ellipse(mask, (int(CELL * (i + 1)), int(CELL * (j + 1))),
                    (int(a * CELL), int(b * CELL)), 0, 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 3)
        img *= 1.0 - 0.55 * mask[:, :, None]
    r = int(0.5 * CELL)
    for j, row in enumerate(rows):
        for i, ch in enumerate(row):
            if ch != ".":
                colour = colours[ch == "O"]
                centre = (int(CELL * (i + 1 + off[0])), int(CELL * (j + 1 + off[1])))
                cv2.circle(img, centre, r, colour, -1, cv2.LINE_AA)
    h = np.array([[CELL, 0, CELL], [0, CELL, CELL], [0, 0, 1]], np.float64)
    return np.clip(img, 0, 255).astype(np.uint8), h


def read(image: np.ndarray, h: np.ndarray, n: int, **changes: object) -> list[str]:
    labels, _ = read_stones(image, h, n, dataclasses.replace(STONES, **changes))
    return ["".join(".XO"[v] for v in row) for row in labels]


def test_a_long_shadow_beside_a_stone_is_not_a_stone() -> None:
    # Low light from the left: each stone throws a shadow a cell and a half long to its
    # right, over the empty points there. Their cross of lines still shows: no stone.
    rows = [
        ".........",
        ".X.......",
        ".........",
        "....O....",
        ".........",
        "......X..",
        ".........",
        ".........",
        ".........",
    ]
    image, h = drawn_board(rows, shadows=[(2.0, 1, 1.2, 0.5), (5.0, 3, 1.2, 0.5),
                                          (7.0, 5, 1.2, 0.5)])
    assert read(image, h, 9) == rows


def test_without_looking_for_the_lines_those_shadows_would_be_stones() -> None:
    rows = [".........", ".X.......", *["........."] * 7]
    image, h = drawn_board(rows, shadows=[(2.0, 1, 1.2, 0.5)])
    assert read(image, h, 9, line_seen=1e9)[1][2] == "X"


def test_empty_points_on_the_edge_beside_black_stones_on_pale_wood_stay_empty() -> None:
    # The black stones lie a third of a cell off their points, towards the edge, as on a
    # real board (gomrade/3), and darken the cell centres there: an empty point judged
    # against that darkened wood looks light, and white.
    rows = [
        ".........",
        ".X.......",
        ".X.......",
        ".XX......",
        ".........",
        ".........",
        "....XX...",
        "....X....",
        ".........",
    ]
    image, h = drawn_board(rows, wood=PALE, off=(-0.3, 0.0))
    assert read(image, h, 9) == rows
    # Judged again against clean wood, they are read right by their colour alone...
    assert read(image, h, 9, line_seen=1e9) == rows
    # ...where judged only against the four centres around each, some read white.
    assert "O" in "".join(read(image, h, 9, wood_passes=0, line_seen=1e9))


def test_the_wood_under_a_point_comes_from_clean_centres_first() -> None:
    centres = np.full((4, 4), 200.0)
    centres[1, 1] = 90.0  # a stone leans over this cell centre
    dirty = np.zeros((4, 4), bool)
    dirty[1, 1] = True
    assert local_wood(centres)[0, 0] == 90.0  # only one centre inside the grid touches (0, 0)
    assert local_wood(centres, dirty)[0, 0] == 200.0  # so look further out for clean wood


def test_where_stones_reach_over_every_centre_the_wood_coloured_ones_stand_in() -> None:
    # A crowded board: every cell centre touches a stone read so far. Of the four around
    # point (2, 2), three are covered (two black stones' 60, a white one's 230), one is wood.
    centres = np.full((6, 6), 200.0)
    centres[2, 2], centres[2, 3], centres[3, 2] = 60.0, 230.0, 60.0
    dirty = np.ones((6, 6), bool)
    wood_coloured = centres == 200.0
    assert local_wood(centres, dirty)[2, 2] == 130.0  # none clean: all four, stones too
    assert local_wood(centres, dirty, spare=wood_coloured)[2, 2] == 200.0


def test_bare_wood_is_told_by_the_woods_colour_which_black_and_white_stones_take_out() -> None:
    cfg = dataclasses.replace(STONES, cell=CELL)
    for rows in (["...", ".X.", "..."], ["...", ".O.", "..."]):
        # The stone half a cell off its point, over the cell centre beside it.
        image, h = drawn_board(rows, off=(0.5, 0.5))
        bare = bare_wood(features(image, h, 3, cfg))
        assert not bare[2, 2]
        assert bare[1:3, 1:3].sum() == 3  # the other centres inside the grid are wood


def test_the_cross_of_lines_shows_on_empty_points_only() -> None:
    rows = ["...", ".XO", "..."]
    image, _ = drawn_board(rows)
    light = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float64)
    contrast = line_contrast(light, 3, dataclasses.replace(STONES, cell=CELL))
    assert contrast[1, 1] < 5 and contrast[1, 2] < 5  # both stones hide the lines
    assert contrast[0, 0] > 50 and contrast[2, 1] > 50  # grey levels darker than the wood


def test_a_stone_seen_leaning_hides_the_arms_it_leans_over_not_those_behind_it() -> None:
    #   . . .     the stone's body seen 0.3 cell off its point, down and right, as a camera
    #   . X .     up and left sees a stone standing up: the near arms of both lines show
    #   . . .     beside it, the far ones it hides
    image, _ = drawn_board(["...", ".X.", "..."], off=(0.3, 0.3))
    light = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float64)
    cfg = dataclasses.replace(STONES, cell=CELL)
    assert line_contrast(light, 3, cfg)[1, 1] > 20  # both arms averaged: half a line
    leaning = np.full((9, 2), 0.3)
    assert line_contrast(light, 3, cfg, leaning)[1, 1] < 5
    assert line_contrast(light, 3, cfg, leaning)[0, 0] > 50  # an empty point shows them


def test_stones_are_still_read_in_a_shadow() -> None:
    rows = [".........", "..X.O....", *["........."] * 7]
    image, h = drawn_board(rows, shadows=[(3.0, 1, 3.0, 1.0)])
    assert read(image, h, 9) == rows


def test_black_stones_in_a_lamps_glare_on_a_crowded_board_stay_black() -> None:
    #   X O X O X O X O X     a board full but for its far corner: every cell centre near
    #   O X O X O X O X O     the top left touches a stone, so the clean wood to judge by
    #   X O X O X O X O X     lies far off in the dim, out of the glare that lights that
    #   . . .                 corner up (black shells to over 100, the wood between them
    #   O X O X O X O . .     to 250); against that far wood they would read empty
    #   X O X O X O X . .
    rows = ["XOXOXOXOX", "OXOXOXOXO", "XOXOXOXOX", "OXOXOXOXO", "XOXOXOXOX",
            "OXOXOXOXO", "XOXOXOX..", "OXOXOX...", "XOXOX...."]
    image, h = drawn_board(rows)
    yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float64)
    falloff = 1.0 - 0.35 * (xx + yy) / (xx + yy).max()  # the lamp is at the top left
    glare = 80.0 * np.exp(-((xx - 2 * CELL) ** 2 + (yy - 2 * CELL) ** 2) / (2 * (2 * CELL) ** 2))
    lit = np.clip(image * falloff[:, :, None] + glare[:, :, None], 0, 255).astype(np.uint8)
    assert read(lit, h, 9) == rows
