"""Find the board's grid in a photo: which lattice (9, 13 or 19) and the homography from
lattice coordinates to image pixels, with no corners given by hand.

Steps, each a function of its own:

1. `line_mask`: pixels darker than their neighbourhood (the printed grid lines).
2. `grid_component`: the connected piece of that mask that encloses the most cells alike
   in area: a grid is one connected net of lines around many similar holes.
3. `outer_quad`: a quadrilateral around that component (the outer grid lines, roughly).
4. `fit_lattice`: the quad rectified to a square, the line mask projected on both axes, and
   the lattice (size, spacing, offset) whose lines fall on the peaks and whose mid-lines
   fall between them.
5. `refine`: every intersection re-measured in a rectified view and the homography refitted
   to those that agree (`vision.consensus`), a few passes; `grow`: the lattice extended
   line by line while the grid goes on.

Where the net of lines gives no grid it trusts (pale boards with faint broken lines, boards
crowded with stones), the grid is looked for again inside the board's outline that the two
families of straight lines span (`vision.lines`), at every size, and the better kept. Where
none of those is sure, the black stones' centres give a lattice too (`vision.stone_lattice`),
and grids started from it, scored by the lines or by how well the stones vouch for them,
are weighed with the rest; so are grids placed inside the outline of the slab of wood
(`vision.outline`), which needs neither lines nor stones to find the board.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import cv2
import numpy as np

from . import grid
from .config import LOCATE, OUTLINE, SIZES, STONES, LocateConfig, OutlineConfig
from .consensus import agreeing_homography
from .errors import BoardNotFound
from .lines import board_outline
from .outline import outlines, stone_bounds, stone_profiles
from .stone_lattice import BlackStones, dark_centres, stone_starts, stones_reach
from .stones import lift_shift


@dataclasses.dataclass(frozen=True)
class GridFit:
    """A located grid: ``homography`` (3, 3) from lattice (i, j) to image pixels, the board
    ``size``, and a ``confidence`` in [0, 1] from how well lines and mid-lines separate
    (see `confidence`), or for a grid from the stones how well they vouch for it (see
    `_vouched`)."""

    homography: np.ndarray
    size: int
    confidence: float

    @property
    def corners(self) -> np.ndarray:
        """The outermost intersections in image pixels: TL, TR, BR, BL as seen; (4, 2)."""
        return grid.corners(self.homography, self.size)


def to_gray(image: np.ndarray) -> np.ndarray:
    """A uint8 grey image from a BGR, BGRA or grey ``image``; raises ValueError on others."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise ValueError(f"expected an image array (H, W[, 3]), got {type(image).__name__}"
                         f" {getattr(image, 'shape', '')}")
    if image.dtype != np.uint8:
        raise ValueError(f"expected an 8-bit image, got dtype {image.dtype}")
    if image.ndim == 2:
        return image
    if image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    raise ValueError(f"expected 1, 3 or 4 channels, got {image.shape[2]}")


def working_image(gray: np.ndarray, cfg: LocateConfig = LOCATE) -> tuple[np.ndarray, np.ndarray]:
    """``gray`` downscaled so its longer side is at most ``cfg.work_side``; returns it and the
    map (3, 3) from working to original pixels (identity if not downscaled).

    The map is exact about pixel centres, as `cv2.resize` samples: working pixel ``x`` spans
    original pixels ``x * s`` to ``(x + 1) * s``, so its centre is ``(x + 0.5) s - 0.5``.
    Multiplying by ``s`` alone would put every grid ``(s - 1) / 2`` px (0.44 at 1920 px wide)
    towards the image's top-left corner, a shift that turns with the photo."""
    h, w = gray.shape
    s = min(1.0, cfg.work_side / max(h, w))
    if s >= 1.0:
        return gray, np.eye(3)
    ws, hs = round(w * s), round(h * s)
    small = cv2.resize(gray, (ws, hs), interpolation=cv2.INTER_AREA)
    sx, sy = w / ws, h / hs
    to_full = np.array([[sx, 0, 0.5 * (sx - 1)], [0, sy, 0.5 * (sy - 1)], [0, 0, 1]])
    return small, to_full


def line_mask(gray: np.ndarray, cfg: LocateConfig = LOCATE) -> np.ndarray:
    """A uint8 mask (255 = line) of pixels darker than their ``cfg.line_block`` neighbourhood
    by ``cfg.line_offset`` grey levels: thin dark lines, and the rims of dark blobs."""
    return cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                 cfg.line_block, cfg.line_offset)


