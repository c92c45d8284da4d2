"""Confidences that mean what they say: the reader's raw figures turned into the
probability of being right, per point and per board (issue 19, item 3).

The reader's raw point confidence is a margin past a threshold squashed into [0, 1]
(`vision.stones`), and its board confidence is how well a lattice sits on the lines
(`vision.locate`): both order right above wrong, neither is a probability. Here a small
logistic regression per kind turns the evidence the reader already has into one:

- per point (`POINT_FEATURES`): the raw confidence (as log-odds), the colour read, and how
  many of its neighbours are stones;
- per board (`BOARD_FEATURES`): the grid's confidence lowered by its doubts (what
  `read_board` reports uncalibrated, as log-odds), those doubts themselves
  (`vision.grid_score.BoardDoubts`: its lines crossing on past an outer line, table where
  wood should lie beyond it), the size read, the share of points read with doubt, the
  share read as stones, the cell's size in pixels, and how far inside the picture the
  grid's corners lie.

Which evidence: each set was judged by fits that left out the source or the group of
perturbations judged (`benchmarks/vision_confidence.py --calibration`), over the dev photos
under perturbations and synthetic scenes of the misreadings seen on unseen photos. For
points, the raw confidence alone separated right from wrong with an AUC of 0.903 (left-out
sources pooled), with the colour and the neighbouring stones 0.915; without the synthetic
scenes, 0.83 and 0.94. The outer line, the cell's size, the distance to the picture's
border, the grid's confidence and the share of doubtful points on the board fitted the dev
photos better and the left-out ones worse (0.83 to 0.90 without the scenes): left out.
Refitted on fewer readings (photo stride 8, perturbation stride 12, 2 scenes of each kind),
held out by source and pooled (72,667 points, 82 wrong): the raw confidence has an AUC of
0.921, warns of 42 of the 82 (under 0.6) and 0.055% of the points at 0.6 or more are
wrong; calibrated, 0.926, 29 of 82 and 0.073%. Both keep the promise at 0.6 (99.93% and
more of the points there are right); neither warns of half the wrong points, and the
calibration warns of fewer (the wrong points are too few to lower a probability to 0.6
without lowering many right ones): the points it cannot separate are 53 of 82 (65%).
Of the 40 wrong points the raw confidence is sure of, 22 are stones read empty (7 under
colour casts, 5 under brightness or gamma, 7 in the synthetic scenes) and 18 a stone read
where there is none or of the wrong colour; on the untouched dev photos all 4 wrong points
were read at 0.6 or more, raw and calibrated.

A board is wrong when its grid is not the board's own (the wrong size, a corner half a
cell or more off its label, or its stones read a line off the truth's:
`benchmarks/fit_confidence.py`, ``Record.grid_right``), not when a point or two are
misread on a grid in place (that is the points' confidence's business; counted so, every
9x9 with one point misread was a "wrong board", and the board AUC of 0.38 measured before
measured those). So counted, no dev photo read under the perturbations sampled and no
synthetic scene board was found with a wrong grid (at the default strides an earlier fit
met 7 readings of one Roboflow photo whose labelled corners lie half a cell off a grid
that looks right; stride 8 does not read it): the wrong boards the board model is
fitted and judged on are the grids a board's is most easily mistaken for (a line off each
way, 9x9 and 13x13 patches), placed in the dev photos. Held out by source, pooled (769
boards, 313 wrong): the board confidence `read_board` reports (the grid's own lowered by
its doubts, `vision.grid_score.trusted`) has an AUC of 1.000 and no wrong board at or
above `min_confidence`; this calibration an AUC of 1.000 and 1 wrong board of 457 at 0.6
or more (without the doubts as evidence, 0.975 and 44 of 467).

The weights are fitted on the dev photos under perturbations by
`benchmarks/fit_confidence.py` and kept in `vision.calibrated` (written by that script);
`read_board` applies them last (`calibrate`) where `StoneConfig.calibration` names them.
The probability rises with the raw confidence and the grid's, and falls with each doubt,
all else equal: the fit holds those weights at 0 where they come out the other way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from . import grid
from .grid_score import BoardDoubts

POINT_FEATURES: tuple[str, ...] = ("raw", "black", "white", "stone_neighbours")
"""The evidence per point, in `point_evidence`'s order."""
BOARD_FEATURES: tuple[str, ...] = (
    "grid", "runs_past", "margin", "size9", "size13", "doubt", "stones", "cell", "inside")
