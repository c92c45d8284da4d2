"""The board's outline from its straight lines: two families of segments, each running to
its vanishing point, and the quadrilateral those families span.

A grid's lines, the board's edges and its inlaid border all belong to two families of
parallel lines on the board plane; in a photo each family runs to a vanishing point (at
infinity when the camera looks square on). Found from line segments alone, this needs no
connected net of lines: it holds on pale boards with faint, broken lines and on boards so
full of stones that the net of lines falls apart (see `vision.locate`, which uses it when
the net of lines gives no grid it trusts).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from .config import LocateConfig


def segments(gray: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """Straight segments of the grey image (LSD), at least ``cfg.segment_min`` of the
    image's longer side long: (n, 4) float rows ``x0, y0, x1, y1``."""
    found = cv2.createLineSegmentDetector().detect(gray)[0]
    if found is None:
        return np.zeros((0, 4))
    s = found.reshape(-1, 4).astype(np.float64)
    out: np.ndarray = s[_lengths(s) >= cfg.segment_min * max(gray.shape)]
    return out


def _lengths(s: np.ndarray) -> np.ndarray:
    """The lengths (n,) of the segments ``s`` (n, 4)."""
    out: np.ndarray = np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1])
    return out


def _through(s: np.ndarray) -> np.ndarray:
    """The homogeneous lines (n, 3) through the segments, normalised on their normal."""
    p = np.c_[s[:, :2], np.ones(len(s))]
    q = np.c_[s[:, 2:], np.ones(len(s))]
    lines = np.cross(p, q)
    out: np.ndarray = lines / np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    return out


def heading_to(s: np.ndarray, vp: np.ndarray, tolerance: float) -> np.ndarray:
    """Which segments point at the homogeneous point ``vp`` within ``tolerance`` radians
    (a point at infinity is a direction) from at least half their own length away: the
    corner where two edges of the board meet lies on both, and is no vanishing point."""
    return _heading(_Segments.of(s), vp, tolerance)


@dataclasses.dataclass(frozen=True)
class _Segments:
    """Segments (n, 4) as `heading_to` weighs them: their middles (n, 2), unit directions
    (n, 2) and lengths (n,), worked out once for the many points tried."""

    mid: np.ndarray
    d: np.ndarray
    length: np.ndarray

    @staticmethod
    def of(s: np.ndarray) -> _Segments:
        """The segments ``s`` (n, 4), ``x0, y0, x1, y1`` rows, so worked out."""
        d = s[:, 2:] - s[:, :2]
        length = np.linalg.norm(d, axis=1)
        return _Segments((s[:, :2] + s[:, 2:]) / 2, d / length[:, None], length)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cross product of two 3-vectors, as `np.cross` works it out (the same products
    and differences), without its overhead on vectors this small."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])


def _heading(segs: _Segments, vp: np.ndarray, tolerance: float) -> np.ndarray:
    """`heading_to` for segments worked out beforehand."""
    mid, d, length, n = segs.mid, segs.d, segs.length, len(segs.length)
    finite = abs(vp[2]) >= 1e-12
    to = vp[:2] / vp[2] - mid if finite else np.tile(vp[:2], (n, 1))
    along = np.abs((to * d).sum(axis=1))
    to = to / (np.linalg.norm(to, axis=1, keepdims=True) + 1e-12)
    out: np.ndarray = np.abs(d[:, 0] * to[:, 1] - d[:, 1] * to[:, 0]) < np.sin(tolerance)
    if finite:
        out &= along >= length
    return out


