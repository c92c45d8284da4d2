"""Find the board's grid in a photo: which lattice (9, 13 or 19) and the homography from
lattice coordinates to image pixels, with no corners given by hand.

`locate` is the orchestrator of the stages, each a module of its own and a function of a
numpy image: grid candidates from the net of lines (`vision.grid_candidates`), from the
board's outline that two families of straight lines span (`vision.lines`), from the black
stones' lattice (`vision.stone_lattice`) and inside the outline of the slab of wood
(`vision.outline`); each candidate refined and grown to the whole grid
(`vision.grid_refine`) and scored (`vision.grid_score`); the most confident kept.

The first candidate is the lattice around the net of lines. Where the net gives no grid it
trusts (pale boards with faint broken lines, boards crowded with stones), the grid is looked
for again around the net at the other sizes, around its cells and inside the board's
outline, at every size, and the better kept. Where none of those is sure, the black stones'
centres vouch for the grids found (`vision.grid_score.vouched`), grids are placed inside the
slab of wood, which needs neither lines nor stones to find the board, and the stones'
lattice starts grids of its own; all are weighed with the rest. The grid picked in doubt is
refined once more where it lies, within its phase (`_refined_in_phase`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import cv2
import numpy as np

from . import grid
from .config import VISION, LocateConfig, VisionConfig
from .errors import BoardNotFound
from .grid import GridFit, lift_shift, same_grid
from .grid_candidates import (cell_mask, comb_fit, fit_lattice, grid_component, line_mask,
                              outer_quad)
from .grid_refine import grow, refine
from .grid_score import confidence, on_points, vouched
from .illuminant import share_at
from .lines import board_outline
from .outline import Outline, outlines, stone_bounds, stone_profiles
from .point_net import belief, look
from .stone_lattice import BlackStones, dark_centres, stone_starts


def check_image(image: np.ndarray) -> None:
    """Raises ValueError unless ``image`` is a uint8 BGR, BGRA or grey image."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise ValueError(f"expected an image array (H, W[, 3]), got {type(image).__name__}"
                         f" {getattr(image, 'shape', '')}")
    if image.dtype != np.uint8:
        raise ValueError(f"expected an 8-bit image, got dtype {image.dtype}")
    if image.ndim == 3 and image.shape[2] not in (3, 4):
        raise ValueError(f"expected 1, 3 or 4 channels, got {image.shape[2]}")


def to_gray(image: np.ndarray) -> np.ndarray:
    """A uint8 grey image from a BGR, BGRA or grey ``image``; raises ValueError on others."""
    check_image(image)
    if image.ndim == 2:
        return image
    if image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)


def working_image(gray: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray]:
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


def _finish(small: np.ndarray, fit: GridFit, size: int | None,
            config: VisionConfig) -> GridFit:
    """``fit`` refined, grown to the whole grid (up to ``size`` lines if given), refined,
    and scored."""
    cfg = config.locate
    fit = refine(small, fit, cfg)
    fit = grow(small, fit, size, config.sizes, cfg)
    fit = refine(small, fit, cfg)
    return GridFit(fit.homography, fit.size, confidence(small, fit, cfg))


def _fit_from(small: np.ndarray, quad: np.ndarray, lines: int | None, size: int | None,
              config: VisionConfig, reach: tuple[float, float]) -> GridFit:
    """Lattice fit in ``quad`` (of ``lines`` lines, or the size that fits best), finished."""
    fit = fit_lattice(small, quad, lines, config.sizes, config.locate, reach)
    return _finish(small, fit, size, config)


def _stone_fit(small: np.ndarray, found: BlackStones, witnesses: np.ndarray,
               size: int | None, config: VisionConfig) -> GridFit | None:
    """The most confident grid through the black stones ``found`` (`vision.stone_lattice`),
    finished and `vouched` for by the stones ``witnesses``; None if they give no lattice of
    a board's size."""
    best: GridFit | None = None
    for h, lines in stone_starts(found, size, config.sizes, config.locate):
        finished = _finish(small, GridFit(h, lines, 0.0), size, config)
        if finished.size not in config.sizes:
            continue  # a square around the stones that grew into no board
        fit = vouched(small, finished, witnesses, size, config)
        if best is None or fit.confidence > best.confidence:
            best = fit
    return best


