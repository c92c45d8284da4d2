"""A grid checked against the photo itself: where the board's own outer lines show in the
pixels, near each corner, measured from the grid found (`edge_line_offsets`), in cells,
positive inward. No labels needed, so every board found can be checked."""

from __future__ import annotations

import numpy as np

from vision.evaluate import edge_line_offsets
from vision.grid import shifted
from vision.locate import to_gray
from vision.synth import Scene, random_position, render


def _grown(h: np.ndarray, size: int, by: float) -> np.ndarray:
    """``h`` for a grid ``by`` cell bigger on every side than the one ``h`` maps."""
    last = size - 1
    scale = np.diag([(last + 2 * by) / last, (last + 2 * by) / last, 1.0])
    out: np.ndarray = shifted(h, -by, -by) @ scale
    return out


def test_the_true_grid_sits_on_the_outer_lines() -> None:
    shot = render(random_position(19, 1, stones=0.0), 1, Scene(glare=False))
    offsets = edge_line_offsets(to_gray(shot.image), shot.homography, 19)
    assert offsets.shape == (8,)
    assert np.all(np.abs(offsets) <= 0.04)


def test_a_grid_drawn_too_big_finds_the_lines_inside_it() -> None:
    #   + - - - - - - - +       the grid found (too big by 0.15 cell a side)
    #   |  +---------+  |       the board's own outer lines, 0.15 cell inward
    shot = render(random_position(19, 2, stones=0.0), 2, Scene(glare=False))
    offsets = edge_line_offsets(to_gray(shot.image), _grown(shot.homography, 19, 0.15), 19)
    assert np.all(np.abs(offsets - 0.15) <= 0.04)


def test_a_grid_drawn_too_small_finds_the_lines_outside_it() -> None:
    shot = render(random_position(13, 3, stones=0.0), 3, Scene(glare=False))
    offsets = edge_line_offsets(to_gray(shot.image), _grown(shot.homography, 13, -0.2), 13)
    assert np.all(np.abs(offsets + 0.2) <= 0.04)


def test_no_line_is_claimed_where_the_board_is_blank() -> None:
    shot = render(random_position(9, 4, stones=0.0), 4, Scene(glare=False))
    blank = np.full(shot.image.shape[:2], 150, dtype=np.uint8)
    assert np.all(np.isnan(edge_line_offsets(blank, shot.homography, 9)))
