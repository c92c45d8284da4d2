"""The board's outline as a person sees it first: a slab of wood with four straight edges.

A Go board is a large, fairly uniform piece of wood, usually the largest such region near
the middle of a photo taken to read it; the stones on it are holes in that region, and its
edges are four straight lines (a quadrilateral under perspective). None of this needs the
grid lines, which a crowded board hides. Steps, each a function of its own:

1. `neutral`: the picture's colour cast taken out (grey world over the pixels neither
   black nor clipped): a lamp's hue must not decide what is wood.
2. `wood_colours`: the commonest colours near the picture's middle, one of them the wood's.
3. `slab`: the region of one such colour around the middle, its holes (stones) filled.
4. `edges`: four straight lines fitted to that region's boundary, each robust to what
   crosses it (a hand, a bowl) and blind to the picture's own border (a board filling the
   frame runs off it); their corners are the outline. The sides are looked for near a
   first quad around the region, and again from another (the largest on the
   hull's corners), for a slab cut at a corner by the picture's border or joined by a
   lamp's glow, where the first may keep a corner that is not the slab's.

Besides the wood's own colours, the `figure` standing out from the ground (the colours
of the picture's border) is tried as the slab: on a board crowded with stones the wood
shows only as a thin net, split into several colours by the light, but wood and stones
together stand out from the table as one four-sided figure. A colour that takes most of
every side of the picture's border is that ground (`surrounds`), never the wood, even
where the table fills enough of the middle to be among its commonest colours. A lamp's
reflection on a glossy table beside the board, the table's colour washed towards the lamp's,
may stand out from the ground as much as the wood does and join the figure; the figure
where the picture is `textured` (stones and lines; a highlight is smooth) is tried too.

`outlines` returns the candidates, best first; `vision.locate` places the grid inside each
(the board's margins are known in cells: see `OutlineConfig.margin`) and lets the lines
and the stones judge it like any other candidate grid. Where the lines hide under the
stones, the stones place it: `stone_profiles` says where stones of either colour stand
across the slab, and the lattice of the board's proportions whose lines fall on them is
the grid.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from .config import OUTLINE, OutlineConfig
from .quad import largest_on_hull, quad_around, same_quad


@dataclasses.dataclass(frozen=True)
class Outline:
    """A board outline: ``quad`` (4, 2) the slab's corners in the input image's pixels,
    clockwise on screen from the one nearest the top-left; ``seen`` (4,) which of its sides
    (quad[k] to quad[k + 1]) was fitted to the slab's boundary rather than standing where
    the picture's border cuts the slab; ``fill`` the share of the quad the slab fills."""

    quad: np.ndarray
    seen: tuple[bool, bool, bool, bool]
    fill: float