def _net(small: np.ndarray, cfg: LocateConfig) -> np.ndarray | None:
    """The mask of the net of lines most like a grid, or None if there is none."""
    try:
        return grid_component(line_mask(small, cfg), cfg)
    except BoardNotFound:
        return None


def _other_fits(small: np.ndarray, net: np.ndarray | None, first: GridFit | None,
                size: int | None, config: VisionConfig) -> Iterator[GridFit]:
    """Grids to weigh against a doubtful ``first`` one, one by one: around the net of lines
    at the sizes the first fit did not take, around the net's cells and inside the board's
    outline (`vision.lines`) at every size, each grown to the whole grid first."""
    sizes = (size,) if size else config.sizes
    if net is not None:
        quad = outer_quad(net, config.locate)
        for n in sizes:
            if first is None or n != first.size:
                yield _fit_from(small, quad, n, size, config, config.locate.net_reach)
        cells = cell_mask(net, config.locate)
        if cells is not None:
            quad = outer_quad(cells, config.locate)
            for n in sizes:
                yield _fit_from(small, quad, n, size, config, config.locate.cells_reach)
    outline = board_outline(small, config.locate)
    if outline is not None:
        for n in sizes:
            yield _fit_from(small, outline, n, size, config, config.locate.outline_reach)


def _slab_fits(image: np.ndarray, small: np.ndarray, to_full: np.ndarray,
               found: BlackStones | None, size: int | None,
               config: VisionConfig) -> Iterator[tuple[GridFit, bool]]:
    """Grids placed inside the outlines of the slab of wood in ``image`` (`vision.outline`;
    ``to_full`` maps the working image ``small`` to ``image``), one per outline and size:
    its outer lines `OutlineConfig.margin` inside the slab's edges, the lattice fitted
    there and grown to the whole grid like any other, then `vouched` for by the black
    stones ``found`` inside that slab; where they vouch too little, the grid those stones
    place there (`_stones_placed`) as well, after all the others and only those with
    about as many stones on their points as the best of them (`_most_on_points`); each
    with whether the stones placed it."""
    back = np.linalg.inv(to_full)
    placed: list[GridFit] = []
    for slab in outlines(image, config.outline) if image.ndim == 3 else []:
        here = Outline(grid.apply(back, slab.quad).astype(np.float32), slab.seen, slab.fill)
        quad = here.quad
        inside = None if found is None else _inside(found.centres, quad)
        for n in (size,) if size else config.sizes:
            fit = _fit_from(small, quad, n, size, config, config.outline.reach)
            if inside is not None:
                fit = vouched(small, fit, inside, size, config)
            yield fit, False
            if inside is not None and fit.confidence < config.locate.recheck_below:
                placed.append(_stones_placed(small, here, n, inside, size, config))
    if found is not None:
        for fit in _most_on_points(small, placed, found.centres, config):
            yield fit, True


def _most_on_points(small: np.ndarray, fits: list[GridFit], stones: np.ndarray,
                    config: VisionConfig) -> list[GridFit]:
    """Those of ``fits`` (grids of one size or more) with as many of the black stones'
    centres ``stones`` (k, 2) on their points (`on_points`) as the best of that size, less
    `OutlineConfig.phase_rows` rows' worth: the stones vouch for a grid a row off or
    squeezed as much as for the board's own where its outer rows show stones and the
    board's far row, foreshortened, shows none."""
    shares = [on_points(small, fit, stones, config) for fit in fits]
    return [fit for fit, share in zip(fits, shares)
            if share >= max(s for f, s in zip(fits, shares) if f.size == fit.size)
            - config.outline.phase_rows / fit.size]