"""The evidence per board, in `board_evidence`'s order."""
MONOTONE: tuple[str, ...] = ("raw", "grid")
"""Features whose weight is never negative: more raw confidence never means less."""
ANTITONE: tuple[str, ...] = ("runs_past", "margin")
"""Features whose weight is never positive: more said against a grid never means it is
likelier the board's (`vision.grid_score.BoardDoubts`)."""

SURE = 0.6
"""A point or a board whose calibrated confidence is at least this is taken to be right
(issue 19: "a point read with confidence >= 0.6 is right"; the board's threshold is the
same, a probability like the points')."""
POINT_RIDGE = 1.0
"""The L2 penalty of the point fit (on standardised weights). Judged on left-out sources,
penalties of 0.3, 1 and 3 gave the same AUC (0.915) and log-loss; 10 and more shrink the
raw confidence's weight until nothing warns (at 100 none of the 223 wrong points)."""
BOARD_RIDGE = 10.0
"""The L2 penalty of the board fit. With the grids a board's is most easily mistaken for
among the wrong boards (`benchmarks/fit_confidence.py` ``--mistaken``: 317 wrong of 769
found), judged on left-out sources: AUC 0.990 at 1, 0.994 at 10 and at 100; log-loss
0.086, 0.074 and 0.206 (the strong penalty shrinks the weights into a probability that no
longer means what it says)."""
DOUBT = 0.6
"""A raw point confidence under this counts as read with doubt (the ``doubt`` features)."""
_CLIP = 1e-3
"""Raw confidences are clipped to [this, 1 - this] before their log-odds are taken."""
_CELL = 20.0
"""The ``cell`` features are log2 of the cell's size over this many pixels."""
_REACH = 3.0
"""The ``inside`` feature is clipped to this many cells."""


def log_odds(p: np.ndarray | float) -> np.ndarray:
    """log(p / (1 - p)), ``p`` clipped to [0.001, 0.999]."""
    q = np.clip(np.asarray(p, dtype=np.float64), _CLIP, 1.0 - _CLIP)
    out: np.ndarray = np.log(q / (1.0 - q))
    return out


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * z))  # 1 / (1 + e^-z), without overflow
    return out


@dataclasses.dataclass(frozen=True)
class Logistic:
    """p = 1 / (1 + exp(-(bias + weights . evidence))), the evidence named by ``features``
    in that order."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float

    def __post_init__(self) -> None:
        if len(self.features) != len(self.weights):
            raise ValueError(f"{len(self.features)} features but {len(self.weights)} weights")

    def __call__(self, evidence: np.ndarray) -> np.ndarray:
        """The probability (m,) for ``evidence`` (m, len(features)), in [0, 1]."""
        z = self.bias + np.asarray(evidence, dtype=np.float64) @ np.asarray(self.weights)
        return _sigmoid(z)


@dataclasses.dataclass(frozen=True)
class Calibration:
    """The point and the board model `calibrate` applies."""

    point: Logistic
    board: Logistic


def _neighbour_stones(labels: np.ndarray) -> np.ndarray:
    """Per point (n, n), the share of its neighbours (2 to 4) read as stones."""
    stones = (labels != 0).astype(np.float64)
    count = np.zeros_like(stones)
    near = np.zeros_like(stones)
    count[1:, :] += stones[:-1, :]
    count[:-1, :] += stones[1:, :]
    count[:, 1:] += stones[:, :-1]
    count[:, :-1] += stones[:, 1:]
    near[1:, :] += 1
    near[:-1, :] += 1
    near[:, 1:] += 1
    near[:, :-1] += 1
    out: np.ndarray = count / near
    return out


def _cell_px(homography: np.ndarray, size: int) -> float:
    """The mean length (px) of a cell along the grid's four outer lines."""
    c = grid.corners(homography, size)
    return float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1))) / (size - 1)


def _inside_cells(pts: np.ndarray, shape: Sequence[int], cell: float) -> np.ndarray:
    """How far (cells) each of ``pts`` (m, 2) lies inside the picture of ``shape`` (negative
    outside), clipped to [-`_REACH`, `_REACH`]."""
    h, w = shape[0], shape[1]
    px = np.min([pts[:, 0], pts[:, 1], w - 1 - pts[:, 0], h - 1 - pts[:, 1]], axis=0)
    out: np.ndarray = np.clip(px / max(cell, 1e-9), -_REACH, _REACH)
    return out


