"""A grid from the stones: on a board so crowded that its lines hide, the black stones'
centres still lie on the lattice, and give the grid when no grid of lines is trusted."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision import grid
from vision.errors import BoardNotFound
from vision.locate import locate
from vision.config import LOCATE, SIZES, VISION, VisionConfig
from vision.grid import GridFit
from vision.grid_score import edge_shares, vouched
from vision.stone_lattice import (BlackStones, dark_centres, lattice_axes, lattice_through,
                                  stone_starts, stones_reach, three_class_thresholds)
from vision.synth import Scene, random_position, render

locate_module = importlib.import_module("vision.locate")  # the name `locate` is its function
stone_lattice_module = importlib.import_module("vision.stone_lattice")


def without_net(config: VisionConfig) -> VisionConfig:
    """``config`` with the point net left out of finding the board (`LocateConfig.net_looks`)."""
    return dataclasses.replace(config, locate=dataclasses.replace(config.locate, net_looks=0))


LINES_ONLY = without_net(VISION)


def _cell_error(found: np.ndarray, truth: np.ndarray, n: int) -> float:
    """The worst corner's distance in cells between two (4, 2) corner sets."""
    cell = np.linalg.norm(truth[1] - truth[0]) / (n - 1)
    return float(np.abs(found - truth).max() / cell)


def test_three_classes_split_black_wood_and_white() -> None:
    gray = np.r_[np.full(300, 30), np.full(1000, 150), np.full(300, 230)].astype(np.uint8)
    low, high = three_class_thresholds(gray.reshape(40, 40))
    assert 30 <= low < 150 <= high < 230


def _stones(centres: list[tuple[int, int]], radius: int, shape=(200, 300)) -> np.ndarray:
    img = np.full(shape, 170, np.uint8)  # wood
    for x, y in centres:
        cv2.circle(img, (x, y), radius, 25, -1, cv2.LINE_AA)
    return img


def test_each_black_stone_gives_its_centre_even_in_a_wall_of_touching_stones() -> None:
    #   X X X X X     a wall of five touching stones, and four standing alone
    #                 (which tell the stones' size)
    #   X   X   X   X
    wall = [(40 + 24 * k, 50) for k in range(5)]
    alone = [(40, 130), (100, 130), (160, 130), (220, 130)]
    found = dark_centres(_stones(wall + alone, 11), LOCATE)
    assert found is not None
    points = found.centres
    assert 10 <= found.radius <= 12.5
    assert len(points) == 9
    for x, y in wall + alone:
        assert np.hypot(*(points - (x, y)).T).min() <= 1.5


def test_a_highlight_on_a_stone_does_not_split_it_in_two() -> None:
    centres = [(40, 40), (100, 40), (160, 40), (40, 100), (100, 100), (160, 100)]
    img = _stones(centres, 14, shape=(480, 640))
    for x, y in centres:
        cv2.circle(img, (x - 3, y - 3), 3, 235, -1)  # the lamp's reflection on the shell
    found = dark_centres(img, LOCATE)
    assert found is not None
    points = found.centres
    assert len(points) == len(centres)
    for x, y in centres:
        assert np.hypot(*(points - (x, y)).T).min() <= 3.0


def test_too_few_stones_standing_alone_tell_no_size() -> None:
    assert dark_centres(_stones([(50, 50), (150, 50), (100, 140)], 11), LOCATE) is None
    assert dark_centres(np.full((120, 160), 170, np.uint8), LOCATE) is None


