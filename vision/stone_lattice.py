"""A grid from the stones themselves, for boards so crowded that their lines are hidden.

Black stones sit on the intersections, so their centres are points of the lattice even where
no line shows between them. Steps, each a function of its own:

1. `dark_centres`: the black stones' centres (a three-class threshold splits black stones,
   wood and white stones; the distance transform's peaks of stone size are the centres,
   the size and shape, ellipses under perspective, told by the stones standing alone).
2. `lattice_axes`: the two lattice steps, from the displacements between neighbouring
   centres (where the stones are round, the steps are alike in length).
3. `lattice_through`: integer lattice coordinates for the centres and the homography through
   them, grown outwards from the most crowded centre.
4. `stone_starts`: the squares of lattice lines the fitted centres span, as starting grids
   that `vision.locate` refines and grows like any other.
5. `stones_reach`: how far the stones alone vouch for a grid, where the lines between
   them are too hidden to, and which of its edges they fix.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from . import grid
from .config import LocateConfig


def three_class_thresholds(gray: np.ndarray) -> tuple[int, int]:
    """The grey levels ``low < high`` that split ``gray``'s histogram into three classes
    (black stones <= low < wood <= high < white stones) with the most variance between
    them (Otsu's criterion for three classes)."""
    p = np.bincount(gray.ravel(), minlength=256).astype(np.float64)
    p /= p.sum()
    w = np.cumsum(p)
    m = np.cumsum(p * np.arange(256))
    w0, m0 = w[:, None], m[:, None]  # class 0: levels 0..a
    w1, m1 = w[None, :] - w0, m[None, :] - m0  # class 1: a+1..b
    w2, m2 = 1.0 - w[None, :], m[-1] - m[None, :]  # class 2: b+1..255
    with np.errstate(divide="ignore", invalid="ignore"):
        between = m0 ** 2 / w0 + m1 ** 2 / w1 + m2 ** 2 / w2
    between[np.tril_indices(256)] = -1.0
    between = np.nan_to_num(between, nan=-1.0, posinf=-1.0, neginf=-1.0)
    low, high = np.unravel_index(int(np.argmax(between)), between.shape)
    return int(low), int(high)


def _disc(radius: float) -> np.ndarray:
    side = 2 * int(round(radius)) + 1
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))


