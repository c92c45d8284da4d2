"""Confidences that mean what they say: the reader's raw figures turned into the
probability of being right, per point and per board (issue 19, item 3).

The reader's raw point confidence is a margin past a threshold squashed into [0, 1]
(`vision.stones`), and its board confidence is how well a lattice sits on the lines
(`vision.locate`): both order right above wrong, neither is a probability. Here a small
logistic regression per kind turns the evidence the reader already has into one:

- per point (`POINT_FEATURES`): the raw confidence (as log-odds), the colour read, and how
  many of its neighbours are stones;
- per board (`BOARD_FEATURES`): the grid's confidence (as log-odds), the size read, the
  share of points read with doubt, the share read as stones, the cell's size in pixels,
  and how far inside the picture the grid's corners lie.

Which evidence: each set was judged by fits that left out the source or the group of
perturbations judged (`benchmarks/vision_confidence.py --calibration`), over the dev photos
under perturbations and synthetic scenes of the misreadings seen on unseen photos. For
points, the raw confidence alone separated right from wrong with an AUC of 0.903 (left-out
sources pooled), with the colour and the neighbouring stones 0.915; without the synthetic
scenes, 0.83 and 0.94. The outer line, the cell's size, the distance to the picture's
border, the grid's confidence and the share of doubtful points on the board fitted the dev
photos better and the left-out ones worse (0.83 to 0.90 without the scenes): left out. For
boards, nothing the reader has separated the few found-but-wrong boards from the right ones
on left-out sources (AUC 0.3 to 0.5): the board model is little more than the rate of
right boards, lowered for a 9x9 and for many doubtful points. Its ``grid`` is the board
confidence `read_board` reports, the grid's own lowered by its doubts
(`vision.grid_score.trusted`): those tell a grid a line off or a patch of a bigger board
from the board's own (`benchmarks/vision_confidence.py --placements`: of 644 such
placements of 77 right dev boards, 301 had 0.2 or more before, 2 after), but of the 24
wrong boards found in the dev photos 15 are a point or two misread on a 9x9 or 13x13
board and 7 one Roboflow photo whose labelled corners lie half a cell off a grid that
looks right: the raw board AUC on left-out sources went from 0.342 to 0.379, the
calibrated one from 0.409 to 0.299 (both on 1,030 boards).

The weights are fitted on the dev photos under perturbations by
`benchmarks/fit_confidence.py` and kept in `vision.calibrated` (written by that script);
`read_board` applies them last (`calibrate`). The probability rises with the raw
confidence, all else equal: the fit keeps those two weights at 0 or above.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from . import grid

POINT_FEATURES: tuple[str, ...] = ("raw", "black", "white", "stone_neighbours")
"""The evidence per point, in `point_evidence`'s order."""
BOARD_FEATURES: tuple[str, ...] = (
    "grid", "size9", "size13", "doubt", "stones", "cell", "inside")
"""The evidence per board, in `board_evidence`'s order."""
MONOTONE: tuple[str, ...] = ("raw", "grid")
"""Features whose weight is never negative: more raw confidence never means less."""

SURE = 0.6
"""A point or a board whose calibrated confidence is at least this is taken to be right
(issue 19: "a point read with confidence >= 0.6 is right"; the board's threshold is the
same, a probability like the points')."""
POINT_RIDGE = 1.0
"""The L2 penalty of the point fit (on standardised weights). Judged on left-out sources,
penalties of 0.3, 1 and 3 gave the same AUC (0.915) and log-loss; 10 and more shrink the
raw confidence's weight until nothing warns (at 100 none of the 223 wrong points)."""
BOARD_RIDGE = 100.0
"""The L2 penalty of the board fit: 24 boards of 1,030 found were wrong at the default
strides, from a handful of photos; a weak penalty fits them (log-loss on left-out sources
0.185 at 1, against 0.120 at 100 and 0.110 for the plain rate)."""
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
                   grid_confidence: float, shape: Sequence[int]) -> np.ndarray:
    """The evidence (len(BOARD_FEATURES),) of a board read as ``labels`` (n, n) of 0 empty,
    1 black, 2 white with raw ``confidence`` (n, n), row 0 at the top of the lattice of
    ``homography``, in a picture of ``shape``, its grid found with ``grid_confidence``."""
    n = labels.shape[0]
    cell = _cell_px(homography, n)
    return np.array([
        float(log_odds(grid_confidence)),
        float(n == 9),
        float(n == 13),
        float(np.mean(confidence < DOUBT)),
        float(np.mean(labels != 0)),
        float(np.log2(max(cell, 1.0) / _CELL)),
        float(_inside_cells(grid.corners(homography, n), shape, cell).min()),
    ])


def calibrate(cal: Calibration | None, labels: np.ndarray, confidence: np.ndarray,
              homography: np.ndarray, grid_confidence: float,
              shape: Sequence[int]) -> tuple[np.ndarray, float]:
    """The calibrated point confidences (n, n), each the probability that the point's label
    is right, and the probability that the board is (its size, its grid and 99% of its
    points right), for a board as `board_evidence` takes it. With no ``cal``, the raw
    figures unchanged."""
    if cal is None:
        return confidence, grid_confidence
    points = cal.point(point_evidence(labels, confidence))
    board = cal.board(board_evidence(labels, confidence, homography, grid_confidence,
                                     shape)[None, :])
    return points.reshape(labels.shape), float(board[0])


def fit_logistic(x: np.ndarray, y: np.ndarray, features: Sequence[str],
                 ridge: float = POINT_RIDGE, rounds: int = 50) -> Logistic:
    """The logistic regression of ``y`` (m,) booleans on ``x`` (m, k), by Newton's method
    with an L2 penalty ``ridge`` on the standardised weights (`POINT_RIDGE`, `BOARD_RIDGE`);
    a weight of a `MONOTONE` feature that comes out negative is held at 0 and the rest
    refitted. Deterministic. Weights and bias are rounded to 4 significant digits (their
    printed form is the model)."""
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
        wrong_way = [i for i, f in enumerate(features) if f in MONOTONE and w[i] < 0]
        if not wrong_way:
            break
        fixed[wrong_way] = True
    return Logistic(tuple(features), tuple(_round(v) for v in w), _round(bias))


def _round(v: float) -> float:
    return float(f"{float(v):.4g}")
