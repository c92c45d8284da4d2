"""Reading stones where the light is against us: shadows cast across empty points, and
stones darkening the wood beside them. Boards are drawn square-on here, one picture per
rule, so each test shows exactly the case it is about."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision import read_board
from vision.config import STONES
from vision.evaluate import to_array
from vision.stones import (BLACK, arm_contrast, bare_wood, classify, features, line_contrast,
                           local_wood, read_stones)
from vision.synth import Scene, random_position, render

CELL = 40
WOOD = (120, 190, 225)  # BGR, a light kaya
PALE = (200, 212, 218)  # a pale, almost grey wood


def drawn_board(rows: list[str], wood: tuple[int, int, int] = WOOD,
                shadows: list[tuple[float, float, float, float]] = (),
                off: tuple[float, float] = (0.0, 0.0),
                lamp: tuple[float, float] = (0.0, 0.0),
                colours: tuple[tuple[int, int, int], tuple[int, int, int]] = (
                    (25, 25, 25), (235, 238, 240))) -> tuple[np.ndarray, np.ndarray]:
    """A board seen square-on: ``rows`` of . X O (top row first), cells of CELL px, one
    cell of wood around the grid. ``shadows``: ellipses (i, j, half-width, half-height in
    cells) whose light is halved; ``off``: how far (cells) every stone lies off its point;
    ``lamp``: how far (cells, x and y) the hard shadow each stone casts under a low lamp
    reaches past it, as dark as a black stone; ``colours``: the X and the O stones' (BGR). Returns the image and its lattice -> pixel
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
    stones = [(i, j) for j, row in enumerate(rows) for i, ch in enumerate(row) if ch != "."]
    if lamp != (0.0, 0.0):
        cast = np.zeros((side, side), np.float64)
        for i, j in stones:
            near = (int(CELL * (i + 1 + off[0])), int(CELL * (j + 1 + off[1])))
            far = (int(near[0] + lamp[0] * CELL), int(near[1] + lamp[1] * CELL))
            cv2.line(cast, near, far, 1.0, 2 * r)
            cv2.circle(cast, far, r, 1.0, -1)
        dark = cv2.GaussianBlur(cast, (0, 0), 1.5)[:, :, None]
        img = img * (1.0 - dark) + np.array(colours[0], np.float64) * dark
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


LAMPLIT = [
    ".........",
    ".X...XX..",
    ".........",
    "..X..OX..",
    ".........",
    ".XX..X...",
    ".........",
    "...X..O..",
    ".........",
]
"""Stones under a low lamp on the left: a shadow as dark as a black stone, the stone's
outline moved 0.7 cell to its right, falls over the empty point there or the next stone."""


def test_a_low_lamps_shadow_over_the_next_point_is_not_a_black_stone() -> None:
    #   . X ▓ . . X X ▓ .     ▓: a stone's shadow, as dark as a black stone. On the side
    #   . . X ▓ . O X ▓ .     away from the stone, the arm of the line shows (a stone on
    #   . X X ▓ . X ▓ . .     the point would hide it), and the dark stays as wide as the
    #   . . . X ▓ . O ▓ .     stone from the black stone, or from where the white one
    #                         ends (two stones narrow between them)
    image, h = drawn_board(LAMPLIT, lamp=(0.7, 0.0))
    assert read(image, h, 9) == LAMPLIT


def test_a_shadow_over_a_point_on_the_edge_is_not_a_black_stone_either() -> None:
    #   . . . . . . . X ▓     the arm pointing away from the stone runs off the board: no
    #   . . . . . . O X ▓     line there, but the bare wood beyond the last line, which a
    #                         stone on the point would cover
    rows = [".........", ".......X.", ".........", "......OX.", *["........."] * 5]
    image, h = drawn_board(rows, lamp=(0.7, 0.0))
    assert read(image, h, 9) == rows
    cfg = dataclasses.replace(STONES, cell=CELL)
    f = features(image, h, 9, cfg)
    light = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float64)
    lines_only = dataclasses.replace(f, arms=arm_contrast(light, 9, cfg))  # no wood beyond
    labels, _ = classify(lines_only, cfg)
    assert labels[1, 8] == BLACK and labels[3, 8] == BLACK


def test_one_arm_of_the_cross_shows_beside_a_shadows_caster_none_under_a_stone() -> None:
    image, _ = drawn_board(LAMPLIT, lamp=(0.7, 0.0))
    light = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float64)
    arms = arm_contrast(light, 9, dataclasses.replace(STONES, cell=CELL))
    left, right, up, down = np.moveaxis(arms, -1, 0)
    assert right[1, 2] > 50 and max(left[1, 2], up[1, 2], down[1, 2]) < 10  # the shadow
    assert arms[1, 1].max() < 5 and arms[3, 6].max() < 5  # stones, one of them shadowed
    assert arms[6, 7].min() > 50  # bare wood