def point_evidence(labels: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """The evidence (n*n, len(POINT_FEATURES)) of every point of a board read as ``labels``
    (n, n) of 0 empty, 1 black, 2 white with raw ``confidence`` (n, n); rows in the order
    of ``labels.ravel()``."""
    return np.stack([
        log_odds(confidence.ravel()),
        (labels.ravel() == 1).astype(np.float64),
        (labels.ravel() == 2).astype(np.float64),
        _neighbour_stones(labels).ravel(),
    ], axis=1)


def board_evidence(labels: np.ndarray, confidence: np.ndarray, homography: np.ndarray,
                   grid_confidence: float, shape: Sequence[int],
                   doubts: BoardDoubts | None = None) -> np.ndarray:
    """The evidence (len(BOARD_FEATURES),) of a board read as ``labels`` (n, n) of 0 empty,
    1 black, 2 white with raw ``confidence`` (n, n), row 0 at the top of the lattice of
    ``homography``, in a picture of ``shape``, its grid found with ``grid_confidence``,
    and what spoke against that grid, ``doubts`` (none where not given)."""
    n = labels.shape[0]
    cell = _cell_px(homography, n)
    doubts = doubts or BoardDoubts(0.0, 0.0)
    return np.array([
        float(log_odds(grid_confidence)),
        float(doubts.runs_past),
        float(doubts.margin),
        float(n == 9),
        float(n == 13),
        float(np.mean(confidence < DOUBT)),
        float(np.mean(labels != 0)),
        float(np.log2(max(cell, 1.0) / _CELL)),
        float(_inside_cells(grid.corners(homography, n), shape, cell).min()),
    ])


def calibrate(cal: Calibration | None, labels: np.ndarray, confidence: np.ndarray,
              homography: np.ndarray, grid_confidence: float,
              shape: Sequence[int], doubts: BoardDoubts | None = None
              ) -> tuple[np.ndarray, float]:
    """The calibrated point confidences (n, n), each the probability that the point's label
    is right, and the probability that the board is (its size, its grid and 99% of its
    points right), for a board as `board_evidence` takes it. With no ``cal``, the raw
    figures unchanged."""
    if cal is None:
        return confidence, grid_confidence
    points = cal.point(point_evidence(labels, confidence))
    board = cal.board(board_evidence(labels, confidence, homography, grid_confidence,
                                     shape, doubts)[None, :])
    return points.reshape(labels.shape), float(board[0])


def fit_logistic(x: np.ndarray, y: np.ndarray, features: Sequence[str],
                 ridge: float = POINT_RIDGE, rounds: int = 50) -> Logistic:
    """The logistic regression of ``y`` (m,) booleans on ``x`` (m, k), by Newton's method
    with an L2 penalty ``ridge`` on the standardised weights (`POINT_RIDGE`, `BOARD_RIDGE`);
    a weight of a `MONOTONE` feature that comes out negative is held at 0 and the rest
    refitted, and so is an `ANTITONE` one that comes out positive. Deterministic. Weights
    and bias are rounded to 4 significant digits (their printed form is the model)."""
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(y, dtype=np.float64)
    k = x.shape[1]
    if len(features) != k:
        raise ValueError(f"{len(features)} feature names for {k} columns")
    mean = x.mean(axis=0) if len(x) else np.zeros(k)
    scale = x.std(axis=0) if len(x) else np.ones(k)
    live = scale > 1e-12
    fixed = np.zeros(k, bool)
    while True:
        use = live & ~fixed
        z = np.c_[np.ones(len(x)), (x[:, use] - mean[use]) / scale[use]]
        beta = np.zeros(z.shape[1])
        rate = float(np.clip(t.mean() if len(t) else 0.5, 0.01, 0.99))
        beta[0] = np.log(rate / (1 - rate))
        pen = np.full(z.shape[1], ridge)
        pen[0] = 0.0
        for _ in range(rounds):
            p = _sigmoid(z @ beta)
            grad = z.T @ (t - p) - pen * beta
            hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(pen) + 1e-9 * np.eye(len(beta))
            step = np.linalg.solve(hess, grad)
            beta = beta + step
            if np.max(np.abs(step)) < 1e-8:
                break
        w = np.zeros(k)
        w[use] = beta[1:] / scale[use]
        bias = float(beta[0] - w[use] @ mean[use])
        wrong_way = [i for i, f in enumerate(features)
                     if (f in MONOTONE and w[i] < 0) or (f in ANTITONE and w[i] > 0)]
        if not wrong_way:
            break
        fixed[wrong_way] = True
    return Logistic(tuple(features), tuple(_round(v) for v in w), _round(bias))


def _round(v: float) -> float:
    return float(f"{float(v):.4g}")