def _inside(centres: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The ``centres`` (k, 2) inside the quad ``quad`` (4, 2), in their order."""
    inside = np.array([cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0
                       for x, y in centres], bool).reshape(-1)
    out: np.ndarray = centres[inside]
    return out


def _framed_stones(found: BlackStones | None, shape: tuple[int, ...],
                   config: VisionConfig) -> BlackStones | None:
    """``found`` with only the centres `OutlineConfig.stone_framed` px or more inside the
    border of a picture of ``shape``, in their order; None if none is. A dark band along
    the border, or a stone cut past its middle, is deepest on the border itself: no
    stone's centre."""
    if found is None:
        return None
    h, w = shape[:2]
    framed = config.outline.stone_framed
    c = found.centres
    kept = (c >= framed).all(axis=1) & (c[:, 0] <= w - 1 - framed) & (c[:, 1] <= h - 1 - framed)
    return dataclasses.replace(found, centres=c[kept]) if kept.any() else None


def _stones_placed(small: np.ndarray, slab: Outline, n: int, witnesses: np.ndarray,
                   size: int | None, config: VisionConfig) -> GridFit:
    """The grid of ``n`` lines the stones place inside the slab ``slab`` of ``small``, for a
    board so crowded its lines hide: a lattice fitted to where stones of either colour
    stand along each axis (`stone_profiles`), its outer lines `OutlineConfig.margin` inside
    the slab's edges, moved back by the stones' lift (their bodies stand up off their
    points), refitted to the black stones ``witnesses`` (`_through_stones`) from there
    and from there moved by `OutlineConfig.stone_phases` along each axis (a refit that
    ends within `OutlineConfig.same_phase` of the unmoved one's is that one); of those
    with about as many stones on their points as the best (`_most_on_points`), the one the
    stones vouch for most (`vouched`, the slab's seen edges saying where the grid ends
    where the stones and lines cannot; the unmoved one on a tie), then as refined by the
    lines where they show or not, whichever those stones vouch for more; the refined one
    also where it keeps that grid's phase and the stones vouch for it within
    `OutlineConfig.phase_rows` rows' worth of stones (they cannot tell such grids apart:
    the lines can)."""
    cfg, outline_cfg = config.locate, config.outline
    across_x, across_y, warp = stone_profiles(small, slab.quad, n, outline_cfg)
    lo, hi = stone_bounds(outline_cfg)
    _, ax, dx = comb_fit(across_x, lo, hi, n, outline_cfg.reach, cfg)
    _, ay, dy = comb_fit(across_y, lo, hi, n, outline_cfg.reach, cfg)
    h = np.linalg.inv(warp) @ np.array([[dx, 0, ax], [0, dy, ay], [0, 0, 1.0]])
    lift = lift_shift(h / h[2, 2], small.shape, n, config.stones.stone_lift,
                      config.stones).mean(axis=0)
    h = h @ np.array([[1, 0, -lift[0]], [0, 1, -lift[1]], [0, 0, 1.0]])
    unmoved = _through_stones(h / h[2, 2], witnesses, n, small.shape, config)
    phases = [GridFit(unmoved, n, 0.0)]
    for di in outline_cfg.stone_phases:
        for dj in outline_cfg.stone_phases:
            start = h @ np.array([[1, 0, di], [0, 1, dj], [0, 0, 1.0]])
            moved = _through_stones(start / start[2, 2], witnesses, n, small.shape, config)
            if _lattice_apart(unmoved, moved, n) > outline_cfg.same_phase:  # else a twin
                phases.append(GridFit(moved, n, 0.0))
    best = max((vouched(small, fit, witnesses, size, config, slab)
                for fit in _most_on_points(small, phases, witnesses, config)),
               key=lambda fit: fit.confidence)
    refined = vouched(small, refine(small, GridFit(best.homography, n, 0.0), cfg), witnesses,
                      size, config, slab)
    alike = _lattice_apart(best.homography, refined.homography, n) <= outline_cfg.same_phase \
        and refined.confidence >= best.confidence - outline_cfg.phase_rows / n
    return refined if refined.confidence > best.confidence or alike else best


def _lattice_apart(a: np.ndarray, b: np.ndarray, n: int) -> float:
    """How far apart the grids ``a`` and ``b`` (homographies of ``n``-line lattices to the
    same picture) lie, in cells of ``a``: the largest lattice offset, along either axis,
    of one of ``b``'s four corners from ``a``'s."""
    corners = np.array([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]], float)
    seen = grid.apply(np.linalg.inv(a) @ b, corners)
    return float(np.abs(seen - corners).max())


