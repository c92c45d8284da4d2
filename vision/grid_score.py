"""Scoring of a grid candidate: how well its lattice sits on the lines (`lattice_score`), how
far the grid goes on past its outer lines (`edge_shares`, `runs_on`), the two weighed into a
`confidence`, and how well the black stones vouch for a grid the lines barely tell apart
from its neighbours (`vouched`); and, once a grid is found, what speaks against it being the
board's whole grid (`board_doubts`), which lowers the board confidence `read_board` reports
(`trusted`) without changing which grid is found."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import cv2
import numpy as np

from . import grid
from .config import LocateConfig, VisionConfig
from .grid import GridFit, lift_shift
from .grid_candidates import line_mask, straight_parts, thin_lines
from .outline import Outline
from .stone_lattice import stones_reach


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


def lattice_score(gray: np.ndarray, fit: GridFit, cfg: LocateConfig) -> float:
    """How well the lattice of ``fit`` sits on the lines of ``gray``, in [0, 1]: in a view
    rectified by its homography, the profile of the thin straight lines on the lattice lines
    less its mean ``cfg.between`` them (a half, third or quarter of the way), over the
    profile's spread, divided by ``cfg.score_scale``. (The mean, not the highest as in
    `comb_fit`: the size is decided by now, and stone rims between lines must not sink a
    good grid.) Lowered where two of
    its outer lines are drawn less than ``cfg.outer_drawn`` as plainly as the inner lines:
    a board's edge lines are drawn, and a lattice of every other line running past the
    board's edges fits half its lines as well as a board's grid does."""
    n, c = fit.size, cfg.grow_cell
    rect = _rectified(gray, fit, c, 1)
    length = int(cfg.score_straight * c)
    horiz, vert = straight_parts(thin_lines(line_mask(rect, cfg), cfg), length, cfg)
    lines = c * (np.arange(n) + 1.0)
    xs = np.arange(rect.shape[0], dtype=np.float64)
    scores: list[float] = []
    outer: list[float] = []
    for part, axis in ((vert, 0), (horiz, 1)):
        prof = cv2.GaussianBlur(part.mean(axis=axis)[None, :], (0, 0), cfg.score_blur).ravel()
        on = np.interp(lines, xs, prof)
        off = np.mean([np.interp(lines[:-1] + f * c, xs, prof).mean() for f in cfg.between])
        scores.append((on.mean() - off) / (float(np.std(prof)) + 1e-9))
        inner = max(float(np.median(on[1:-1])), 1e-9)
        outer += [float(on[0]) / inner, float(on[-1]) / inner]
    # The second weakest: seen steeply, the far edge line may be thinner than a pixel.
    weak = float(np.sort(outer)[1])
    drawn = float(np.clip((weak + 1e-9) / (cfg.outer_drawn + 1e-9), 0.0, 1.0))  # 0: off
    return float(np.clip(min(scores) / cfg.score_scale, 0.0, 1.0)) * drawn


def edge_shares(gray: np.ndarray, fit: GridFit, cfg: LocateConfig,
                thin: bool = False) -> np.ndarray:
    """How far the grid goes on past each outer line of ``fit``: (2, 2), indexed by lattice
    axis (0: past the lines i = 0 and i = n - 1; 1: j = 0 and j = n - 1) and end. Each is
    the lattice's lines drawn across the cell beyond that outer line, as a share of how they
    are drawn across its inner cells: near 0 where the board's grid ends, near 1 where it
    goes on. With ``thin``, only `thin_lines` count: not the stones, whose bodies lean past
    the far edge of a board seen steeply."""
    return _shares(_View.of(gray, fit, cfg, thin), cfg)


@dataclasses.dataclass(frozen=True)
class _View:
    """``fit``'s lattice rectified (`_rectified`, ``grow_cell`` px a cell, two cells around
    it, black outside the picture): the grey ``rect``, its straight ``horiz`` and ``vert``
    line parts (of `thin_lines` only with ``thin``) and, if asked for, where the picture
    ``shows`` (else None)."""

    size: int
    rect: np.ndarray
    horiz: np.ndarray
    vert: np.ndarray
    shows: np.ndarray | None

    @classmethod
    def of(cls, gray: np.ndarray, fit: GridFit, cfg: LocateConfig, thin: bool,
           shows: bool = False) -> _View:
        c = cfg.grow_cell
        rect = _rectified(gray, fit, c, 2, cv2.BORDER_CONSTANT)
        seen = None if not shows else _rectified(
            np.full(gray.shape[:2], 255, np.uint8), fit, c, 2, cv2.BORDER_CONSTANT) > 128
        mask = line_mask(rect, cfg)
        horiz, vert = straight_parts(thin_lines(mask, cfg) if thin else mask,
                                     int(cfg.score_straight * c), cfg)
        return cls(fit.size, rect, horiz, vert, seen)


def _shares(view: _View, cfg: LocateConfig) -> np.ndarray:
    """`edge_shares` of a `_View`."""
    n, c = view.size, cfg.grow_cell
    horiz, vert = view.horiz, view.vert
    at = c * (np.arange(n) + 2)  # the lattice lines' pixels
    # Each line's band (3 px wide) at its most drawn, along its whole length.
    cols = np.maximum(np.maximum(vert[:, at - 1], vert[:, at]), vert[:, at + 1])  # (y, i)
    rows = np.maximum(np.maximum(horiz[at - 1, :], horiz[at, :]), horiz[at + 1, :]).T  # (x, j)
    shares = np.zeros((2, 2))
    # The lines i = const cross the gaps along j, and the other way round.
    for axis, lines in ((1, cols), (0, rows)):
        # The share of each gap between lattice positions k-1 and k (k = 0 .. n) that the
        # crossing lines draw, ``cfg.gap_clear`` cell kept clear of either end.
        clear = int(cfg.gap_clear * c)
        gaps = np.array([lines[c * (k + 1) + clear:c * (k + 2) - clear + 1].mean()
                         for k in range(n + 1)])
        inner = max(float(np.median(gaps[1:-1])), 1e-6)
        shares[axis] = gaps[0] / inner, gaps[-1] / inner
    return shares


def runs_on(gray: np.ndarray, fit: GridFit, cfg: LocateConfig) -> float:
    """How far the grid goes on past the outer lines of ``fit``, in [0, 1]: its
    `edge_shares` averaged over the four sides. Near 0 for a whole board's grid (nothing
    crosses its edge lines), large for a patch of a bigger grid or a lattice of the wrong
    size that a few lines happen to fit."""
    return float(np.mean(np.clip(edge_shares(gray, fit, cfg), 0.0, 1.0)))


def confidence(gray: np.ndarray, fit: GridFit, cfg: LocateConfig) -> float:
    """How sure we are that ``fit`` is the board's whole grid, in [0, 1]: its
    `lattice_score`, lowered by ``cfg.runs_on_weight`` times how far the grid `runs_on`
    past it."""
    lowered = lattice_score(gray, fit, cfg) * (1.0 - cfg.runs_on_weight * runs_on(gray, fit, cfg))
    return float(max(lowered, 0.0))


def vouched(small: np.ndarray, fit: GridFit, stones: np.ndarray, size: int | None,
            config: VisionConfig, slab: Outline | None = None,
            net_ends: Callable[[GridFit, np.ndarray], float] | None = None) -> GridFit:
    """``fit`` with the better of its confidence and, for a grid of ``size`` lines (if
    given), how well the black stones' centres ``stones`` vouch for it: their share on its
    points (`stones_reach`, their bodies looked for where `lift_shift` says they are seen)
    if they reach all four outer lines. If they miss one outer line of an axis, the lines
    choose between the grid and the one shifted a line off it (`_lines_choose`), and so does
    the slab of wood ``slab`` where given (its outline in ``small``'s pixels:
    `slab_chooses`), and so does the point net ``net_ends`` where given (how clearly it
    says a grid ends at the open ends given, as the other two), whichever is the clearer;
    where the lines run on past an outer line, the grid a line over that way may stand in for it
    (`_onto_running_lines`): a whole-line shift leaves nearly every stone on a point, so
    the stones cannot tell, and a board's grid ends at its outer lines. A grid of
    fewer lines than the largest of ``config.sizes``, unasked, could be a patch of a bigger
    board: the share is lowered by how far the lines run on past its outer lines
    (`edge_shares`)."""
    if fit.size != (size or fit.size):
        return fit
    cfg = config.locate
    lift = lift_shift(fit.homography, small.shape, fit.size, config.stones.stone_lift,
                      config.stones)
    share, reached = stones_reach(stones, fit.homography, fit.size, cfg, lift)
    if not reached.any(axis=1).all():
        return fit  # the stones leave an axis free by two lines or more
    ends = np.clip(edge_shares(small, fit, cfg, thin=True), 0.0, 1.0)
    fit, share, reached, ends = _onto_running_lines(small, fit, stones, (share, reached, ends),
                                                    config)
    agreement = share * max(_lines_choose(small, fit, ends, ~reached, cfg),
                            slab_chooses(fit, ~reached, slab, config),
                            0.0 if net_ends is None else net_ends(fit, ~reached))
    if size is None and fit.size < max(config.sizes):
        agreement *= 1.0 - float(ends.max())
    return GridFit(fit.homography, fit.size, max(fit.confidence, agreement))


def _onto_running_lines(small: np.ndarray, fit: GridFit, stones: np.ndarray,
                        seen: tuple[float, np.ndarray, np.ndarray], config: VisionConfig
                        ) -> tuple[GridFit, float, np.ndarray, np.ndarray]:
    """``fit`` moved a whole line towards an outer line past which its lines run on
    (thin `edge_shares` of ``LocateConfig.runs_on_shift`` or more), if the stones follow
    it (``LocateConfig.shift_share_least`` of them on its points) and the grid so moved
    ends at all four outer lines (every edge share under that), its stones reach every
    outer line and their share drops by at most ``LocateConfig.shift_share_slack``.
    ``seen`` is ``fit``'s stones' share, the outer lines they reach (`stones_reach`) and
    its edge shares clipped to [0, 1]; returns the fit (its confidence kept) with the same
    three for it, ``fit`` and ``seen`` as they were if no move is taken."""
    cfg = config.locate
    share, _, ends = seen
    if share < cfg.shift_share_least:
        return (fit, *seen)  # the stones do not follow this grid closely enough to move it
    for axis, end in zip(*np.nonzero(ends >= cfg.runs_on_shift)):
        step = 1 if end == 1 else -1
        moved = GridFit(grid.shifted(fit.homography, step * (axis == 0), step * (axis == 1)),
                        fit.size, fit.confidence)
        there = np.clip(edge_shares(small, moved, cfg, thin=True), 0.0, 1.0)
        if there.max() >= cfg.runs_on_shift:
            continue  # the moved grid runs on too: not the board's own
        lift = lift_shift(moved.homography, small.shape, fit.size, config.stones.stone_lift,
                          config.stones)
        moved_share, moved_reached = stones_reach(stones, moved.homography, fit.size, cfg,
                                                  lift)
        if moved_reached.any(axis=1).all() and moved_share >= share - cfg.shift_share_slack:
            return moved, moved_share, moved_reached, there
    return (fit, *seen)


def on_points(small: np.ndarray, fit: GridFit, stones: np.ndarray,
              config: VisionConfig) -> float:
    """The share of the black stones' centres ``stones`` (k, 2; those on the board's slab)
    that lie on one of the points of ``fit`` in the working image ``small``: within
    ``config.locate.stone_fit_residual`` cell of a point of its lattice, their bodies taken
    back by `lift_shift` first; 0 if there are none. Every stone on a board lies on a
    point, so a grid a row off leaves that row's stones past its outer line, and a grid
    squeezed to span a row too few puts stones off its points: where a row of stones hides
    its outer line (`vouched` then has the lines choose) this tells the grid's phase."""
    if len(stones) == 0:
        return 0.0
    n = fit.size
    lift = lift_shift(fit.homography, small.shape, n, config.stones.stone_lift,
                      config.stones)
    q = grid.apply(np.linalg.inv(fit.homography), stones)
    near = np.clip(np.rint(q), 0, n - 1).astype(int)
    seen = q - lift[near[:, 1] * n + near[:, 0]]
    point = np.rint(seen)
    on = ((np.abs(seen - point).max(axis=1) < config.locate.stone_fit_residual)
          & (point >= 0).all(axis=1) & (point <= n - 1).all(axis=1))
    return float(on.mean())


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


