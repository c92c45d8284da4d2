"""Grid candidates from the net of printed lines: where the dark lines are, the connected
net of them most like a grid, a quadrilateral around it, and the lattice (size, spacing,
offset) fitted inside a quadrilateral.

1. `line_mask`: pixels darker than their neighbourhood (the printed grid lines).
2. `grid_component`: the connected piece of that mask that encloses the most cells alike
   in area: a grid is one connected net of lines around many similar holes.
3. `outer_quad`: a quadrilateral around that component (the outer grid lines, roughly);
   `cell_mask`: the net's cells alone, for a quadrilateral that stones on the edge do not
   widen.
4. `fit_lattice`: the quad rectified to a square, the line mask projected on both axes, and
   the lattice whose lines fall on the peaks and whose mid-lines fall between them.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from .config import LocateConfig
from .errors import BoardNotFound
from .grid import GridFit
from .quad import quad_around


def line_mask(gray: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """A uint8 mask (255 = line) of pixels darker than their ``cfg.line_block`` neighbourhood
    by ``cfg.line_offset`` grey levels: thin dark lines, and the rims of dark blobs."""
    return cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 cfg.line_block, cfg.line_offset)


def straight_parts(mask: np.ndarray, length: int,
                   cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray]:
    """The horizontal and the vertical runs of ``mask`` at least ``length`` px long, and
    ``cfg.run_min`` at least (a morphological opening each): in a rectified view, the grid
    lines without stone rims, text or specks. Returns (horizontal, vertical), float arrays
    in [0, 1]."""
    k = max(cfg.run_min, int(length))
    horiz = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, k), np.uint8))
    vert = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, 1), np.uint8))
    return horiz.astype(np.float64) / 255.0, vert.astype(np.float64) / 255.0


def thin_lines(mask: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The parts of ``mask`` under ``cfg.thin_blob`` pixels thick: printed lines without the
    solid blobs (stones' rims and shadows, which an adaptive threshold fills when a stone is
    about as large as its neighbourhood)."""
    blob = np.ones((cfg.thin_blob, cfg.thin_blob), np.uint8)
    solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN, blob)
    out: np.ndarray = cv2.subtract(mask, solid)
    return out