def _through_stones(h: np.ndarray, stones: np.ndarray, n: int, shape: tuple[int, ...],
                    config: VisionConfig) -> np.ndarray:
    """The grid ``h`` (of ``n`` lines, within half a cell or so of the board's) refitted to
    the black stones' centres ``stones`` (k, 2): each taken back by its lift
    (`lift_shift`) to the point it lies nearest, the homography fitted by least squares to
    those within ``config.outline.stone_pushed`` cell of it, ``config.locate.refine_passes``
    times (with ``config.locate.refine_min_points`` such stones at least).
    Stones are pushed off their points at random; a hundred of them place the lattice far
    better than a profile's peaks."""
    for _ in range(config.locate.refine_passes):
        lift = lift_shift(h, shape, n, config.stones.stone_lift, config.stones)
        q = grid.apply(np.linalg.inv(h), stones)
        near = np.rint(q)
        on = (near >= 0).all(axis=1) & (near <= n - 1).all(axis=1)
        if on.sum() < config.locate.refine_min_points:
            break
        at = near[on].astype(int)
        seen = q[on] - lift[at[:, 1] * n + at[:, 0]]
        # Least squares over every stone near its point: their pushes average out.
        close = np.abs(seen - near[on]).max(axis=1) < config.outline.stone_pushed
        if close.sum() < config.locate.refine_min_points:
            break
        found, _ = cv2.findHomography(near[on][close], seen[close], 0)
        if found is None or abs(found[2, 2]) < 1e-12:
            break
        refit = h @ (found / found[2, 2])
        if not grid.shows(refit):
            break  # stones along one line: they place no lattice, and the grid stays
        h = refit / refit[2, 2]
    return h