def slab_margins(h: np.ndarray, n: int, slab: Outline) -> np.ndarray:
    """How far (cells) the slab ``slab`` (its corners in the pixels of the grid ``h`` of
    ``n`` lines) reaches past each outer line of the grid, (2, 2) as `edge_shares`,
    measured in lattice units at the middle of each of the slab's sides: a side along
    which the lattice's i changes least lies across axis 0 (beyond the line i = 0 or
    i = n - 1, whichever its middle is nearer), the others across axis 1. Negative where
    the side lies inside that outer line; NaN beyond a side the picture's border cuts
    (not `Outline.seen`): that side is where the picture ends, not the board."""
    q = grid.apply(np.linalg.inv(h), slab.quad.astype(np.float64))
    out = np.full((2, 2), np.nan)
    for a, b, seen in zip(q, np.roll(q, -1, axis=0), slab.seen):
        axis = 0 if abs(b[0] - a[0]) < abs(b[1] - a[1]) else 1
        mid = (a[axis] + b[axis]) / 2.0
        end = int(mid > (n - 1) / 2.0)
        if seen:
            out[axis, end] = mid - (n - 1) if end else -mid
    return out


def _off_slab(margins: np.ndarray, axis: int, lo: float, hi: float) -> float:
    """How far (cells) the two margins of ``axis`` (`slab_margins`) lie outside [lo, hi];
    a margin not seen (NaN) counts as none."""
    m = margins[axis]
    return float(np.nansum(np.maximum(lo - m, 0.0)) + np.nansum(np.maximum(m - hi, 0.0)))


