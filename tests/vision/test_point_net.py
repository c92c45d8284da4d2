"""The learned stone reader (`vision.point_net`): what it is shown and how its answer is read.

The net is shown the board rectified, each channel over the wood's colour: the same board
under any lamp looks the same to it. Its answer is read where a stone's body is seen."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from rules import Cell
from vision import grid
from vision.grid import GridFit, lift_shift, same_grid
from vision.locate import net_judged
from vision.config import POINT_NET, VISION
from vision.perturb import Cast
from vision.point_net import (MODEL, available, belief, bilinear, board_input, look,
                              map_points, point_scores, sample_points, scores_at)
from vision.stones import fused
from vision.synth import Scene, Synthetic, random_position, render

CFG = POINT_NET


def test_the_board_is_shown_with_its_wood_at_zero_whatever_the_lamp() -> None:
    shot = render(random_position(19, 3, stones=0.3), 3, Scene(glare=False, gradient=0.0))
    plain = board_input(shot.image, shot.homography, 19, CFG)
    side = (18 + 2 * CFG.margin) * CFG.cell
    assert plain.shape == (3, side, side)
    lamp = Cast(300.0, 0.5).apply(shot.image).image  # a magenta lamp
    tinted = board_input(lamp, shot.homography, 19, CFG)
    # The wood (a cell centre) is near 0 in every channel, under the lamp too.
    c, first = CFG.cell, CFG.margin * CFG.cell + CFG.cell // 2
    for x in (plain, tinted):
        centres = x[:, first::c, first::c][:, :18, :18]
        assert np.abs(np.median(centres.reshape(3, -1), axis=1)).max() < 0.05
    # And the board looks alike under it: the lamp divided out (clipping aside).
    assert np.median(np.abs(plain - tinted)) < 0.05


def test_the_answer_is_read_at_each_point_of_the_grid() -> None:
    # A board square under the camera: its stones stand on their points (a camera 25 cells
    # up sees a body 0.2 cell high at the edge of a 9x9 board 0.03 cell off), so
    # intersection (i, j) is read at (i + m, j + m) cells into the board the net sees,
    # m its margin.
    h = np.array([[40.0, 0, 340], [0, 40.0, 290], [0, 0, 1]])
    at = sample_points(h, (900, 1000), 9, CFG, lift=0.2)
    want = ((grid.lattice(9) + CFG.margin) * CFG.cell - 0.25) / CFG.stride
    assert np.abs(at - want).max() * CFG.stride / CFG.cell < 0.05


def test_the_camera_is_trusted_as_the_caller_s_stone_config_says() -> None:
    # A board seen from 45 degrees (the camera beyond its last row): a stone's body is
    # read up the picture, unless the caller's config trusts no camera at all.
    shot = render(random_position(9, 5, stones=0.3), 5, Scene(camera_tilt=45.0))
    trusting = sample_points(shot.homography, shot.image.shape, 9, CFG, lift=0.2)
    flat = sample_points(shot.homography, shot.image.shape, 9, CFG, lift=0.0)
    assert np.abs(trusting - flat).max() * CFG.stride / CFG.cell > 0.05
    none = dataclasses.replace(VISION.stones, camera_axes=(1.0, -1.0))
    distrusting = sample_points(shot.homography, shot.image.shape, 9, CFG, lift=0.2,
                                camera=none)
    assert np.allclose(distrusting, flat)


def test_points_of_the_doubled_board_land_where_halving_puts_them() -> None:
    # Pixel x of a board rectified at twice the cell is pixel (x + 0.5) / 2 - 0.5 once
    # halved: pixel 1.5 is 0.5, pixel 7.5 is 3.5; the output map is at the stride.
    assert np.allclose(map_points(np.array([[1.5, 7.5]]), CFG) * CFG.stride, [[0.5, 3.5]])


def test_scores_are_read_between_pixels_by_bilinear_interpolation() -> None:
    maps = np.arange(2 * 3 * 4, dtype=float).reshape(2, 3, 4)
    at = np.array([[0.0, 0.0], [1.5, 0.0], [3.0, 2.0], [1.0, 0.5], [9.0, -3.0]])
    got = bilinear(maps, at)
    assert np.allclose(got[:, 0], [0.0, 1.5, 11.0, 3.0, 3.0])
    assert np.allclose(got[:, 1] - got[:, 0], 12.0)


def test_missing_weights_are_named() -> None:
    shot = render(random_position(9, 1, stones=0.3), 1, Scene())
    missing = Path("/nonexistent/points.onnx")
    assert not available(missing)
    with pytest.raises(FileNotFoundError, match="nonexistent"):
        point_scores(shot.image, shot.homography, 9, CFG, CFG.lift, missing)


@pytest.mark.parametrize("seed", range(4))
def test_the_net_reads_a_drawn_board_on_its_true_grid(seed: int) -> None:
    # Seeds far from the training set's (500000 and up): boards it never saw.
    assert available(), f"the point net's weights are part of the package ({MODEL})"
    size = (9, 13, 19, 19)[seed]
    scene = Scene(camera_tilt=(0.0, 30.0, 45.0, 0.0)[seed], stone_height=0.2,
                  cast=(0.0, 0.0, 0.5, 0.6)[seed])
    shot = render(random_position(size, seed, stones=0.5), seed, scene)
    p = point_scores(shot.image, shot.homography, size, CFG, CFG.lift)
    truth = np.array([[".XO".index(ch) for ch in row] for row in shot.position.rows()])
    assert (p.argmax(-1) == truth).mean() >= 0.99
    assert np.allclose(p.sum(-1), 1.0)


def _fused(label: int, confidence: float, scores: list[float]) -> tuple[int, float]:
    labels, conf = fused(np.array([[label]]), np.array([[confidence]]),
                         np.array([[scores + [0.0]]], float), CFG)
    return int(labels[0, 0]), float(conf[0, 0])


def test_two_readers_that_agree_are_surer_than_either() -> None:
    label, sure = _fused(Cell.WHITE, 0.8, [0.1, 0.05, 0.85, 0.0])
    assert label == Cell.WHITE and sure > 0.85


def test_where_the_readers_differ_the_surer_wins_and_the_doubt_shows() -> None:
    # The measured reader is fairly sure the point is empty (a white stone lost in the
    # glare of a pale board); the net sees the stone plainly.
    label, sure = _fused(Cell.EMPTY, 0.7, [0.02, 0.0, 0.98, 0.0])
    assert label == Cell.WHITE
    # Both unsure and apart: the reading is unsure too (a warning under 0.6).
    label, sure = _fused(Cell.EMPTY, 0.55, [0.3, 0.0, 0.7, 0.0])
    assert sure < 0.6


def test_a_measured_doubt_leaves_the_point_to_the_net_not_against_the_label() -> None:
    # Seen from 65 degrees, a white stone amid white groups: the measured reader reads it
    # white but doubts it to 0.05 (no bare wood round it to judge by). That is no vote
    # for empty or black: the net, which sees a white stone at 0.8, decides.
    label, sure = _fused(Cell.WHITE, 0.05, [0.15, 0.05, 0.8, 0.0])
    assert label == Cell.WHITE and sure == pytest.approx(0.8, abs=0.01)


def test_a_point_the_net_sees_hidden_is_read_empty_and_unsure() -> None:
    # A hand over a point: the measured reader takes the skin for a white stone.
    label, sure = _fused(Cell.WHITE, 0.9, [0.05, 0.05, 0.1, 0.8])
    assert label == Cell.EMPTY and sure <= 0.2
    # Partly covered, more likely seen than not: read, with the doubt taken off.
    label, sure = _fused(Cell.BLACK, 0.9, [0.1, 0.6, 0.0, 0.3])
    assert label == Cell.BLACK and sure <= 0.7


def test_a_stone_both_readers_see_stays_though_the_net_half_thinks_it_hidden() -> None:
    # A black stone on a star point seen 20 degrees steeper than the net was taught on:
    # it is likelier hidden than not to the net (0.59), but what it sees is black, and the
    # measured reader is sure of black. Hidden, the point would leave black a chance in
    # three; 0.4 x 0.91 is more than 0.59 / 3. Black it stays, and the doubt shows.
    label, sure = _fused(Cell.BLACK, 0.91, [0.01, 0.4, 0.0, 0.59])
    assert label == Cell.BLACK and sure < 0.6
    # The same net's view with the measured reader unsure of the stone: read empty.
    label, sure = _fused(Cell.BLACK, 0.4, [0.01, 0.4, 0.0, 0.59])
    assert label == Cell.EMPTY


def test_glare_the_measured_reader_takes_for_white_stays_empty_where_the_net_sees_it_hidden(
) -> None:
    # A lamp's reflection on the lacquer: the measured reader is sure of a white stone
    # (0.98), the net takes the point for hidden (0.56), white its next guess. What hides
    # points is mostly light, so a white reading there is no witness: read empty.
    label, sure = _fused(Cell.WHITE, 0.98, [0.17, 0.0, 0.27, 0.56])
    assert label == Cell.EMPTY and sure < 0.6


@pytest.fixture(scope="module")
def crowded() -> Synthetic:
    # A finished game's worth of stones seen by a phone 45 degrees over the near edge: the
    # stones hide most lines. (Seed far from the training set's.)
    return render(random_position(19, 11, stones=0.8), 11,
                  Scene(camera_tilt=45.0, stone_height=0.2))


def _believed(shot: Synthetic, h: np.ndarray, size: int = 19, margin: int = 1) -> float:
    wide = dataclasses.replace(CFG, margin=CFG.margin + margin)
    return belief(look(shot.image, h, size, wide), CFG.lift)


def test_the_net_believes_the_board_s_own_grid(crowded: Synthetic) -> None:
    assert _believed(crowded, crowded.homography) >= 0.7


def test_a_grid_half_a_cell_off_has_no_point_on_one(crowded: Synthetic) -> None:
    half = grid.shifted(crowded.homography, 0.5, 0.5)
    assert _believed(crowded, half) < 0.1


def test_a_grid_a_line_off_finds_points_beyond_its_side(crowded: Synthetic) -> None:
    own = _believed(crowded, crowded.homography)
    wide = dataclasses.replace(CFG, margin=CFG.margin + 1)
    seen = look(crowded.image, crowded.homography, 19, wide)
    for shift in ((1, 0), (0, -1)):
        assert belief(seen, CFG.lift, shift) < own - 0.3, shift


def test_a_patch_of_the_board_is_not_the_board(crowded: Synthetic) -> None:
    # The middle 13x13 of the 19x19 grid: every place beyond it is a point of the board.
    patch = grid.shifted(crowded.homography, 3, 3)
    assert _believed(crowded, patch, 13) < _believed(crowded, crowded.homography) - 0.3


def test_a_picture_of_a_board_s_corner_shows_no_whole_board(crowded: Synthetic) -> None:
    # The picture cut to the board's top-left corner and the wood around it: its first
    # six lines or so each way, more in the near rows, seen wider.
    #
    #     wood  wood  wood |
    #     wood  + - + - + -|  cut
    #     wood  | . | . | .|
    #     -----------------+
    #
    # Every point the picture shows is an intersection, and no place beyond its sides
    # is one: but a grid of 13 or 19 lines through them runs out of the picture, and the
    # points the picture does not show cannot vouch for it.
    box = grid.apply(crowded.homography, [[-1.5, -1.5], [5.5, -1.5], [5.5, 5.5], [-1.5, 5.5]])
    x0, y0 = np.floor(box.min(axis=0)).astype(int)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int)
    cut = np.ascontiguousarray(crowded.image[y0:y1, x0:x1])
    to_cut = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ crowded.homography
    for lines in (13, 19):
        fit = GridFit(to_cut, lines, 0.0)
        assert net_judged(cut, np.eye(3), [fit], None, VISION) == (None, False), lines


def test_a_grid_the_lines_placed_a_line_off_is_moved_back_onto_the_board(
        crowded: Synthetic) -> None:
    # The lines of a crowded board barely tell its grid from the one a line further on:
    # given only that one, the net moves it back, and is sure of it.
    own = GridFit(crowded.homography, 19, 0.0)
    off = GridFit(grid.shifted(crowded.homography, 1, 0), 19, 0.1)
    got, moved = net_judged(crowded.image, np.eye(3), [off], off, VISION)
    assert got is not None and same_grid(got, own) and got.confidence >= 0.7
    assert moved  # a grid weighed moved a line, not one weighed: its place is for the lines


def test_a_grid_the_net_believes_keeps_its_place_and_gains_its_belief(
        crowded: Synthetic) -> None:
    fit = GridFit(crowded.homography, 19, 0.1)
    half = GridFit(grid.shifted(crowded.homography, 0.5, 0.5), 19, 0.3)  # surer, but wrong
    got, moved = net_judged(crowded.image, np.eye(3), [half, fit], half, VISION)
    assert got is not None and same_grid(got, fit) and got.confidence >= 0.7
    assert not moved and got.homography is fit.homography


def test_a_grid_the_net_doubts_gains_nothing_and_none_is_taken_in_its_place(
        crowded: Synthetic) -> None:
    # Half a cell off every point: the net believes it under `net_trusted`, and of its
    # moves a line either way none is the board's (all half a cell off too).
    half = GridFit(grid.shifted(crowded.homography, 0.5, 0.5), 19, 0.1)
    assert net_judged(crowded.image, np.eye(3), [half], half, VISION) == (half, False)
    assert net_judged(crowded.image, np.eye(3), [half], None, VISION) == (None, False)


def _bodies_off_the_top_and_left_lines(shot: Synthetic) -> tuple[np.ndarray, np.ndarray]:
    """The grey picture of ``shot`` and the centres of its black stones' bodies (where
    the camera sees them), but for those on the top row and the left column: stones that
    fit the board's grid and the one a line down and right alike."""
    ij = np.array([(i, j) for j, row in enumerate(shot.position.rows())
                   for i, c in enumerate(row) if c == "X" and i > 0 and j > 0], np.float64)
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    lift = lift_shift(shot.homography, gray.shape, 19, VISION.stones.stone_lift, VISION.stones)
    at = ij + lift[(ij[:, 1] * 19 + ij[:, 0]).astype(int)]
    return gray, grid.apply(shot.homography, at)