def net_judged(image: np.ndarray, to_full: np.ndarray, weighed: list[GridFit],
               fit: GridFit | None, config: VisionConfig,
               stones: tuple[np.ndarray, np.ndarray] | None = None,
               size: int | None = None) -> tuple[GridFit | None, bool]:
    """The grid ``fit`` that the lines and stones chose, or another, as the point net
    (`vision.point_net`) believes them (`belief`): of the most confident of the grids
    ``weighed`` (`LocateConfig.net_looks` of them, no two one grid) and, where ``stones``
    (the working image and the black stones' centres in it) are given, of those with the
    most of those stones on their points (`LocateConfig.net_stone_looks` more), all in the
    working image's pixels (``to_full`` maps them to ``image``'s), and each moved a line either way
    along either axis (one look at a grid serves its moves), the one it believes most where
    that is another than ``fit`` and believed by `LocateConfig.net_over` more, with that
    belief as its confidence; else ``fit`` with its confidence raised to the net's belief
    in it where that is higher. A belief under `LocateConfig.net_trusted` counts for
    nothing by itself. But where it trusts none and ``stones`` are given, each grid
    looked at, moved to where the net believes it most, is also `vouched` for by the
    stones with the net saying where it ends (`_net_ends`): a grid so vouched for more
    than ``fit`` is taken instead (its confidence given to ``fit`` where they are one
    grid). (Where the net trusts a grid, its pick stands: refined on the lines where it
    lies off them, it is placed better than a grid the stones fitted.) ``size``
    is the board size asked for, if any. None where nothing was weighed, or nothing the
    net trusts and no ``fit``. With it, whether the grid returned is one weighed moved a
    line (not a grid weighed).

    A crowded board hides its lines and its stones stand off their points: the lines
    barely tell the board's grid from one a line off, or from a patch of it, and may score
    them all under what a board must; the net, taught what an intersection looks like
    under a stone or bare and what lies beyond a board's outer lines, tells them apart.
    Under a strong lamp or exposure it is unsure of every point, and of the board's grid
    too, yet still believes it far more than the grid a line off; the stones fix the
    lattice but, leaving a side free, not where it ends. Each says what the other cannot."""
    assert config.point_net is not None
    cfg, net = config.locate, config.point_net
    wide = dataclasses.replace(net, margin=net.margin + 1)
    lift = config.stones.stone_lift
    kept: list[GridFit] = [] if fit is None else [fit]

    def look_at(ranked: list[GridFit], looks: int) -> None:
        for other in ranked:
            if len(kept) >= looks:
                break
            if other.size in config.sizes and not any(same_grid(k, other) for k in kept):
                kept.append(other)

    look_at(sorted(weighed, key=lambda f: -f.confidence), cfg.net_looks)
    if stones is not None and cfg.net_stone_looks > 0:
        small, centres = stones
        shares = [on_points(small, other, centres, config) for other in weighed]
        look_at([weighed[k] for k in np.argsort(-np.array(shares), kind="stable")],
                len(kept) + cfg.net_stone_looks)
    if not kept:
        return None, False
    believed: list[tuple[float, GridFit, bool]] = []  # with whether it was moved
    # each grid looked at, with the net's belief in it moved by each shift and so moved
    looked: list[tuple[GridFit, dict[tuple[int, int], tuple[float, GridFit]]]] = []
    in_fit = 0.0  # the net's belief in ``fit`` as it stands
    for other in kept:
        h = to_full @ other.homography
        if not grid.shows(h):
            continue
        seen = look(image, h / h[2, 2], other.size, wide, camera=config.stones)
        moves: dict[tuple[int, int], tuple[float, GridFit]] = {}
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                moved = other if di == dj == 0 else \
                    GridFit(grid.shifted(other.homography, di, dj), other.size, 0.0)
                sure = belief(seen, lift, (di, dj))
                moves[di, dj] = sure, moved
                believed.append((sure, moved, moved is not other))
                if moved is fit:
                    in_fit = sure
        looked.append((other, moves))
    pick, pick_moved = _net_pick(believed, fit, in_fit, cfg)
    if stones is None or any(b[0] >= cfg.net_trusted for b in believed):
        return pick, pick_moved  # no stones, or the net sure of a grid by itself
    ended: list[GridFit] = []  # grids the stones follow and the net says where they end
    for other, moves in looked:
        beliefs = {shift: sure for shift, (sure, _) in moves.items()}
        start = moves[max(beliefs, key=lambda d: beliefs[d])][1]
        ended.append(vouched(stones[0], start, stones[1], size, config,
                             net_ends=_net_ends(other.homography, beliefs)))
    surest = max(ended, key=lambda f: f.confidence, default=None)
    if surest is None or (pick is not None and surest.confidence <= pick.confidence):
        return pick, pick_moved
    if pick is not None and same_grid(pick, surest):
        return GridFit(pick.homography, pick.size, surest.confidence), pick_moved
    return surest, not any(same_grid(k, surest) for k in kept)


def _net_pick(believed: list[tuple[float, GridFit, bool]], fit: GridFit | None,
              in_fit: float, cfg: LocateConfig) -> tuple[GridFit | None, bool]:
    """Of the grids ``believed`` (the net's belief in each, the grid, whether it is one
    weighed moved a line), the one `net_judged` takes by the net's belief alone: the most
    believed where that is `LocateConfig.net_trusted` or more and `LocateConfig.net_over`
    more than ``in_fit``, the belief in ``fit``; else ``fit``, its confidence raised to
    ``in_fit`` where that is trusted."""
    trusted = [b for b in believed if b[0] >= cfg.net_trusted]
    if not trusted:
        return fit, False
    sure, best, shifted = max(trusted, key=lambda b: b[0])
    if fit is None or (best is not fit and sure >= in_fit + cfg.net_over):
        return GridFit(best.homography, best.size, sure), shifted
    if in_fit < cfg.net_trusted:
        return fit, False
    return GridFit(fit.homography, fit.size, max(fit.confidence, in_fit)), False