def test_near_and_far_stones_under_perspective_each_give_their_centre() -> None:
    # A steep camera: stones are ellipses, flatter than wide, and the far rows' stones are
    # half the size of the near rows'. Each row holds a wall of four touching stones and
    # three standing alone, and a column of three stones touching stands on the right.
    # Judged by one round size, the far stones' centres were too shallow to count and the
    # near walls' too deep; none stood alone as a round blob. In the column, stones touch
    # along their minor axis, and the ridge between them is as deep as the major one.
    img = np.full((420, 640), 170, np.uint8)  # wood
    truth: list[tuple[int, int, float]] = []

    def stone(x: float, y: float, minor: float) -> None:
        cv2.ellipse(img, (int(x), int(y)), (int(round(1.4 * minor)), int(round(minor))), 0, 0,
                    360, 25, -1, cv2.LINE_AA)
        truth.append((int(x), int(y), minor))

    for y, minor in ((50, 6.0), (110, 7.5), (180, 9.0), (260, 10.5), (350, 12.0)):
        major = 1.4 * minor
        for x in [40 + 2 * major * k for k in range(4)] + [330 + 4 * major * k for k in range(3)]:
            stone(x, y, minor)
    for k in range(3):
        stone(590, 150 + 14 * k, 9.0)
    found = dark_centres(img, LOCATE)
    assert found is not None
    assert len(found.centres) == len(truth)
    for x, y, minor in truth:  # within a quarter of the stone's minor semi-axis
        assert np.hypot(*(found.centres - (x, y)).T).min() <= 0.25 * minor
    # Under `rounding` the stones are round: their minor axis (here up the photo) is
    # stretched to their major.
    assert found.rounding @ np.array([0.0, 1.0]) == pytest.approx([0.0, 1.4], abs=0.1)


def test_stones_in_which_no_centre_stands_out_give_none() -> None:
    # Stones standing alone tell their size, but no peak of the distance to the wood lies
    # within `stone_peak` of it (here: none is twice as deep as a stone). That was an
    # empty array of centres, on which the lattice's spacing raised a ValueError.
    img = _stones([(40 + 40 * k, 60 + 60 * (k % 2)) for k in range(6)], 11)
    assert dark_centres(img, LOCATE) is not None
    assert dark_centres(img, dataclasses.replace(LOCATE, stone_peak=(2.0, 3.0))) is None


def test_a_dark_cloth_round_the_board_gives_no_centres() -> None:
    # A 13x13 board on a dark red cloth, seen from above: the cloth's grain around the
    # board, just at the threshold between black stones and wood, made ridges of a stone's
    # size in the dark mask, a line of them along the board's edge, and the lattice took
    # them for a line of stones past it.
    shot = render(random_position(13, 1, stones=0.75), 1)
    small, to_full = locate_module.working_image(locate_module.to_gray(shot.image), LOCATE)
    found = dark_centres(small, LOCATE)
    assert found is not None
    board = grid.apply(np.linalg.inv(to_full) @ shot.homography,
                       np.array([[-1.0, -1.0], [13.0, -1.0], [13.0, 13.0], [-1.0, 13.0]]))
    outline = board.astype(np.float32).reshape(-1, 1, 2)
    assert all(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0
               for x, y in found.centres)
    fit = locate(shot.image)
    assert fit.size == 13 and _cell_error(fit.corners, shot.corners, 13) < 0.1


@pytest.mark.parametrize("seed", [1, 5])
def test_a_9x9_board_seen_from_55_degrees_with_few_stones_is_found_by_its_lines(seed: int) -> None:
    # Seed 1's black stones mostly touch a line, and four stand alone; on seed 5 too few
    # stand alone to tell their size, and the stones give no lattice at all. Once these
    # boards gave an empty array of centres, on which the lattice's spacing raised a
    # ValueError.
    shot = render(random_position(9, seed, stones=0.3), seed,
                  Scene(camera_tilt=55, stone_height=0.2))
    fit = locate(shot.image)
    assert fit.size == 9 and _cell_error(fit.corners, shot.corners, 9) < 0.1


def test_stones_all_in_a_row_give_no_second_axis() -> None:
    row = np.array([[100.0 + 40 * k, 200.0] for k in range(8)])
    assert lattice_axes(row, 40.0, LOCATE) is None  # (its second step was a median of nothing)