def slab_chooses(fit: GridFit, open_ends: np.ndarray, slab: Outline | None,
                 config: VisionConfig) -> float:
    """How clearly the slab of wood ``slab`` (in ``fit``'s pixels; None: no slab) says
    that ``fit`` ends where it does at its outer lines ``open_ends`` ((2, 2) booleans, as
    `edge_shares`) rather than a line further out, in [0, 1]: the least, over those ends,
    of how much further the grid shifted a line inwards from that end puts its outer lines
    of that axis outside the margins a board has (`OutlineConfig.margin`) than ``fit``
    does, over `OutlineConfig.margin_choice`, and at most `OutlineConfig.slab_trust`. A
    board's outer lines lie half a cell to a cell inside its edges on every side; a grid a
    whole line off puts one of them a line nearer its edge, on or past it. Only the slab's
    seen sides speak (`slab_margins`); with neither side of an open end's axis seen, it
    says nothing. 0 without a slab; 1 if no end is open."""
    if slab is None:
        return 0.0 if open_ends.any() else 1.0
    lo, hi = config.outline.margin
    n = fit.size
    here = slab_margins(fit.homography, n, slab)
    clear = 1.0
    for axis, end in zip(*np.nonzero(open_ends)):
        step = 1 if end == 0 else -1
        inward = grid.shifted(fit.homography, step * (axis == 0), step * (axis == 1))
        there = slab_margins(inward, n, slab)
        worse = _off_slab(there, axis, lo, hi) - _off_slab(here, axis, lo, hi)
        clear = min(clear, float(np.clip(worse / config.outline.margin_choice, 0.0,
                                         config.outline.slab_trust)))
    return clear