def vanishing_point(s: np.ndarray, weight: np.ndarray, rng: np.random.Generator,
                    cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray] | None:
    """The point most of the segments' length points at (RANSAC over pairs, then least
    squares over the segments that agree), homogeneous and of unit norm, and which segments
    agree with it; None with fewer than two segments."""
    if len(s) < 2:
        return None
    lines = _through(s)
    segs = _Segments.of(s)
    tol = np.radians(cfg.vanishing_tolerance)
    p = weight / weight.sum()
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for _ in range(cfg.vanishing_trials):
        i, j = rng.choice(len(s), 2, replace=False, p=p)
        vp = _cross(lines[i], lines[j])
        norm = float(np.linalg.norm(vp))
        if norm < 1e-12:
            continue
        vp = vp / norm
        agree = _heading(segs, vp, tol)
        score = float(weight[agree].sum())
        if best is None or score > best[0]:
            best = (score, vp, agree)
    if best is None:
        return None
    score, vp, agree = best
    # The point nearest (in the weighted least-squares sense) all lines that agree.
    _, vectors = np.linalg.eigh((lines[agree] * weight[agree, None]).T @ lines[agree])
    refined = vectors[:, 0]
    again = _heading(segs, refined, tol)
    if float(weight[again].sum()) >= score:
        return refined, again
    return vp, agree


def board_outline(gray: np.ndarray, cfg: LocateConfig) -> np.ndarray | None:
    """The quadrilateral (4, 2) float32 that the two families of straight lines span in
    ``gray``, corners in order around it, or None where there are no two such families.

    It is the board's edge where the edges are seen, else the outermost lines: the grid's
    outer lines lie on it or up to a cell and a bit inside it."""
    h, w = gray.shape
    s = segments(gray, cfg)
    if len(s) < cfg.segments_min:
        return None
    # Coordinates around the image centre, in half the longer side: well conditioned.
    centre, half = np.array([w / 2, h / 2]), max(w, h) / 2
    sn = np.c_[(s[:, :2] - centre) / half, (s[:, 2:] - centre) / half]
    weight = _lengths(sn)
    rng = np.random.default_rng(0)  # a photo gives the same outline every time
    first = vanishing_point(sn, weight, rng, cfg)
    if first is None:
        return None
    v1, in1 = first
    rest = np.flatnonzero(~in1)
    second = vanishing_point(sn[rest], weight[rest], rng, cfg)
    if second is None:
        return None
    v2, in_rest = second
    in2 = np.zeros(len(sn), bool)
    in2[rest[in_rest]] = True
    if weight[in1].sum() < cfg.family_share * weight.sum() or \
            weight[in2].sum() < cfg.family_share * weight.sum():
        return None
    # Send the line through both vanishing points to infinity: the families turn parallel
    # (an affine view of the board); then turn them onto the axes.
    horizon = np.cross(v1, v2)
    if abs(horizon[2]) < 1e-12:
        return None
    horizon = horizon / horizon[2]
    to_affine = np.array([[1, 0, 0], [0, 1, 0], horizon], dtype=np.float64)
    d1, d2 = (to_affine @ v1)[:2], (to_affine @ v2)[:2]
    basis = np.c_[d2 / np.linalg.norm(d2), d1 / np.linalg.norm(d1)]
    if abs(np.linalg.det(basis)) < cfg.families_apart:  # hardly differ in direction
        return None
    axes = np.eye(3)
    axes[:2, :2] = np.linalg.inv(basis)
    rectify = axes @ to_affine
    ends = np.r_[sn[in1 | in2][:, :2], sn[in1 | in2][:, 2:]]
    mapped = np.c_[ends, np.ones(len(ends))] @ rectify.T
    if np.any(mapped[:, 2] * np.sign(mapped[0, 2]) <= 0):
        return None  # segments on both sides of the horizon: no board plane
    flat = mapped[:, :2] / mapped[:, 2:3]
    lo, hi = cfg.outline_percentiles
    x0, x1 = np.percentile(flat[:, 0], [lo, hi])
    y0, y1 = np.percentile(flat[:, 1], [lo, hi])
    box = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]])
    back = box @ np.linalg.inv(rectify).T
    quad: np.ndarray = (back[:, :2] / back[:, 2:3] * half + centre).astype(np.float32)
    return quad
