"""Calibrated confidence (issue 19, item 3): the probability of being right, from the
evidence the reader already has; more raw confidence never means less; read_board
applies it last."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from benchmarks.fit_confidence import module_text
from vision import read_board
from vision.calibrated import FITTED
from vision.calibration import (
    ANTITONE, BOARD_FEATURES, MONOTONE, POINT_FEATURES, Calibration, Logistic, board_evidence,
    calibrate, fit_logistic, log_odds, point_evidence)
from vision.config import STONES, VISION
from vision.grid_score import BoardDoubts
from vision.stones import read_stones
from vision.synth import render, random_position

# A 9x9 board seen square on, 40 px a cell, its corner 60 px from the picture's edge:
#
#     . . . . . . . . .       row 0 (top)
#     . . X . . . . . .
#     . . . . O . . . .
#     ...
SIZE = 9
HOMOGRAPHY = np.array([[40.0, 0.0, 60.0], [0.0, 40.0, 60.0], [0.0, 0.0, 1.0]])
SHAPE = (441, 441, 3)  # 60 px beyond the grid on every side


def board(raw: float = 0.9) -> tuple[np.ndarray, np.ndarray]:
    labels = np.zeros((SIZE, SIZE), np.int64)
    labels[1, 2], labels[2, 4] = 1, 2
    return labels, np.full((SIZE, SIZE), raw)


def test_the_fitted_calibration_names_the_evidence_the_reader_gives() -> None:
    assert FITTED.point.features == POINT_FEATURES
    assert FITTED.board.features == BOARD_FEATURES
    for model in (FITTED.point, FITTED.board):
        for name, weight in zip(model.features, model.weights):
            if name in MONOTONE:
                assert weight >= 0.0, f"{name} weighs {weight}: more raw confidence, less sure"
            if name in ANTITONE:
                assert weight <= 0.0, f"{name} weighs {weight}: more doubt, surer"


def test_the_printed_calibration_is_the_code_that_makes_it() -> None:
    text = module_text(FITTED, "a test")
    space: dict[str, object] = {}
    exec(text.replace("from .calibration", "from vision.calibration"), space)
    assert space["FITTED"] == FITTED
    assert max(len(line) for line in text.splitlines()) <= 100
    assert eval(repr(FITTED), {"Calibration": Calibration, "Logistic": Logistic}) == FITTED


@pytest.mark.parametrize("model", [FITTED.point, FITTED.board], ids=["point", "board"])
def test_probabilities_stay_in_0_1_for_any_evidence(model: Logistic) -> None:
    rng = np.random.default_rng(7)
    evidence = rng.normal(0.0, 1e3, (500, len(model.features)))
    p = model(evidence)
    assert np.all((p >= 0.0) & (p <= 1.0)) and not np.isnan(p).any()


def test_a_point_read_more_surely_is_never_less_likely_right() -> None:
    labels, _ = board()
    raws = np.linspace(0.0, 1.0, 41)
    for r, c in [(0, 0), (1, 2), (2, 4), (4, 4)]:  # a corner, the black, the white, the middle
        seen = []
        for raw in raws:
            conf = np.full((SIZE, SIZE), 0.9)
            conf[r, c] = raw
            points, _ = calibrate(FITTED, labels, conf, HOMOGRAPHY, 0.7, SHAPE)
            seen.append(points[r, c])
        assert np.all(np.diff(seen) >= -1e-12), f"point {(r, c)}: {np.round(seen, 3)}"


def test_a_board_whose_grid_is_surer_is_never_less_likely_right() -> None:
    labels, conf = board()
    seen = [calibrate(FITTED, labels, conf, HOMOGRAPHY, g, SHAPE)[1]
            for g in np.linspace(0.0, 1.0, 41)]
    assert np.all(np.diff(seen) >= -1e-12), np.round(seen, 3)


def test_a_board_whose_grid_is_doubted_more_is_never_likelier_right() -> None:
    # Lines crossing on past an outer line, or table where wood should be beyond it.
    labels, conf = board()
    for runs, margin in ((1.0, 0.0), (0.0, 1.0)):
        seen = [calibrate(FITTED, labels, conf, HOMOGRAPHY, 0.7, SHAPE,
                          BoardDoubts(runs * d, margin * d))[1]
                for d in np.linspace(0.0, 1.0, 21)]
        assert np.all(np.diff(seen) <= 1e-12), np.round(seen, 3)


def test_points_keep_the_order_of_their_raw_confidence_on_one_board() -> None:
    # Three empty points in the middle of the board, alike but for their raw confidence.
    labels, conf = board()
    conf[6, 3], conf[6, 4], conf[6, 5] = 0.55, 0.75, 0.98
    points, _ = calibrate(FITTED, labels, conf, HOMOGRAPHY, 0.7, SHAPE)
    assert points[6, 3] <= points[6, 4] <= points[6, 5]


def test_the_evidence_says_what_it_names() -> None:
    labels, conf = board(0.9)
    conf[0, 0] = 0.5
    ev = point_evidence(labels, conf)
    col = {name: ev[:, k].reshape(SIZE, SIZE) for k, name in enumerate(POINT_FEATURES)}
    assert col["raw"][0, 0] == pytest.approx(0.0) and col["raw"][4, 4] == pytest.approx(
        float(log_odds(0.9)))
    assert col["black"][1, 2] == 1 and col["white"][2, 4] == 1 and col["black"].sum() == 1
    assert col["stone_neighbours"][1, 3] == pytest.approx(0.25)  # the black on its left
    assert col["stone_neighbours"][0, 2] == pytest.approx(1 / 3)  # on the edge: 3 neighbours
    b = dict(zip(BOARD_FEATURES, board_evidence(labels, conf, HOMOGRAPHY, 0.7, SHAPE,
                                                BoardDoubts(0.25, 0.5))))
    assert b["grid"] == pytest.approx(float(log_odds(0.7)))
    assert b["runs_past"] == 0.25 and b["margin"] == 0.5
    assert b["size9"] == 1 and b["size13"] == 0 and b["doubt"] == pytest.approx(1 / 81)
    assert b["stones"] == pytest.approx(2 / 81) and b["inside"] == pytest.approx(1.5)
    assert b["cell"] == pytest.approx(np.log2(40 / 20))  # 40 px a cell, over 20


def test_the_fit_learns_which_evidence_tells_right_from_wrong() -> None:
    # Points right more often the higher their raw confidence, and less often on the
    # outer line: the fit says so, and its probabilities match the rates it saw.
    rng = np.random.default_rng(3)
    m = 20000
    raw = rng.uniform(-3, 5, m)
    outer = (rng.uniform(size=m) < 0.3).astype(float)
    truth = 1.5 * raw - 2.0 * outer + 0.5
    right = rng.uniform(size=m) < 1 / (1 + np.exp(-truth))
    model = fit_logistic(np.c_[raw, outer], right, ("raw", "outer"), ridge=0.0)
    assert model.weights[0] == pytest.approx(1.5, rel=0.1)
    assert model.weights[1] == pytest.approx(-2.0, rel=0.1)
    p = model(np.c_[raw, outer])
    for lo, hi in [(0.0, 0.3), (0.3, 0.7), (0.7, 1.0)]:
        band = (p >= lo) & (p < hi)
        assert abs(right[band].mean() - p[band].mean()) < 0.03


def test_the_fit_never_lets_more_raw_confidence_mean_less() -> None:
    # Data where the raw confidence misleads: the fit holds its weight at 0.
    rng = np.random.default_rng(5)
    raw = rng.uniform(-3, 3, 5000)
    right = rng.uniform(size=5000) < 1 / (1 + np.exp(raw))
    model = fit_logistic(np.c_[raw, rng.normal(size=5000)], right, ("raw", "noise"))
    assert model.weights[0] == 0.0


def test_the_fit_never_lets_more_doubt_mean_surer() -> None:
    # Data where the grid's lines running past its edge go with right boards: held at 0.
    rng = np.random.default_rng(6)
    runs = rng.uniform(0, 1, 3000)
    right = rng.uniform(size=3000) < 1 / (1 + np.exp(-3 * runs))
    model = fit_logistic(np.c_[runs, rng.normal(size=3000)], right, ("runs_past", "noise"))
    assert model.weights[0] == 0.0


def test_read_board_applies_the_calibration_last() -> None:
    shot = render(random_position(9, 4), 4)
    raw = read_board(shot.image, stone_cfg=dataclasses.replace(STONES, calibration=None))
    labels, conf = read_stones(shot.image, raw.homography, 9, net=VISION.point_net)
    assert raw.confidence == tuple(float(c) for c in conf[::-1].ravel())
    # A calibration that knows nothing but its base rates: every point 0.3, the board 0.8.
    flat = Calibration(
        point=Logistic(POINT_FEATURES, (0.0,) * len(POINT_FEATURES), float(log_odds(0.3))),
        board=Logistic(BOARD_FEATURES, (0.0,) * len(BOARD_FEATURES), float(log_odds(0.8))))
    fixed = read_board(shot.image, stone_cfg=dataclasses.replace(STONES, calibration=flat))
    assert fixed.position == raw.position
    assert np.allclose(fixed.confidence, 0.3) and fixed.board_confidence == pytest.approx(0.8)
    fitted = read_board(shot.image, stone_cfg=dataclasses.replace(STONES, calibration=FITTED))
    expect, board_p = calibrate(FITTED, labels, conf, raw.homography, raw.board_confidence,
                                shot.image.shape, raw.doubts)
    assert np.allclose(fitted.confidence, expect[::-1].ravel())
    assert fitted.board_confidence == pytest.approx(board_p)