def shrink(image: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """``image`` downscaled (area average) so its longer side is at most ``side`` px, and
    the factor from its pixels to the input's (1.0 if not downscaled)."""
    h, w = image.shape[:2]
    s = max(h, w) / side
    if s <= 1.0:
        return image, 1.0
    step = int(s)  # a cheap subsample first: area-averaging 12 MP costs tens of ms
    if step >= 2:
        image = image[::step, ::step]
    out = cv2.resize(image, (max(1, round(w / s)), max(1, round(h / s))),
                     interpolation=cv2.INTER_AREA)
    return out, w / out.shape[1]


def neutral(bgr: np.ndarray, cfg: OutlineConfig = OUTLINE) -> np.ndarray:
    """``bgr`` (H, W, 3) uint8 as float32 in [0, 1] with its colour cast removed: each
    channel scaled so that its mean over the pixels neither near black nor clipped in any
    channel (``cfg.balance_range``) is the same (grey world). A lamp of any hue multiplies
    each channel by its own factor; this divides it out."""
    img = bgr.astype(np.float32) / 255.0
    lo, hi = cfg.balance_range
    usable = (img.max(axis=2) < hi) & (img.max(axis=2) > lo)
    if usable.sum() < cfg.balance_min * usable.size:
        usable = np.ones(usable.shape, bool)
    means = img[usable].mean(axis=0) + 1e-6
    out: np.ndarray = np.clip(img * (means.mean() / means)[None, None, :], 0.0, 1.0)
    return out


def _lab(img: np.ndarray, cfg: OutlineConfig) -> np.ndarray:
    """Lab of a float BGR image, lightness divided by ``cfg.light_weight`` so that one unit
    of distance weighs lightness and tint as the wood's variations ask."""
    lab: np.ndarray = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    lab[:, :, 0] /= cfg.light_weight
    return lab


def wood_colours(lab: np.ndarray, cfg: OutlineConfig = OUTLINE) -> list[np.ndarray]:
    """Up to ``cfg.colours`` colours (3,) of ``lab`` (as `_lab` gives it), the commonest
    first, each the mean of one bin of a histogram of the picture's middle (``cfg.middle``
    of each side) in bins ``cfg.tolerance`` wide, no two bins touching."""
    h, w = lab.shape[:2]
    mh, mw = int(h * (1 - cfg.middle) / 2), int(w * (1 - cfg.middle) / 2)
    return _commonest(lab[mh:h - mh, mw:w - mw].reshape(-1, 3), cfg)


def _commonest(px: np.ndarray, cfg: OutlineConfig) -> list[np.ndarray]:
    """Up to ``cfg.colours`` colours (3,) of the pixels ``px`` (k, 3), the commonest first,
    each the mean of one bin of their histogram in bins ``cfg.tolerance`` wide, no two
    bins touching."""
    step = cfg.tolerance
    idx = np.floor(px / step).astype(np.int64)
    idx -= idx.min(axis=0)
    dims = idx.max(axis=0) + 1
    flat = np.ravel_multi_index(idx.T, tuple(int(d) for d in dims))
    counts = np.bincount(flat)
    out: list[np.ndarray] = []
    taken: list[np.ndarray] = []
    for k in np.argsort(-counts)[:cfg.colour_bins * cfg.colours]:
        if counts[k] == 0:
            break
        cell = np.array(np.unravel_index(int(k), tuple(int(d) for d in dims)))
        if any(np.abs(cell - t).max() <= 1 for t in taken):
            continue
        taken.append(cell)
        out.append(px[flat == k].mean(axis=0))
        if len(out) == cfg.colours:
            break
    return out


def _border_depth(h: int, w: int, cfg: OutlineConfig) -> int:
    """How deep (px, at least 1) the border of an h x w picture is taken to be:
    ``cfg.ground`` of its longer side."""
    return max(1, int(round(cfg.ground * max(h, w))))


def surrounds(lab: np.ndarray, colour: np.ndarray, cfg: OutlineConfig = OUTLINE) -> bool:
    """Whether ``colour`` (3,) takes at least ``cfg.ground_sides`` of each of the four
    sides of ``lab``'s border (``cfg.ground`` of its longer side deep; ``lab`` as `_lab`
    gives it): the ground all round a board, which a board itself, cut by the frame or
    filling its width or height, never is (see `OutlineConfig.ground_sides`)."""
    h, w = lab.shape[:2]
    b = _border_depth(h, w, cfg)
    if 2 * b >= min(h, w):
        return False
    near = np.linalg.norm(lab - colour[None, None, :], axis=2) < cfg.tolerance
    sides = (near[:b], near[h - b:], near[:, :b], near[:, w - b:])
    return all(float(side.mean()) >= cfg.ground_sides for side in sides)


def figure(lab: np.ndarray, middle: list[np.ndarray],
           cfg: OutlineConfig = OUTLINE) -> np.ndarray:
    """The mask (uint8, 255) of what stands out from the ground in ``lab`` (as `_lab`
    gives it): every pixel further than ``cfg.tolerance`` from the ground's colours, the
    ``cfg.ground_colours`` commonest of the picture's border (``cfg.ground`` of its side
    all round; the board is framed inside it) that are none of the ``middle``'s colours
    (`wood_colours`: where a board runs off the frame, its wood is at the border too). A
    board crowded with stones shows its wood only in a thin net, split into several
    colours by the light falling off; wood and stones together are one figure on the
    table. Each pixel then takes the side most of its neighbours ``cfg.speck`` px across
    take: the noise of a dim picture flips single pixels of either across the tolerance."""
    h, w = lab.shape[:2]
    b = _border_depth(h, w, cfg)
    rim = np.ones((h, w), bool)
    rim[b:h - b, b:w - b] = False
    ground = np.zeros((h, w), bool)
    if not rim.any():
        return np.zeros((h, w), np.uint8)
    colours = [c for c in _commonest(lab[rim], cfg)
               if all(np.linalg.norm(c - m) >= cfg.tolerance for m in middle)]
    for colour in colours[:cfg.ground_colours]:
        ground |= np.linalg.norm(lab - colour[None, None, :], axis=2) < cfg.tolerance
    out: np.ndarray = cv2.medianBlur((~ground).astype(np.uint8) * 255, cfg.speck | 1)
    return out


def textured(bgr: np.ndarray, cfg: OutlineConfig = OUTLINE) -> np.ndarray:
    """The mask (uint8, 255) of where ``bgr`` (H, W, 3) uint8 has a board's texture: its
    grey's spread over a Gaussian window ``cfg.texture[0]`` of its longer side wide at
    least ``cfg.texture[1]`` of its mean there. Stones and lines make a board's face
    rough at that scale under any light; a lamp's reflection on the table beyond it is a
    smooth highlight, of the table's colour washed towards the lamp's (as close to the
    wood's as the wood is to itself once the cast is divided out), and only its
    smoothness tells it from the board's figure."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sigma = cfg.texture[0] * max(gray.shape)
    mean = cv2.GaussianBlur(gray, (0, 0), sigma)
    spread = np.sqrt(np.maximum(cv2.GaussianBlur(gray * gray, (0, 0), sigma) - mean * mean, 0.0))
    out: np.ndarray = (spread >= cfg.texture[1] * (mean + 1.0)).astype(np.uint8) * 255
    return out


def closed(near: np.ndarray, cfg: OutlineConfig = OUTLINE) -> np.ndarray:
    """The mask ``near`` (uint8, 255 where a pixel has the wood's colour) with its gaps
    up to ``cfg.closing`` of the picture's side closed: the wood between crowded stones is
    a thin net, and a stone on the outer line nearly covers the margin."""
    k = max(3, int(round(cfg.closing * max(near.shape))) | 1)
    out: np.ndarray = cv2.morphologyEx(near, cv2.MORPH_CLOSE,
                                       cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return out


def slab(mask: np.ndarray, cfg: OutlineConfig = OUTLINE) -> np.ndarray | None:
    """The region of the `closed` wood mask ``mask`` most like a slab around the picture's
    middle (the largest whose outline passes the middle within ``cfg.slab_middle`` of the
    picture; where none does, the largest that spans the picture's middle column and
    passes the middle within ``cfg.steep_middle``),
    its holes (stones) filled, as a uint8 mask; None if it covers under ``cfg.min_area``
    of the picture or under ``cfg.min_fill`` of its convex hull."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, cfg.min_area * h * w
    centre = (w / 2.0, h / 2.0)
    for c in contours:
        area = cv2.contourArea(c)
        if area > best_area and \
                cv2.pointPolygonTest(c, centre, True) >= -cfg.slab_middle * max(h, w):
            best, best_area = c, area
    if best is None:
        for c in contours:
            area = cv2.contourArea(c)
            x, _, cw, _ = cv2.boundingRect(c)
            if area > best_area and x <= centre[0] <= x + cw and \
                    cv2.pointPolygonTest(c, centre, True) >= -cfg.steep_middle * max(h, w):
                best, best_area = c, area
    if best is None or best_area < cfg.min_fill * cv2.contourArea(cv2.convexHull(best)):
        return None  # none, or too far from convex to be a four-sided slab
    out = np.zeros((h, w), np.uint8)
    cv2.drawContours(out, [best], -1, 255, thickness=-1)
    return out


def _line(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The homogeneous line through 2-points ``a`` and ``b``, normalised on its normal."""
    normal = np.array([a[1] - b[1], b[0] - a[0]], dtype=np.float64)
    normal /= float(np.hypot(normal[0], normal[1])) + 1e-12
    return np.array([normal[0], normal[1], -float(normal @ a)])


def _least_squares(points: np.ndarray) -> np.ndarray:
    """The homogeneous line (total least squares) through ``points`` (k, 2), normalised."""
    centre = points.mean(axis=0)
    d = points - centre
    sxx, syy, sxy = float(d[:, 0] @ d[:, 0]), float(d[:, 1] @ d[:, 1]), float(d[:, 0] @ d[:, 1])
    along = 0.5 * np.arctan2(2.0 * sxy, sxx - syy)  # the direction the points spread most in
    normal = np.array([-np.sin(along), np.cos(along)])
    return np.array([normal[0], normal[1], -float(normal @ centre)])


def _fit(points: np.ndarray, band: float, cfg: OutlineConfig) -> np.ndarray:
    """A line through most of ``points`` (k, 2): least squares, then again over those
    within ``band`` px of it, ``cfg.edge_rounds`` times with the band narrowed each time (a
    hand or a bowl crossing the edge falls out)."""
    rounds, narrower = cfg.edge_rounds
    line = _least_squares(points)
    for r in range(rounds):
        near = points[np.abs(points @ line[:2] + line[2]) < band / (narrower ** r)]
        if len(near) < 2:
            break
        line = _least_squares(near)
    return line


def edges(mask: np.ndarray, cfg: OutlineConfig = OUTLINE
          ) -> tuple[Outline | None, Outline | None]:
    """The four straight edges of the slab ``mask`` and the quadrilateral they span, in
    ``mask``'s pixels, fitted from two first quads around the slab (`_edges_from`; None
    where that is not four-sided enough): its hull simplified to four corners
    (`quad_around`, ``cfg.slab_quad``), and the largest quad on the corners of its hull
    simplified at the first of those tolerances (`largest_on_hull`), the second None also
    where that is the first quad again (`same_quad`, ``cfg.same`` px).

    Where the picture's border cuts a corner off the slab, its hull is a pentagon and the
    simplification to four corners may keep both ends of the cut and drop a corner of
    the slab; the largest quad keeps the slab's three other corners (its edges, fitted
    from there, meet at the fourth). Where a leak (a lamp's glow, a table of the wood's
    colour) joins the slab, the largest quad may take the leak's corners instead, or drop
    a leak's tip the simplification kept: so its outline is a candidate besides the
    first's, after it, for the lines and the stones to judge."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None, None
    boundary = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)
    points = boundary.astype(np.float32)
    first = quad_around(points, cfg.slab_quad)
    largest = largest_on_hull(points, cfg.slab_quad[0])
    wider = None if largest is None or same_quad(first, largest, cfg.same) else \
        _edges_from(largest, boundary, mask, cfg)
    return _edges_from(first, boundary, mask, cfg), wider