def _holes(component: np.ndarray, cfg: LocateConfig) -> tuple[int, float]:
    """How many holes of the component mask are alike in area (within a factor
    ``cfg.alike_area`` of the median hole of at least ``cfg.hole_min_area`` px), and their
    total area: a grid's cells."""
    contours, hierarchy = cv2.findContours(component, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0, 0.0
    areas = np.array([cv2.contourArea(c) for c, hi in zip(contours, hierarchy[0]) if hi[3] >= 0])
    areas = areas[areas >= cfg.hole_min_area]
    if len(areas) == 0:
        return 0, 0.0
    med = float(np.median(areas))
    alike = areas[(areas > med / cfg.alike_area) & (areas < med * cfg.alike_area)]
    return len(alike), float(alike.sum())


def cell_mask(component: np.ndarray, cfg: LocateConfig) -> np.ndarray | None:
    """The component's holes that look like grid cells, filled: convex-ish quadrilaterals
    (area at least ``cfg.cell_fill`` of their rotated bounding box) within a factor
    ``cfg.alike_area`` of the area that holds most of the cells' total area. None if there
    are fewer than ``cfg.min_cells``."""
    contours, hierarchy = cv2.findContours(component, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return None
    holes, areas = [], []
    for c, hi in zip(contours, hierarchy[0]):
        area = cv2.contourArea(c)
        if hi[3] < 0 or area < cfg.hole_min_area:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        if area >= cfg.cell_fill * rw * rh:
            holes.append(c)
            areas.append(area)
    if len(holes) < cfg.min_cells:
        return None
    la = np.log(np.array(areas))
    hist, edges = np.histogram(la, bins=cfg.cell_bins, weights=np.exp(la))
    k = int(np.argmax(hist))
    mode = 0.5 * (edges[k] + edges[k + 1])
    cells = [c for c, a in zip(holes, la) if abs(a - mode) < np.log(cfg.alike_area)]
    out = np.zeros_like(component)
    cv2.drawContours(out, cells, -1, 255, thickness=-1)
    return out


def grid_component(mask: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The mask of the connected component most like a grid: the most area in alike holes,
    of at least ``cfg.min_holes`` of them; raises BoardNotFound when there is none."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        raise BoardNotFound("no dark lines in the image")
    h, w = mask.shape
    order = np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:cfg.net_candidates] + 1
    best, best_count, best_area = -1, 0, 0.0
    for k in order:
        x, y, bw, bh, area = stats[k]
        if bw < cfg.net_min_span * w and bh < cfg.net_min_span * h:
            continue
        count, covered = _holes((labels[y:y + bh, x:x + bw] == k).astype(np.uint8), cfg)
        # The most area in alike holes, not the most holes: a textured surface (frosted
        # glass, a tablecloth) can enclose more, but far smaller, holes than the grid.
        if count >= cfg.min_holes and covered > best_area:
            best, best_area = k, covered
        best_count = max(best_count, count)
    if best < 0:
        raise BoardNotFound(f"no net of lines enclosing at least {cfg.min_holes} alike cells "
                            f"(best had {best_count})")
    out: np.ndarray = (labels == best).astype(np.uint8) * 255
    return out


def outer_quad(component: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """Four corners (4, 2) float32 around the mask ``component``: its convex hull simplified to a
    quadrilateral (tolerances ``cfg.quad_epsilon``; or, failing that, the hull's extreme
    points along the two diagonals: `vision.quad.quad_around`)."""
    out: np.ndarray = quad_around(_outer_pixels(component), cfg.quad_epsilon).astype(np.float32)
    return out


def _outer_pixels(mask: np.ndarray) -> np.ndarray:
    """The pixels (k, 1, 2) int32 on the outer borders of ``mask``'s blobs, in raster order
    as `cv2.findNonZero` gives every pixel: their convex hull is that of the whole mask,
    vertex for vertex and from the same one on, at a fraction of the points."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    xy = np.concatenate(contours).reshape(-1, 2).astype(np.int64)
    key = np.unique(xy[:, 1] * mask.shape[1] + xy[:, 0])
    out: np.ndarray = np.c_[key % mask.shape[1], key // mask.shape[1]].astype(np.int32)
    return out.reshape(-1, 1, 2)


@dataclasses.dataclass(frozen=True)
class _Comb:
    """The lattices a comb tries on profiles of one length, and where it looks each profile
    up for them (indices into the profile sampled every ``comb_lookup`` px): ``ad`` (k, 2)
    their offsets and spacings, ``on`` (k, size) their lines, ``off`` one (k, size - 1)
    per fraction of ``cfg.between`` the points that far between their lines."""

    ad: np.ndarray
    on: np.ndarray
    off: tuple[np.ndarray, ...]


def _comb(length: int, lo: float, hi: float, size: int, reach: tuple[float, float],
          cfg: LocateConfig) -> _Comb | None:
    """The lattices `comb_fit` tries on a profile ``length`` px long; None if none."""
    span = hi - lo
    n = size - 1
    inside, outside = reach
    # Every (offset, spacing) pair allowed, scored at once: spacings a step apart, and for
    # each the offsets a step apart that put both outer lines within reach.
    d_step, a_step = cfg.comb_steps
    ds = np.arange(span / (n + 2 * inside), span / max(n - 2 * outside, 1.0), d_step)
    if len(ds) == 0:
        return None
    steps = np.arange(int(np.ceil((inside + outside) * ds[-1] / a_step)) + 1)
    a_all = (lo - outside * ds)[:, None] + a_step * steps[None, :]
    d_all = np.broadcast_to(ds[:, None], a_all.shape)
    last = a_all + n * d_all
    ok = ((a_all < lo + inside * d_all) & (last >= hi - inside * d_all)
          & (last <= hi + outside * d_all) & (a_all >= 0) & (last <= length - 1))
    if not ok.any():
        return None
    ad = np.c_[a_all[ok], d_all[ok]]
    a, d = ad[:, :1], ad[:, 1:]
    lines = a + d * np.arange(size)[None, :]

    def index(x: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.rint(x / cfg.comb_lookup).astype(np.intp)
        return out

    # A lattice two, three or four times too coarse has lines at one of these fractions of
    # its cells; the true one has troughs there.
    return _Comb(ad, index(lines), tuple(index(lines[:, :-1] + f * d) for f in cfg.between))


def _comb_score(profile: np.ndarray, comb: _Comb, cfg: LocateConfig) -> tuple[float, float, float]:
    """The best of ``comb``'s lattices on ``profile``: (score, a, d) as `comb_fit`'s."""
    # The profile at every ``comb_lookup`` px, looked up by index: positions so rounded are
    # as good as interpolated ones on a profile blurred over several pixels.
    fine = np.interp(np.arange(0.0, len(profile) - 1 + 1e-9, cfg.comb_lookup),
                     np.arange(len(profile), dtype=np.float64), profile)
    spread = float(np.std(profile)) + 1e-9
    on = fine[comb.on].mean(axis=1)
    off = np.max([fine[k].mean(axis=1) for k in comb.off], axis=0)
    score = (on - off) / spread
    i = int(np.argmax(score))
    return (float(score[i]), float(comb.ad[i, 0]), float(comb.ad[i, 1]))


def comb_fit(profile: np.ndarray, lo: float, hi: float, size: int,
              reach: tuple[float, float], cfg: LocateConfig) -> tuple[float, float, float]:
    """The lattice of ``size`` lines (offset a, spacing d) on ``profile`` that best puts its
    lines on peaks and the points ``cfg.between`` (a half, a third or a quarter of the way)
    between them in troughs. ``lo`` and ``hi`` are where the outer lines
    roughly are: the outer lattice lines must lie within ``reach`` = (inside, outside) cells
    of them: around the net of lines ``cfg.net_reach``, around the cells found
    ``cfg.cells_reach``, around the board's outline ``cfg.outline_reach``. Spacings and
    offsets are tried ``cfg.comb_steps`` px apart, and the profile is looked up at
    ``cfg.comb_lookup`` px. Returns (score, a, d); score is
    (lines - highest in-between) / spread of profile."""
    comb = _comb(len(profile), lo, hi, size, reach, cfg)
    return (-np.inf, 0.0, 0.0) if comb is None else _comb_score(profile, comb, cfg)


def fit_lattice(gray: np.ndarray, quad: np.ndarray, size: int | None, sizes: tuple[int, ...],
                cfg: LocateConfig, reach: tuple[float, float]) -> GridFit:
    """The lattice inside ``quad`` (4, 2) of the working image ``gray``: rectify the quad to
    a square, project the line mask on both axes and fit a comb per candidate size: ``size``
    if given, else each of ``sizes``; ``reach`` as `comb_fit`'s."""
    side, m = cfg.rectified_side, cfg.rectified_margin
    dst = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    rect = cv2.warpPerspective(gray, warp, (side + 2 * m, side + 2 * m), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    horiz, vert = straight_parts(line_mask(rect, cfg), int(cfg.fit_straight * side), cfg)

    def profiles(part: np.ndarray, axis: int) -> list[np.ndarray]:
        # The whole view and strips across it: a quad slightly off tilts the lines, which
        # smears a fine lattice's peaks in the whole view's projection, not a strip's.
        k_all = cfg.fit_strips
        strips = [(0, side + 2 * m)] + [(m + k * side // k_all, m + (k + 1) * side // k_all)
                                         for k in range(k_all)]
        out = []
        for lo, hi in strips:
            sub = part[lo:hi, :] if axis == 0 else part[:, lo:hi]
            out.append(cv2.GaussianBlur(sub.mean(axis=axis)[None, :], (0, 0), cfg.fit_blur).ravel())
        return out

    pxs, pys = profiles(vert, 0), profiles(horiz, 1)
    candidates = (size,) if size else sizes
    best: tuple[float, int, tuple[float, float], tuple[float, float]] | None = None
    for n in candidates:
        # Every profile is as long as the square view is wide: one comb serves them all.
        comb = _comb(side + 2 * m, m, m + side, n, reach, cfg)

        def fit(p: np.ndarray) -> tuple[float, float, float]:
            if len(p) != side + 2 * m:
                return comb_fit(p, m, m + side, n, reach, cfg)
            return (-np.inf, 0.0, 0.0) if comb is None else _comb_score(p, comb, cfg)

        sx, ax, dx = fit(pxs[0])
        sy, ay, dy = fit(pys[0])
        strip = min(float(np.mean([fit(p)[0] for p in pxs[1:]])),
                    float(np.mean([fit(p)[0] for p in pys[1:]])))
        score = max(min(sx, sy), strip)
        if best is None or score > best[0]:
            best = (score, n, (ax, dx), (ay, dy))
    assert best is not None
    score, n, (ax, dx), (ay, dy) = best
    # Lattice -> rectified: (i, j) -> (ax + i dx, ay + j dy); rectified -> image: warp^-1.
    to_rect = np.array([[dx, 0, ax], [0, dy, ay], [0, 0, 1]], dtype=np.float64)
    h = np.linalg.inv(warp) @ to_rect
    return GridFit(h / h[2, 2], n, float(np.clip(score / cfg.score_scale, 0.0, 1.0)))