def test_a_square_of_stones_grown_into_no_board_size_is_no_board(monkeypatch) -> None:
    # A 9x9 board seen from 45 degrees, three points in four taken: the square centred on
    # the stones once grew into a grid of 10 lines, which was returned as the board.
    shot = render(random_position(9, 4, stones=0.75), 4, Scene(camera_tilt=45, stone_height=0.2))
    small, _ = locate_module.working_image(locate_module.to_gray(shot.image), LOCATE)
    found = dark_centres(small, LOCATE)
    assert found is not None
    for given in (None, 9):  # now its stones find it, told its size or not
        fit = locate(shot.image, given)
        assert fit.size == 9 and _cell_error(fit.corners, shot.corners, 9) < 0.1
    finish = locate_module._finish
    with monkeypatch.context() as m:  # every square the stones start grows to 10 lines
        m.setattr(locate_module, "_finish",
                  lambda *args: dataclasses.replace(finish(*args), size=10))
        assert locate_module._stone_fit(small, found, found.centres, None, VISION) is None


def test_the_lattice_through_stones_under_perspective_numbers_them_and_leaves_strays_out() -> None:
    truth = cv2.getPerspectiveTransform(
        grid.corner_lattice(19).astype(np.float32),
        np.float32([[120, 90], [860, 130], [930, 820], [60, 760]])).astype(np.float64)
    rng = np.random.default_rng(3)
    taken = rng.choice(361, 150, replace=False)
    lattice = grid.lattice(19)[taken]
    points = grid.apply(truth, lattice) + rng.normal(0, 0.6, (150, 2))
    strays = np.array([[5.0, 5.0], [990.0, 20.0], [500.0, 990.0]])
    cell = float(np.linalg.norm(np.diff(grid.apply(truth, np.array([[9.0, 9.0], [10.0, 9.0]])),
                                        axis=0)))
    axes = lattice_axes(np.r_[points, strays], cell, LOCATE)
    assert axes is not None
    through = lattice_through(np.r_[points, strays], axes, LOCATE)
    assert through is not None
    h, coords = through
    assert len(coords) == 150  # every stone, no stray
    # The fit's lattice is the truth's up to where it starts counting and which way.
    back = np.linalg.inv(truth) @ h
    back /= back[2, 2]
    rounded = np.round(back)
    assert np.abs(back - rounded).max() < 0.02
    assert abs(round(np.linalg.det(rounded[:2, :2]))) == 1


def test_a_stray_past_the_board_as_heavy_as_its_last_column_leaves_both_windows_to_try() -> None:
    #   col:  0 1 ... 17 18 | 19
    #         X . ...  X  X |  X    one stone on the first column, one stray a line past
    #                                the last: a window one line over holds as many stones
    truth = np.array([[30.0, 0.0, 50.0], [0.0, 30.0, 50.0], [0.0, 0.0, 1.0]])
    rng = np.random.default_rng(5)
    board = [(i, j) for i in range(1, 19) for j in range(19) if rng.random() < 0.4]
    board += [(0, 9), (18, 0), (18, 18), (5, 0), (5, 18)]
    stones = grid.apply(truth, np.array(board + [(19, 4)], dtype=np.float64))
    starts = stone_starts(BlackStones(stones, 13.0, np.eye(2)), None, SIZES, LOCATE)
    assert len(starts) >= 2
    corners = [grid.corners(h, lines) for h, lines in starts if lines == 19]
    assert any(np.abs(c - grid.corners(truth, 19)).max() < 1.0 for c in corners)


def _centres(diagram: str, homography: np.ndarray) -> np.ndarray:
    """Pixel centres of the X stones of ``diagram`` (rows of a board, top first)."""
    rows = diagram.split()
    ij = np.array([(i, j) for j, row in enumerate(rows) for i, ch in enumerate(row) if ch == "X"],
                  dtype=np.float64)
    return grid.apply(homography, ij)


FIVE_LINES = np.array([[40.0, 0.0, 100.0], [0.0, 40.0, 80.0], [0.0, 0.0, 1.0]])


EVERY_OUTER_LINE = """
    ..X..
    X...X
    ..X..
    .X.X.
    ..X.."""  # stones on each of a 5x5 grid's outer lines, one on its right one