def _edges_from(first: np.ndarray, boundary: np.ndarray, mask: np.ndarray,
                cfg: OutlineConfig) -> Outline | None:
    """The four straight edges of the slab ``mask`` (its outer ``boundary``, (k, 2)) near
    the sides of the quad ``first`` (4, 2), and the quadrilateral they span; None if it is
    not four-sided enough (under ``cfg.min_fill`` of the quad filled, or the quad not
    convex).

    Each side of ``first`` takes the boundary points near it (within ``cfg.edge_band`` of
    its length), not on the picture's border, and a line is fitted to them robustly; a
    side with too few such points (``cfg.edge_seen``) keeps the first quad's side (the
    picture's border cuts the board there)."""
    h, w = mask.shape
    inside = ((boundary[:, 0] > 1) & (boundary[:, 0] < w - 2)
              & (boundary[:, 1] > 1) & (boundary[:, 1] < h - 2))
    lines, seen = [], []
    for k in range(4):
        a, b = first[k], first[(k + 1) % 4]
        length = float(np.linalg.norm(b - a))
        if length < 4:
            return None
        line = _line(a, b)
        along = (boundary - a) @ ((b - a) / length)
        d = np.abs(boundary @ line[:2] + line[2])
        band = cfg.edge_band * length
        near = (inside & (d < band) & (along > cfg.edge_ends * length)
                & (along < (1.0 - cfg.edge_ends) * length))
        if near.sum() >= cfg.edge_seen * length:
            fitted = _fit(boundary[near], band, cfg)
            # The boundary runs through the slab's outermost pixel centres; its edge lies
            # half a pixel further out.
            outward = 1.0 if fitted @ [*first.mean(axis=0), 1.0] < 0 else -1.0
            fitted[2] -= 0.5 * outward
            lines.append(fitted)
            seen.append(True)
        else:
            lines.append(line)
            seen.append(False)
    corners = []
    for k in range(4):
        p = np.cross(lines[k - 1], lines[k])
        if abs(p[2]) < 1e-9:
            return None
        corners.append(p[:2] / p[2])
    quad = np.array(corners)  # quad[k] is where side k-1 meets side k: first[k] again
    if not cv2.isContourConvex(quad.astype(np.float32)):
        return None
    if np.abs(quad).max() > 3 * max(h, w):
        return None
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    fill = float(mask.sum() / 255.0 / max(area, 1.0))
    if fill < cfg.min_fill or fill > 1.0 / cfg.min_fill:
        return None
    return _clockwise(quad, seen, fill)