def _fill_holes(mask: np.ndarray, largest: float) -> np.ndarray:
    """``mask`` with the holes inside its blobs of at most ``largest`` px filled."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is not None:
        holes = [c for c, hi in zip(contours, hierarchy[0])
                 if hi[3] >= 0 and cv2.contourArea(c) <= largest]
        cv2.drawContours(out, holes, -1, 255, thickness=-1)
    return out


@dataclasses.dataclass(frozen=True)
class BlackStones:
    """Black stones found in a photo: their ``centres`` (k, 2) in pixels, the ``radius`` of
    a disc of a lone stone's median area, and ``rounding``, the linear map (2, 2) of the
    photo under which the stones, ellipses under perspective, are round."""

    centres: np.ndarray
    radius: float
    rounding: np.ndarray


def _lone_stones(dark: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The dark blobs of ``dark`` (a mask) that look like one stone each, convex and at
    least ``cfg.stone_min_area`` px: rows of (x, y, minor and major semi-axis, the major
    axis' direction as a unit vector (x, y), area), (k, 7). Stones touching make a blob
    with a waist, far from convex."""
    contours, hierarchy = cv2.findContours(dark, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    rows = []
    for contour, (*_, parent) in zip(contours, hierarchy[0] if hierarchy is not None else []):
        if parent >= 0:
            continue  # a hole's outline (stones inside a hole are outer outlines again)
        m = cv2.moments(contour)
        area = m["m00"]
        if area < cfg.stone_min_area \
                or area < cfg.stone_solidity * cv2.contourArea(cv2.convexHull(contour)):
            continue
        spread = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / area
        var, axes = np.linalg.eigh(spread)  # a filled ellipse's semi-axis is 2 sd
        rows.append((m["m10"] / area, m["m01"] / area, 2.0 * np.sqrt(max(var[0], 0.0)),
                     2.0 * np.sqrt(var[1]), axes[0, 1], axes[1, 1], area))
    return np.array(rows, dtype=np.float64).reshape(-1, 7)


@dataclasses.dataclass(frozen=True)
class _StoneShape:
    """How big and how round black stones look across a photo: their minor semi-axis as an
    affine function of the position (``minor``: coefficients of x, y, 1; under perspective
    a stone's size in the picture is one), held within ``span`` (the least and most among
    the stones it was fitted to, so that it does not run off past them); ``rounding``, the
    linear map (2, 2) under which they are round (their minor axis stretched by
    ``aspect``, the ratio of their major to minor semi-axis); and ``radius``, that of a
    disc of their median area."""

    minor: np.ndarray
    span: tuple[float, float]
    rounding: np.ndarray
    aspect: float
    radius: float

    def minor_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The stones' minor semi-axis (px) at pixels ``x``, ``y``."""
        out: np.ndarray = np.clip(self.minor[0] * x + self.minor[1] * y + self.minor[2],
                                  *self.span)
        return out


def _stone_shape(lone: np.ndarray, cfg: LocateConfig) -> _StoneShape:
    """The shape of the lone stones (rows as `_lone_stones`), fitted to those that agree
    with it: with fewer than ``cfg.stone_shape_min`` that agree, one size all over."""
    xy1 = np.c_[lone[:, :2], np.ones(len(lone))]
    minor = lone[:, 2]
    typical = float(np.median(minor))
    flat = np.array([0.0, 0.0, typical])  # one size all over
    # Bowls and lids are no stones.
    near_typical = np.abs(minor - typical) <= cfg.stone_size_spread * typical
    coef, agree = flat, near_typical
    rounds, within = cfg.stone_size_fit
    if agree.sum() >= cfg.stone_shape_min:  # enough to tell how the size changes
        for _ in range(rounds):
            coef, *_ = np.linalg.lstsq(xy1[agree], minor[agree], rcond=None)
            expect = xy1 @ coef
            agree = np.abs(minor - expect) <= within * np.abs(expect)
            if agree.sum() < cfg.stone_shape_min:
                coef, agree = flat, near_typical
                break
    kept = lone[agree] if agree.any() else lone
    expect = np.c_[kept[:, :2], np.ones(len(kept))] @ coef
    aspect = float(np.median(kept[:, 3] / np.maximum(kept[:, 2], 1e-9)))
    ux, uy = kept[:, 4], kept[:, 5]  # the mean direction of the major axes (doubled angles)
    angle = 0.5 * np.arctan2(np.sum(2.0 * ux * uy), np.sum(ux * ux - uy * uy))
    major = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-major[1], major[0]])
    return _StoneShape(coef, (float(expect.min()), float(expect.max())),
                       np.outer(major, major) + aspect * np.outer(across, across), aspect,
                       float(np.median(np.sqrt(kept[:, 6] / np.pi))))