def test_stones_on_all_four_outer_lines_vouch_for_the_grid_by_the_share_on_its_points() -> None:
    stones = _centres(EVERY_OUTER_LINE, FIVE_LINES)
    stray = np.array([[0.0, 0.0]])  # a stone off the board: not on any point
    share, reached = stones_reach(stones, FIVE_LINES, 5, LOCATE)
    assert share == 1.0 and reached.all()
    share, reached = stones_reach(np.r_[stones, stray], FIVE_LINES, 5, LOCATE)
    assert share == pytest.approx(7 / 8) and reached.all()


def test_a_grid_most_stones_lie_off_is_not_one_they_vouch_for() -> None:
    stones = _centres("""
        ..X..
        X...X
        .....
        .....
        ..X..""", FIVE_LINES)  # one stone on each outer line...
    between = grid.apply(FIVE_LINES, [[0.5, 1.5], [1.5, 1.5], [2.5, 2.5], [3.5, 2.5],
                                      [1.5, 3.5]])  # ...and five between the points
    assert stones_reach(stones, FIVE_LINES, 5, LOCATE)[0] == 1.0
    assert stones_reach(np.r_[stones, between], FIVE_LINES, 5, LOCATE)[0] == 0.0


def test_stones_short_of_an_outer_line_do_not_fix_where_the_grid_ends() -> None:
    stones = _centres("""
        ..X..
        X...X
        ..X..
        .X.X.
        .....""", FIVE_LINES)  # nothing on the bottom line: the grid could sit a line lower
    share, reached = stones_reach(stones, FIVE_LINES, 5, LOCATE)
    assert share == 1.0
    assert reached.tolist() == [[True, True], [True, False]]  # (axis j, far end) is open
    one_up = FIVE_LINES @ np.array([[1.0, 0, 0], [0, 1, -1], [0, 0, 1]])
    share, reached = stones_reach(stones, one_up, 5, LOCATE)
    assert share == 1.0 and reached.tolist() == [[True, True], [False, True]]


def test_a_lattice_of_stones_that_goes_on_past_an_outer_line_is_no_board_of_its_size() -> None:
    stones = _centres("""
        ..X..X
        X...XX
        ..X..X
        .X.X.X
        ..X..X""", FIVE_LINES)  # a sixth column as full as the fifth: a patch, or a pattern
    assert stones_reach(stones, FIVE_LINES, 5, LOCATE)[0] == 0.0


def test_a_dark_speck_on_the_pictures_border_is_no_stone_past_an_outer_line() -> None:
    # The picture ends a line past the board's right outer line, which holds one stone;
    # on the picture's last column, beside it, a dark speck (a sliver of a stone cut
    # past its middle, the table's shadow) is found as a black stone's centre. Taken
    # for one, it says the lattice goes on past the board, and the stones deny its grid.
    stones = _centres(EVERY_OUTER_LINE, FIVE_LINES)
    speck = grid.apply(FIVE_LINES, np.array([[5.0, 1.0]]))  # a line past (4, 1)
    picture = (400, int(speck[0, 0]) + 1)  # its last column is the speck's
    found = BlackStones(np.r_[stones, speck], 15.0, np.eye(2))
    assert stones_reach(found.centres, FIVE_LINES, 5, LOCATE)[0] == 0.0
    framed = locate_module._framed_stones(found, picture, VISION)
    assert framed is not None and np.array_equal(framed.centres, stones)
    assert stones_reach(framed.centres, FIVE_LINES, 5, LOCATE)[0] == 1.0
    on_the_border = BlackStones(speck, 15.0, np.eye(2))
    assert locate_module._framed_stones(on_the_border, picture, VISION) is None


NINE_LINES = np.array([[40.0, 0.0, 60.0], [0.0, 40.0, 60.0], [0.0, 0.0, 1.0]])


def _drawn_board(stones: np.ndarray, lines: int = 9) -> np.ndarray:
    """A grid of ``lines`` lines, the first nine NINE_LINES', drawn on wood, black stones
    at ``stones``."""
    side = 120 + 40 * (lines - 1)
    img = np.full((side, side), 175, np.uint8)
    last = float(lines - 1)
    for k in range(lines):
        a, b = grid.apply(NINE_LINES, np.array([[k, 0.0], [k, last]])).astype(int)
        cv2.line(img, tuple(a), tuple(b), 70, 2)
        a, b = grid.apply(NINE_LINES, np.array([[0.0, k], [last, k]])).astype(int)
        cv2.line(img, tuple(a), tuple(b), 70, 2)
    for x, y in stones.astype(int):
        cv2.circle(img, (x, y), 18, 25, -1, cv2.LINE_AA)
    return img