def _margin_greys(view: _View, cfg: LocateConfig) -> tuple[np.ndarray, float]:
    """Per side (2, 2) as `edge_shares`, the median grey of the band ``cfg.margin_band``
    beyond the grid's outer line (NaN where most of the band lies outside the picture:
    nothing to tell), and the median grey of the board's inside (at least 1)."""
    n, c = view.size, cfg.grow_cell
    assert view.shows is not None
    rect = view.rect  # (uint8: a median of grey levels is the same, and quicker to find)
    lo, hi = 2 * c + c * (n - 1), 2 * c
    inside = max(float(np.median(rect[hi:lo + 1, hi:lo + 1])), 1.0)
    a, b = int(cfg.margin_band[0] * c), int(cfg.margin_band[1] * c)
    along = slice(hi, lo + 1)
    bands = (((along, slice(hi - b, hi - a)), (along, slice(lo + a, lo + b))),
             ((slice(hi - b, hi - a), along), (slice(lo + a, lo + b), along)))
    out = np.full((2, 2), np.nan)
    for axis in (0, 1):
        for end in (0, 1):
            band, shown = rect[bands[axis][end]], view.shows[bands[axis][end]]
            if shown.mean() >= 0.5:
                out[axis, end] = float(np.median(band[shown]))
    return out, inside


def _margin_wood(greys: np.ndarray, inside: float) -> np.ndarray:
    """Per side (2, 2) as `edge_shares`, how unlike the board's own wood the band
    beyond its outer line is (``greys``, `_margin_greys`): |its grey - the inside's| over
    the inside's. Near 0 where the board's wood goes on past its outer line, as on every
    board; large where the grid's edge is the table or the floor. 0 where the band is
    not seen. (On a crowded board the inside's median is a stone's grey, not the wood's:
    right boards of crowded synthetic scenes show 0.15 to 0.4 here, hence its small
    weight.)"""
    out: np.ndarray = np.nan_to_num(np.abs(greys - inside) / inside, nan=0.0)
    return out


