"""Refinement of a grid candidate: `refine` re-measures every intersection in a rectified
view and refits the homography to those that agree (`vision.consensus`); `grow` extends the
lattice line by line while the grid goes on past its outer lines."""

from __future__ import annotations

import cv2
import numpy as np

from . import grid
from .config import LocateConfig
from .consensus import agreeing_homography
from .grid import GridFit
from .grid_candidates import line_mask, straight_parts


def _peaks(profiles: np.ndarray, floor: float) -> np.ndarray:
    """Sub-pixel position of each row's maximum in ``profiles`` (k, w); NaN where it is on
    the border or under ``floor`` (no line there)."""
    k, w = profiles.shape
    i = np.argmax(profiles, axis=1)
    rows = np.arange(k)
    ok = (i > 0) & (i < w - 1) & (profiles[rows, i] >= floor)
    ic = np.clip(i, 1, w - 2)
    a, b, c = profiles[rows, ic - 1], profiles[rows, ic], profiles[rows, ic + 1]
    den = a - 2 * b + c
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(den != 0, 0.5 * (a - c) / den, 0.0)
    return np.where(ok, i + frac, np.nan)


def _windows(view: np.ndarray, n: int, c: int, half: int) -> np.ndarray:
    """The squares ``half`` px either side of every intersection of an ``n`` x ``n`` lattice
    whose point (i, j) lies at pixel (c (i + 1), c (j + 1)) of ``view`` (all inside it for
    half < c): (n * n, 2 half + 1, 2 half + 1), index j * n + i as `vision.grid.lattice`.
    Where they do not overlap they are cut out by reshaping the view, else gathered."""
    w = 2 * half + 1
    if w > c:
        lat = grid.lattice(n).astype(int)
        offsets = np.arange(-half, half + 1)
        yy = c * (lat[:, 1] + 1)[:, None, None] + offsets[None, :, None]
        xx = c * (lat[:, 0] + 1)[:, None, None] + offsets[None, None, :]
        gathered: np.ndarray = view[yy, xx]
        return gathered
    start, stop = c - half, c - half + n * c
    blocks = view[start:stop, start:stop].reshape(n, c, n, c)[:, :w, :, :w]
    out: np.ndarray = blocks.transpose(0, 2, 1, 3).reshape(n * n, w, w)
    return out