def _vouched(board: np.ndarray, homography: np.ndarray, stones: np.ndarray,
             size: int | None = 9) -> float:
    fit = GridFit(homography, 9, 0.0)
    return float(vouched(board, fit, stones, size, VISION).confidence)


SHORT_TOP_AND_LEFT = """
    .........
    .X.X..X.X
    ..X.X...X
    .X..X.X..
    ...X..XX.
    .X.....X.
    ..XX.X...
    .X..X..X.
    ..X..X.X."""
"""Black stones on a 9x9 board, none on its top line or its left one."""


def _short_stones(rows: list[str]) -> np.ndarray:
    """The centres, on NINE_LINES, of the black stones of ``rows`` (SHORT_TOP_AND_LEFT's)."""
    return _centres("\n".join(rows), NINE_LINES)


def test_stones_a_line_short_each_way_leave_the_lines_to_choose_where_the_grid_ends() -> None:
    # No stone on the top line or the left one: the stones fit this grid and the one a
    # line down and right alike. The lines end at this one's top and left, and run on
    # past the other's, so the stones vouch for this one only.
    rows = SHORT_TOP_AND_LEFT.split()
    stones = _short_stones(rows)
    board = _drawn_board(stones)
    assert _vouched(board, NINE_LINES, stones) > 0.8
    assert _vouched(board, grid.shifted(NINE_LINES, 1, 1), stones) == 0.0
    # A line short on both sides of an axis: the stones fix nothing there.
    short_both_ends = _short_stones(rows[:-1])
    assert _vouched(_drawn_board(short_both_ends), NINE_LINES, short_both_ends) == 0.0


def test_where_neither_lines_nor_slab_choose_a_third_witness_may_say_where_the_grid_ends() -> None:
    # The same stones, no line drawn: nothing but the stones is in the picture, and they
    # leave the top and left ends open. A witness asked about those ends (the point net in
    # `vision.locate.net_judged`) vouches with them as far as it is clear.
    stones = _short_stones(SHORT_TOP_AND_LEFT.split())
    bare = np.full((440, 440), 175, np.uint8)
    for x, y in stones.astype(int):
        cv2.circle(bare, (x, y), 18, 25, -1, cv2.LINE_AA)
    fit = GridFit(NINE_LINES, 9, 0.0)
    asked: list[np.ndarray] = []

    def witness(clear: float) -> Callable[[GridFit, np.ndarray], float]:
        def ends(_: GridFit, open_ends: np.ndarray) -> float:
            asked.append(open_ends)
            return clear
        return ends
    assert vouched(bare, fit, stones, 9, VISION).confidence == 0.0
    assert vouched(bare, fit, stones, 9, VISION, net_ends=witness(0.0)).confidence == 0.0
    assert vouched(bare, fit, stones, 9, VISION, net_ends=witness(0.6)).confidence \
        == pytest.approx(0.6)  # every stone on a point
    assert (asked[-1] == np.array([[True, False], [True, False]])).all()  # top and left


def test_unasked_stones_vouch_for_a_smaller_board_only_where_its_lines_end() -> None:
    # Stones on all four outer lines of a 9x9 grid. Drawn on a 9x9 board they vouch for
    # it whatever the size asked for; drawn on the corner of a 13x13 one, the grid is a
    # patch of it, which they vouch for only when told the board has 9 lines.
    stones = _centres("""
        ..X...X..
        .X.X..X.X
        X.X.X...X
        .X..X.X..
        ...X..XX.
        .X.....X.
        ..XX.X...
        .X..X..X.
        ..X..X.X.""", NINE_LINES)
    assert _vouched(_drawn_board(stones), NINE_LINES, stones, None) > 0.8
    patch = _drawn_board(stones, lines=13)
    assert _vouched(patch, NINE_LINES, stones, 9) > 0.8
    assert _vouched(patch, NINE_LINES, stones, None) < 0.1