def test_where_the_stones_leave_two_sides_free_the_net_says_where_the_grid_ends(
        crowded: Synthetic) -> None:
    # The net's belief alone is trusted by nobody here (`net_trusted` above 1), and no
    # black stone stands on the top or left line:
    #   . . . . .        The stones fit the board's grid and the one a line down and
    #   . X O X .        right alike, and the lines are hidden. The net tells the two
    #   . O X X .        apart: it believes the board's grid far more than the one
    #   . X X O .        moved a line inwards from either free side, and so vouches,
    # with the stones, for the board's grid. Given the grid a line off, it is moved back.
    distrust = dataclasses.replace(VISION, locate=dataclasses.replace(VISION.locate,
                                                                      net_trusted=1.01))
    stones = _bodies_off_the_top_and_left_lines(crowded)
    own = GridFit(crowded.homography, 19, 0.0)
    off = GridFit(grid.shifted(crowded.homography, 1, 1), 19, 0.05)
    got, moved = net_judged(crowded.image, np.eye(3), [own], own, distrust, stones, 19)
    assert got is not None and got.homography is own.homography and not moved
    assert got.confidence >= 0.7
    got, moved = net_judged(crowded.image, np.eye(3), [off], off, distrust, stones, 19)
    assert got is not None and same_grid(got, own) and moved and got.confidence >= 0.7
    # Without the stones the net's untrusted belief says nothing: the grid stays as found.
    assert net_judged(crowded.image, np.eye(3), [off], off, distrust, None, 19) == (off, False)


def test_a_photo_turned_a_quarter_is_shown_to_the_net_the_same_way(crowded: Synthetic) -> None:
    # The net, taught boards every way up, answers a little differently under each turn.
    # A turned photo's grid is labelled from its own top row (`grid.upright`), a quarter
    # turn from the photo's; shown the board with the camera beyond its last row either
    # way, the net gives each place of the board the answer it gave before the turn.
    image = crowded.image
    turned = np.ascontiguousarray(np.rot90(image))  # a quarter turn anticlockwise
    to_turned = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, image.shape[1] - 1.0], [0.0, 0.0, 1.0]])
    h = grid.upright(crowded.homography, 19)
    h_turned = grid.upright(to_turned @ h, 19)
    points = grid.lattice(19)
    same = grid.apply(np.linalg.inv(h_turned) @ to_turned @ h, points)  # in h_turned's lattice
    assert not np.allclose(same, points)  # labelled another way
    first = scores_at(image, h, 19, CFG, CFG.lift, points)
    again = scores_at(turned, h_turned, 19, CFG, CFG.lift, same)
    assert np.abs(first - again).max() < 0.02