def _net_ends(looked: np.ndarray, beliefs: dict[tuple[int, int], float]
              ) -> Callable[[GridFit, np.ndarray], float]:
    """How clearly the point net says a grid ends where it does at its open ends, as
    `vouched` asks it (`vision.grid_score.slab_chooses` says it from the slab): given the
    net's ``beliefs`` in the grid ``looked`` moved by each (columns, rows) shift within a
    line, the least, over the open ends, of how much more it believes the grid (``looked``
    moved by whole lines, as `vouched` moves it) than the grid moved a line inwards from
    that end; 0 where it did not weigh one of those moves. A grid a line off has a row of
    points beyond the board's outer line, or a row of the board's own points beyond its
    own: the net, taught both, tells them apart where the stones cannot."""
    def ends(fit: GridFit, open_ends: np.ndarray) -> float:
        at = grid.apply(np.linalg.inv(looked) @ fit.homography, np.zeros((1, 2)))[0]
        here = (int(np.rint(at[0])), int(np.rint(at[1])))
        clear = 1.0
        for axis, end in zip(*np.nonzero(open_ends)):
            step = 1 if end == 0 else -1
            inward = (here[0] + step * (axis == 0), here[1] + step * (axis == 1))
            if here not in beliefs or inward not in beliefs:
                return 0.0
            clear = min(clear, beliefs[here] - beliefs[inward])
        return float(np.clip(clear, 0.0, 1.0))
    return ends


def _refined_in_phase(small: np.ndarray, fit: GridFit, cfg: LocateConfig) -> GridFit:
    """``fit`` `refine`d to the lines of ``small``, unless that takes it to another grid
    (`same_grid` in neither lattice: a point of it half a cell or more from its own, so
    nearer another intersection, and which intersection each point is is not the lines'
    call): then ``fit`` as it is. (In either lattice: seen steeply, a grid askew has its
    far cells too small or too large, and a point refined half of one of its cells away
    may lie less than half of the board's from it.)"""
    refined = refine(small, fit, cfg)
    return refined if same_grid(fit, refined) or same_grid(refined, fit) else fit