def _clockwise(quad: np.ndarray, seen: list[bool], fill: float) -> Outline:
    """The outline of corners ``quad`` (4, 2), side k from corner k to k + 1 ``seen`` or
    not, ``fill`` of it filled, relabelled to run clockwise on screen from the corner nearest the top-left."""
    x, y = quad[:, 0], quad[:, 1]
    forward = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) >= 0
    order = np.arange(4) if forward else np.arange(4)[::-1]
    order = np.roll(order, -int(np.argmin(quad[order].sum(axis=1))))
    # Going backwards, the side from corner order[k] on is the one that ends there.
    sides = order if forward else (order - 1) % 4
    return Outline(quad[order], (seen[sides[0]], seen[sides[1]], seen[sides[2]],
                                 seen[sides[3]]), fill)


def stone_profiles(gray: np.ndarray, quad: np.ndarray, size: int,
                   cfg: OutlineConfig = OUTLINE) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the stones on the slab ``quad`` (4, 2) of ``gray`` (uint8) stand, along each
    axis: the slab rectified to a square of ``cfg.stone_view`` px with an eighth of that
    around it, each pixel's response to a disc of a stone's size for a board of
    ``size`` lines (the magnitude of a Laplacian of Gaussian: black and white stones alike,
    whatever the light's level or colour), averaged across the slab along each axis.

    Returns (across x, across y, warp from ``gray`` to the view): on a crowded board each
    profile peaks on the lattice's lines, hidden as the lines are, and dips between them.
    Where the slab's edges lie in the view: `stone_bounds`."""
    lo, hi = stone_bounds(cfg)
    dst = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    side = lo + hi
    view = cv2.warpPerspective(gray, warp, (side, side), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    # A 19x19 slab is about 20 cells and a margin or so; the filter is matched to that.
    cell = (hi - lo) / (size + 1.0)
    blob = cv2.GaussianBlur(view, (0, 0), cfg.stone_size * cell / np.sqrt(2.0))
    response = np.abs(cv2.Laplacian(blob, cv2.CV_32F, ksize=3))
    inside = np.zeros_like(response)
    inside[lo:hi, lo:hi] = response[lo:hi, lo:hi]  # the table's grain is no stone
    return inside.mean(axis=0).astype(np.float64), inside.mean(axis=1).astype(np.float64), warp


def stone_bounds(cfg: OutlineConfig = OUTLINE) -> tuple[int, int]:
    """Where the slab's edges lie in `stone_profiles`' view (px, both axes)."""
    lo = cfg.stone_view // 8
    return lo, lo + cfg.stone_view


def outlines(image: np.ndarray, cfg: OutlineConfig = OUTLINE) -> list[Outline]:
    """Board outline candidates in ``image`` (BGR uint8, any size; a grey image gives
    none: colour is what sets the wood apart), in ``image``'s pixels: at most ``cfg.keep``
    traced from the slabs' first quads (`edges`), the most slab-like first (the most of
    its quad filled), then at most as many from the largest quads on their hulls
    (`edges`' second) that are none of those, ranked alike.

    Each of the `wood_colours`, and each pair of them (light falling off, glare or a
    channel clipped under a strong lamp may split one board's wood in two), is tried as
    the wood's colour; a slab must have at least two sides fitted to its boundary (the
    picture's border cuts at most two of a board's sides). Masks that give the same
    outline (`OutlineConfig.same`) give it once, as the most four-sided of them traced
    it: the first traced is often a colour's slab ragged where the light splits the wood,
    and its twin from the figure or a pair of colours has the slab's true edges."""
    if image.ndim != 3 or image.shape[2] < 3:
        return []
    small, scale = shrink(np.ascontiguousarray(image[:, :, :3]), cfg.side)
    lab = _lab(neutral(small, cfg), cfg)
    middle = [c for c in wood_colours(lab, cfg) if not surrounds(lab, c, cfg)]
    near = [closed((np.linalg.norm(lab - c[None, None, :], axis=2) < cfg.tolerance)
                   .astype(np.uint8) * 255, cfg) for c in middle]
    shape = figure(lab, middle, cfg)
    masks = near + [a | b for k, a in enumerate(near) for b in near[k + 1:]] \
        + [closed(shape, cfg), closed(shape & textured(small, cfg), cfg)]
    found: list[tuple[float, Outline]] = []  # from each mask's first quad
    wider: list[tuple[float, Outline]] = []  # from the largest quads on their hulls
    regions: list[np.ndarray] = []
    for m in masks:
        region = slab(m, cfg)
        if region is None or any(cv2.countNonZero(region ^ r) < cfg.same_region * region.size
                                 for r in regions):
            continue  # no slab, or one already seen (a pair whose second colour adds none)
        regions.append(region)
        for kept, outline in zip((found, wider), edges(region, cfg)):
            if outline is None or sum(outline.seen) < 2:
                continue
            # Pixel centres: small pixel x covers input pixels x*s .. (x+1)*s.
            _keep_best(kept, Outline((outline.quad + 0.5) * scale - 0.5, outline.seen,
                                     outline.fill), cfg.same * scale)
    first = [o for _, o in sorted(found, key=lambda f: -f[0])[:cfg.keep]]
    others = [o for _, o in sorted(wider, key=lambda f: -f[0])
              if not any(same_quad(o.quad, f.quad, cfg.same * scale) for f in first)]
    return first + others[:cfg.keep]


def _keep_best(found: list[tuple[float, Outline]], outline: Outline, same: float) -> None:
    """Add ``outline`` to ``found`` (outlines with their scores, the share of the quad
    filled or its inverse, whichever is under 1) unless one within ``same`` px of it
    scores as high; those it outscores there go."""
    score = min(outline.fill, 1.0 / outline.fill)
    twins = [f for f in found if same_quad(outline.quad, f[1].quad, same)]
    if any(s >= score for s, _ in twins):
        return  # the same outline again, no more four-sided than before
    found[:] = [f for f in found if not any(f is t for t in twins)]
    found.append((score, outline))