def dark_centres(gray: np.ndarray, cfg: LocateConfig) -> BlackStones | None:
    """The black stones in ``gray``, or None if fewer than ``cfg.stone_min_round`` dark
    blobs are lone stones, or if no centre stands out (stones too small to tell from the
    dark lines).

    A centre is a peak of the distance to the nearest non-dark pixel between
    ``cfg.stone_peak`` times the stones' minor and major semi-axis there (the lone stones
    tell how they change across the photo), and no nearer a stronger peak than
    ``cfg.stone_centres_apart`` of the major one, measured with the stones' ellipses made round: so stones touching in a wall
    each give one, near or far."""
    blur = cv2.GaussianBlur(gray, (0, 0), cfg.stone_blur)
    scale = cfg.stone_histogram_scale
    low, _ = three_class_thresholds(cv2.resize(blur, None, fx=scale, fy=scale,
                                               interpolation=cv2.INTER_AREA))
    dark = cv2.morphologyEx(np.where(blur <= low, 255, 0).astype(np.uint8), cv2.MORPH_OPEN,
                            _disc(cfg.stone_open))
    # A highlight on a stone's shell is still the stone (a hole far smaller than a stone).
    dark = _fill_holes(dark, cfg.stone_highlight * dark.size)
    lone = _lone_stones(dark, cfg)
    if len(lone) < cfg.stone_min_round:
        return None
    shape = _stone_shape(lone, cfg)
    dist = cv2.distanceTransform(dark, cv2.DIST_L2, cv2.DIST_MASK_5)
    ys, xs = np.nonzero((dist >= cv2.dilate(dist, _disc(cfg.stone_peak_window)))
                        & (dist >= cfg.stone_peak_depth))
    semi = shape.minor_at(xs, ys)
    major = shape.aspect * semi
    depth = dist[ys, xs]
    lo, hi = cfg.stone_peak
    # A stone's centre is well darker than the threshold; a dark cloth's grain near it is
    # not (it makes ridges of stone size in the mask, a line of them along the board).
    dark_enough = blur[ys, xs] <= low - cfg.stone_darker
    # A stone is at least its minor semi-axis deep; stones touching along it (rows seen
    # steeply) make a ridge as deep as their major one.
    peak = (depth >= lo * semi) & (depth < hi * major) & dark_enough
    order = np.argsort(-depth[peak], kind="stable")
    candidates = np.c_[xs[peak][order], ys[peak][order]].astype(np.float64)
    apart = cfg.stone_centres_apart * major[peak][order]
    rounded = candidates @ shape.rounding.T
    kept: list[int] = []
    for k, p in enumerate(rounded):
        if not kept or np.min(np.hypot(*(rounded[kept] - p).T)) > apart[k]:
            kept.append(k)
    if not kept:
        return None
    return BlackStones(candidates[kept], shape.radius, shape.rounding)


