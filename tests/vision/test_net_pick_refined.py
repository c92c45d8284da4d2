"""The point net picks a grid among those weighed and their moves a line either way
(`vision.locate.net_judged`). A grid so moved lies over lines it was not fitted to, and a
grid weighed, refined when its lines were fitted, may still lie off them seen steeply
where the refining passes ran out: the lines say where its points are, within its phase;
which intersection each point is stays the net's call (`vision.locate._refined_in_phase`),
and a pick they would move by no more than their inlier threshold stays where it is. So too
a grid the stones vouched for or the lines found from another start, where the lines left
the first grid in doubt; not one the stones placed in the slab, weighed against its
refinement already."""

from __future__ import annotations

import dataclasses
import importlib

import cv2
import numpy as np
import pytest

from tests.vision.test_synth_aimed import crowded, slab_of
from vision import grid
from vision.config import VISION
from vision.evaluate import corner_error_cells
from vision.grid import GridFit
from vision.grid_refine import refine
from vision.locate import _refined_in_phase, locate, to_gray, working
from vision.stone_lattice import dark_centres
from vision.synth import Scene, Synthetic, random_position, render

CFG = VISION.locate
locate_module = importlib.import_module("vision.locate")  # the name `locate` is its function
# i += 0.02 j: the grid's far side (j = 18) 0.36 of a cell aside, its near side in place.
SHEARED = np.array([[1.0, 0.02, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


def _in_working(shot: Synthetic, image: np.ndarray, to_image: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The working image of ``image``, its map to ``image``'s pixels, and ``shot``'s grid
    in its pixels (``to_image`` maps ``shot``'s pixels to ``image``'s)."""
    small, to_full = working(image, CFG)
    return small, to_full, np.linalg.inv(to_full) @ to_image @ shot.homography


def _seen_at_45() -> tuple[Synthetic, np.ndarray, np.ndarray, np.ndarray]:
    """A board 30% taken (seed 3) seen by a phone from 45 degrees, and `_in_working` of it."""
    shot = render(random_position(19, 3, stones=0.3), 3, Scene(camera_tilt=45.0))
    return (shot, *_in_working(shot, shot.image, np.eye(3)))


def _off(shot: Synthetic, homography: np.ndarray) -> float:
    """How far (cells) the grid ``homography`` (to ``shot``'s pixels) lies from ``shot``'s
    own at its worst corner."""
    return corner_error_cells(grid.corners(homography, 19), shot.corners, 19)


@pytest.mark.parametrize("tilt", [0.0, 45.0, 60.0])
@pytest.mark.parametrize("seed", [0, 3])
def test_a_pick_a_third_of_a_cell_askew_is_refined_onto_the_lines(tilt: float,
                                                                  seed: int) -> None:
    shot = render(random_position(19, seed, stones=0.3), seed, Scene(camera_tilt=tilt))
    small, to_full, h = _in_working(shot, shot.image, np.eye(3))
    pick = GridFit(h @ SHEARED, 19, 0.8)
    assert _off(shot, to_full @ pick.homography) > 0.35
    got = _refined_in_phase(small, pick, CFG)
    assert _off(shot, to_full @ got.homography) < 0.1
    assert got.confidence == pick.confidence  # the net's belief, not the lines'


def test_lines_that_would_pull_the_pick_out_of_its_phase_leave_it_as_the_net_placed_it(
) -> None:
    # A board nine tenths full, the photo cut inside its far margin, a dark band along
    # the cut: the lines show in slivers, and the band's edge is the strongest line of
    # all. A refit to the few lines that agree runs many cells off the board's own grid.
    shot = crowded(1)
    top = int(np.ceil(slab_of(shot, 1)[:2, 1].max())) + 2
    image = shot.image[top:].copy()
    found = dark_centres(to_gray(image), CFG)
    assert found is not None
    image[:int(round(found.radius))] = 10
    cut = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, -top], [0.0, 0.0, 1.0]])
    small, _, h = _in_working(shot, image, cut)
    own = GridFit(h, 19, 0.8)
    lattice = grid.lattice(19)
    pulled = grid.apply(np.linalg.inv(h) @ refine(small, own, CFG).homography, lattice)
    assert np.abs(pulled - lattice).max() > 1.0  # the lines alone would lose it
    assert _refined_in_phase(small, own, CFG) is own


def _located_with_pick(monkeypatch: pytest.MonkeyPatch, shot: Synthetic, pick: GridFit,
                       moved: bool) -> GridFit:
    """`locate` of ``shot`` with every grid left in doubt (none as sure as
    `recheck_below`), so that the net picks, and the net picking ``pick`` (``moved``: a
    grid weighed moved a line)."""
    monkeypatch.setattr(locate_module, "net_judged", lambda *args, **kwargs: (pick, moved))
    doubting = dataclasses.replace(VISION, locate=dataclasses.replace(CFG, recheck_below=1.01))
    return locate(shot.image, 19, doubting)


@pytest.mark.parametrize("moved", [False, True])
def test_the_nets_pick_is_refined_whether_it_is_a_grid_weighed_or_one_moved_a_line(
        monkeypatch: pytest.MonkeyPatch, moved: bool) -> None:
    # The net picks a grid a third of a cell askew: refined when it was weighed or not,
    # its place is the lines' call.
    shot, small, to_full, h = _seen_at_45()
    pick = GridFit(h @ SHEARED, 19, 0.8)
    assert _off(shot, to_full @ pick.homography) > 0.35
    got = _located_with_pick(monkeypatch, shot, pick, moved)
    assert _off(shot, got.homography) < 0.1
    assert got.confidence == pick.confidence


def test_a_pick_already_on_its_lines_is_kept_as_the_net_placed_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Refining a grid that lies on its lines moves it by a fraction of a pixel, the
    # measurement's noise, under `inlier_threshold`: the pick is not moved for that.
    shot, small, to_full, h = _seen_at_45()
    pick = GridFit(h, 19, 0.8)
    assert not np.allclose(_refined_in_phase(small, pick, CFG).homography, h)  # it would move it
    got = _located_with_pick(monkeypatch, shot, pick, False)
    assert np.allclose(grid.upright(to_full @ h, 19), got.homography)


def test_a_pick_placed_askew_is_refined_though_its_far_cells_are_too_small(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The pick's far row (j = 0) lies 0.48 of the board's cell inside the board's at both
    # ends: each of its points is within half a cell of the board's, but its far cells
    # are too small, and the board's far corners lie 0.52 of one of them off its own.
    # Measured in either lattice under half a cell, the two are one grid.
    board = GridFit(np.array([[20.0, 0.0, 40.0], [0.0, 20.0, 40.0], [0.0, 0.0, 1.0]]), 19, 0.0)
    squeezed = cv2.getPerspectiveTransform(
        np.array([[0, 0], [18, 0], [18, 18], [0, 18]], dtype=np.float32),
        np.array([[0.48, 0.48], [17.52, 0.48], [18, 18], [0, 18]], dtype=np.float32)
    ).astype(np.float64)
    pick = GridFit(board.homography @ squeezed, 19, 0.8)
    monkeypatch.setattr(locate_module, "refine", lambda *args, **kwargs: board)
    blank = np.zeros((480, 480), np.uint8)
    got = _refined_in_phase(blank, pick, CFG)
    assert got is board
    # A grid a line over is another grid, whichever lattice measures it.
    monkeypatch.setattr(locate_module, "refine", lambda *args, **kwargs: GridFit(
        grid.shifted(board.homography, 1.0, 0.0), 19, 0.0))
    assert _refined_in_phase(blank, board, CFG) is board


def _located_without_net(monkeypatch: pytest.MonkeyPatch, shot: Synthetic, first: GridFit,
                         slab: list[tuple[GridFit, bool]]) -> GridFit:
    """`locate` of ``shot`` with no point net, the lines' first grid ``first`` and no other
    start, no stones framed, and ``slab`` the slab's grids (each with whether the stones
    placed it)."""
    monkeypatch.setattr(locate_module, "_fit_from", lambda *args: first)
    monkeypatch.setattr(locate_module, "_other_fits", lambda *args: iter(()))
    monkeypatch.setattr(locate_module, "_framed_stones", lambda *args: None)
    monkeypatch.setattr(locate_module, "_slab_fits", lambda *args: iter(slab))
    return locate(shot.image, 19, dataclasses.replace(VISION, point_net=None))


def test_a_grid_the_lines_leave_in_doubt_is_refined_whoever_picked_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The lines' only grid, a third of a cell askew, under `recheck_below`; no stones, no
    # slab, no net to weigh against it: it is kept, refined from where it lies.
    shot, small, to_full, h = _seen_at_45()
    askew = GridFit(h @ SHEARED, 19, CFG.recheck_below - 0.1)
    assert _off(shot, to_full @ askew.homography) > 0.35
    got = _located_without_net(monkeypatch, shot, askew, [])
    assert _off(shot, got.homography) < 0.1
    assert got.confidence == askew.confidence


def test_a_grid_the_stones_placed_in_the_slab_is_not_refined_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # `_stones_placed` weighed its grid against the lines' refinement of it already and
    # kept the one the stones vouch for more: that choice stands, askew or not.
    shot, small, to_full, h = _seen_at_45()
    askew = GridFit(h @ SHEARED, 19, CFG.recheck_below + 0.1)
    got = _located_without_net(monkeypatch, shot, GridFit(h, 19, 0.1), [(askew, True)])
    assert np.allclose(got.homography, grid.upright(to_full @ askew.homography, 19))