def test_a_pegboard_is_not_taken_for_a_board() -> None:
    # 25 x 19 dark holes in a light board: a lattice of "stones" running past any 19 x 19.
    wall = np.full((720, 960), 200, np.uint8)
    for i in range(25):
        for j in range(19):
            cv2.circle(wall, (30 + 36 * i, 30 + 36 * j), 15, 20, -1, cv2.LINE_AA)
    with pytest.raises(BoardNotFound):
        locate(wall)


@pytest.mark.parametrize("lines, given, seed",
                         [(19, None, 10), (19, None, 23),
                          (13, 13, 0), (13, 13, 6), (9, 9, 0), (9, 9, 1),
                          (13, None, 0), (13, None, 6), (9, None, 0), (9, None, 1)])
def test_a_board_crowded_past_its_lines_is_found_from_its_stones(lines: int, given: int | None,
                                                                 seed: int, monkeypatch) -> None:
    # Three points in four taken: no net of lines holds together, and a grid of lines alone
    # is trusted barely or not at all; the stones' lattice alone, with no line, outline or
    # slab to start from, gives the grid to a tenth of a cell. A 9x9 or 13x13 board's
    # stones vouch for it whether or not its size is given (unasked, the lines must end
    # where it does: a board of fewer than 19 lines could be a patch).
    shot = render(random_position(lines, seed, stones=0.75), seed)
    found = dark_centres(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY), LOCATE)
    assert found is not None and stone_starts(found, given, SIZES, LOCATE)
    fit = locate(shot.image, given)
    assert fit.size == lines
    assert _cell_error(fit.corners, shot.corners, lines) < 0.1
    with monkeypatch.context() as m:  # the stones alone
        m.setattr(locate_module, "_net", lambda *args: None)
        m.setattr(locate_module, "board_outline", lambda *args: None)
        m.setattr(locate_module, "outlines", lambda *args: [])
        fit = locate(shot.image, given, config=LINES_ONLY)
        assert fit.size == lines
        assert _cell_error(fit.corners, shot.corners, lines) < 0.1
    with monkeypatch.context() as m:
        m.setattr(locate_module, "dark_centres", lambda *args: None)
        m.setattr(locate_module, "outlines", lambda *args: [])  # the lines alone, no slab
        try:  # trust no grid, or the right one, and that barely
            fit = locate(shot.image, given, config=LINES_ONLY)
        except BoardNotFound:
            pass
        else:
            assert fit.size == lines and _cell_error(fit.corners, shot.corners, lines) < 0.1
            assert fit.confidence < LOCATE.recheck_below
        try:  # the point net, shown the grids the lines gave, takes none that is wrong
            fit = locate(shot.image, given)
        except BoardNotFound:
            return
        assert fit.size == lines and _cell_error(fit.corners, shot.corners, lines) < 0.1


def test_a_doubtful_grid_of_lines_gives_way_to_one_the_stones_vouch_for(monkeypatch) -> None:
    # Seed 7, with the test that a grid's outer lines are drawn switched off: among the
    # crowd, the lines alone give a 13x13 lattice two cells apart that runs past the
    # board (confidence 0.34); the black stones reach all four edges of the 19x19 grid and
    # nothing past them.
    shot = render(random_position(19, 7, stones=0.75), 7)
    lax = dataclasses.replace(VISION, locate=dataclasses.replace(LOCATE, outer_drawn=0.0))
    fit = locate(shot.image, config=lax)
    assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1
    with monkeypatch.context() as m:
        m.setattr(locate_module, "dark_centres", lambda *args: None)
        m.setattr(locate_module, "outlines", lambda *args: [])  # the lines alone, no slab
        assert locate(shot.image, config=without_net(lax)).size == 13
        assert locate(shot.image, config=LINES_ONLY).size == 19  # (with it, the lines alone do)
        fit = locate(shot.image, config=lax)  # the point net tells the 13x13 patch from the board
        assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1


