"""What counts as a wrong board when the board confidence is judged
(`benchmarks/fit_confidence.py`): the grid found is not the board's own (a corner half a
cell or more off its label, or the stones read where the truth a line off has them), or
the size is wrong. A point or two misread on a grid in place is the points' business."""

from __future__ import annotations

import numpy as np

from benchmarks.fit_confidence import GRID_OFF, Record, judged_by_stones, stones_agree
from vision.evaluate import to_array

TRUTH = [
    ".........",
    "..X......",
    "....O....",
    "......X..",
    ".........",
    "..O......",
    ".....X...",
    ".........",
    ".........",
]


def found(**verdicts: object) -> Record:
    return Record(0, "photo.jpg", "a source", "untouched", True, None,
                  **verdicts)  # type: ignore[arg-type]


def test_the_same_stones_read_agree_wholly_in_place_and_less_a_line_off() -> None:
    in_place, off = stones_agree(to_array(TRUTH), TRUTH, False)
    assert in_place == 1.0 and off < 0.5


def test_a_point_misread_on_a_grid_in_place_agrees_best_in_place() -> None:
    read = to_array(TRUTH)
    read[1, 2] = 0  # the black stone at C8 read empty: 4 of the 5 stones agree
    in_place, off = stones_agree(read, TRUTH, False)
    assert in_place == 4 / 5 and off < in_place


def test_a_grid_a_line_off_reads_the_stones_a_line_off() -> None:
    # The lattice one line to the right: every stone seen one column to the left, and a
    # stone beyond the board's left edge (the table) nowhere.
    read = np.zeros((9, 9), np.int64)
    read[:, :-1] = to_array(TRUTH)[:, 1:]
    in_place, off = stones_agree(read, TRUTH, False)
    assert off == 1.0 and in_place < off
    record = found(size_right=True, stones_agree=(in_place, off))
    assert record.grid_right is False


def test_a_single_stone_read_empty_leaves_the_grid_in_place() -> None:
    # One stone on the board, read as none: the stones cannot say the grid is off.
    one = ["." * 9] * 4 + ["....X...."] + ["." * 9] * 4
    in_place, off = stones_agree(np.zeros((9, 9), np.int64), one, True)
    assert in_place == off == 0.0
    assert found(size_right=True, stones_agree=(in_place, off)).grid_right is True


def test_a_lone_stone_is_too_few_to_judge_a_grid_by() -> None:
    # A lone stone read a point below its own may be a stone off its point, not a grid off.
    one = ["." * 9] * 4 + ["....X...."] + ["." * 9] * 4
    assert not judged_by_stones(one)
    assert judged_by_stones(TRUTH)  # five stones


def test_the_board_turned_agrees_at_its_best_turn() -> None:
    assert stones_agree(np.rot90(to_array(TRUTH)), TRUTH, False)[0] == 1.0


def test_a_board_is_wrong_when_its_grid_is_off_or_its_size_is() -> None:
    assert found(size_right=True, corner_error=0.1).grid_right is True
    assert found(size_right=True, corner_error=GRID_OFF + 0.01).grid_right is False
    assert found(size_right=False, stones_agree=(1.0, 0.0)).grid_right is False
    assert found(size_right=True, stones_agree=(0.9, 0.1)).grid_right is True
    assert found().grid_right is None  # nothing says
    assert Record(0, "photo.jpg", "a source", "untouched", False, False).grid_right is False


def test_the_labelled_corners_decide_over_the_stones() -> None:
    assert found(size_right=True, corner_error=0.8, stones_agree=(1.0, 0.0)).grid_right \
        is False