def lattice_axes(points: np.ndarray, cell: float,
                 cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray] | None:
    """The lattice's two steps (2-vectors, in pixels) among ``points`` about ``cell`` px
    apart, ordered so that their cross product is positive; None if fewer than
    ``cfg.stone_min_count`` pairs of neighbours (``cfg.stone_neighbour``), or if they all
    take one direction.

    Each step is the median displacement of the neighbour pairs in one of the two
    directions most pairs take (at least ``cfg.stone_axes_apart`` degrees apart)."""
    d = points[None, :, :] - points[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    lo, hi = cfg.stone_neighbour
    pairs = d[(dist > lo * cell) & (dist < hi * cell)]
    if len(pairs) < cfg.stone_min_count:
        return None
    angle = np.degrees(np.arctan2(pairs[:, 1], pairs[:, 0])) % 180.0
    hist = np.bincount(np.round(angle).astype(int) % 180, minlength=180).astype(np.float64)
    w, near_axis = cfg.stone_axis_window
    smooth = np.convolve(np.r_[hist[-w:], hist, hist[:w]], np.ones(2 * w + 1), "valid")
    deg = np.arange(180)
    apart = np.abs(deg[:, None] - deg[None, :])
    apart = np.minimum(apart, 180 - apart)
    both = np.where(apart >= cfg.stone_axes_apart, smooth[:, None] + smooth[None, :], -1.0)
    steps = []
    for a in np.unravel_index(int(np.argmax(both)), both.shape):
        off = np.abs(angle - a)
        near = pairs[np.minimum(off, 180.0 - off) < near_axis]
        if not len(near):
            return None  # the pairs all take one direction: no second axis
        along = np.array([np.cos(np.radians(a)), np.sin(np.radians(a))])
        steps.append(np.median(near * np.sign(near @ along)[:, None], axis=0))
    u, v = steps
    if u[0] * v[1] - u[1] * v[0] < 0:
        u, v = v, u
    return u, v


def _nearest_points(h: np.ndarray, points: np.ndarray,
                    lift: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``points`` (k, 2), the lattice point of ``h`` nearest it (k, 2), as
    floats, and how far from it (cells, the larger of the two axes). With ``lift`` (the
    offsets, (size*size, 2) in lattice units, at which a stone's body is seen from each of
    a ``size`` x ``size`` lattice's points, `vision.grid.lift_shift`), the points are
    stones' bodies, and are taken back by the offset of the point they lie nearest first."""
    q = grid.apply(np.linalg.inv(h), points)
    if lift is not None:
        size = int(round(np.sqrt(len(lift))))
        near = np.clip(np.round(q), 0, size - 1).astype(int)
        q = q - lift[near[:, 1] * size + near[:, 0]]
    qi = np.round(q)
    return qi, np.abs(q - qi).max(axis=1)


def _step_along(offsets: np.ndarray, axis: np.ndarray, turn: float) -> np.ndarray:
    """The median of ``offsets`` (k, 2) within ``turn`` degrees of ``axis`` either way,
    turned to point along it; ``axis`` itself if none is."""
    cos = offsets @ axis / (np.hypot(*axis) * np.hypot(offsets[:, 0], offsets[:, 1]) + 1e-12)
    along = np.abs(cos) > np.cos(np.radians(turn))
    if not along.any():
        return axis
    out: np.ndarray = np.median(offsets[along] * np.sign(cos[along])[:, None], axis=0)
    return out


def lattice_through(points: np.ndarray, axes: tuple[np.ndarray, np.ndarray],
                    cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray] | None:
    """The homography (3, 3) from lattice (i, j) to pixels through ``points``, and the
    integer lattice coordinates (m, 2) of those of them it fits within
    ``cfg.stone_fit_residual`` cell; None if fewer than ``cfg.stone_min_count`` fit.

    It starts at the point with the most neighbours, with its neighbours' steps along
    ``axes``, and is refitted as the points within a growing number of cells are taken in
    (an affine map while they are few and near), so perspective is learnt near the start
    before far points are numbered. It is started from each of the ``cfg.stone_seeds``
    points with the most neighbours, and the lattice that fits the most points kept: the
    most crowded may lie off the board's lattice (a ring of dark gaps in a bowl of white
    stones, a stone whose neighbours lie askew), and then little or nothing grows from it.
    And from ``cfg.stone_seeds_apart`` more, each the most crowded at least that many
    cells from every seed before it: seen steeply, the far rows are crowded in pixels,
    and all the most crowded may lie there, where a lattice is easily misnumbered."""
    cell = float(np.hypot(*axes[0]) + np.hypot(*axes[1])) / 2.0
    d = np.hypot(*(points[None] - points[:, None]).transpose(2, 0, 1))
    crowd = (d < cfg.stone_crowd * cell).sum(axis=1)
    order = np.argsort(-crowd, kind="stable")
    seeds = [int(k) for k in order[:cfg.stone_seeds]]
    more, apart = cfg.stone_seeds_apart
    for k in order:
        if len(seeds) == cfg.stone_seeds + more:
            break
        if (d[k, seeds] >= apart * cell).all():
            seeds.append(int(k))
    best: tuple[np.ndarray, np.ndarray] | None = None
    for k in seeds:
        grown = _lattice_from(points, k, axes, d[k], cell, cfg)
        if grown is not None and (best is None or len(grown[1]) > len(best[1])):
            best = grown
    return best


def _lattice_from(points: np.ndarray, k: int, axes: tuple[np.ndarray, np.ndarray],
                  dist: np.ndarray, cell: float,
                  cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray] | None:
    """`lattice_through` started at ``points[k]``, ``dist`` px from each of the points."""
    seed = points[k]
    # Under perspective the steps at the seed differ from the median: take its neighbours'.
    lo, hi = cfg.stone_neighbour
    near = points[(dist > lo * cell) & (dist < hi * cell)] - seed
    u, v = (_step_along(near, axis, cfg.stone_step_turn) for axis in axes)
    h = np.array([[u[0], v[0], seed[0]], [u[1], v[1], seed[1]], [0.0, 0.0, 1.0]])
    for reach in cfg.stone_reach:
        if abs(np.linalg.det(h)) < 1e-9 * cell ** 2:
            return None  # the steps (or the points fitted) fell on one line: no lattice
        qi, off = _nearest_points(h, points)
        ok = (off < cfg.stone_grow_residual) & (np.abs(qi).max(axis=1) <= reach)
        if ok.sum() < cfg.stone_min_count:
            if reach < cfg.stone_widen_below:
                continue  # too few stones next to the seed: start a little wider
            return None
        if reach <= cfg.stone_affine_reach:  # too near to learn perspective from: affine
            design = np.c_[qi[ok], np.ones(int(ok.sum()))]
            affine, *_ = np.linalg.lstsq(design, points[ok], rcond=None)
            h = np.r_[affine.T, [[0.0, 0.0, 1.0]]]
            continue
        refit, _ = cv2.findHomography(qi[ok], points[ok], 0)
        if refit is None or abs(refit[2, 2]) < 1e-12:
            return None
        h = refit / refit[2, 2]
    if abs(np.linalg.det(h)) < 1e-9 * cell ** 2:
        return None
    qi, off = _nearest_points(h, points)
    fits = off < cfg.stone_fit_residual
    if fits.sum() < cfg.stone_min_count:
        return None
    return h, qi[fits].astype(int)


def _dense_windows(coords: np.ndarray, n: int, slack: int, most: int) -> list[np.ndarray]:
    """The n x n windows of lattice points that hold the most of ``coords`` (k, 2), or at
    most ``slack`` fewer, fullest first and at most ``most`` of them, each as the mask of
    the coords inside. Points more than n lines from the median are strays (a board has
    at most n lines)."""
    near = (np.abs(coords - np.round(np.median(coords, axis=0))) <= n).all(axis=1)
    base = coords[near].min(axis=0) - (n - 1)  # the first window's corner
    rel = (coords[near] - base).astype(int)
    mx, my = rel.max(axis=0) + 1  # window corners along each axis
    counts = np.zeros((mx + n, my + n))
    np.add.at(counts, (rel[:, 0], rel[:, 1]), 1.0)
    total = np.zeros((counts.shape[0] + 1, counts.shape[1] + 1))
    total[1:, 1:] = counts.cumsum(axis=0).cumsum(axis=1)
    held = (total[n:n + mx, n:n + my] - total[:mx, n:n + my]
            - total[n:n + mx, :my] + total[:mx, :my])
    order = np.argsort(-held, axis=None, kind="stable")
    full = held.max()
    out = []
    for s, t in zip(*np.unravel_index(order[:most], held.shape)):
        if held[s, t] < full - slack:
            break
        lo = base + (s, t)
        out.append(near & (coords >= lo).all(axis=1) & (coords < lo + n).all(axis=1))
    return out


def _cell(points: np.ndarray, radius: float, cfg: LocateConfig) -> float:
    """The lattice's spacing (px) among stone centres ``points`` of about ``radius`` px:
    the median distance from a stone to its nearest neighbour, among those
    ``cfg.stone_adjacent`` radii away, or its third figure times the radius if there are
    fewer than ``cfg.stone_min_count`` such pairs."""
    d = np.hypot(*(points[None] - points[:, None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    nearest = d.min(axis=1)
    lo, hi, guess = cfg.stone_adjacent
    adjacent = nearest[(nearest >= lo * radius) & (nearest <= hi * radius)]
    return float(np.median(adjacent)) if len(adjacent) >= cfg.stone_min_count \
        else guess * radius


def stone_starts(stones: BlackStones, size: int | None, sizes: tuple[int, ...],
                 cfg: LocateConfig) -> list[tuple[np.ndarray, int]]:
    """Starting grids from black ``stones``, each the homography from lattice (i, j) to
    pixels and its number of lines; none alike. Empty if the stones give no lattice.

    The lattice is looked for where the stones are round (`BlackStones.rounding`): there
    its two steps are about as long, as a board's are, even under a steep camera. Each of
    the fullest windows of a board of ``size`` (or the largest of ``sizes``) lines
    (`LocateConfig.stone_windows`) gives squares around its stones: of ``size`` lines or
    the smallest of ``sizes`` that holds them, in every place that holds them if there are
    at most ``cfg.stone_placements`` (stones on no edge, or one: the lines decide where
    the board ends), else one square around them, centred on them."""
    points = stones.centres @ stones.rounding.T
    radius = stones.radius * float(np.sqrt(abs(np.linalg.det(stones.rounding))))
    axes = lattice_axes(points, _cell(points, radius, cfg), cfg)
    if axes is None:
        return []
    through = lattice_through(points, axes, cfg)
    if through is None:
        return []
    unround = np.eye(3)
    unround[:2, :2] = np.linalg.inv(stones.rounding)
    h, fitted = unround @ through[0], through[1]
    squares: dict[tuple[int, int, int], None] = {}
    for inside in _dense_windows(fitted, size or max(sizes), cfg.stone_window_slack,
                                 cfg.stone_windows):
        (i0, j0), (i1, j1) = fitted[inside].min(axis=0), fitted[inside].max(axis=0)
        span = int(max(i1 - i0, j1 - j0))
        if span < cfg.stone_min_span:
            continue
        lines = size or min((n for n in sizes if n > span), default=span + 1)
        free_i, free_j = lines - (i1 - i0), lines - (j1 - j0)
        if free_i * free_j <= cfg.stone_placements:
            for a in range(int(i1) - lines + 1, int(i0) + 1):
                for b in range(int(j1) - lines + 1, int(j0) + 1):
                    squares[(a, b, lines - 1)] = None
        else:
            squares[(int(i0 - (span - (i1 - i0)) // 2), int(j0 - (span - (j1 - j0)) // 2),
                     span)] = None
    return [(grid.shifted(h, i0, j0), span + 1) for i0, j0, span in squares]


def stones_reach(points: np.ndarray, homography: np.ndarray, size: int,
                 cfg: LocateConfig,
                 lift: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """The share of the black stones' centres ``points`` within ``cfg.stone_fit_residual``
    cell of one of the points of a grid of ``size`` lines, and which of its outer lines
    they reach: (2, 2) booleans by lattice axis (0: the lines i = 0 and i = n - 1; 1: j)
    and end. The share is 0 if it is not most of them, or if past an outer line they reach
    the lattice they lie on goes on: a lattice of dark dots that goes on (a pegboard, a
    patterned cloth) is no board, so beyond such a line there must be under half as many
    stones on the lattice as on it.

    Stones on all four outer lines fix where the grid ends: it cannot be shifted, and if
    ``size`` is the largest a board has, it cannot be a patch of a bigger grid either.

    ``lift``: where the stones' bodies are seen from their points (see `_nearest_points`);
    under a steep camera they stand a quarter cell and more off them."""
    reached = np.zeros((2, 2), dtype=bool)
    if len(points) == 0:
        return 0.0, reached
    qi, off = _nearest_points(homography, points, lift)
    lattice = off < cfg.stone_fit_residual
    on = lattice & (qi >= 0).all(axis=1) & (qi <= size - 1).all(axis=1)
    most, fewer = cfg.stone_on_share
    if on.mean() <= most:
        return 0.0, reached  # most stones off its points: a grid the stones do not follow
    for axis in (0, 1):
        along = qi[:, 1 - axis]
        beside = lattice & (along >= 0) & (along <= size - 1)
        for end, (edge, beyond) in enumerate(((0, -1), (size - 1, size))):
            on_edge = int((beside & (qi[:, axis] == edge)).sum())
            reached[axis, end] = on_edge > 0
            if on_edge and int((beside & (qi[:, axis] == beyond)).sum()) >= fewer * on_edge:
                return 0.0, reached  # the lattice goes on past it
    return float(on.mean()), reached