def line_image(image: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The uint8 grey image (H, W) of ``image`` (BGR, BGRA or grey) that the grid's lines are
    looked for in: `to_gray`, unless the exposure clipped the board's wood in grey or in
    one colour channel (``cfg.clipped_board`` or more of the picture's middle,
    ``cfg.board_window``, at ``cfg.ceiling``). Then the lines' ink may be gone from the
    grey too, but a sensor clips each channel on its own: the channel that has the least
    of the middle at the ceiling (less than the grey or the most clipped channel has) may
    still record it, and is the image where it shows
    ``cfg.channel_lines`` times as much line there as the grey does, or where the grey
    clipped so that its lines form no net (`_net`) and the channel's do. Which channel that is
    depends on the wood and the light, so it is chosen by how much each clips, never by
    name. Where every channel lost the wood the grey lost (``cfg.all_clipped``), the lines
    are dips under a plateau at the ceiling: `ceiling_dips` of the least clipped channel at
    each pixel is weighed against the grey alike. Raises ValueError when
    ``image`` is not an image."""
    return _line_choice(image, cfg)[0]


def _line_choice(image: np.ndarray, cfg: LocateConfig
                 ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """`line_image` of ``image``, and its `working_image` where choosing it made that
    already (None where it did not)."""
    gray = to_gray(image)
    if image.ndim == 2:
        return gray, None
    clipped = share_at(_middle(gray, cfg), cfg.ceiling)
    middle = _middle(image, cfg)[:, :, :3]
    shares = np.array([share_at(channel, cfg.ceiling) for channel in cv2.split(middle)])
    most = max(clipped, float(shares.max()))  # the grey, or a channel the grey mixes in
    if most < cfg.clipped_board:
        return gray, None
    least = int(np.argmin(shares))
    others = []
    if shares[least] < most:  # a channel kept more of the board than the grey or another
        others.append(np.ascontiguousarray(image[:, :, least]))
    if clipped >= cfg.clipped_board and not _saved_in_grey(middle):
        # The grey lost the wood: did every channel lose it at the same pixels?
        darkest = np.min(image[:, :, :3], axis=2)  # the least clipped channel at each pixel
        if share_at(_middle(darkest, cfg), cfg.ceiling) >= cfg.all_clipped * clipped:
            others.append(ceiling_dips(darkest, cfg))  # no channel kept what the grey lost
    if not others:
        return gray, None
    grey_work = working_image(gray, cfg)
    enough = cfg.channel_lines * _lines_shown(grey_work[0], cfg)
    works: list[tuple[np.ndarray, np.ndarray]] = []
    for other in others:
        works.append(working_image(other, cfg))
        if _lines_shown(works[-1][0], cfg) >= enough:
            return other, works[-1]
    if clipped >= cfg.clipped_board and _net(grey_work[0], cfg) is None:
        # The share of line counts the slab's edges and the table's grain as well, so a
        # channel that kept the ink may show little more of it than the grey. The grid's
        # own lines decide then: where the grey lost them to its own ceiling, so that they
        # form no net in it, the channel where they do is the image they are looked for
        # in. (A grey under its ceiling lost no ink there: its lines are as they were.)
        for other, work in zip(others, works):
            if _net(work[0], cfg) is not None:
                return other, work
    return gray, grey_work  # the grey's lines stood out of the clipped wood as well


def _saved_in_grey(image: np.ndarray) -> bool:
    """Whether the three channels of ``image`` (H, W, 3) are one: a photo saved in grey,
    whose channels cannot tell what each of them clipped."""
    return bool(np.array_equal(image[:, :, 0], image[:, :, 1])
                and np.array_equal(image[:, :, 1], image[:, :, 2]))


def ceiling_dips(channel: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """``channel`` (H, W uint8) with the levels just under the sensor's ceiling spread
    apart: a level ``v`` becomes ``255 (v / 255) ** g``, ``g`` the gain
    ``cfg.line_offset / cfg.ceiling_noise``. Where the exposure took the wood to the
    ceiling, the ink of a line is a dip under that plateau, shallower than on wood that
    kept its contrast; a plateau has no noise but the ceiling's own rounding, so a dip of
    ``ceiling_noise`` levels under it is as sure a line as one of ``line_offset`` on
    unclipped wood, and leaves the ceiling by ``line_offset`` levels here. Lower levels
    are pressed together but keep their order (the stones stay dark, the slab light)."""
    gain = cfg.line_offset / cfg.ceiling_noise
    table = 255.0 * (np.arange(256) / 255.0) ** gain
    out: np.ndarray = cv2.LUT(np.ascontiguousarray(channel),
                              np.clip(np.round(table), 0, 255).astype(np.uint8))
    return out


def _middle(image: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The middle of ``image`` (H, W[, C]): ``cfg.board_window`` of its height and width."""
    h, w = image.shape[:2]
    mh, mw = (round(side * (1.0 - cfg.board_window) / 2) for side in (h, w))
    return image[mh:h - mh, mw:w - mw]


def _lines_shown(small: np.ndarray, cfg: LocateConfig) -> float:
    """The share of the middle (`_middle`) of the working image ``small`` that `line_mask`
    marks as line."""
    return float(np.mean(_middle(line_mask(small, cfg), cfg) > 0))


def working(image: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, np.ndarray]:
    """`working_image` of ``image``'s `line_image`: the picture the grid is looked for in,
    and the map from its pixels to ``image``'s. Raises ValueError when ``image`` is not an
    image."""
    chosen, work = _line_choice(image, cfg)
    return working_image(chosen, cfg) if work is None else work


def locate(image: np.ndarray, size: int | None = None,
           config: VisionConfig = VISION, *,
           work: tuple[np.ndarray, np.ndarray] | None = None) -> GridFit:
    """The grid of the Go board in ``image`` (BGR or grey, uint8), in its own pixels.

    ``size`` (one of ``config.sizes``) skips the size decision; ``config`` is handed to
    every stage; ``work``, where given, is ``working(image, config.locate)`` already made.
    Raises BoardNotFound with the reason when no grid is found, ValueError when ``image``
    is not an image or ``size`` not a board size."""
    if size is not None and size not in config.sizes:
        raise ValueError(f"board size must be one of {config.sizes}, got {size!r}")
    cfg = config.locate
    small, to_full = working(image, cfg) if work is None else work
    net = _net(small, cfg)
    fit = None if net is None else \
        _fit_from(small, outer_quad(net, cfg), size, size, config, cfg.net_reach)
    doubtful = [] if fit is None else [fit]
    weighed: list[GridFit] = list(doubtful)  # every grid weighed, for the point net
    found: BlackStones | None = None  # the black stones, where the lines leave it in doubt
    doubted = fit is None or fit.confidence < cfg.recheck_below
    settled: GridFit | None = None  # a grid weighed against its refinement already
    if doubted:
        for other in _other_fits(small, net, fit, size, config):
            doubtful.append(other)
            if fit is None or other.confidence > fit.confidence:
                fit = other
            if fit.confidence >= cfg.recheck_below:
                break  # as sure as a first grid that needs no second look
        weighed = list(doubtful)
    if fit is None or fit.confidence < cfg.recheck_below:
        # For boards so crowded the lines hide: the stones may vouch for any of the grids
        # the lines gave (the lines there barely tell them apart), and their lattice starts
        # grids of its own, which they may vouch for too, and any of which may sit better
        # on the lines.
        dark = dark_centres(small, cfg)
        found = _framed_stones(dark, small.shape, config)
        if found is not None:
            for other in doubtful:
                other = vouched(small, other, found.centres, size, config)
                weighed.append(other)
                if fit is None or other.confidence > fit.confidence:
                    fit = other
        # The slab of wood and its four edges (`vision.outline`), as a person finds a board.
        slabs = _slab_fits(image, small, to_full, found, size, config) \
            if fit is None or fit.confidence < cfg.recheck_below else iter(())
        by_stones = False
        for other, placed in slabs:
            weighed.append(other)
            if fit is None or other.confidence > fit.confidence:
                fit, by_stones = other, placed
                settled = other if placed else None  # `_stones_placed` weighed it so
            if fit.confidence >= cfg.recheck_below:
                break  # as sure as a first grid that needs no second look
        if dark is not None and found is not None and (
                fit is None or fit.confidence < cfg.recheck_below or by_stones):
            # A grid the stones placed inside the slab is weighed against the stones'
            # own lattice, which fits every stone's centre over the whole board; where
            # they vouch alike the lattice is kept, as the finer of the two.
            # Its lattice starts from every dark centre; only the framed ones vouch.
            stones = _stone_fit(small, dark, found.centres, size, config)
            weighed += [] if stones is None else [stones]
            if stones is not None and (fit is None or stones.confidence > fit.confidence
                                       or (by_stones and stones.confidence >= fit.confidence)):
                fit = stones
    moved = False  # whether the grid is one weighed moved a line by the point net
    if (fit is None or fit.confidence < cfg.recheck_below) and config.point_net is not None \
            and cfg.net_looks > 0:
        # Lines and stones leave it in doubt: the point net looks at the grids weighed.
        fit, moved = net_judged(image, to_full, weighed, fit, config,
                                None if found is None else (small, found.centres), size)
        settled = None  # whatever the net returns is refined below, a grid it kept too
    if fit is not None and doubted and fit is not settled:
        # The net, the stones or the lines' other starts tell which grid it is, not where
        # exactly its lines run: the lines do, where they show (its far corners, seen
        # steeply), though not which intersection each point is. A grid weighed moved a
        # line lies over lines it was not fitted to. A grid weighed was refined, but seen
        # steeply its far rows may still lie off their lines when the refining passes ran
        # out (a grid the stones vouched for, 0.4 of a cell off at a far corner); one the
        # lines put within their inlier threshold of where it lies is on them already.
        refined = _refined_in_phase(small, fit, cfg)
        if moved or _lattice_apart(fit.homography, refined.homography,
                                   fit.size) > cfg.inlier_threshold:
            fit = GridFit(refined.homography, fit.size, fit.confidence)
    if fit is None:
        raise BoardNotFound(f"no net of lines enclosing at least {cfg.min_holes} alike cells, "
                            "no two families of straight lines, and no lattice of stones")
    if fit.confidence < cfg.min_confidence:
        raise BoardNotFound(f"grid lines too weak to trust (confidence {fit.confidence:.2f})")
    h = grid.upright(to_full @ fit.homography, fit.size)
    return GridFit(h, fit.size, fit.confidence)