def test_stones_seen_from_a_leaning_camera_vouch_for_the_grid_of_lines(monkeypatch) -> None:
    # 45 degrees off vertical, three points in four taken, stones standing up off the
    # board: the lines, hidden, give no grid they trust. The black stones' bodies, looked
    # for where the camera sees them (a quarter cell and more off their points), lie on the
    # points of the grid the board's outline gives and reach its four edges.
    shot = render(random_position(19, 1, stones=0.75), 1, Scene(camera_tilt=45, stone_height=0.2))
    fit = locate(shot.image)
    assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1
    with monkeypatch.context() as m:
        m.setattr(locate_module, "dark_centres", lambda *args: None)
        m.setattr(locate_module, "outlines", lambda *args: [])  # the lines alone, no slab
        with pytest.raises(BoardNotFound):
            locate(shot.image, config=LINES_ONLY)
        fit = locate(shot.image)  # the point net trusts the grid of lines the stones would
        assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1


def test_stones_leaning_past_the_far_edge_are_no_lines_running_on_past_it() -> None:
    # Seed 1 seen from 55 degrees, three points in four taken: the stones on the far outer
    # lines lean half a cell and more past them. Counted as lines, they made the grid seem
    # to run on there (up to 0.64 of the inner lines' share), and the lines could not
    # choose where the grid ends for the stones, which reach only three of its edges.
    shot = render(random_position(19, 1, stones=0.75), 1, Scene(camera_tilt=55, stone_height=0.2))
    fit = locate(shot.image)
    assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1
    gray, truth = locate_module.to_gray(shot.image), GridFit(shot.homography, 19, 0.0)
    assert edge_shares(gray, truth, LOCATE).max() > 0.4
    assert edge_shares(gray, truth, LOCATE, thin=True).max() < 0.1


def test_the_lattice_through_the_most_stones_is_kept_whichever_stone_it_grew_from(
        monkeypatch) -> None:
    # Seed 3, three points in four taken, a hand reaching over the board: the lines give
    # no grid they trust, and the stones do. Once the stone with the most stones around
    # it had one a cell away, diagonally, and no lattice grew from it; one did from the
    # next such stone.
    shot = render(random_position(19, 3, stones=0.75), 3, Scene(hand=True))
    fit = locate(shot.image)
    assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1
    # A bowl of white stones beside a board has a ring of dark gaps crowded like stones,
    # and a lattice through a few of them grows from there. So a lattice is grown from
    # each of the `LocateConfig.stone_seeds` most crowded stones (here: none from the
    # first, then one through 30 stones, then one through 20), and the fullest kept.
    points = grid.apply(np.diag([20.0, 20.0, 1.0]), grid.lattice(7))
    axes = (np.array([20.0, 0.0]), np.array([0.0, 20.0]))
    through = [None, 30, 20]
    tried: list[int] = []

    def grown(points: np.ndarray, k: int, *args: object) -> tuple[np.ndarray, np.ndarray] | None:
        n = through[len(tried)]
        tried.append(k)
        return None if n is None else (np.eye(3), np.zeros((n, 2), dtype=int))

    monkeypatch.setattr(stone_lattice_module, "_lattice_from", grown)
    crowded_only = dataclasses.replace(LOCATE, stone_seeds_apart=(0, 4.0))
    kept = lattice_through(points, axes, crowded_only)
    assert kept is not None and len(kept[1]) == 30 and len(set(tried)) == 3
    tried.clear()
    assert lattice_through(points, axes, dataclasses.replace(crowded_only, stone_seeds=1)) is None