def _lopsided(greys: np.ndarray) -> float:
    """How unlike each other the bands beyond two opposite outer lines are (``greys``,
    `_margin_greys`), at the axis where they differ most: |one - other| over the
    brighter, in [0, 1]; 0 on an axis with a band not seen. A board is cut symmetric, its
    wood alike all round: a grid a row off has the slab's edge or the table beyond one
    outer line and wood beyond the other."""
    worst = 0.0
    for near, far in greys:
        if np.isfinite(near) and np.isfinite(far):
            worst = max(worst, abs(near - far) / max(near, far, 1.0))
    return float(worst)


@dataclasses.dataclass(frozen=True)
class BoardDoubts:
    """What speaks against a grid found being the board's whole grid, each at the grid's
    worst side, in [0, 1] (0: nothing). ``runs_past``: its lines cross on past an outer
    line (`edge_shares`, thin lines only): a grid a line or more inside the board's own, or
    a patch of a bigger board. ``margin``: the band just beyond an outer line is unlike the
    board's own wood (`_margin_wood`): a board's outer line has half a cell and more of
    wood beyond it; a grid pushed a line outwards has the table there. ``lopsided``: the
    bands beyond two opposite outer lines are unlike each other (`_lopsided`): a board is
    cut symmetric, and a grid a row off has the slab's edge or the table beyond one outer
    line and the wood beyond the other (only what is past ``cfg.lopsided_allow``, scaled
    to [0, 1]).

    (A line parallel to an outer line a cell beyond it was weighed too and left out: on
    a tenth of the right boards of the dev photos the board's edge or a bevel draws one.)"""

    runs_past: float
    margin: float
    lopsided: float = 0.0


def board_doubts(gray: np.ndarray, fit: GridFit, cfg: LocateConfig) -> BoardDoubts:
    """The `BoardDoubts` of ``fit`` in ``gray`` (the working image it was found in), from
    one rectified view."""
    view = _View.of(gray, fit, cfg, thin=True, shows=True)

    def worst(sides: np.ndarray) -> float:
        return float(np.clip(sides, 0.0, 1.0).max())
    greys, inside = _margin_greys(view, cfg)
    allow = cfg.lopsided_allow
    return BoardDoubts(worst(_shares(view, cfg)), worst(_margin_wood(greys, inside)),
                       max(0.0, _lopsided(greys) - allow) / (1.0 - allow))


def trusted(confidence: float, doubts: BoardDoubts, cfg: LocateConfig) -> float:
    """The board confidence `read_board` reports for a grid found with ``confidence``: that
    lowered by its ``doubts``, each weighed by ``cfg.doubt_weights`` (runs past, margin,
    lopsided): the confidence times (1 - weight x doubt) for each, at least 0."""
    out = confidence
    for weight, doubt in zip(cfg.doubt_weights,
                             (doubts.runs_past, doubts.margin, doubts.lopsided)):
        out *= max(0.0, 1.0 - weight * doubt)
    return float(out)


def placed_confidence(gray: np.ndarray, fit: GridFit, cfg: LocateConfig) -> float:
    """The board confidence `read_board` would report for the grid ``fit`` placed in
    ``gray`` (the working image) by the lines alone: its `confidence`, `trusted` for its
    `board_doubts`."""
    return trusted(confidence(gray, fit, cfg), board_doubts(gray, fit, cfg), cfg)


def mistaken_placements(fit: GridFit, sizes: tuple[int, ...]) -> dict[str, GridFit]:
    """The grids a board's grid ``fit`` is most easily mistaken for, by name: the same
    lattice a line off each way, and each smaller size of ``sizes`` in two opposite corners
    of it and in its middle (a patch of a bigger board)."""
    h, n = fit.homography, fit.size
    out = {f"a line off ({di:+d}, {dj:+d})": GridFit(grid.shifted(h, di, dj), n, 0.0)
           for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    for m in sizes:
        if m < n:
            for where, at in (("top left", 0), ("middle", (n - m) // 2),
                              ("bottom right", n - m)):
                out[f"{m}x{m} patch, {where}"] = GridFit(grid.shifted(h, at, at), m, 0.0)
    return out