def test_a_stone_and_its_shadow_stay_one_band_two_stones_narrow_between_them() -> None:
    cfg = dataclasses.replace(STONES, cell=CELL)
    image, h = drawn_board(LAMPLIT, lamp=(0.7, 0.0))
    waists = features(image, h, 9, cfg).waists[:, :, 0]  # the way from the left neighbour
    assert waists[1, 2] > 0.9 and waists[3, 3] > 0.9  # black stones' shadows
    assert waists[7, 7] > 0.9  # a white stone's
    assert waists[8, 1] == 0  # bare wood
    image, h = drawn_board(LAMPLIT)  # no lamp
    waists = features(image, h, 9, cfg).waists[:, :, 0]
    narrow = STONES.shadow_waist
    assert waists[1, 6] < narrow and waists[5, 2] < narrow  # two stones side by side
    assert waists[3, 6] < narrow  # a black stone touching a white one


def test_without_either_sign_a_shadow_reads_black() -> None:
    image, h = drawn_board(LAMPLIT, lamp=(0.7, 0.0))
    cfg = dataclasses.replace(STONES, cell=CELL)
    f = features(image, h, 9, cfg)
    for blind in (dataclasses.replace(f, arms=np.zeros_like(f.arms)),
                  dataclasses.replace(f, waists=np.zeros_like(f.waists))):
        labels, _ = classify(blind, cfg)
        assert labels[1, 2] == BLACK and labels[1, 7] == BLACK and labels[3, 3] == BLACK
        assert labels[7, 7] == BLACK


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


def test_a_short_shadow_rounding_off_on_the_next_point_is_no_stone() -> None:
    # A lamp casting each stone's shadow half a cell (drawn by vision.synth): the shadow
    # ends on the next point and rounds off there, narrower than the stone past 0.6 of
    # the way from it. Two stones narrow about halfway between them: the dark is measured
    # across over 0.4 of the way from where it is first looked at, no further.
    shot = render(random_position(19, 4, stones=0.3), 4, Scene(lamp=0.5))
    h = read_board(shot.image).homography
    truth = to_array(shot.position.rows())

    def wrong(**changes: float) -> int:
        labels, _ = read_stones(shot.image, h, 19, dataclasses.replace(STONES, **changes))
        return int(np.sum(labels != truth))

    assert wrong() <= 16  # (14 of 361)
    assert wrong(waist_length=1.0) >= 24  # (26, measured on to 0.7 of the way)


def _wood_ring_by_ring(centres: np.ndarray, dirty: np.ndarray, reach: int,
                       spare: np.ndarray) -> np.ndarray:
    """`local_wood` spelled out point by point: the median of the clean centres inside the
    grid among the 2x2 around the point, else the 4x4 ... up to ``reach`` rings; the spare
    ones the same way where none is clean; the median of all clean ones where none either."""
    k = len(centres)
    inner = np.zeros((k, k), bool)
    inner[1:-1, 1:-1] = True
    kinds = [kind for kind in (inner & ~dirty, inner & spare) if kind.any()] or [inner]
    out = np.full((k - 1, k - 1), np.nan)
    for y in range(k - 1):
        for x in range(k - 1):
            for kind in kinds:
                for r in range(1, reach + 1):
                    rows = slice(max(0, y - r + 1), y + r + 1)
                    cols = slice(max(0, x - r + 1), x + r + 1)
                    near = centres[rows, cols][kind[rows, cols]]
                    if near.size:
                        out[y, x] = np.median(near)
                        break
                if not np.isnan(out[y, x]):
                    break
            else:
                out[y, x] = np.median(centres[kinds[0]])
    return out


def test_the_local_wood_is_the_median_of_the_nearest_clean_centres_to_the_bit() -> None:
    # Crowded and sparse boards alike; lightness in quarter steps gives ties and
    # medians halfway between two centres, where a rounding would show.
    rng = np.random.default_rng(19)
    for share in (0.0, 0.3, 0.7, 0.95, 1.0):
        for size in (9, 13, 19):
            k = size + 1
            centres = 100.0 + 0.25 * rng.integers(0, 400, (k, k))
            dirty = rng.random((k, k)) < share
            spare = rng.random((k, k)) < 0.2
            got = local_wood(centres, dirty, 3, spare)
            assert np.array_equal(got, _wood_ring_by_ring(centres, dirty, 3, spare)), (share, size)
