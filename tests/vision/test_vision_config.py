"""One `VisionConfig`, handed from `read_board` to every stage: what a caller sets is what
every stage uses, and no stage falls back on a module's default."""

from __future__ import annotations

import dataclasses
import functools
import importlib

import numpy as np
import pytest

from vision import BoardNotFound, grid_score, read_board
from vision.config import (LOCATE, OUTLINE, STONES, VISION, OutlineConfig, StoneConfig,
                           VisionConfig)
from vision.synth import Synthetic, random_position, render

locate_module = importlib.import_module("vision.locate")  # the name `locate` is its function


@functools.lru_cache(maxsize=None)
def plain_board() -> Synthetic:
    """A 19x19 board from above, a third of its points taken: its net of lines is plain."""
    return render(random_position(19, 5, stones=0.3), 5)


@functools.lru_cache(maxsize=None)
def crowded_board() -> Synthetic:
    """A 19x19 board three points in four taken: black stones to vouch for a grid."""
    return render(random_position(19, 7, stones=0.75), 7)


NEVER_SURE = dataclasses.replace(LOCATE, recheck_below=1.01)
"""No grid is as sure as this: every door to the board is tried (the other sizes, the
outline of the lines, the black stones, the slab of wood, the stones' own lattice)."""


def test_the_sizes_a_caller_allows_are_the_only_sizes_read() -> None:
    shot = plain_board()
    assert read_board(shot.image).size == 19
    small_boards_only = dataclasses.replace(VISION, sizes=(9, 13))
    try:
        size = read_board(shot.image, config=small_boards_only).size
    except BoardNotFound:
        return
    assert size in (9, 13)


def test_a_size_the_config_does_not_allow_is_refused() -> None:
    with pytest.raises(ValueError, match="board size must be one of"):
        read_board(plain_board().image, 19, config=dataclasses.replace(VISION, sizes=(9, 13)))


def test_the_locate_config_decides_whether_a_board_is_found() -> None:
    strict = dataclasses.replace(VISION, locate=dataclasses.replace(LOCATE, min_confidence=1.01))
    with pytest.raises(BoardNotFound, match="too weak"):
        read_board(plain_board().image, config=strict)


def test_the_stone_config_decides_the_stones_read() -> None:
    # The measured reader alone (no net weighed in): its config decides.
    shot = plain_board()
    measured = dataclasses.replace(VISION, point_net=None)
    blind = dataclasses.replace(STONES, black_drop=2.0)  # nothing is that much darker
    rows = read_board(shot.image, config=dataclasses.replace(measured, stones=blind)).rows()
    assert "".join(read_board(shot.image, config=measured).rows()).count("X") > 0
    assert "".join(rows).count("X") == 0
    # The old keyword stands in for the config's part, as before.
    assert read_board(shot.image, config=measured, stone_cfg=blind).rows() == rows


def test_the_point_net_config_reaches_the_stone_reading() -> None:
    shot = plain_board()
    assert VISION.point_net is not None
    elsewhere = dataclasses.replace(VISION.point_net, weights="/nonexistent/points.onnx")
    with pytest.raises(FileNotFoundError, match="/nonexistent/points.onnx"):
        read_board(shot.image, config=dataclasses.replace(VISION, point_net=elsewhere))


def test_the_stone_lift_and_the_outline_config_reach_the_board_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the black stones vouch for a grid, they are looked for at the height the
    # caller's stone config says; the slab of wood is looked for with its outline config.
    lifts: list[float] = []
    outline_configs: list[OutlineConfig] = []
    lift_shift, outlines = grid_score.lift_shift, locate_module.outlines

    def spy_lift(h: np.ndarray, shape: tuple[int, ...], size: int, height: float,
                 cfg: StoneConfig) -> np.ndarray:
        lifts.append(height)
        assert cfg is mine.stones  # its camera's tolerances too
        return lift_shift(h, shape, size, height, cfg)

    def spy_outlines(image: np.ndarray, cfg: OutlineConfig) -> list[object]:
        outline_configs.append(cfg)
        return list(outlines(image, cfg))

    monkeypatch.setattr(grid_score, "lift_shift", spy_lift)
    monkeypatch.setattr(locate_module, "outlines", spy_outlines)
    mine = VisionConfig(locate=NEVER_SURE, outline=dataclasses.replace(OUTLINE, keep=1),
                        stones=dataclasses.replace(STONES, stone_lift=0.37))
    locate_module.locate(crowded_board().image, config=mine)
    assert lifts and set(lifts) == {0.37}
    assert outline_configs and all(c is mine.outline for c in outline_configs)