def straight_parts(mask: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The horizontal and the vertical runs of ``mask`` at least ``length`` px long (a
    morphological opening each): in a rectified view, the grid lines without stone rims,
    text or specks. Returns (horizontal, vertical), float arrays in [0, 1]."""
    k = max(3, int(length))
    horiz = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, k), np.uint8))
    vert = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, 1), np.uint8))
    return horiz.astype(np.float64) / 255.0, vert.astype(np.float64) / 255.0


def _holes(component: np.ndarray) -> tuple[int, float]:
    """How many holes of the component mask are alike in area (within a factor 2.5 of the
    median hole of at least 9 px), and their total area: a grid's cells."""
    contours, hierarchy = cv2.findContours(component, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0, 0.0
    areas = np.array([cv2.contourArea(c) for c, hi in zip(contours, hierarchy[0]) if hi[3] >= 0])
    areas = areas[areas >= 9]
    if len(areas) == 0:
        return 0, 0.0
    med = float(np.median(areas))
    alike = areas[(areas > med / 2.5) & (areas < med * 2.5)]
    return len(alike), float(alike.sum())


def cell_mask(component: np.ndarray) -> np.ndarray | None:
    """The component's holes that look like grid cells, filled: convex-ish quadrilaterals
    (area at least 0.7 of their rotated bounding box) within a factor 2.5 of the area that
    holds most of the cells' total area. None if there are fewer than four."""
    contours, hierarchy = cv2.findContours(component, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return None
    holes, areas = [], []
    for c, hi in zip(contours, hierarchy[0]):
        area = cv2.contourArea(c)
        if hi[3] < 0 or area < 9:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        if area >= 0.7 * rw * rh:
            holes.append(c)
            areas.append(area)
    if len(holes) < 4:
        return None
    la = np.log(np.array(areas))
    hist, edges = np.histogram(la, bins=24, weights=np.exp(la))
    k = int(np.argmax(hist))
    mode = 0.5 * (edges[k] + edges[k + 1])
    cells = [c for c, a in zip(holes, la) if abs(a - mode) < np.log(2.5)]
    out = np.zeros_like(component)
    cv2.drawContours(out, cells, -1, 255, thickness=-1)
    return out


def grid_component(mask: np.ndarray, cfg: LocateConfig = LOCATE) -> np.ndarray:
    """The mask of the connected component most like a grid: the most area in alike holes,
    of at least ``cfg.min_holes`` of them; raises BoardNotFound when there is none."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        raise BoardNotFound("no dark lines in the image")
    h, w = mask.shape
    order = np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:12] + 1
    best, best_count, best_area = -1, 0, 0.0
    for k in order:
        x, y, bw, bh, area = stats[k]
        if bw < 0.08 * w and bh < 0.08 * h:
            continue
        count, covered = _holes((labels[y:y + bh, x:x + bw] == k).astype(np.uint8))
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


def outer_quad(component: np.ndarray) -> np.ndarray:
    """Four corners (4, 2) float32 around the mask ``component``: its convex hull simplified to a
    quadrilateral (or, failing that, the hull's extreme points along the two diagonals)."""
    pts = cv2.findNonZero(component)
    hull = cv2.convexHull(pts)
    peri = cv2.arcLength(hull, True)
    for eps in np.linspace(0.01, 0.15, 29):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            break
    h = hull.reshape(-1, 2).astype(np.float64)
    s, d = h[:, 0] + h[:, 1], h[:, 0] - h[:, 1]
    return np.array([h[np.argmin(s)], h[np.argmax(d)], h[np.argmax(s)], h[np.argmin(d)]],
                    dtype=np.float32)


def _comb_fit(profile: np.ndarray, lo: float, hi: float, size: int,
              reach: tuple[float, float] = (0.6, 0.15)) -> tuple[float, float, float]:
    """The lattice of ``size`` lines (offset a, spacing d) on ``profile`` that best puts its
    lines on peaks and the points a half, a third or a quarter of the way between them in
    troughs. ``lo`` and ``hi`` are where the outer lines
    roughly are: the outer lattice lines must lie within ``reach`` = (inside, outside) cells
    of them. Around the net of lines (which stones on the edge widen by up to half a cell)
    that is (0.6, 0.15); around the cells found (stones on the edge hide the outermost
    ones), (0.15, 1.15); around the board's outline (its edge), (1.15, 0.15). Returns
    (score, a, d); score is (lines - highest in-between) / spread of profile."""
    span = hi - lo
    n = size - 1
    # The profile at every quarter pixel, looked up by index: positions rounded to a quarter
    # pixel are as good as interpolated ones on a profile blurred over several pixels.
    fine = np.interp(np.arange(0.0, len(profile) - 1 + 1e-9, 0.25),
                     np.arange(len(profile), dtype=np.float64), profile)

    def at(x: np.ndarray) -> np.ndarray:
        out: np.ndarray = fine[np.rint(x * 4).astype(np.intp)]
        return out

    spread = float(np.std(profile)) + 1e-9
    inside, outside = reach
    # Every (offset, spacing) pair allowed, scored at once: spacings a quarter pixel apart,
    # and for each the offsets half a pixel apart that put both outer lines within reach.
    ds = np.arange(span / (n + 2 * inside), span / max(n - 2 * outside, 1.0), 0.25)
    if len(ds) == 0:
        return (-np.inf, 0.0, 0.0)
    steps = np.arange(int(np.ceil((inside + outside) * ds[-1] / 0.5)) + 1)
    a_all = (lo - outside * ds)[:, None] + 0.5 * steps[None, :]
    d_all = np.broadcast_to(ds[:, None], a_all.shape)
    last = a_all + n * d_all
    ok = ((a_all < lo + inside * d_all) & (last >= hi - inside * d_all)
          & (last <= hi + outside * d_all) & (a_all >= 0) & (last <= len(profile) - 1))
    if not ok.any():
        return (-np.inf, 0.0, 0.0)
    ad = np.c_[a_all[ok], d_all[ok]]
    a, d = ad[:, :1], ad[:, 1:]
    lines = a + d * np.arange(size)[None, :]
    on = at(lines).mean(axis=1)
    # A lattice two, three or four times too coarse has lines at one of these fractions of
    # its cells; the true one has troughs there.
    off = np.max([at(lines[:, :-1] + f * d).mean(axis=1)
                  for f in (0.5, 1 / 3, 2 / 3, 0.25, 0.75)], axis=0)
    score = (on - off) / spread
    i = int(np.argmax(score))
    return (float(score[i]), float(ad[i, 0]), float(ad[i, 1]))


def fit_lattice(gray: np.ndarray, quad: np.ndarray, size: int | None,
                cfg: LocateConfig = LOCATE, reach: tuple[float, float] = (0.6, 0.15)) -> GridFit:
    """The lattice inside ``quad`` (4, 2) of the working image ``gray``: rectify the quad to
    a square, project the line mask on both axes and fit a comb per candidate size."""
    side, m = cfg.rectified_side, cfg.rectified_margin
    dst = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    rect = cv2.warpPerspective(gray, warp, (side + 2 * m, side + 2 * m), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    horiz, vert = straight_parts(line_mask(rect, cfg), side // 50)

    def profiles(part: np.ndarray, axis: int) -> list[np.ndarray]:
        # The whole view and three strips across it: a quad slightly off tilts the lines,
        # which smears a fine lattice's peaks in the whole view's projection, not a strip's.
        strips = [(0, side + 2 * m)] + [(m + k * side // 3, m + (k + 1) * side // 3)
                                         for k in range(3)]
        out = []
        for lo, hi in strips:
            sub = part[lo:hi, :] if axis == 0 else part[:, lo:hi]
            out.append(cv2.GaussianBlur(sub.mean(axis=axis)[None, :], (0, 0), 1.5).ravel())
        return out

    pxs, pys = profiles(vert, 0), profiles(horiz, 1)
    candidates = (size,) if size else SIZES
    best: tuple[float, int, tuple[float, float], tuple[float, float]] | None = None
    for n in candidates:
        sx, ax, dx = _comb_fit(pxs[0], m, m + side, n, reach)
        sy, ay, dy = _comb_fit(pys[0], m, m + side, n, reach)
        strip = min(float(np.mean([_comb_fit(p, m, m + side, n, reach)[0] for p in pxs[1:]])),
                    float(np.mean([_comb_fit(p, m, m + side, n, reach)[0] for p in pys[1:]])))
        score = max(min(sx, sy), strip)
        if best is None or score > best[0]:
            best = (score, n, (ax, dx), (ay, dy))
    assert best is not None
    score, n, (ax, dx), (ay, dy) = best
    # Lattice -> rectified: (i, j) -> (ax + i dx, ay + j dy); rectified -> image: warp^-1.
    to_rect = np.array([[dx, 0, ax], [0, dy, ay], [0, 0, 1]], dtype=np.float64)
    h = np.linalg.inv(warp) @ to_rect
    return GridFit(h / h[2, 2], n, float(np.clip(score / 4.0, 0.0, 1.0)))


def _peaks(profiles: np.ndarray) -> np.ndarray:
    """Sub-pixel position of each row's maximum in ``profiles`` (k, w); NaN where it is on
    the border or under 0.25 (no line there)."""
    k, w = profiles.shape
    i = np.argmax(profiles, axis=1)
    rows = np.arange(k)
    ok = (i > 0) & (i < w - 1) & (profiles[rows, i] >= 0.25)
    ic = np.clip(i, 1, w - 2)
    a, b, c = profiles[rows, ic - 1], profiles[rows, ic], profiles[rows, ic + 1]
    den = a - 2 * b + c
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(den != 0, 0.5 * (a - c) / den, 0.0)
    return np.where(ok, i + frac, np.nan)


def refine(gray: np.ndarray, fit: GridFit, cfg: LocateConfig = LOCATE) -> GridFit:
    """``fit`` with every intersection re-measured in a view rectified by the current
    homography and the homography refitted to those that agree (`agreeing_homography`),
    ``cfg.refine_passes`` times or until it moves no point by ``cfg.refine_settled``.
    Intersections hidden by stones fail the peak test or fall out as outliers."""
    n, c = fit.size, cfg.refine_cell
    h = fit.homography
    half = int(round(cfg.refine_window * c))
    lat = grid.lattice(n)
    # Windows around every intersection of the rectified view (pixel = c * (lattice + 1)),
    # all inside it since the view has a cell of margin and half < c.
    offsets = np.arange(-half, half + 1)
    us = (c * (lat[:, 0] + 1)).astype(int)
    vs = (c * (lat[:, 1] + 1)).astype(int)
    yy = vs[:, None, None] + offsets[None, :, None]
    xx = us[:, None, None] + offsets[None, None, :]
    side = (n + 1) * c
    to_rect = np.array([[c, 0, c], [0, c, c], [0, 0, 1]], dtype=np.float64)
    for _ in range(cfg.refine_passes):
        rect = cv2.warpPerspective(gray, to_rect @ np.linalg.inv(h), (side, side),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        raw = line_mask(rect, cfg)
        horiz, vert = straight_parts(raw, c // 3)
        solid = raw[yy, xx].mean(axis=(1, 2)) / 255.0
        du = _peaks(vert[yy, xx].mean(axis=1))
        dv = _peaks(horiz[yy, xx].mean(axis=2))
        # A solid dark window is a black stone, not a cross of lines.
        ok = (solid <= 0.6) & ~np.isnan(du) & ~np.isnan(dv)
        if ok.sum() < 8:
            break
        measured = np.c_[us[ok] - half + du[ok], vs[ok] - half + dv[ok]]
        dst_l = (measured - c) / c  # in current lattice units
        found = agreeing_homography(lat[ok], dst_l, cfg.inlier_threshold)
        if found is None:
            break
        h = h @ found[0]
        h = h / h[2, 2]
        with np.errstate(divide="ignore", invalid="ignore"):  # points past the horizon
            moved = np.abs(grid.apply(found[0], lat) - lat).max()
        if moved < cfg.refine_settled:
            break  # another pass would measure the same
    return GridFit(h, n, fit.confidence)


def _evidence(horiz: np.ndarray, vert: np.ndarray, c: int, off: int, i0: int, i1: int,
              j0: int, j1: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Line evidence in a view rectified with ``c`` px per cell, lattice (i, j) at pixel
    ``c * (i + off)``, for the lattice i0..i1 x j0..j1 and one line beyond it on every side.

    Returns (rows, cols, row_gaps, col_gaps): ``rows[k]`` the share of row line j0-1+k drawn
    between columns i0 and i1, ``cols`` likewise; ``row_gaps[k]`` the share of the column
    segments drawn between row lines j0-1+k and j0+k (the columns crossing that gap)."""
    def hline(j: int) -> float:
        y = c * (j + off)
        band = horiz[max(y - 1, 0):y + 2, c * (i0 + off):c * (i1 + off) + 1]
        return float(band.max(axis=0).mean()) if band.size else 0.0

    def vline(i: int) -> float:
        x = c * (i + off)
        band = vert[c * (j0 + off):c * (j1 + off) + 1, max(x - 1, 0):x + 2]
        return float(band.max(axis=1).mean()) if band.size else 0.0

    def row_gap(j: int) -> float:  # columns between row lines j and j+1
        y0, y1 = c * (j + off) + c // 4, c * (j + 1 + off) - c // 4
        xs = [c * (i + off) for i in range(i0, i1 + 1)]
        if y0 < 0 or y1 > vert.shape[0]:
            return 0.0
        return float(np.mean([vert[y0:y1, max(x - 1, 0):x + 2].max(axis=1).mean() for x in xs]))

    def col_gap(i: int) -> float:
        x0, x1 = c * (i + off) + c // 4, c * (i + 1 + off) - c // 4
        ys = [c * (j + off) for j in range(j0, j1 + 1)]
        if x0 < 0 or x1 > horiz.shape[1]:
            return 0.0
        return float(np.mean([horiz[max(y - 1, 0):y + 2, x0:x1].max(axis=0).mean() for y in ys]))

    rows = np.array([hline(j) for j in range(j0 - 1, j1 + 2)])
    cols = np.array([vline(i) for i in range(i0 - 1, i1 + 2)])
    rgaps = np.array([row_gap(j) for j in range(j0 - 1, j1 + 1)])
    cgaps = np.array([col_gap(i) for i in range(i0 - 1, i1 + 1)])
    return rows, cols, rgaps, cgaps


def grow(gray: np.ndarray, fit: GridFit, size: int | None,
         cfg: LocateConfig = LOCATE) -> GridFit:
    """``fit`` extended, line by line, while the grid goes on past its outer lines: a line
    beyond is taken when it is drawn along most of the lattice's span *and* the lines
    crossing it run on into the gap (a board's edge or a table's is drawn but crossed by
    nothing); an outer line nothing crosses into is dropped first, and so is one crossed
    into much less than the line beyond the opposite side once the lattice is as long as a
    board (it slides a line). Stops at 19 lines (or ``size``). A net found on part of the
    board (a hand across it) so grows to the whole grid; if the grown lattice is not a
    square of a board size, ``fit`` is returned unchanged."""
    limit = size or max(SIZES)
    c = cfg.grow_cell
    h = fit.homography
    i0, j0, i1, j1 = 0, 0, fit.size - 1, fit.size - 1
    seen: set[tuple[int, int, int, int]] = set()  # lattices an outer line was dropped from
    for _ in range(2 * limit):
        ext = limit - min(i1 - i0, j1 - j0)  # cells of margin the view needs
        off = ext + 1
        side = c * (max(i1 - i0, j1 - j0) + 2 * off + 1)
        to_rect = np.array([[c, 0, c * off], [0, c, c * off], [0, 0, 1]], dtype=np.float64)
        shift = np.array([[1, 0, -i0], [0, 1, -j0], [0, 0, 1]], dtype=np.float64)
        warp = to_rect @ shift @ np.linalg.inv(h)
        rect = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        horiz, vert = straight_parts(line_mask(rect, cfg), c // 2)
        rows, cols, rgaps, cgaps = _evidence(horiz, vert, c, off, 0, i1 - i0, 0, j1 - j0)
        r_ref = max(float(np.median(rows[1:-1])), 1e-6)
        c_ref = max(float(np.median(cols[1:-1])), 1e-6)
        rg_ref = max(float(np.median(rgaps[1:-1])), 1e-6)
        cg_ref = max(float(np.median(cgaps[1:-1])), 1e-6)
        beyond = {"top": min(rows[0] / r_ref, rgaps[0] / rg_ref),
                  "bottom": min(rows[-1] / r_ref, rgaps[-1] / rg_ref),
                  "left": min(cols[0] / c_ref, cgaps[0] / cg_ref),
                  "right": min(cols[-1] / c_ref, cgaps[-1] / cg_ref)}
        # An outer line that nothing crosses into is a board's edge, not a grid line: drop
        # it. So is one crossed into less than half as well as the line beyond the opposite
        # side, on a lattice as long as a board's: the lattice is a line off.
        full = {"top": j1 - j0 + 1 >= limit, "left": i1 - i0 + 1 >= limit}
        full |= {"bottom": full["top"], "right": full["left"]}
        across = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
        drops = [(rgaps[1] / rg_ref, "top"), (rgaps[-2] / rg_ref, "bottom"),
                 (cgaps[1] / cg_ref, "left"), (cgaps[-2] / cg_ref, "right")]
        drops = [(g, e) for g, e in drops if g < cfg.edge_ratio or (
            full[e] and beyond[across[e]] >= cfg.grow_ratio
            and g < cfg.slide_ratio * beyond[across[e]])]
        if drops and min(i1 - i0, j1 - j0) > 4 and (i0, j0, i1, j1) not in seen:
            seen.add((i0, j0, i1, j1))
            edge = min(drops)[1]
            if edge == "top":
                j0 += 1
            elif edge == "bottom":
                j1 -= 1
            elif edge == "left":
                i0 += 1
            else:
                i1 -= 1
            continue
        options = [(score, e) for e, score in beyond.items() if not full[e]]
        if not options:
            break
        score, side_name = max(options)
        if score < cfg.grow_ratio:
            break
        if side_name == "top":
            j0 -= 1
        elif side_name == "bottom":
            j1 += 1
        elif side_name == "left":
            i0 -= 1
        else:
            i1 += 1
    nx, ny = i1 - i0 + 1, j1 - j0 + 1
    if nx != ny or nx not in SIZES or (size and nx != size):
        return fit  # grown into something no board is: keep the lattice as fitted
    return GridFit(grid.shifted(h, i0, j0), nx, fit.confidence)


def _rectified(gray: np.ndarray, fit: GridFit, c: int, margin: int,
               border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    """``gray`` warped so lattice point (i, j) of ``fit`` lands on pixel
    (c (i + margin), c (j + margin)), with ``margin`` cells around the lattice; outside the
    image filled by ``border`` (black when constant: no lines there)."""
    side = c * (fit.size - 1 + 2 * margin) + 1
    to_rect = np.array([[c, 0, c * margin], [0, c, c * margin], [0, 0, 1]], dtype=np.float64)
    out: np.ndarray = cv2.warpPerspective(gray, to_rect @ np.linalg.inv(fit.homography),
                                          (side, side), flags=cv2.INTER_LINEAR,
                                          borderMode=border, borderValue=0)
    return out


def thin_lines(mask: np.ndarray) -> np.ndarray:
    """The parts of ``mask`` under five pixels thick: printed lines without the solid blobs
    (stones' rims and shadows, which an adaptive threshold fills when a stone is about as
    large as its neighbourhood)."""
    solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    out: np.ndarray = cv2.subtract(mask, solid)
    return out


def lattice_score(gray: np.ndarray, fit: GridFit, cfg: LocateConfig = LOCATE) -> float:
    """How well the lattice of ``fit`` sits on the lines of ``gray``, in [0, 1]: in a view
    rectified by its homography, the profile of the thin straight lines on the lattice lines
    less its mean a half, third or quarter of the way between them, over the profile's
    spread, divided by 4. (The mean, not the highest as in `_comb_fit`: the size is decided
    by now, and stone rims between lines must not sink a good grid.) Lowered where two of
    its outer lines are drawn less than ``cfg.outer_drawn`` as plainly as the inner lines:
    a board's edge lines are drawn, and a lattice of every other line running past the
    board's edges fits half its lines as well as a board's grid does."""
    n, c = fit.size, cfg.grow_cell
    rect = _rectified(gray, fit, c, 1)
    horiz, vert = straight_parts(thin_lines(line_mask(rect, cfg)), 3 * c // 4)
    lines = c * (np.arange(n) + 1.0)
    xs = np.arange(rect.shape[0], dtype=np.float64)
    scores: list[float] = []
    outer: list[float] = []
    for part, axis in ((vert, 0), (horiz, 1)):
        prof = cv2.GaussianBlur(part.mean(axis=axis)[None, :], (0, 0), 1.0).ravel()
        on = np.interp(lines, xs, prof)
        off = np.mean([np.interp(lines[:-1] + f * c, xs, prof).mean()
                       for f in (0.5, 1 / 3, 2 / 3, 0.25, 0.75)])
        scores.append((on.mean() - off) / (float(np.std(prof)) + 1e-9))
        inner = max(float(np.median(on[1:-1])), 1e-9)
        outer += [float(on[0]) / inner, float(on[-1]) / inner]
    # The second weakest: seen steeply, the far edge line may be thinner than a pixel.
    weak = float(np.sort(outer)[1])
    drawn = float(np.clip((weak + 1e-9) / (cfg.outer_drawn + 1e-9), 0.0, 1.0))  # 0: off
    return float(np.clip(min(scores) / 4.0, 0.0, 1.0)) * drawn


def edge_shares(gray: np.ndarray, fit: GridFit, cfg: LocateConfig = LOCATE,
                thin: bool = False) -> np.ndarray:
    """How far the grid goes on past each outer line of ``fit``: (2, 2), indexed by lattice
    axis (0: past the lines i = 0 and i = n - 1; 1: j = 0 and j = n - 1) and end. Each is
    the lattice's lines drawn across the cell beyond that outer line, as a share of how they
    are drawn across its inner cells: near 0 where the board's grid ends, near 1 where it
    goes on. With ``thin``, only `thin_lines` count: not the stones, whose bodies lean past
    the far edge of a board seen steeply."""
    n, c = fit.size, cfg.grow_cell
    rect = _rectified(gray, fit, c, 2, cv2.BORDER_CONSTANT)
    mask = line_mask(rect, cfg)
    horiz, vert = straight_parts(thin_lines(mask) if thin else mask, 3 * c // 4)
    at = c * (np.arange(n) + 2)  # the lattice lines' pixels
    # Each line's band (3 px wide) at its most drawn, along its whole length.
    cols = np.maximum(np.maximum(vert[:, at - 1], vert[:, at]), vert[:, at + 1])  # (y, i)
    rows = np.maximum(np.maximum(horiz[at - 1, :], horiz[at, :]), horiz[at + 1, :]).T  # (x, j)
    shares = np.zeros((2, 2))
    # The lines i = const cross the gaps along j, and the other way round.
    for axis, lines in ((1, cols), (0, rows)):
        # The share of each gap between lattice positions k-1 and k (k = 0 .. n) that the
        # crossing lines draw, a quarter cell kept clear of either end.
        gaps = np.array([lines[c * (k + 1) + c // 4:c * (k + 2) - c // 4 + 1].mean()
                         for k in range(n + 1)])
        inner = max(float(np.median(gaps[1:-1])), 1e-6)
        shares[axis] = gaps[0] / inner, gaps[-1] / inner
    return shares


def runs_on(gray: np.ndarray, fit: GridFit, cfg: LocateConfig = LOCATE) -> float:
    """How far the grid goes on past the outer lines of ``fit``, in [0, 1]: its
    `edge_shares` averaged over the four sides. Near 0 for a whole board's grid (nothing
    crosses its edge lines), large for a patch of a bigger grid or a lattice of the wrong
    size that a few lines happen to fit."""
    return float(np.mean(np.clip(edge_shares(gray, fit, cfg), 0.0, 1.0)))


def confidence(gray: np.ndarray, fit: GridFit, cfg: LocateConfig = LOCATE) -> float:
    """How sure we are that ``fit`` is the board's whole grid, in [0, 1]: its
    `lattice_score`, lowered by ``cfg.runs_on_weight`` times how far the grid `runs_on`
    past it."""
    lowered = lattice_score(gray, fit, cfg) * (1.0 - cfg.runs_on_weight * runs_on(gray, fit, cfg))
    return float(max(lowered, 0.0))


def _finish(small: np.ndarray, fit: GridFit, size: int | None, cfg: LocateConfig) -> GridFit:
    """``fit`` refined, grown to the whole grid (up to ``size`` lines if given), refined,
    and scored."""
    fit = refine(small, fit, cfg)
    fit = grow(small, fit, size, cfg)
    fit = refine(small, fit, cfg)
    return GridFit(fit.homography, fit.size, confidence(small, fit, cfg))


def _fit_from(small: np.ndarray, quad: np.ndarray, lines: int | None, size: int | None,
              cfg: LocateConfig, reach: tuple[float, float]) -> GridFit:
    """Lattice fit in ``quad`` (of ``lines`` lines, or the size that fits best), finished."""
    return _finish(small, fit_lattice(small, quad, lines, cfg, reach), size, cfg)


def _vouched(small: np.ndarray, fit: GridFit, stones: np.ndarray, size: int | None,
             cfg: LocateConfig) -> GridFit:
    """``fit`` with the better of its confidence and, for a grid of ``size`` lines (if
    given), how well the black stones' centres ``stones`` vouch for it: their share on its
    points (`stones_reach`, their bodies looked for where `lift_shift` says they are seen)
    if they reach all four outer lines. If they miss one outer line of an axis, the lines
    choose between the grid and the one shifted a line off it (`_lines_choose`). A grid of
    fewer lines than the largest size, unasked, could be a patch of a bigger board: the
    share is lowered by how far the lines run on past its outer lines (`edge_shares`)."""
    if fit.size != (size or fit.size):
        return fit
    lift = lift_shift(fit.homography, small.shape, fit.size, STONES.stone_lift)
    share, reached = stones_reach(stones, fit.homography, fit.size, cfg, lift)
    if not reached.any(axis=1).all():
        return fit  # the stones leave an axis free by two lines or more
    ends = np.clip(edge_shares(small, fit, cfg, thin=True), 0.0, 1.0)
    agreement = share * _lines_choose(small, fit, ends, ~reached, cfg)
    if size is None and fit.size < max(SIZES):
        agreement *= 1.0 - float(ends.max())
    return GridFit(fit.homography, fit.size, max(fit.confidence, agreement))


def _lines_choose(small: np.ndarray, fit: GridFit, here: np.ndarray, open_ends: np.ndarray,
                  cfg: LocateConfig) -> float:
    """How clearly the lines say that ``fit``, whose thin `edge_shares` (clipped to [0, 1])
    are ``here``, ends where it does at its outer lines ``open_ends`` ((2, 2) booleans, as
    `edge_shares`) rather than a line further out, in [0, 1]: the least, over those ends,
    of how much more the grid shifted a line inwards from that end runs on past the two
    outer lines of its axis than ``fit`` does. 1 if no end is open."""
    clear = 1.0
    for axis, end in zip(*np.nonzero(open_ends)):
        step = 1 if end == 0 else -1
        inward = GridFit(grid.shifted(fit.homography, step * (axis == 0), step * (axis == 1)),
                         fit.size, 0.0)
        there = np.clip(edge_shares(small, inward, cfg, thin=True)[axis], 0.0, 1.0)
        clear = min(clear, float(np.clip(there.sum() - here[axis].sum(), 0.0, 1.0)))
    return clear


def _stone_fit(small: np.ndarray, found: BlackStones, size: int | None,
               cfg: LocateConfig) -> GridFit | None:
    """The most confident grid through the black stones ``found`` (`vision.stone_lattice`),
    finished and `_vouched` for; None if they give no lattice of a board's size."""
    best: GridFit | None = None
    for h, lines in stone_starts(found, size, cfg):
        finished = _finish(small, GridFit(h, lines, 0.0), size, cfg)
        if finished.size not in SIZES:
            continue  # a square around the stones that grew into no board
        fit = _vouched(small, finished, found.centres, size, cfg)
        if best is None or fit.confidence > best.confidence:
            best = fit
    return best


_NET_REACH = (0.6, 0.15)
"""How far (cells) the outer lattice lines may lie inside and outside the quad around the net
of lines (stones on the edge widen it by up to half a cell): see `_comb_fit`."""
_CELLS_REACH = (0.15, 1.15)
"""The same around the net's cells (stones on the edge hide the outermost ones)."""


def _net(small: np.ndarray, cfg: LocateConfig) -> np.ndarray | None:
    """The mask of the net of lines most like a grid, or None if there is none."""
    try:
        return grid_component(line_mask(small, cfg), cfg)
    except BoardNotFound:
        return None


def _other_fits(small: np.ndarray, net: np.ndarray | None, first: GridFit | None,
                size: int | None, cfg: LocateConfig) -> Iterator[GridFit]:
    """Grids to weigh against a doubtful ``first`` one, one by one: around the net of lines
    at the sizes the first fit did not take, around the net's cells and inside the board's
    outline (`vision.lines`) at every size, each grown to the whole grid first."""
    sizes = (size,) if size else SIZES
    if net is not None:
        quad = outer_quad(net)
        for n in sizes:
            if first is None or n != first.size:
                yield _fit_from(small, quad, n, size, cfg, _NET_REACH)
        cells = cell_mask(net)
        if cells is not None:
            quad = outer_quad(cells)
            for n in sizes:
                yield _fit_from(small, quad, n, size, cfg, _CELLS_REACH)
    outline = board_outline(small, cfg)
    if outline is not None:
        for n in sizes:
            yield _fit_from(small, outline, n, size, cfg, cfg.outline_reach)


def _slab_fits(image: np.ndarray, small: np.ndarray, to_full: np.ndarray,
               found: BlackStones | None, size: int | None, cfg: LocateConfig,
               outline_cfg: OutlineConfig) -> Iterator[GridFit]:
    """Grids placed inside the outlines of the slab of wood in ``image`` (`vision.outline`;
    ``to_full`` maps the working image ``small`` to ``image``), one per outline and size:
    its outer lines `OutlineConfig.margin` inside the slab's edges, the lattice fitted
    there and grown to the whole grid like any other, then `_vouched` for by the black
    stones ``found`` inside that slab (stones off the board, or a dark table's grain,
    are no witness); where they vouch too little, the grid the stones place there
    (`_stones_placed`) as well."""
    back = np.linalg.inv(to_full)
    for slab in outlines(image, outline_cfg) if image.ndim == 3 else []:
        quad = grid.apply(back, slab.quad).astype(np.float32)
        witnesses = None if found is None else found.centres[np.array(
            [cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0
             for x, y in found.centres], bool).reshape(-1)]
        for n in (size,) if size else SIZES:
            fit = _fit_from(small, quad, n, size, cfg, outline_cfg.reach)
            if witnesses is not None:
                fit = _vouched(small, fit, witnesses, size, cfg)
            yield fit
            if witnesses is not None and fit.confidence < cfg.recheck_below:
                yield _stones_placed(small, quad, n, witnesses, size, cfg, outline_cfg)


def _stones_placed(small: np.ndarray, quad: np.ndarray, n: int, witnesses: np.ndarray,
                   size: int | None, cfg: LocateConfig, outline_cfg: OutlineConfig) -> GridFit:
    """The grid of ``n`` lines the stones place inside the slab ``quad`` of ``small``, for a
    board so crowded its lines hide: a lattice fitted to where stones of either colour
    stand along each axis (`stone_profiles`), its outer lines `OutlineConfig.margin` inside
    the slab's edges, moved back by the stones' lift (their bodies stand up off their
    points), then as refined by the lines where they show or not, whichever the black
    stones ``witnesses`` vouch for more (`_vouched`)."""
    across_x, across_y, warp = stone_profiles(small, quad, n, outline_cfg)
    lo, hi = stone_bounds(outline_cfg)
    _, ax, dx = _comb_fit(across_x, lo, hi, n, outline_cfg.reach)
    _, ay, dy = _comb_fit(across_y, lo, hi, n, outline_cfg.reach)
    h = np.linalg.inv(warp) @ np.array([[dx, 0, ax], [0, dy, ay], [0, 0, 1.0]])
    lift = lift_shift(h / h[2, 2], small.shape, n, STONES.stone_lift).mean(axis=0)
    h = h @ np.array([[1, 0, -lift[0]], [0, 1, -lift[1]], [0, 0, 1.0]])
    h = _through_stones(h / h[2, 2], witnesses, n, small.shape, cfg, outline_cfg)
    best = _vouched(small, GridFit(h, n, 0.0), witnesses, size, cfg)
    refined = _vouched(small, refine(small, GridFit(best.homography, n, 0.0), cfg), witnesses,
                       size, cfg)
    return refined if refined.confidence > best.confidence else best


def _through_stones(h: np.ndarray, stones: np.ndarray, n: int, shape: tuple[int, ...],
                    cfg: LocateConfig, outline_cfg: OutlineConfig) -> np.ndarray:
    """The grid ``h`` (of ``n`` lines, within half a cell or so of the board's) refitted to
    the black stones' centres ``stones`` (k, 2): each taken back by its lift
    (`lift_shift`) to the point it lies nearest, the homography fitted by least squares to
    those within ``outline_cfg.stone_pushed`` cell of it, ``cfg.refine_passes`` times.
    Stones are pushed off their points at random; a hundred of them place the lattice far
    better than a profile's peaks."""
    for _ in range(cfg.refine_passes):
        lift = lift_shift(h, shape, n, STONES.stone_lift)
        q = grid.apply(np.linalg.inv(h), stones)
        near = np.rint(q)
        on = (near >= 0).all(axis=1) & (near <= n - 1).all(axis=1)
        if on.sum() < 8:
            break
        at = near[on].astype(int)
        seen = q[on] - lift[at[:, 1] * n + at[:, 0]]
        # Least squares over every stone near its point: their pushes average out.
        close = np.abs(seen - near[on]).max(axis=1) < outline_cfg.stone_pushed
        if close.sum() < 8:
            break
        found, _ = cv2.findHomography(near[on][close], seen[close], 0)
        if found is None or abs(found[2, 2]) < 1e-12:
            break
        h = h @ (found / found[2, 2])
        h = h / h[2, 2]
    return h


def locate(image: np.ndarray, size: int | None = None, cfg: LocateConfig = LOCATE,
           outline_cfg: OutlineConfig = OUTLINE) -> GridFit:
    """The grid of the Go board in ``image`` (BGR or grey, uint8), in its own pixels.

    ``size`` (9, 13 or 19) skips the size decision. Raises BoardNotFound with the reason when
    no grid is found, ValueError when ``image`` is not an image or ``size`` not a board size."""
    if size is not None and size not in SIZES:
        raise ValueError(f"board size must be one of {SIZES}, got {size!r}")
    gray = to_gray(image)
    small, to_full = working_image(gray, cfg)
    net = _net(small, cfg)
    fit = _fit_from(small, outer_quad(net), size, size, cfg, _NET_REACH) if net is not None \
        else None
    doubtful = [] if fit is None else [fit]
    if fit is None or fit.confidence < cfg.recheck_below:
        for other in _other_fits(small, net, fit, size, cfg):
            doubtful.append(other)
            if fit is None or other.confidence > fit.confidence:
                fit = other
            if fit.confidence >= cfg.recheck_below:
                break  # as sure as a first grid that needs no second look
    if fit is None or fit.confidence < cfg.recheck_below:
        # For boards so crowded the lines hide: the stones may vouch for any of the grids
        # the lines gave (the lines there barely tell them apart), and their lattice starts
        # grids of its own, which they may vouch for too, and any of which may sit better
        # on the lines.
        found = dark_centres(small, cfg)
        if found is not None:
            for other in doubtful:
                other = _vouched(small, other, found.centres, size, cfg)
                if fit is None or other.confidence > fit.confidence:
                    fit = other
        # The slab of wood and its four edges (`vision.outline`), as a person finds a board.
        slabs = _slab_fits(image, small, to_full, found, size, cfg, outline_cfg) \
            if fit is None or fit.confidence < cfg.recheck_below else iter(())
        for other in slabs:
            if fit is None or other.confidence > fit.confidence:
                fit = other
            if fit.confidence >= cfg.recheck_below:
                break  # as sure as a first grid that needs no second look
        if found is not None and (fit is None or fit.confidence < cfg.recheck_below):
            stones = _stone_fit(small, found, size, cfg)
            if stones is not None and (fit is None or stones.confidence > fit.confidence):
                fit = stones
    if fit is None:
        raise BoardNotFound(f"no net of lines enclosing at least {cfg.min_holes} alike cells, "
                            "no two families of straight lines, and no lattice of stones")
    if fit.confidence < cfg.min_confidence:
        raise BoardNotFound(f"grid lines too weak to trust (confidence {fit.confidence:.2f})")
    h = grid.upright(to_full @ fit.homography, fit.size)
    return GridFit(h, fit.size, fit.confidence)