def test_seeds_are_also_taken_away_from_the_most_crowded_stones(monkeypatch) -> None:
    #   · · · · · · · · ·     a lattice of stones 20 px apart: the lattice is grown from
    #   · · · · · · · · ·     the three with the most stones around them (*), then from
    #   · · · · · · · · ·     two more (+), each the most crowded stone at least 4 cells
    #   · · · * * * · · ·     from every seed before it (here no lattice grows at all)
    #   · · · · · · · · ·
    #   · · · · · · · · ·
    #   · · · · · · · · ·
    #   · · · + · · · + ·
    #   · · · · · · · · ·
    points = grid.apply(np.diag([20.0, 20.0, 1.0]), grid.lattice(9))
    axes = (np.array([20.0, 0.0]), np.array([0.0, 20.0]))
    tried: list[int] = []

    def grown(points: np.ndarray, k: int, *args: object) -> tuple[np.ndarray, np.ndarray] | None:
        tried.append(k)
        return None

    monkeypatch.setattr(stone_lattice_module, "_lattice_from", grown)
    assert lattice_through(points, axes, LOCATE) is None
    seeds = points[tried]
    assert len(tried) == LOCATE.stone_seeds + LOCATE.stone_seeds_apart[0]
    apart = 4.0 * 20.0
    for i in range(LOCATE.stone_seeds, len(seeds)):
        assert np.linalg.norm(seeds[:i] - seeds[i], axis=1).min() >= apart


def test_a_crowded_board_whose_most_crowded_stones_lie_in_its_far_rows_is_found(
        monkeypatch) -> None:
    # A hand over a board three points in four taken, seen from 45 degrees (seed 1): the
    # three most crowded stones lie in the far rows, crowded in pixels, and each lattice
    # grown from them numbers only 40 to 51 of about 130 stones. A seed farther off grows
    # the whole lattice.
    shot = render(random_position(19, 1, stones=0.75), 1,
                  Scene(hand=True, camera_tilt=45, stone_height=0.2))
    fit = locate(shot.image)
    assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1
    monkeypatch.setattr(locate_module, "outlines", lambda *args: [])  # the stones, no slab
    near_seeds = dataclasses.replace(
        VISION, locate=dataclasses.replace(LOCATE, stone_seeds_apart=(0, 4.0)))
    with pytest.raises(BoardNotFound):
        locate(shot.image, config=without_net(near_seeds))
    fit = locate(shot.image, config=near_seeds)  # the point net takes a grid of lines
    assert fit.size == 19 and _cell_error(fit.corners, shot.corners, 19) < 0.1


@pytest.mark.parametrize("lines, tilt, seed", [(19, 65, 1), (19, 65, 3), (13, 55, 1), (13, 65, 0)])
def test_a_crowded_board_seen_steeply_is_found_from_its_stones(lines: int, tilt: float,
                                                               seed: int) -> None:
    # Three points in four taken, the camera 55 or 65 degrees off straight down: the far
    # rows' stones are half the near rows' size and merge, and the lines barely show.
    # 19x19 seed 3: the lines' grid inside the board's outline is right, but at 0.09 no
    # surer than wrong ones, and the stones used to vouch only for the surest. The others
    # were not found: too few far stones were, and the rows, foreshortened to half a
    # cell apart, were too near to be taken for neighbours unless the lattice is looked
    # for where the stones are round.
    shot = render(random_position(lines, seed, stones=0.75), seed,
                  Scene(camera_tilt=tilt, stone_height=0.2))
    fit = locate(shot.image)
    assert fit.size == lines and fit.confidence >= 0.4
    assert _cell_error(fit.corners, shot.corners, lines) < 0.15


def test_the_caller_s_stone_thresholds_reach_the_lattice_fit() -> None:
    # 60 stones on a square lattice 30 px a step: a lattice by the defaults; none when the
    # caller asks for more neighbour pairs than there are, or numbers no stone off its point.
    rng = np.random.default_rng(8)
    lattice = grid.lattice(13)[rng.choice(169, 60, replace=False)]
    points = 40.0 + 30.0 * lattice + rng.normal(0, 0.5, (60, 2))
    axes = lattice_axes(points, 30.0, LOCATE)
    assert axes is not None and lattice_through(points, axes, LOCATE) is not None
    assert lattice_axes(points, 30.0, dataclasses.replace(LOCATE, stone_min_count=1000)) is None
    assert lattice_through(points, axes,
                           dataclasses.replace(LOCATE, stone_grow_residual=0.0)) is None