def refine(gray: np.ndarray, fit: GridFit, cfg: LocateConfig) -> GridFit:
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
    us = (c * (lat[:, 0] + 1)).astype(int)
    vs = (c * (lat[:, 1] + 1)).astype(int)
    side = (n + 1) * c
    to_rect = np.array([[c, 0, c], [0, c, c], [0, 0, 1]], dtype=np.float64)
    for _ in range(cfg.refine_passes):
        rect = cv2.warpPerspective(gray, to_rect @ np.linalg.inv(h), (side, side),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        raw = line_mask(rect, cfg)
        horiz, vert = straight_parts(raw, int(cfg.refine_straight * c), cfg)
        solid = _windows(raw, n, c, half).mean(axis=(1, 2)) / 255.0
        du = _peaks(_windows(vert, n, c, half).mean(axis=1), cfg.peak_min)
        dv = _peaks(_windows(horiz, n, c, half).mean(axis=2), cfg.peak_min)
        # A solid dark window is a black stone, not a cross of lines.
        ok = (solid <= cfg.refine_solid) & ~np.isnan(du) & ~np.isnan(dv)
        if ok.sum() < cfg.refine_min_points:
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
              j0: int, j1: int, clear: int,
              band: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Line evidence in a view rectified with ``c`` px per cell, lattice (i, j) at pixel
    ``c * (i + off)``, for the lattice i0..i1 x j0..j1 and one line beyond it on every side;
    ``clear`` px at either end of a gap between lines are left out of it, and each line is
    looked for ``band`` px either side of where the lattice puts it.

    Returns (rows, cols, row_gaps, col_gaps): ``rows[k]`` the share of row line j0-1+k drawn
    between columns i0 and i1, ``cols`` likewise; ``row_gaps[k]`` the share of the column
    segments drawn between row lines j0-1+k and j0+k (the columns crossing that gap)."""
    # Each line's band taken at once: the maximum over it at every pixel (the masks hold 0
    # and 1 only, so every mean below is exact, whatever the order it is summed in).
    across = 2 * band + 1
    hmax = cv2.dilate(horiz, np.ones((across, 1), np.uint8))
    vmax = cv2.dilate(vert, np.ones((1, across), np.uint8))
    xs = c * (np.arange(i0, i1 + 1) + off)
    ys = c * (np.arange(j0, j1 + 1) + off)
    rows = hmax[c * (np.arange(j0 - 1, j1 + 2) + off), xs[0]:xs[-1] + 1].mean(axis=1)
    cols = vmax[ys[0]:ys[-1] + 1, c * (np.arange(i0 - 1, i1 + 2) + off)].mean(axis=0)

    def row_gap(j: int) -> float:  # columns between row lines j and j+1
        y0, y1 = c * (j + off) + clear, c * (j + 1 + off) - clear
        if y0 < 0 or y1 > vert.shape[0]:
            return 0.0
        return float(np.mean(vmax[y0:y1, xs].mean(axis=0)))

    def col_gap(i: int) -> float:
        x0, x1 = c * (i + off) + clear, c * (i + 1 + off) - clear
        if x0 < 0 or x1 > horiz.shape[1]:
            return 0.0
        return float(np.mean(hmax[ys, x0:x1].mean(axis=1)))

    rgaps = np.array([row_gap(j) for j in range(j0 - 1, j1 + 1)])
    cgaps = np.array([col_gap(i) for i in range(i0 - 1, i1 + 1)])
    return rows, cols, rgaps, cgaps


def grow(gray: np.ndarray, fit: GridFit, size: int | None, sizes: tuple[int, ...],
         cfg: LocateConfig) -> GridFit:
    """``fit`` extended, line by line, while the grid goes on past its outer lines: a line
    beyond is taken when it is drawn along most of the lattice's span *and* the lines
    crossing it run on into the gap (a board's edge or a table's is drawn but crossed by
    nothing); an outer line nothing crosses into is dropped first, and so is one crossed
    into much less than the line beyond the opposite side once the lattice is as long as a
    board (it slides a line). Stops at the largest of ``sizes`` lines (or ``size``). A net
    found on part of the board (a hand across it) so grows to the whole grid; if the grown
    lattice is not a square of one of ``sizes``, ``fit`` is returned unchanged."""
    limit = size or max(sizes)
    c = cfg.grow_cell
    h = fit.homography
    i0, j0, i1, j1 = 0, 0, fit.size - 1, fit.size - 1
    seen: set[tuple[int, int, int, int]] = set()  # lattices an outer line was dropped from
    for _ in range(cfg.grow_passes * limit):
        ext = limit - min(i1 - i0, j1 - j0)  # cells of margin the view needs
        off = ext + 1
        side = c * (max(i1 - i0, j1 - j0) + 2 * off + 1)
        to_rect = np.array([[c, 0, c * off], [0, c, c * off], [0, 0, 1]], dtype=np.float64)
        shift = np.array([[1, 0, -i0], [0, 1, -j0], [0, 0, 1]], dtype=np.float64)
        warp = to_rect @ shift @ np.linalg.inv(h)
        rect = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        horiz, vert = straight_parts(line_mask(rect, cfg), int(cfg.grow_straight * c), cfg)
        rows, cols, rgaps, cgaps = _evidence(horiz, vert, c, off, 0, i1 - i0, 0, j1 - j0,
                                             int(cfg.gap_clear * c), cfg.evidence_band)
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
        if drops and min(i1 - i0, j1 - j0) > cfg.drop_min_span and (i0, j0, i1, j1) not in seen:
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
    if nx != ny or nx not in sizes or (size and nx != size):
        return fit  # grown into something no board is: keep the lattice as fitted
    return GridFit(grid.shifted(h, i0, j0), nx, fit.confidence)
