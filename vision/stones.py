"""Read every intersection of a located grid as empty, black or white, with a confidence.

The board is rectified from the full-resolution photo so every cell is ``cfg.cell`` pixels.
Each intersection is compared with the bare wood *around it*: the cell centres give a local
wood colour, so uneven light, gradients and shadows cancel. A stone off its point or leaning
under perspective can reach over the centres beside it, so each point is judged again
against only the centres no stone read so far touches.

- black: much darker than the local wood;
- white: lighter than the wood, or far less coloured than it (white on pale wood), decided
  in one place for every path (`_white`); lighter in the lightness, or in the colour
  channels the exposure left under the sensor's ceiling (`kept_lightness`: a lamp that
  clips the wood in a channel clips a white stone there too, and that channel hides the
  rise the others keep);
- otherwise empty;
- and whatever its colour, empty where the cross of grid lines plainly shows at the point:
  a stone hides it, a shadow or glare on bare wood does not.

Stone sets of two colours other than black and white (red and blue, say) are told apart by
colour: where the stones fall into two clusters of different tints, not grey ones darker
than the wood and others lighter, each point is read as the nearest of the wood and the two
clusters, the darker cluster black unless the player says otherwise (`_two_sets`).

A black stone off its point is still a whole dark disc a stone wide, centred nearer its
point than any other, where its neighbours in a group are centred a cell away: an empty
point with such a body of its own is read black (`off_point`).

A stone is a disc on its point: where a point looks the same as all four cell centres around
it (an object lying on the board, a hand), a stone read there is not read surely
(`flat_doubt`). Nor is a point where the wood nearest it, in the same light, tells
otherwise than the clean wood it was judged against at last (`_doubted`): a hot spot or a
patch of sunlight washes out the point and the wood beside it alike.

A reading must make sense as Go: a string with no liberties on a photographed board is a
misreading to resolve where a stone around it was read with doubt: the least certain one is
re-read as empty (`resolve_captured`). Read surely, it is a capture whose stones have not
been lifted yet, and it stays.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import cv2
import numpy as np

from rules import Cell, strings

from . import grid
from .config import LIGHT, STONES, LightConfig, PointNetConfig, StoneConfig
from .grid import lift_shift
from .illuminant import LUMA, share_at
from .point_net import HIDDEN, OFF, point_scores

EMPTY, BLACK, WHITE = Cell.EMPTY, Cell.BLACK, Cell.WHITE
"""The labels of a reading are the rules' `Cell` codes (these names are kept for callers)."""

_NEIGHBOURS = ((0, -1), (0, 1), (-1, 0), (1, 0))
"""The neighbour on the left, the right, above and below, as (rows, columns) offsets: the
order of `PointFeatures.arms` and `PointFeatures.waists`. The arm pointing away from the
neighbour ``k`` is ``k ^ 1``."""


def _beside(size: int, dy: int, dx: int) -> tuple[tuple[slice, slice], tuple[slice, slice]]:
    """The points of a (size, size) board that have a neighbour ``dy`` rows and ``dx``
    columns off, and those neighbours, as two pairs of slices."""
    h, w = size - abs(dy), size - abs(dx)
    here = (slice(max(0, -dy), max(0, -dy) + h), slice(max(0, -dx), max(0, -dx) + w))
    there = (slice(max(0, dy), max(0, dy) + h), slice(max(0, dx), max(0, dx) + w))
    return here, there


@dataclasses.dataclass(frozen=True)
class PointFeatures:
    """What a photo shows at every intersection and between them, on OpenCV's 0..255 Lab
    scale. Per intersection (size, size), row 0 at the top: ``light`` and ``chroma`` where
    a stone there would be seen (see `lift_shift`), and ``lines``, how plainly the cross of
    grid lines shows at the point itself (see `line_contrast`). Per cell centre, one row
    and column beyond the grid too (size + 1, size + 1): ``centre_light`` and
    ``centre_chroma``, bare wood wherever no stone reaches over it. ``tint`` and
    ``centre_tint`` (the same shapes, 2 more at the end) are the colour's (a, b), 0 grey.
    ``arms`` (size, size, 4): how plainly each arm of the cross shows, towards the left, the
    right, the top and the bottom (see `arm_contrast`); ``waists`` (size, size, 4): how the
    dark joins each point to its neighbour on the left, the right, above and below (see
    `dark_waists`). ``smooth`` is the rectified lightness itself, blurred (see `_smooth`;
    intersection (i, j) at pixel ``cell * (i + 1, j + 1)``), and ``points`` (size, size,
    2) where each point's stone would be seen in it (px; see `lift_shift`)."""

    light: np.ndarray
    chroma: np.ndarray
    lines: np.ndarray
    centre_light: np.ndarray
    centre_chroma: np.ndarray
    tint: np.ndarray
    centre_tint: np.ndarray
    arms: np.ndarray
    waists: np.ndarray
    smooth: np.ndarray
    points: np.ndarray
    clipped: float = 0.0
    """The largest share of the board's picture (the grid and a cell's margin around it)
    that any one colour channel has at the sensor's ceiling (`LightConfig.clip_level`)."""
    kept_light: np.ndarray | None = None
    """Where the exposure took a colour channel of the board's wood to the sensor's ceiling
    (and not all three): ``light`` (size, size) seen in the channels it left under it
    (`kept_lightness`); None where it took none, or all."""
    kept_centre_light: np.ndarray | None = None
    """``centre_light`` (size + 1, size + 1) seen so, where ``kept_light`` is."""
    left_clipped: np.ndarray | None = None
    """Where ``kept_light`` is: the cell centres (size + 1, size + 1) at the ceiling in
    every channel it leaves out."""
    lightness: np.ndarray | None = None
    """The rectified lightness (uint8) that ``smooth`` blurs (`smoothed`): an eighth of its
    bytes, it is what a stored reading keeps (`benchmarks/vision_replay.py`)."""

    @property
    def level(self) -> float:
        """The board's wood lightness: the median of the cell centres inside the grid."""
        return float(np.median(self.centre_light[1:-1, 1:-1]))


def rectify(image: np.ndarray, homography: np.ndarray, size: int,
            cfg: StoneConfig = STONES) -> np.ndarray:
    """The board in ``image`` warped so that intersection (i, j) lies at pixel
    ``cell * (i + 1, j + 1)``; shape ((size + 1) * cell, (size + 1) * cell[, channels])."""
    c = cfg.cell
    to_rect = np.array([[c, 0, c], [0, c, c], [0, 0, 1]], dtype=np.float64)
    warp = to_rect @ np.linalg.inv(homography)
    side = (size + 1) * c
    return cv2.warpPerspective(image, warp, (side, side), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def _discs(shape: tuple[int, ...], centres: np.ndarray, radius: float) -> np.ndarray:
    """The pixels of a disc of ``radius`` px at each of ``centres`` (n, 2) in a plane of
    ``shape`` (those past its border moved onto it): flat indexes (row * width + column),
    (n, m), to take from the plane raveled. A disc is symmetric about its centre pixel, so
    ``m`` is odd."""
    r = max(1, int(round(radius)))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    disc = (xx ** 2 + yy ** 2) <= r * r
    oy, ox = yy[disc], xx[disc]
    cx = np.clip(np.round(centres[:, 0]).astype(int)[:, None] + ox[None, :], 0, shape[1] - 1)
    cy = np.clip(np.round(centres[:, 1]).astype(int)[:, None] + oy[None, :], 0, shape[0] - 1)
    out: np.ndarray = cy * shape[1] + cx
    return out


_AB = np.arange(256, dtype=np.float64) - 128.0
_CHROMA_LEVELS, _CHROMA_RANK = np.unique(np.hypot(_AB[:, None], _AB[None, :]),
                                         return_inverse=True)
"""Every chroma a pixel of OpenCV's 8-bit Lab can have (the hypotenuse of its a and b, the
same float as computed pixel by pixel), in order, and the rank among them of each (a, b)
byte pair (256, 256): pixels compared by rank are compared by chroma."""
_CHROMA_RANK = _CHROMA_RANK.reshape(256, 256).astype(np.uint16)


def _middle_pair(values: np.ndarray, levels: int | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Each row's two middle values of ``values`` (n, m; integers in 0 .. ``levels`` - 1):
    the one ranked (m - 1) // 2 and the one ranked m // 2 from the smallest, each (n,), one
    and the same where ``m`` is odd; their mean is the median. With ``levels`` the values
    are counted rather than sorted, many times cheaper for bytes."""
    n, m = values.shape
    ranks = ((m - 1) // 2, m // 2)
    if levels is None:
        part = np.partition(values, ranks, axis=1)
        return part[:, ranks[0]], part[:, ranks[1]]
    # The value ranked k (from 0) is the count of levels with k values or fewer at or under.
    at = values + (np.arange(n) * levels)[:, None]
    under = np.bincount(at.ravel(), minlength=n * levels).reshape(n, levels).cumsum(axis=1)
    return (under <= ranks[0]).sum(axis=1), (under <= ranks[1]).sum(axis=1)


def _median(lo: np.ndarray, hi: np.ndarray, shift: float = 0.0) -> np.ndarray:
    """The median from the two middle values (`_middle_pair`), less ``shift``, to the bit as
    `np.median` of the values less ``shift`` gives it."""
    out: np.ndarray = ((lo - shift) + (hi - shift)) / 2
    return out


def _disc_medians(lab: np.ndarray, discs: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The median lightness, chroma, a and b (each (n,); a and b 0 for grey) of the Lab
    picture ``lab`` (uint8, OpenCV's scale) over each of the ``discs`` (`_discs`): the
    median, so the cross of grid lines on an empty point (under half the disc) is ignored.
    Only the discs' pixels are looked at, not the whole picture."""
    light, a, b = (np.take(plane.ravel(), discs) for plane in cv2.split(lab))
    # Chroma rises with the rank: the middle chromas are those of the middle ranks.
    lo, hi = _middle_pair(_CHROMA_RANK[a, b])
    return (_median(*_middle_pair(light, 256)),
            _median(_CHROMA_LEVELS[lo], _CHROMA_LEVELS[hi]),
            _median(*_middle_pair(a, 256), 128.0), _median(*_middle_pair(b, 256), 128.0))


def _arm_profiles(smooth: np.ndarray, size: int,
                  cfg: StoneConfig) -> list[tuple[np.ndarray, np.ndarray]]:
    """Profiles across each grid line on its two short arms from every point of the
    rectified lightness, blurred (``smooth``, `_smooth`), averaged along the arm: for the
    horizontal line then the vertical one, the arm before the point (left, up) and the one
    after it (right, down), each (points, profile length)."""
    c = cfg.cell
    lo, hi = int(round(cfg.line_arm[0] * c)), int(round(cfg.line_arm[1] * c))
    band = max(cfg.line_band_min, int(round(cfg.line_band * c)))
    arm = np.arange(lo, hi + 1)
    across = np.arange(-band, band + 1)
    lat = grid.lattice(size)
    x0 = (c * (lat[:, 0] + 1)).astype(int)
    y0 = (c * (lat[:, 1] + 1)).astype(int)

    def profiles(sign: int, axis: int) -> np.ndarray:
        ys, xs = across[None, :, None], sign * arm[None, None, :]
        if axis == 1:
            ys, xs = xs, ys
        out: np.ndarray = smooth[y0[:, None, None] + ys, x0[:, None, None] + xs].mean(axis=2)
        return out

    return [(profiles(-1, axis), profiles(1, axis)) for axis in (0, 1)]


def smoothed(lightness: np.ndarray, cfg: StoneConfig = STONES) -> np.ndarray:
    """``PointFeatures.smooth`` of the rectified ``lightness`` (uint8): `_smooth` of it."""
    return _smooth(lightness.astype(np.float64), cfg)


def _smooth(light: np.ndarray, cfg: StoneConfig) -> np.ndarray:
    """The rectified lightness blurred over ``cfg.line_smooth`` px: a line of the rectified
    board is 1 to 2 px wide, and its profile should not hang on one pixel's noise."""
    k = cfg.line_smooth
    out: np.ndarray = cv2.GaussianBlur(light, (k, k), 0)
    return out


def _valley(profile: np.ndarray, side: int) -> np.ndarray:
    """How far the middle of each profile (points, length) dips below *both* its sides (the
    ``side`` px at each end), in grey levels: a line, not a step such as a stone's edge."""
    sides = np.minimum(profile[:, :side].mean(axis=1), profile[:, -side:].mean(axis=1))
    out: np.ndarray = sides - profile[:, side:-side].min(axis=1)
    return out


def line_contrast(light: np.ndarray, size: int, cfg: StoneConfig = STONES,
                  lift: np.ndarray | None = None) -> np.ndarray:
    """How plainly the grid lines cross at each intersection of the rectified lightness
    ``light`` (intersection (i, j) at pixel ``cell * (i + 1, j + 1)``), in grey levels;
    (size, size), row 0 at the top.

    Each line is looked at on its two short arms from the point (``cfg.line_arm`` cells out),
    across a band ``cfg.line_band`` cells wide: the line is a valley in that profile, lower
    than *both* its sides (so a stone's edge, a step, is no line). The weaker of the two
    lines counts. A stone hides both arms; a shadow or glare on bare wood hides neither.

    ``lift`` (size*size, 2; see `lift_shift`): under an oblique camera a stone's body leans
    away from the camera, and the board under its curved underside shows on the near side
    of its point. Where the lift along a line is ``cfg.line_lean`` cell or more, only the
    arm it leans over is looked at; not on the board's outer lines, where that arm may run
    off the board (a stone on the edge is often put off its point, outwards)."""
    return _cross(_arm_profiles(_smooth(light, cfg), size, cfg), size, cfg, lift)


def _cross(profiles: list[tuple[np.ndarray, np.ndarray]], size: int, cfg: StoneConfig,
           lift: np.ndarray | None) -> np.ndarray:
    """`line_contrast` from the `_arm_profiles`."""
    lat = grid.lattice(size)
    lean = np.zeros((size * size, 2)) if lift is None else lift
    lines = []
    for axis, (before, after) in enumerate(profiles):
        leaning = lean[:, axis:axis + 1]
        # On the outer lines one arm runs off the board: both are still looked at.
        inner = (lat[:, axis:axis + 1] > 0) & (lat[:, axis:axis + 1] < size - 1)
        lines.append(_valley(np.where(inner & (leaning <= -cfg.line_lean), before,
                                      np.where(inner & (leaning >= cfg.line_lean), after,
                                               (before + after) / 2.0)), cfg.line_sides))
    out: np.ndarray = np.minimum(lines[0], lines[1]).reshape(size, size)
    return out


def arm_contrast(light: np.ndarray, size: int, cfg: StoneConfig = STONES,
                 lift: np.ndarray | None = None, wood: np.ndarray | None = None) -> np.ndarray:
    """How plainly each of the four arms of the cross of lines shows at every intersection
    of the rectified lightness ``light``, in grey levels: (size, size, 4), the arms towards
    the left, the right, the top and the bottom of the board. A stone on the point hides all
    four; a shadow cast over the point from a stone beside it leaves the arm pointing away
    from that stone plain. An arm a stone on the point would lean away from by
    ``cfg.line_lean`` or more (``lift``, see `line_contrast`) counts 0: its underside may
    show it. With ``wood`` (size, size), the wood's lightness at each point, an arm that
    runs off the board from an outer line (no line there) counts how far the board there
    is lighter than a black stone (`black_drop` darker than that wood): a stone on the
    point would cover that too."""
    return _arms(_arm_profiles(_smooth(light, cfg), size, cfg), size, cfg, lift, wood)


def _arms(profiles: list[tuple[np.ndarray, np.ndarray]], size: int, cfg: StoneConfig,
          lift: np.ndarray | None, wood: np.ndarray | None = None) -> np.ndarray:
    """`arm_contrast` from the `_arm_profiles`."""
    lean = np.zeros((size * size, 2)) if lift is None else lift
    valleys, means, leant = [], [], []
    for axis, (before, after) in enumerate(profiles):
        leaning = lean[:, axis]
        for profile, away in ((before, leaning >= cfg.line_lean),
                              (after, leaning <= -cfg.line_lean)):
            valleys.append(_valley(profile, cfg.line_sides))
            means.append(profile.mean(axis=1))
            leant.append(away)

    def per_arm(parts: list[np.ndarray]) -> np.ndarray:
        return np.stack(parts, axis=-1).reshape(size, size, 4)

    seen = per_arm(valleys)
    if wood is not None:
        bare = per_arm(means) - (1.0 - cfg.black_drop) * wood[..., None]
        seen = np.where(_on_board(size), seen, bare)
    out: np.ndarray = np.where(per_arm(leant), 0.0, seen)
    return out


def _on_board(size: int) -> np.ndarray:
    """The arms (size, size, 4), as `arm_contrast` orders them, that run along a line of
    the board: not those running off it from an outer line."""
    out = np.ones((size, size, 4), bool)
    out[:, 0, 0] = out[:, -1, 1] = out[0, :, 2] = out[-1, :, 3] = False
    return out


def dark_waists(smooth: np.ndarray, points: np.ndarray, wood: np.ndarray, dark: np.ndarray,
                cfg: StoneConfig = STONES) -> np.ndarray:
    """How wide (cells) the dark stays on the way to each ``dark`` point (size, size) from
    its neighbour on the left, the right, above and below, at its narrowest: (size, size,
    4), 0 where there is no such neighbour or the point is not dark. ``smooth`` is the
    rectified lightness, blurred (`_smooth`), ``points`` (size, size, 2) where each
    point's stone would be seen in it (px), ``wood`` (size, size) the wood's lightness
    there; dark is `black_drop` darker than that wood.

    Two stones side by side are two discs: the dark narrows between them, or breaks. A
    stone and the shadow it casts over its neighbour's point are one band as wide as the
    stone (the shadow is the stone's outline swept away from the lamp): from the black
    stone itself, or from where a white one ends. The stretch ``cfg.waist_span`` of the way
    from the neighbour is looked at, from ``cfg.waist_edge`` cell past where the dark
    begins on the line joining the points and for ``cfg.waist_length`` of the way at most
    (a short shadow rounds off at its far end), across that line up to
    ``cfg.waist_reach`` cells either side of it."""
    size = points.shape[0]
    c = cfg.cell
    first, last = cfg.waist_span
    along = np.linspace(0.0, last, int(round(last * c)) + 1)  # a pixel apart
    reach = int(round(cfg.waist_reach * c))
    across = np.arange(-reach, reach + 1)
    out = np.zeros((size, size, 4))
    for k, (dy, dx) in enumerate(_NEIGHBOURS):
        here, there = _beside(size, dy, dx)
        todo = dark[here]
        near, far = points[there][todo], points[here][todo]  # from the neighbour
        step = far - near
        unit = step / np.maximum(np.linalg.norm(step, axis=-1, keepdims=True), 1e-9)
        normal = np.stack([-unit[:, 1], unit[:, 0]], axis=-1)
        at = (near[:, None, None, :] + along[:, None, None] * step[:, None, None, :]
              + across[None, :, None] * normal[:, None, None, :])
        xs = np.clip(np.round(at[..., 0]).astype(int), 0, smooth.shape[1] - 1)
        ys = np.clip(np.round(at[..., 1]).astype(int), 0, smooth.shape[0] - 1)
        pair_wood = (wood[here][todo] + wood[there][todo]) / 2
        shaded = smooth[ys, xs] < (1.0 - cfg.black_drop) * pair_wood[:, None, None]
        on_line = shaded[..., reach]  # on the line joining the points
        # The dark run through that line, each way from it.
        one_way = (np.cumprod(shaded[..., reach:], axis=-1).sum(axis=-1)
                   + np.cumprod(shaded[..., reach::-1], axis=-1).sum(axis=-1))
        width = np.where(on_line, one_way - 1, 0) / c
        begins = np.where(on_line.any(axis=-1), along[np.argmax(on_line, axis=-1)], np.inf)
        start = np.maximum(begins + cfg.waist_edge, first)[:, None]
        looked = (along[None, :] >= start) & (along[None, :] <= start + cfg.waist_length)
        narrowest = np.where(looked, width, np.inf).min(axis=-1)
        out[here + (k,)][todo] = np.where(np.isfinite(narrowest), narrowest, 0.0)
    return out


def features(image: np.ndarray, homography: np.ndarray, size: int,
             cfg: StoneConfig = STONES, light: LightConfig = LIGHT) -> PointFeatures:
    """The `PointFeatures` of the board whose grid ``homography`` gives, in ``image`` (the
    sensor's ceiling, for the share of the board clipped, that of ``light``)."""
    bgr = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    rect = rectify(bgr[:, :, :3], homography, size, cfg)
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2LAB)
    lightness = np.ascontiguousarray(lab[:, :, 0])
    smooth = smoothed(lightness, cfg)
    c = cfg.cell
    shift = lift_shift(homography, image.shape, size, cfg.stone_lift)
    pts = (grid.lattice(size) + 1.0 + shift) * c
    # Cell centres, one row and column beyond the grid too (the margin is wood as well).
    k = size + 1
    centres = (grid.lattice(k) + 0.5) * c
    point_discs = _discs(lab.shape, pts, cfg.stone_radius * c)
    centre_discs = _discs(lab.shape, centres, cfg.wood_radius * c)
    point_light, point_chroma, point_a, point_b = (
        m.reshape(size, size) for m in _disc_medians(lab, point_discs))
    centre_light, centre_chroma, centre_a, centre_b = (
        m.reshape(k, k) for m in _disc_medians(lab, centre_discs))
    wood = local_wood(centre_light)
    profiles = _arm_profiles(smooth, size, cfg)
    clipped = max(share_at(rect[:, :, k], light.clip_level) for k in range(3))
    return PointFeatures(
        point_light, point_chroma, _cross(profiles, size, cfg, shift),
        centre_light, centre_chroma,
        np.stack([point_a, point_b], axis=-1), np.stack([centre_a, centre_b], axis=-1),
        _arms(profiles, size, cfg, shift, wood),
        # Dark against the wood near it or, where that is shaded too, the board's wood.
        dark_waists(smooth, pts.reshape(size, size, 2), wood, point_light < (
            1.0 - cfg.black_drop) * np.maximum(wood, np.median(centre_light[1:-1, 1:-1])), cfg),
        smooth, pts.reshape(size, size, 2), clipped,
        *_kept_features(rect, point_discs, centre_discs, size, light), lightness)


KeptFeatures = tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]


def _kept_features(rect: np.ndarray, point_discs: np.ndarray, centre_discs: np.ndarray,
                   size: int, light: LightConfig) -> KeptFeatures:
    """``PointFeatures.kept_light``, ``kept_centre_light`` and ``left_clipped`` of the
    rectified board ``rect`` (BGR), its points' and cell centres' discs given (`_discs`):
    all None where `kept_lightness` leaves no channel out."""
    k = size + 1
    inner = centre_discs.reshape(k, k, -1)[1:-1, 1:-1].reshape((k - 2) ** 2, -1)
    kept = kept_lightness(rect, inner, light)
    if kept is None:
        return None, None, None
    lightness, channels = kept
    left_clipped = np.all([_plane_medians(np.ascontiguousarray(rect[:, :, q]), centre_discs)
                           >= light.clip_level for q in np.flatnonzero(~channels)], axis=0)
    return (_plane_medians(lightness, point_discs).reshape(size, size),
            _plane_medians(lightness, centre_discs).reshape(k, k), left_clipped.reshape(k, k))


def kept_lightness(rect: np.ndarray, wood: np.ndarray, light: LightConfig = LIGHT
                   ) -> tuple[np.ndarray, np.ndarray] | None:
    """The lightness (OpenCV's 0..255 Lab L, uint8) of ``rect`` (BGR uint8) seen in the
    colour channels its board's wood keeps under the sensor's ceiling (``light``'s,
    `at_ceiling`): a grey of those channels, weighted as a white light's grey weighs them
    (`vision.illuminant.LUMA`), and its lightness; and which channels (3,) those are. None
    where the wood (the pixels ``wood``, (m, p) flat indexes: the cell centres inside the
    grid) is at the ceiling in no channel, or in all three.

    A channel is the wood's at the ceiling where its median over those centres is: more
    than half the board's wood reads flat there, so a white stone, lighter than the wood
    in every channel, cannot rise over it in that channel. Mixed into the lightness, such
    a channel adds the same to the wood and the stone and hides the rise the others keep:
    under a magenta lamp that lifts the red and blue of a light wood to the ceiling a white
    stone lies 6% over the wood in the lightness, and 22% over it in green alone
    (`tests/vision/test_kept_channels.py`)."""
    medians = np.array([np.median(np.take(rect[:, :, q].ravel(), wood)) for q in range(3)])
    kept = medians < light.clip_level
    if kept.all() or not kept.any():
        return None
    weights = (LUMA * kept / float(LUMA @ kept)).astype(np.float32)
    grey = np.clip(np.rint(rect.astype(np.float32) @ weights), 0, 255).astype(np.uint8)
    out: np.ndarray = _grey_lightnesses()[grey]
    return out, kept


def _plane_medians(plane: np.ndarray, discs: np.ndarray) -> np.ndarray:
    """The median of ``plane`` (uint8) over each of the ``discs`` (`_discs`), (n,)."""
    return _median(*_middle_pair(np.take(plane.ravel(), discs), 256))


def local_wood(centres: np.ndarray, dirty: np.ndarray | None = None,
               reach: int = STONES.wood_reach, spare: np.ndarray | None = None) -> np.ndarray:
    """For each intersection, the median of the clean cell centres nearest it: (k, k) ->
    (k-1, k-1). The four around it first; where all four are ``dirty`` (a stone reaches
    over them), the clean ones among the 4x4 around it, then 6x6 ... up to ``reach`` rings
    (`StoneConfig.wood_reach`); where none is clean, the ``spare`` centres (bare wood by
    other evidence) in the same way;
    where none of those either, the median of all clean centres (of the spare ones if none
    is clean, of all if neither is). Only centres inside the grid count: beyond the outer
    lines the board may end, and a table is no reference."""
    k = centres.shape[0]
    n = k - 1
    inner = np.zeros((k, k), bool)
    inner[1:-1, 1:-1] = True
    kinds = [inner & ~dirty if dirty is not None else inner]
    if spare is not None:
        kinds.append(inner & spare)
    kinds = [kind for kind in kinds if kind.any()] or [inner]
    out = np.full((n, n), np.nan)
    for kind in kinds:
        wood = np.where(kind, centres, np.nan)
        for r in range(1, reach + 1):
            todo = np.isnan(out)
            if not todo.any():
                break
            padded = np.pad(wood, r - 1, constant_values=np.nan)
            # Intersection (y, x) lies between centres y, y+1 and x, x+1; take y-r+1 .. y+r.
            around = np.lib.stride_tricks.sliding_window_view(padded, (2 * r, 2 * r))[todo]
            around = around.reshape(len(around), 4 * r * r)
            some = ~np.all(np.isnan(around), axis=1)
            found = out[todo]
            found[some] = _median_present(around[some])
            out[todo] = found
    out[np.isnan(out)] = float(np.median(centres[kinds[0]]))
    return out


def _median_present(values: np.ndarray) -> np.ndarray:
    """Each row's median of its values that are not NaN, to the bit as `np.nanmedian`
    gives it (the middle one, or half the sum of the middle two): (t, m) -> (t,). Every
    row holds at least one. Sorting the short rows is many times cheaper than the masked
    arrays `np.nanmedian` takes for them."""
    ordered = np.sort(values, axis=1)  # NaN sorts last
    count = np.count_nonzero(~np.isnan(values), axis=1)
    rows = np.arange(len(values))
    half: np.ndarray = (ordered[rows, (count - 1) // 2] + ordered[rows, count // 2]) / 2
    return half


def bare_wood(f: PointFeatures, cfg: StoneConfig = STONES) -> np.ndarray:
    """The cell centres (k, k) whose colour is the board's wood's, to within
    ``cfg.wood_colour``: chroma at least that share of the chroma three quarters of the
    centres inside the grid stay under, hue within those degrees of the more coloured half's
    median. A black or white stone over a centre takes the colour out of it."""
    inner = f.centre_chroma[1:-1, 1:-1]
    most = float(np.percentile(inner, 75))
    hue = np.median(f.centre_tint[1:-1, 1:-1][inner >= np.median(inner)], axis=0)
    cos = (f.centre_tint @ hue) / (np.linalg.norm(f.centre_tint, axis=-1) * np.linalg.norm(hue)
                                   + 1e-9)
    share, degrees = cfg.wood_colour
    out: np.ndarray = (f.centre_chroma >= share * most) & (cos >= np.cos(np.radians(degrees)))
    return out


def _stone_covered(stones: np.ndarray) -> np.ndarray:
    """Cell centres (k, k) touching an intersection where ``stones`` (k-1, k-1) is true: a
    stone, a little off its point or leaning under perspective, can reach over them."""
    n = stones.shape[0]
    out = np.zeros((n + 1, n + 1), bool)
    for dy in (0, 1):
        for dx in (0, 1):
            out[dy:dy + n, dx:dx + n] |= stones
    return out


def _lines_hidden(f: PointFeatures, level: float, cfg: StoneConfig) -> np.ndarray:
    """The points (size, size) whose cross of lines is not plainly seen (`cfg.line_seen` of
    the board's wood lightness ``level``): something may stand on them."""
    out: np.ndarray = f.lines / max(level, 1.0) < cfg.line_seen
    return out


def _shadowed(f: PointFeatures, stones: np.ndarray, level: float,
              cfg: StoneConfig) -> np.ndarray:
    """How surely each point is the shadow a neighbour in ``stones`` (size, size) casts
    over it (positive: it is), -1 where no neighbour is a stone. A low lamp's shadow can be
    as dark as a black stone, but a stone on the point would hide the arm of its cross
    pointing away from that neighbour, and two stones side by side narrow between them;
    a stone and its shadow stay one band (see `dark_waists`). The arm must show plainly:
    ``cfg.shadow_arm`` times `line_seen` (one arm alone is noisier than a line)."""
    seen = f.arms / max(level, 1.0) / (cfg.shadow_arm * cfg.line_seen) - 1.0
    waist = (f.waists - cfg.shadow_waist) / (1.0 - cfg.shadow_waist)
    out = np.full(stones.shape, -1.0)
    for k, (dy, dx) in enumerate(_NEIGHBOURS):
        here, there = _beside(stones.shape[0], dy, dx)
        beside = np.zeros_like(stones)
        beside[here] = stones[there]
        evidence = np.minimum(seen[:, :, k ^ 1], waist[:, :, k])
        out = np.where(beside, np.maximum(out, evidence), out)
    return out


def _disc_like(f: PointFeatures, level: float, cfg: StoneConfig) -> np.ndarray:
    """How plainly each point (size, size) is a disc on its point rather than part of
    something flat and wide (positive: it is): a stone is round, and at one at least of
    the four cell centres around it, between discs, something else shows (the wood, the
    gap between stones), ``cfg.disc_apart`` of the board's wood lightness ``level`` away
    from it in colour (Lab). An object lying on the board, a hand, a patch of glare
    looks the same at a point and at all four centres around it."""
    n = f.light.shape[0]
    point = np.concatenate([f.light[..., None], f.tint], axis=-1)
    centre = np.concatenate([f.centre_light[..., None], f.centre_tint], axis=-1)
    nearest = np.min([np.linalg.norm(point - centre[dy:dy + n, dx:dx + n], axis=-1)
                      for dy in (0, 1) for dx in (0, 1)], axis=0) / max(level, 1.0)
    out: np.ndarray = (nearest - cfg.disc_apart) / cfg.disc_apart
    return out


def _judge(f: PointFeatures, wood_light: np.ndarray, wood_chroma: np.ndarray,
           black_light: np.ndarray, wood_level: float,
           cfg: StoneConfig, kept_rise: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Labels and confidences against the given wood under each intersection; a black
    stone is looked for against ``black_light``. A point's rise over its wood is the
    larger of that in its lightness and ``kept_rise`` (`_kept_rise`)."""
    rel_light = (f.light - wood_light) / np.maximum(wood_light, 1.0)
    if kept_rise is not None:
        rel_light = np.maximum(rel_light, kept_rise)
    rel_chroma = f.chroma / np.maximum(wood_chroma, 1.0)
    # Evidence for each label as a margin past its threshold (positive = that label).
    rel_black = (f.light - black_light) / np.maximum(black_light, 1.0)
    black = (-rel_black - cfg.black_drop) / cfg.black_drop
    white = _white(cfg, rel_light, colourless=(rel_chroma, wood_chroma))
    # The cross of grid lines plainly seen at a point: nothing stands on it.
    crossed = (f.lines / max(wood_level, 1.0) - cfg.line_seen) / cfg.line_seen
    labels = np.full(f.light.shape, Cell.EMPTY, dtype=np.int64)
    labels[white > 0] = Cell.WHITE
    labels[black > 0] = Cell.BLACK
    labels[crossed > 0] = Cell.EMPTY
    # Dark beside a stone, with the arm pointing away from it plain: that stone's shadow.
    shadow = np.where(labels == Cell.BLACK,
                      _shadowed(f, labels != Cell.EMPTY, wood_level, cfg), -1.0)
    labels[shadow > 0] = Cell.EMPTY
    crossed = np.maximum(crossed, shadow)
    margin = np.where(labels == Cell.BLACK, np.minimum(black, -crossed),
                      np.where(labels == Cell.WHITE, np.minimum(white, -crossed),
                               np.maximum(-np.maximum(black, white), crossed)))
    return labels, _sure(margin, cfg)


def _kept_rise(f: PointFeatures, dirty: np.ndarray, bare: np.ndarray,
               cfg: StoneConfig, light: LightConfig) -> np.ndarray | None:
    """Each point's rise (size, size) in the channels the exposure kept under the ceiling
    (``f.kept_light``, ``f.kept_centre_light``) over the lighter of its clean wood (the
    clean cell centres nearest it, `local_wood` with ``dirty`` and ``bare``) and the four
    cell centres round it, as a share of that. A white stone is lighter than both; an
    empty point where the light falls off across the board is lighter than wood further
    off, not than the wood beside it (the kept channels show such a fall whole, where a
    clipped channel flattened it in the lightness). -1 where that wood leaves a white
    stone no room to rise `white_rise` under the ceiling (``light``'s): there the channel
    clips a stone as well; and where most of the four centres round the point (three of
    them at least) are under the ceiling in a channel left out (``f.left_clipped``): a
    shade, the board's dark edge, where that channel kept the wood's contrast and the
    lightness hides nothing; at a shade's edge, half the centres in it, the point is
    lighter than the shaded half without being a stone. None where no channel was left
    out (`kept_lightness`)."""
    if f.kept_light is None or f.kept_centre_light is None or f.left_clipped is None:
        return None
    nearest = local_wood(f.kept_centre_light)
    wood = np.maximum(local_wood(f.kept_centre_light, dirty, cfg.wood_reach, spare=bare),
                      nearest)
    room = (1.0 + cfg.white_rise) * wood <= _grey_lightness(light.clip_level)
    clipped_here = local_wood(f.left_clipped.astype(np.float64)) > 0.5
    out: np.ndarray = np.where(room & clipped_here,
                               (f.kept_light - wood) / np.maximum(wood, 1.0), -1.0)
    return out


def _white(cfg: StoneConfig, rise: np.ndarray | None = None, *,
           colourless: tuple[np.ndarray, np.ndarray] | None = None,
           nearer: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Whether each point is a white stone, the one place it is decided: a margin (n, n),
    positive where it is, its size how far past the threshold, from what is known of the
    point.

    - Against the wood under it, ``rise`` (its lightness over the wood's, as a share of
      it): white from ``cfg.white_rise`` up; or, with ``colourless`` (its chroma as a share
      of the wood's, and the wood's chroma), where it lost the wood's colour
      (``cfg.white_chroma_drop``), which tells only where the wood had colour to lose
      (``cfg.white_wood_chroma``: not grey wood, not a grey photo). Never where it is
      darker than the wood by ``cfg.white_floor`` of a black stone's drop.
    - Against the stones of this board, ``nearer`` (its distance in colour to the white
      stones, and to the nearest other thing: the wood, the black stones): white where
      it is nearer the white stones, by twice the difference over the sum; and, with
      ``rise``, only where it is lighter than the wood at all (a pale stone).
    """
    if nearer is not None:
        closer = _closer(*nearer)
        if rise is None:
            return closer
        out: np.ndarray = np.where(rise > 0, closer, -1.0)
        return out
    assert rise is not None
    margin = (rise - cfg.white_rise) / cfg.white_rise
    if colourless is not None:
        share, wood_chroma = colourless
        margin = np.maximum(margin, np.where(
            wood_chroma >= cfg.white_wood_chroma,
            (cfg.white_chroma_drop - share) / cfg.white_chroma_drop, -1.0))
    result: np.ndarray = np.where(rise > -cfg.black_drop * cfg.white_floor, margin, -1.0)
    return result


def _sure(margin: np.ndarray, cfg: StoneConfig) -> np.ndarray:
    """The confidence in [0, 1] of a reading that lies ``margin`` past its threshold (in
    shares of it): one half at the threshold, ``cfg.margin_slope`` setting how fast it
    rises from there."""
    out: np.ndarray = np.clip(0.5 + 0.5 * np.tanh(cfg.margin_slope * margin), 0.0, 1.0)
    return out


def classify(f: PointFeatures, cfg: StoneConfig = STONES) -> tuple[np.ndarray, np.ndarray]:
    """Labels (size, size) of `Cell` EMPTY, BLACK or WHITE and confidences in [0, 1]
    from features (`judged`, without its first judgement)."""
    labels, confidence, _ = judged(f, cfg)
    return labels, confidence


def judged(f: PointFeatures, cfg: StoneConfig = STONES, light: LightConfig = LIGHT
           ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Labels (size, size) of `Cell` EMPTY, BLACK or WHITE and confidences in [0, 1]
    from features, and the first judgement (labels and confidences against only the wood
    nearest each point), which `doubt` weighs against them.

    Each point is judged against the wood around it; then again, ``cfg.wood_passes`` times,
    against only the cell centres no stone read so far reaches over (a black stone darkens
    the centres beside it, and the empty point next to it then looks light: white). A black
    stone is looked for against the brighter of that wood and the four centres around it:
    on a crowded board the clean wood may lie far off in other light (a lamp's glare on the
    stone's own corner), and a black stone is far darker than either. In those passes, where
    a lamp clipped the board's wood in a channel or two, a point's rise is also measured in
    the channels it left (`_kept_rise`); not in the first judgement, whose wood may lie
    under stones: one channel is a noisier witness than three, and a stray white read
    there moves the clean wood every pass is judged against. On a board whose
    wood has colour (``cfg.wood_colour_min``), a centre that lost most of it beside a point
    whose lines are hidden is taken to be under a stone too, read or not (a white group
    would else be its own wood); not where the exposure clipped the board's wood and the
    centre with it (`at_ceiling`, at ``light``'s ceiling): it lost its colour to the
    sensor's ceiling, and judged against darker wood further off the clipped empty points
    would read white. A set of two other colours is read by them (`_two_sets`)."""
    level = f.level
    nearest = local_wood(f.centre_light)
    first = _judge(f, nearest, local_wood(f.centre_chroma), nearest, level, cfg)
    labels, confidence = first
    bare = bare_wood(f, cfg)
    covered = np.zeros_like(bare)
    coloured = float(np.percentile(f.centre_chroma[1:-1, 1:-1], 75))
    if coloured >= cfg.wood_colour_min:
        beside_hidden = _stone_covered(_lines_hidden(f, level, cfg))
        covered = beside_hidden & (f.centre_chroma < cfg.covered_chroma * coloured)
        if at_ceiling(np.array(level), light):
            # The exposure clipped the board's wood: a centre lost its colour to that.
            covered &= ~at_ceiling(f.centre_light, light)
    for _ in range(cfg.wood_passes):
        dirty = _stone_covered(labels != Cell.EMPTY) | covered
        wood = local_wood(f.centre_light, dirty, cfg.wood_reach, spare=bare)
        labels, confidence = _judge(f, wood, local_wood(f.centre_chroma, dirty, cfg.wood_reach,
                                                        spare=bare),
                                    np.maximum(wood, nearest), level, cfg,
                                    _kept_rise(f, dirty, bare, cfg, light))
    labels, confidence = white_at_ceiling(f, labels, confidence, bare, cfg, light)
    black_light = nearest if cfg.wood_passes < 1 else np.maximum(wood, nearest)
    labels, confidence = off_point(
        f, labels, confidence, black_light, cfg,
        honest=lambda: doubt(f, labels, confidence, cfg, first=first))
    return (*_two_sets(f, labels, confidence, level, cfg), first)


def white_at_ceiling(f: PointFeatures, labels: np.ndarray, confidence: np.ndarray,
                     bare: np.ndarray, cfg: StoneConfig = STONES, light: LightConfig = LIGHT
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``labels`` and ``confidence`` (size, size) with the white stones the exposure hid
    read (``bare``: the cell centres that are the board's wood by their colour,
    `bare_wood`): where the wood is lit so near the sensor's ceiling (``light``'s,
    `at_ceiling`) that a white stone, clipped there, cannot rise `white_rise` over it,
    lightness alone cannot tell a white stone from the wood. What can: the grid lines are
    ink, far darker than the wood, and still show on wood near the ceiling, where a stone
    hides them.

    A point read empty is read white where its wood (the clean cell centres nearest it)
    is grey (under `white_wood_chroma`: wood with colour tells a white stone by losing
    it) and leaves less room under the ceiling than `white_rise`, it rose at least
    ``cfg.ceiling_rise`` of that room over the wood (anything not darker, where the wood
    is at the ceiling), its cross of lines and every arm of it along the board are hidden
    (``cfg.ceiling_hidden`` times `line_seen` of the board's wood lightness), and the lines
    show (``cfg.ceiling_shown`` times `line_seen`) at ``cfg.ceiling_around`` points at
    least read empty within ``cfg.ceiling_reach`` points of it whose wood is near the
    ceiling too: there, a bare point would show them (where the wood leaves no room to
    rise in, and so nothing but the lines tells, they must show `line_seen` there, the
    bar of a plainly seen cross anywhere), and a stone's rim rings it on
    ``cfg.ceiling_rim_share`` of the rays at least (`_stone_rim`: a glint that washed a
    bare point's lines out has none). Its confidence is how far the weakest of the tests
    at the point (rise, cross, arms, rim) lies past its bar (`_sure`): one half where the
    rim shows on just that share. Where no lines show around it (the wood and its lines
    clipped alike, or a grey floor with no lines), or no rim rings it, nothing tells
    surely: such a point keeps its reading at no more than ``cfg.ceiling_unsure``. So does
    a point read empty that rose so but whose cross is not plainly seen (`line_seen`), where
    the exposure clipped the board's wood (``cfg.ceiling_washed``): an arm may show past
    the edge of a stone set off its point, and only a plain cross tells it bare."""
    ceiling = _grey_lightness(light.clip_level)
    # The wood nearest a point is a median of cell centres: where even the lightest centre
    # leaves a white stone room to rise, no point needs its lines read (most boards).
    if (1.0 + cfg.white_rise) * float(f.centre_light.max()) <= ceiling:
        return labels, confidence
    level = max(f.level, 1.0)
    dirty = _stone_covered(labels != Cell.EMPTY)
    wood = local_wood(f.centre_light, dirty, cfg.wood_reach, spare=bare)
    room = np.maximum(ceiling - wood, 0.0)
    # Near the ceiling, and grey: wood with colour to lose tells a white stone by losing
    # it (`white_wood_chroma`); only grey wood (a grey photo, or wood clipped white in
    # every channel) needs the lines.
    grey = local_wood(f.centre_chroma, dirty, cfg.wood_reach, spare=bare) < cfg.white_wood_chroma
    near = ((1.0 + cfg.white_rise) * wood > ceiling) & grey
    rise = f.light - wood
    need = cfg.ceiling_rise * room
    # Under a grey level of room no rise tells (only "not darker than the wood" is left to
    # ask): then the crosses around must show plainly, as `line_seen` asks anywhere.
    bar = np.where(need >= 1.0, cfg.ceiling_shown * cfg.line_seen, cfg.line_seen)
    n = labels.shape[0]
    r = cfg.ceiling_reach
    padded = np.pad((labels == Cell.EMPTY) & near & (f.lines / level >= cfg.ceiling_shown
                                                     * cfg.line_seen), r)
    lines = np.pad(f.lines / level, r)
    around = np.zeros(labels.shape, np.int64)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if (dy, dx) != (0, 0):
                there = (slice(r + dy, r + dy + n), slice(r + dx, r + dx + n))
                around += padded[there] & (lines[there] >= bar)
    hidden = _ceiling_hidden(f, cfg)
    risen = np.where(need >= 1.0, (rise - need) / np.maximum(need, 1.0),
                     np.where(rise >= 0, 1.0, -1.0))
    margin = np.minimum(hidden, risen)
    candidate = (labels == Cell.EMPTY) & near & (margin > 0)
    # A stone's round edge rings it; a glint that washed the lines out does not.
    share = cfg.ceiling_rim_share
    ringed = np.full(labels.shape, -1.0)
    if candidate.any():  # on most boards no point is: the rim is looked for only then
        ringed = (_stone_rim(f, cfg) - share) / (1.0 - share)
    margin = np.minimum(margin, ringed)
    white = candidate & (ringed >= 0) & (around >= cfg.ceiling_around)
    # Where the exposure clipped the board's wood (``cfg.ceiling_washed``), "not lighter
    # than the wood" says nothing: a point that rose as a white stone would, its cross not
    # plainly seen, is empty only as surely as it is white.
    plain = f.lines / level >= cfg.line_seen
    washed = f.clipped >= cfg.ceiling_washed
    unsure = (candidate & ~white) | ((labels == Cell.EMPTY) & near & (risen > 0) & ~plain
                                     & washed)
    out_labels = np.where(white, Cell.WHITE, labels)
    out_conf = np.where(white, _sure(margin, cfg),
                        np.where(unsure, np.minimum(confidence, cfg.ceiling_unsure), confidence))
    return out_labels, out_conf


def _ceiling_hidden(f: PointFeatures, cfg: StoneConfig) -> np.ndarray:
    """How far (a margin, `_sure`) each point's cross of lines and the plainest arm of it
    along the board lie under ``cfg.ceiling_hidden`` times `line_seen` of the board's wood
    lightness: positive where both are hidden."""
    level = max(f.level, 1.0)
    cross, arm = (cfg.ceiling_hidden[0] * cfg.line_seen, cfg.ceiling_hidden[1] * cfg.line_seen)
    plainest, _ = _plainest_arm(f.arms)
    hidden: np.ndarray = np.minimum((cross - f.lines / level) / cross,
                                    (arm - np.maximum(plainest, 0.0) / level) / arm)
    return hidden


def washed_out(f: PointFeatures, cfg: StoneConfig = STONES, light: LightConfig = LIGHT
               ) -> np.ndarray:
    """Where (size, size) the picture cannot tell what lies on a point: the point and the
    wood nearest it (the four cell centres around it, `local_wood`) are at ``light``'s
    ceiling (`at_ceiling`), its cross and arms are hidden (`_ceiling_hidden`), and the
    lines show (``cfg.ceiling_shown`` times `line_seen`) at fewer than
    ``cfg.ceiling_around`` points within ``cfg.ceiling_reach`` of it whose wood is at the
    ceiling too. A flash's hot spot or a patch of sun that clips the wood, its lines and
    whatever lies there alike leaves a white stone, a bare point and even a black stone one
    flat white; where lines show around in the same light, a bare point would show them
    too, and a hidden cross tells a stone (`white_at_ceiling`)."""
    clipped = at_ceiling(local_wood(f.centre_light), light)
    out: np.ndarray = at_ceiling(f.light, light) & clipped & (_ceiling_hidden(f, cfg) > 0)
    if out.any():  # on most boards no point is
        shown = clipped & (f.lines / max(f.level, 1.0) >= cfg.ceiling_shown * cfg.line_seen)
        width = 2 * cfg.ceiling_reach + 1
        around = cv2.boxFilter(shown.astype(np.float32), -1, (width, width), normalize=False,
                               borderType=cv2.BORDER_CONSTANT) - shown
        out &= around < cfg.ceiling_around
    return out


def _stone_rim(f: PointFeatures, cfg: StoneConfig = STONES) -> np.ndarray:
    """The share of ``cfg.ceiling_rim_rays`` rays from each point (size, size), where a
    stone on it would be seen (``f.points``), that cross a stone's rim: along the ray,
    the rectified lightness (``f.smooth``) somewhere in the edge band of
    ``cfg.ceiling_rim`` lies ``cfg.ceiling_rim_dip`` of the board's wood lightness under
    its median over the stone's top, and nowhere nearer the point; 0 where no two opposite
    rays both cross it. A white stone at the sensor's ceiling is as light as the wood, but
    its dome darkens at its edge all round; a glint on bare wood does not, and where it
    fades it fades on one side."""
    n = f.light.shape[0]
    c = cfg.cell
    top, start, end = cfg.ceiling_rim
    per = max(cfg.ceiling_rim_rays // 4, 1)
    rays = 4 * per
    # The same rays in each quarter, evenly between one line and the next (a third and two
    # thirds of the way at two a quarter), never along a line.
    quarter, offset = np.divmod(np.arange(rays), per)
    angles = np.radians(90.0 * quarter + 90.0 * (1 + offset) / (per + 1))
    steps = np.arange(0.0, end + 0.5 / c, 1.0 / c)
    pts = f.points.reshape(-1, 2)
    xs = pts[:, 0, None, None] + np.cos(angles)[None, :, None] * steps * c
    ys = pts[:, 1, None, None] + np.sin(angles)[None, :, None] * steps * c
    h, w = f.smooth.shape
    along = f.smooth[np.clip(np.round(ys).astype(int), 0, h - 1),
                     np.clip(np.round(xs).astype(int), 0, w - 1)]
    crest = np.median(along[:, :, steps <= top], axis=-1)
    dip = cfg.ceiling_rim_dip * max(f.level, 1.0)
    edge = along[:, :, (steps >= start) & (steps <= end)].min(axis=-1)
    # Centred on its point: the stone's top runs unbroken out to the edge band; a stone
    # off the point (or a grid laid off the stones) darkens a ray before it.
    early = crest - along[:, :, steps < start].min(axis=-1) >= dip
    crossed = (crest - edge >= dip) & ~early
    # Ray k + rays / 2 points the opposite way: a glint fading on one side of the point
    # darkens no ray's opposite; a stone's edge lies on both sides of it.
    half = rays // 2
    across = (crossed[:, :half] & crossed[:, half:]).any(axis=1)
    out: np.ndarray = np.where(across, crossed.mean(axis=1), 0.0).reshape(n, n)
    return out


def stone_bodies(f: PointFeatures, black_light: np.ndarray,
                 cfg: StoneConfig = STONES) -> tuple[np.ndarray, np.ndarray]:
    """The black stones' bodies: for each point (size, size, 2), where (cells, x and y)
    from it one is centred, NaN where none is centred nearer it than any other point; and
    for each point (size, size), how surely the bodies nearest it or next nearest are
    where they were given (`_nearer`: one half for a body midway between two points, 1
    where none is).

    A body is where a disc of ``cfg.off_disc`` cell is wholly `black_drop` darker than
    ``black_light`` (size, size), the lightness a black stone is judged against at each
    point, once specks under ``cfg.off_fill`` cell across are filled (a highlight on a
    stone's dome): a stone's centre can move only as far as the stone is wider than that
    disc, so the disc fits in one small patch of each stone, and not in the waist between
    two stones side by side. A patch wider than ``cfg.off_spread`` cell is something dark
    and broad (a shadow, a sleeve, the table), no stone; one past the outer lines may be
    the table beyond a narrow margin, and is not looked at. Each patch's middle is the
    stone's centre; the point nearest it (as ``f.points``) is its point."""
    c = cfg.cell
    n = black_light.shape[0]
    # The lightness to be under, from point to point smoothly (in blocks, a dark
    # thing would be cut into stone-sized pieces where the blocks meet).
    half = c // 2
    threshold = cv2.copyMakeBorder(
        cv2.resize((1.0 - cfg.black_drop) * black_light, (n * c, n * c),
                   interpolation=cv2.INTER_LINEAR),
        half, c - half, half, c - half, cv2.BORDER_REPLICATE)
    dark: np.ndarray = (f.smooth < threshold).astype(np.uint8)
    fill = max(1, int(round(cfg.off_fill * c)))
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (fill, fill)))
    dark[[0, -1], :] = dark[:, [0, -1]] = 0  # what lies past the picture is unknown
    inside = cv2.distanceTransform(dark, cv2.DIST_L2, 5)
    whole = (inside >= cfg.off_disc * c).astype(np.uint8)
    count, patches = cv2.connectedComponents(whole, connectivity=8)
    # The patches' pixels in the order of the picture's rows, each patch's together.
    at = np.flatnonzero(whole)
    which: np.ndarray = patches.ravel()[at] - 1
    order = np.argsort(which, kind="stable")
    at, which = at[order], which[order]
    ys, xs = np.divmod(at, whole.shape[1])
    size = np.bincount(which, minlength=count - 1)
    centres = np.stack([np.bincount(which, xs, count - 1),
                        np.bincount(which, ys, count - 1)], axis=-1) / size[:, None]
    starts = np.cumsum(size) - size
    # A patch's rows come in order: its first pixel is its top, its last its bottom.
    spread = np.maximum(np.maximum.reduceat(xs, starts) - np.minimum.reduceat(xs, starts),
                        ys[starts + size - 1] - ys[starts]) + 1.0
    # Past the outer lines lie the board's margin and the table: no body is looked for.
    on_board = ((centres >= c - 0.5) & (centres <= n * c + 0.5)).all(axis=-1)
    centres = centres[(spread <= cfg.off_spread * c) & on_board]
    centres = centres[_lines_through(f, centres, cfg) < cfg.line_seen * f.level]
    out = np.full((n * n, 2), np.nan)
    sure = np.ones(n * n)
    if len(centres):
        offsets = (centres[:, None, :] - f.points.reshape(1, -1, 2)) / c
        apart = np.linalg.norm(offsets, axis=-1)
        own, second = np.argpartition(apart, 1, axis=1)[:, :2].T
        rows = np.arange(len(own))
        # Two patches nearest one point: the nearer is its body (the other leans in).
        for k in np.argsort(-apart[rows, own]):
            out[own[k]] = offsets[k, own[k]]
        between = _nearer(apart[rows, own], apart[rows, second], cfg)
        np.minimum.at(sure, own, between)
        np.minimum.at(sure, second, between)
    return out.reshape(n, n, 2), sure.reshape(n, n)


def _lines_through(f: PointFeatures, centres: np.ndarray, cfg: StoneConfig) -> np.ndarray:
    """How plainly (grey levels) a grid line shows inside a disc of ``cfg.off_disc`` cell
    at each of ``centres`` (m, 2; px of the rectified board): the nearer vertical and
    horizontal line, where it crosses the disc's middle quarter, against the board
    ``cfg.line_band`` cell either side of it, the plainer of the two; 0 where neither
    crosses. A stone hides the lines under it; a shadow, a dark patch of wood, does not."""
    c = cfg.cell
    d = max(cfg.line_band_min, int(round(cfg.line_band * c)))
    along = np.arange(-(c // 8), c // 8 + 1)
    out = np.zeros(len(centres))
    room = np.sqrt((cfg.off_disc * c) ** 2 - (c // 8) ** 2) - d - 1
    for axis in (0, 1):  # 0: a vertical line (x fixed), 1: a horizontal one
        line = c * np.rint(centres[:, axis] / c)
        crosses = np.abs(line - centres[:, axis]) <= room

        def sample(shift: int) -> np.ndarray:
            across = np.clip(line[:, None] + shift, 0, f.smooth.shape[0] - 1).astype(int)
            run = np.clip(np.rint(centres[:, 1 - axis, None] + along[None, :]), 0,
                          f.smooth.shape[0] - 1).astype(int)
            ys, xs = (run, across) if axis == 0 else (across, run)
            out_: np.ndarray = f.smooth[ys, xs].mean(axis=1)
            return out_

        valley = np.minimum(sample(-d), sample(d)) - sample(0)
        out = np.maximum(out, np.where(crosses, valley, 0.0))
    return out


def off_point(f: PointFeatures, labels: np.ndarray, confidence: np.ndarray,
              black_light: np.ndarray, cfg: StoneConfig = STONES,
              honest: Callable[[], np.ndarray] | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """``labels`` and ``confidence`` with the black stones lying off their points found:
    a black stone 0.2 to 0.6 cell off its point is still a whole dark body of a stone's
    size centred nearer its point than any other (`stone_bodies`), while the point itself
    may show its lines and wood; in a black group the neighbours' bodies reach over the
    point but are centred a cell away. An empty point with a body of its own is read
    black where a black stone beside it (of the eight around, centred at least
    ``cfg.stone_apart`` from the body) was read at least ``cfg.off_beside`` sure (by
    what ``honest`` returns, the confidence once doubted as `doubt` does, asked for only
    where an empty point has a body of its own; else ``confidence``) or has a
    body of its own a stone's width (``cfg.stone_apart``) from this one: a stone of the
    group it lies in; unless the body is taken, no room for a second stone: a white stone
    was read within ``cfg.stone_apart`` of its centre, or a black stone beside has a body
    of its own that near it (stones do not overlap: both are that stone's, cut in two by a
    highlight). A point read black with no body of its own, where a body found so beside
    lies within ``cfg.stone_apart`` of it (less half ``cfg.off_spread``, by which a body's
    centre may be misplaced), was darkened by that stone (no stone on the point would fit)
    and is read empty. A point other than white where a body lies nearly as near another
    point is read no surer than that body's place, unless it is a black stone read on a
    body of its own lying within half ``cfg.off_spread`` of it."""
    n = labels.shape[0]
    body, placed = stone_bodies(f, black_light, cfg)
    has = ~np.isnan(body[..., 0])
    taken = np.zeros((n, n), bool)  # no room for a second stone at the body
    grouped = np.zeros((n, n), bool)  # a black stone read surely beside
    candidates = (labels == Cell.EMPTY) & has
    # Only an empty point with a body of its own can gain a stone: the doubts are worked
    # out for the stones beside it only where there is one (the watcher judges every frame).
    sure = confidence if honest is None or not candidates.any() else honest()
    sure_black = (labels == Cell.BLACK) & (sure >= cfg.off_beside)
    for dy, dx, here, there in _around(n):
        gap = np.linalg.norm(body[here] - np.array([dx, dy], float), axis=-1)
        taken[here] |= (labels[there] == Cell.WHITE) & (gap < cfg.stone_apart)
        # A stone of the group beside, not one this body lies over (stones do not overlap):
        # read surely, or a body of its own a stone's width from this one.
        apart = np.linalg.norm(body[here] - body[there] - np.array([dx, dy], float), axis=-1)
        # A black stone read beside whose own body lies nearer this one than two stones'
        # centres can: both are that stone's (cut in two by a highlight), no second stone.
        taken[here] |= (labels[there] == Cell.BLACK) & (apart < cfg.stone_apart)
        grouped[here] |= (sure_black[there] & (gap >= cfg.stone_apart)) | (
            apart >= cfg.stone_apart)
    found = candidates & ~taken & grouped
    crowded = np.zeros((n, n), bool)  # a body found beside, too near for a stone here
    for dy, dx, here, there in _around(n):
        gap = np.linalg.norm(body[there] + np.array([dx, dy], float), axis=-1)
        crowded[here] |= found[there] & (gap < cfg.stone_apart - cfg.off_spread / 2)
    lost = (labels == Cell.BLACK) & ~has & crowded
    out = np.where(found, Cell.BLACK, np.where(lost, Cell.EMPTY, labels)).astype(labels.dtype)
    # A stone read on its point with its own body there (within the misplacement of a
    # body's centre) is where it was read: a body leaning in beside makes it no less sure.
    held = (labels == Cell.BLACK) & (out == Cell.BLACK) & (
        np.linalg.norm(np.nan_to_num(body, nan=1.0), axis=-1) <= cfg.off_spread / 2)
    capped = (out != Cell.WHITE) & ~held
    return out, np.where(capped, np.minimum(confidence, placed), confidence)


def _around(size: int) -> list[tuple[int, int, tuple[slice, slice], tuple[slice, slice]]]:
    """The eight neighbours' offsets (rows, columns) with their `_beside` slices."""
    return [(dy, dx, *_beside(size, dy, dx))
            for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)]


def at_ceiling(light: np.ndarray, cfg: LightConfig = LIGHT) -> np.ndarray:
    """Where the lightness ``light`` (any shape, OpenCV's 0..255 Lab L) is at the sensor's
    ceiling: as light as a grey whose channels all reach ``cfg.clip_level``. There the
    exposure clipped the wood and a white stone alike; neither keeps a colour to tell."""
    out: np.ndarray = light >= _grey_lightness(cfg.clip_level)
    return out


def _grey_lightness(level: int) -> float:
    """The lightness (OpenCV's 0..255 Lab L) of a grey whose three channels are ``level``."""
    return float(_grey_lightnesses()[level])


@functools.cache
def _grey_lightnesses() -> np.ndarray:
    """The lightness (OpenCV's 0..255 Lab L, uint8) of a grey of each level 0..255, (256,):
    worked out once."""
    greys = np.repeat(np.arange(256, dtype=np.uint8)[:, None, None], 3, axis=2)
    out: np.ndarray = cv2.cvtColor(greys, cv2.COLOR_BGR2LAB)[:, 0, 0]
    return out


def _two_means(colours: np.ndarray, rounds: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The centres (2, 3) of the two clusters of ``colours`` (m, 3) that k-means settles on
    from the darkest colour and the one farthest from it (in at most ``rounds``), and each
    colour's cluster (m,); None if one cluster empties."""
    first = colours[int(np.argmin(colours[:, 0]))]
    second = colours[int(np.argmax(np.linalg.norm(colours - first, axis=1)))]
    centres = np.array([first, second])
    for _ in range(rounds):
        own = np.linalg.norm(colours[:, None] - centres[None], axis=2).argmin(axis=1)
        if not (own == 0).any() or not (own == 1).any():
            return None
        moved = np.array([colours[own == k].mean(axis=0) for k in (0, 1)])
        if np.allclose(moved, centres):
            break
        centres = moved
    return centres, np.linalg.norm(colours[:, None] - centres[None], axis=2).argmin(axis=1)


def _two_sets(f: PointFeatures, labels: np.ndarray, confidence: np.ndarray, level: float,
              cfg: StoneConfig) -> tuple[np.ndarray, np.ndarray]:
    """``labels`` and ``confidence`` read again as a set of two colours other than black
    and white, where the stones are one; else as given.

    Colours are taken relative to the wood around each point: lightness as a share of the
    wood's (in hundredths), tint (Lab a, b) less the wood's. The points read as stones, and
    those whose colour lies ``cfg.set_tint`` off the wood's where no cross of lines shows,
    fall into two clusters (`_two_means`). If their tints lie ``cfg.set_split`` apart, and
    they are not black and white (the darker grey to within ``cfg.black_tint``, the other
    lighter than the wood, however a lamp tints it; nor shades of one light's colour, below),
    each point where no cross of lines shows is read as the nearest of the wood and the
    two clusters, the darker cluster black (the first player's), or the lighter if
    ``cfg.lighter_black``. Black and white stones are read as they are but for pale ones
    (`_pale_whites`).

    Where the darker stones are not grey, the lighter ones may be coloured nearly like the
    wood, and on a crowded board every cell centre lies under a stone: the wood is then
    also seen at the points whose cross of lines shows (`_crossed_wood`), and colours are
    weighed in units of the bare wood's own spread (`_spread`). Not where a colour channel
    is at the sensor's ceiling over more than ``cfg.set_clipped`` of the board: a lamp's
    cast strong enough for that, not the stones, tints the dark ones, and the wood's
    colour in that channel is not seen. Nor where the darker stones are grey under the
    light the lighter ones show (`_grey_under_lamp`): black and white stones under a
    coloured lamp the balance leaves. A lamp scales black and white stones' channels
    alike, so it makes them shades of one colour; it cannot do that to a set of two
    colours. That holds however far apart the two tints lie where the lighter cluster is
    no lighter than the wood: a violet or magenta lamp tints the white stones far from
    grey and clips them to the wood's lightness, and the lighter cluster is not theirs."""
    hidden = _lines_hidden(f, level, cfg)
    dirty = _stone_covered(labels != Cell.EMPTY)
    wood = np.stack([local_wood(plane, dirty, cfg.wood_reach) for plane in
                     (f.centre_light, f.centre_tint[..., 0], f.centre_tint[..., 1])], axis=-1)
    found = _clusters(f, labels, hidden, wood, cfg)
    if found is None:
        return labels, confidence
    colour, occupied, centres, own = found
    dark = int(np.argmin(centres[:, 0]))
    grey = _grey(f, occupied, centres, own, cfg)
    lamp = _grey_under_lamp(f, occupied, own, dark, cfg)
    if (np.linalg.norm(centres[0, 1:] - centres[1, 1:]) < cfg.set_split
            or (grey and centres[1 - dark, 0] > 0) or (lamp and centres[1 - dark, 0] <= 0)):
        arms = f.arms / max(level, 1.0)
        plainest, looked = _plainest_arm(arms)
        unread = (hidden & (plainest < cfg.pale_arm * cfg.line_seen) & (looked >= 2)
                  & (labels == Cell.EMPTY))
        if (grey or np.linalg.norm(centres[1 - dark, 1:]) >= cfg.set_tint
                or unread.sum() <= (labels == Cell.WHITE).sum()
                or f.clipped > cfg.set_clipped or lamp):
            return _pale_whites(labels, confidence, colour, hidden, arms, centres[1 - dark],
                                None, cfg)
        # Not black stones: the other set may be coloured like the wood, and where stones
        # crowd, the centres around a point are under them, read or not.
        again = _clusters(f, labels, hidden, _crossed_wood(
            f, _stone_covered((labels != Cell.EMPTY) | hidden), hidden, wood, cfg), cfg)
        if again is not None:
            colour, _, centres, _ = again
            dark = int(np.argmin(centres[:, 0]))
        spread = _spread(colour[~hidden]) if (~hidden).sum() >= 2 else np.ones(3)
        return _pale_whites(labels, confidence, colour / spread, hidden, arms,
                            centres[1 - dark] / spread, centres[dark] / spread, cfg)
    black = 1 - dark if cfg.lighter_black else dark
    # Distances to the wood (the origin), the black and the white cluster.
    ends = np.array([np.zeros(3), centres[black], centres[1 - black]])
    apart = np.linalg.norm(colour[..., None, :] - ends, axis=-1)  # (n, n, 3)
    white = _white(cfg, nearer=(apart[..., 2], np.minimum(apart[..., 0], apart[..., 1]))) > 0
    nearest = np.where(white, Cell.WHITE,
                       np.where(apart[..., 1] < apart[..., 0], Cell.BLACK, Cell.EMPTY))
    sets = np.where(hidden, nearest, Cell.EMPTY)
    two = np.sort(apart, axis=-1)[..., :2]
    return sets.astype(labels.dtype), np.where(hidden, _nearer(two[..., 0], two[..., 1], cfg),
                                               confidence)


def _clusters(f: PointFeatures, labels: np.ndarray, hidden: np.ndarray, wood: np.ndarray,
              cfg: StoneConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                         np.ndarray] | None:
    """Each point's colour (size, size, 3) against ``wood`` (size, size, 3: lightness, tint
    a and b): lightness as a share of the wood's (in hundredths), tint less the wood's; the
    points taken to hold stones (size, size): read as stones, or hidden (``hidden``) and
    ``cfg.set_tint`` off the wood in colour; and the `_two_means` of their colours. None
    where fewer than two points hold stones, or they are of one colour."""
    colour = np.concatenate([(100.0 * (f.light - wood[..., 0]) / np.maximum(wood[..., 0], 1.0))
                             [..., None], f.tint - wood[..., 1:]], axis=-1)
    occupied = (labels != Cell.EMPTY) | (hidden
                                         & (np.linalg.norm(colour, axis=-1) > cfg.set_tint))
    if occupied.sum() < 2:
        return None
    clusters = _two_means(colour[occupied], cfg.set_rounds)
    if clusters is None:
        return None
    return colour, occupied, *clusters


def _grey(f: PointFeatures, occupied: np.ndarray, centres: np.ndarray, own: np.ndarray,
          cfg: StoneConfig) -> bool:
    """Whether the darker of the two clusters of stone colour ``centres`` (2, 3) (``own``,
    each ``occupied`` point's cluster) is grey to within ``cfg.black_tint``: black stones."""
    dark = int(np.argmin(centres[:, 0]))
    return bool(np.linalg.norm(np.median(f.tint[occupied][own == dark], axis=0))
                < cfg.black_tint)


def _grey_under_lamp(f: PointFeatures, occupied: np.ndarray, own: np.ndarray, dark: int,
                     cfg: StoneConfig) -> bool:
    """Whether the stones of cluster ``dark`` (``own``, each ``occupied`` point's cluster)
    are grey to within ``cfg.black_tint`` under the light the other cluster's stones show:
    their median tint less the tint a grey of their median lightness takes in a light
    whose white has the other stones' median colour (`_lamp_tint`). A weak coloured lamp,
    which the balance (`vision.illuminant.under_white`) leaves as it is, tints black and
    white stones alike, the white ones most: the two then lie on one line of shades of
    the lamp's colour, as stones of two colours do not."""
    mine, other = occupied.copy(), occupied.copy()
    mine[occupied], other[occupied] = own == dark, own != dark
    white = _lamp_tint(float(np.median(f.light[other])), np.median(f.tint[other], axis=0),
                       float(np.median(f.light[mine])))
    return bool(np.linalg.norm(np.median(f.tint[mine], axis=0) - white) < cfg.black_tint)


def _lamp_tint(light: float, tint: np.ndarray, at: float) -> np.ndarray:
    """(2,) the tint (Lab a, b) of a grey of lightness ``at`` (OpenCV's 0..255 Lab L) in
    a light whose white has lightness ``light`` and tint ``tint`` (2,): that white's
    colour (BGR) scaled down until its lightness is ``at``, as a lamp's gains scale a
    grey's channels, whatever its level."""
    white = cv2.cvtColor(np.array([[[light * 100.0 / 255.0, *tint]]], np.float32),
                         cv2.COLOR_Lab2BGR).reshape(1, 3)
    shades = np.linspace(0.0, 1.0, 256, dtype=np.float32)[:, None] * white
    lab = cv2.cvtColor(shades[:, None, :], cv2.COLOR_BGR2Lab).reshape(-1, 3)
    out: np.ndarray = lab[int(np.argmin(np.abs(lab[:, 0] - at * 100.0 / 255.0))), 1:]
    return out.astype(np.float64)


def _crossed_wood(f: PointFeatures, covered: np.ndarray, hidden: np.ndarray,
                  wood: np.ndarray, cfg: StoneConfig) -> np.ndarray:
    """``wood`` (size, size, 3: lightness, tint a and b) with the points that have no cell
    centre within ``cfg.crossed_wood`` cells clear of ``covered`` (k, k) given instead the
    median colour of the points within as many points whose cross of lines shows (not
    ``hidden``): those are bare wood. On a board crowded with stones coloured like the wood,
    the centres around a point are under stones too, read or not."""
    n, r = hidden.shape[0], cfg.crossed_wood
    clear = np.zeros_like(covered)
    clear[1:-1, 1:-1] = ~covered[1:-1, 1:-1]
    padded = np.pad(clear, r - 1)
    near = np.zeros((n, n), bool)
    for dy in range(2 * r):
        for dx in range(2 * r):
            near |= padded[dy:dy + n, dx:dx + n]
    far = ~near
    if not far.any() or hidden.all():
        return wood
    points = np.concatenate([f.light[..., None], f.tint], axis=-1)
    bare = np.where(hidden[..., None], np.nan, points)
    out = wood.copy()
    for y, x in zip(*np.nonzero(far)):
        around = bare[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3)
        if not np.isnan(around[:, 0]).all():
            out[y, x] = np.nanmedian(around, axis=0)
    return out


def _spread(colours: np.ndarray) -> np.ndarray:
    """How far the ``colours`` (m, c) of bare wood stray from their median in each
    channel (the median absolute deviation, at least 1: a grey level's noise)."""
    out: np.ndarray = np.maximum(
        np.median(np.abs(colours - np.median(colours, axis=0)), axis=0), 1.0)
    return out


def _pale_whites(labels: np.ndarray, confidence: np.ndarray, colour: np.ndarray,
                 hidden: np.ndarray, arms: np.ndarray, pale: np.ndarray,
                 dark: np.ndarray | None, cfg: StoneConfig) -> tuple[np.ndarray, np.ndarray]:
    """``labels`` and ``confidence`` with the points read empty where no cross of lines
    shows and no arm of it either (``arms`` (n, n, 4) in grey levels over the wood's, see
    `arm_contrast`; under ``cfg.pale_arm`` times `line_seen`, of two arms at least along
    the board and not leant over), but lighter than the wood and nearer in ``colour`` (n,
    n, 3) to the lighter stones' cluster ``pale`` (3,) than to the wood, read white: cream
    stones, or white ones in dim light, that do not rise `white_rise` over the wood. A
    stone leaning over an empty point hides its cross, but not all four arms.

    With ``dark`` (3,), the cluster of darker stones that are not grey, ``colour`` comes
    in units of the bare wood's own spread (`_spread`): lighter than the wood then means
    to within ``cfg.pale_stray`` of it. And where the median colour of the points so
    covered lies ``cfg.set_apart`` spreads or more from the wood's, and nearer it than
    ``dark``, they are no wood under faint lines and no black stones but stones of the
    lighter set, perhaps coloured nearly like the wood and under their own shading even
    darker than it: that median is taken for the lighter stones, which need not be lighter
    than the wood, and each such point is read white where it lies nearer them than the
    wood and ``dark``."""
    plainest, looked = _plainest_arm(arms)
    armless = (plainest < cfg.pale_arm * cfg.line_seen) & (looked >= 2)
    covered = hidden & armless & (labels == Cell.EMPTY)
    if not covered.any():
        return labels, confidence
    rise: np.ndarray | None = colour[..., 0]
    to_other = np.linalg.norm(colour, axis=-1)  # to the wood
    if dark is not None:
        rise = colour[..., 0] + cfg.pale_stray
        own = np.median(colour[covered], axis=0)
        if cfg.set_apart <= np.linalg.norm(own) < np.linalg.norm(own - dark):
            pale, rise = own, None
            to_other = np.minimum(to_other, np.linalg.norm(colour - dark, axis=-1))
    if rise is not None and pale[0] <= 0:
        return labels, confidence
    to_pale = np.linalg.norm(colour - pale, axis=-1)
    white = covered & (_white(cfg, rise, nearer=(to_pale, to_other)) > 0)
    return (np.where(white, Cell.WHITE, labels),
            np.where(white, _nearer(to_pale, to_other, cfg), confidence))


def _plainest_arm(arms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The plainest arm of each point's cross along the board, in the units of ``arms``
    (size, size, 4; see `arm_contrast`), -inf where none was looked at, and how many were
    (size, size): not the arms running off the board, nor those a stone on the point would
    lean over (which count 0)."""
    looked = _on_board(arms.shape[0]) & (arms != 0.0)
    plainest: np.ndarray = np.where(looked, arms, -np.inf).max(axis=-1)
    return plainest, looked.sum(axis=-1)


def _closer(chosen: np.ndarray, other: np.ndarray) -> np.ndarray:
    """How much nearer a colour lies to the end it lies ``chosen`` from than to the one it
    lies ``other`` from, as a margin (`_sure`): the difference over the two's mean."""
    out: np.ndarray = 2.0 * (other - chosen) / (chosen + other + 1e-9)
    return out


def _nearer(chosen: np.ndarray, other: np.ndarray, cfg: StoneConfig) -> np.ndarray:
    """The confidence, in [0.5, 1], of a colour read as the end it lies ``chosen`` from
    rather than the one it lies ``other`` from (`_closer`)."""
    return _sure(_closer(chosen, other), cfg)


def read_stones(image: np.ndarray, homography: np.ndarray, size: int,
                cfg: StoneConfig = STONES, light: LightConfig = LIGHT,
                net: PointNetConfig | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Labels and confidences (size, size), row 0 at the top, for the grid ``homography``
    (the sensor's ceiling, `at_ceiling`, that of ``light``): each point as `seen` reads
    it with the learned reader ``net``, the reading then made to make sense as Go
    (`resolve_captured`); without ``net``, the measured reading made to make sense as Go,
    then its confidence `doubt`ed. (`read_from` of `stone_inputs`.)"""
    return read_from(*stone_inputs(image, homography, size, cfg, light, net), cfg, light, net)


def stone_inputs(image: np.ndarray, homography: np.ndarray, size: int,
                 cfg: StoneConfig = STONES, light: LightConfig = LIGHT,
                 net: PointNetConfig | None = None) -> tuple[PointFeatures, np.ndarray | None]:
    """All the stone stage takes from ``image`` for the grid ``homography``: the points'
    `features` and, with ``net``, the learned reader's scores (size, size, 5;
    `vision.point_net.point_scores`), None without it. What `read_from` reads."""
    f = features(image, homography, size, cfg, light)
    if net is None:
        return f, None
    return f, point_scores(image, homography, size, net, net.lift, camera=cfg)


def read_from(f: PointFeatures, scores: np.ndarray | None, cfg: StoneConfig = STONES,
              light: LightConfig = LIGHT, net: PointNetConfig | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """`read_stones` from its `stone_inputs`, no image needed: ``f`` and, with ``net``, its
    ``scores`` (which must then be given: ValueError without them)."""
    if net is not None:
        return resolve_captured(*seen_from(f, scores, cfg, light, net), cfg.resolve_below)
    raw, sure, first = judged(f, cfg, light)
    labels, conf = resolve_captured(raw, sure, cfg.resolve_below)
    return labels, doubt(f, labels, conf, cfg, first=first)


def seen(image: np.ndarray, homography: np.ndarray, size: int, cfg: StoneConfig,
         light: LightConfig, net: PointNetConfig | None) -> tuple[np.ndarray, np.ndarray]:
    """Each point's label and confidence (size, size) as the picture shows it, before the
    reading is made to make sense as Go (`seen_from` of `stone_inputs`)."""
    return seen_from(*stone_inputs(image, homography, size, cfg, light, net), cfg, light, net)


def seen_from(f: PointFeatures, scores: np.ndarray | None, cfg: StoneConfig,
              light: LightConfig, net: PointNetConfig | None) -> tuple[np.ndarray, np.ndarray]:
    """Each point's label and confidence (size, size) as the picture shows it (``f``, and
    with ``net`` the learned reader's ``scores``), before the reading is made to make sense
    as Go: the measured reading (`judged`, its confidence `doubt`ed, with ``net`` in the
    light of how nearly the net finds each point hidden), and with ``net`` that
    reading and the learned reader's (`vision.point_net`) on the same grid weighed
    together (`fused`), no surer than ``cfg.ceiling_unsure`` where the net overruled the
    measured reader on a point the picture shows `washed_out`. ValueError where ``net``
    is given without ``scores``."""
    labels, sure, first = judged(f, cfg, light)
    if net is None:
        return labels, doubt(f, labels, sure, cfg, first=first)
    if scores is None:
        raise ValueError("the learned reader's config is given but not its scores")
    hidden = np.clip(scores[:, :, HIDDEN] / net.hidden_at, 0.0, 1.0)
    conf = doubt(f, labels, sure, cfg, first=first, hidden=hidden)
    dark = Cell.BLACK
    if cfg.lighter_black:  # the net's darker stones are the lighter player's
        scores, dark = scores[:, :, [Cell.EMPTY, Cell.WHITE, Cell.BLACK, HIDDEN, OFF]], Cell.WHITE
    out, out_conf = fused(labels, conf, scores, net, dark)
    # Where the picture shows nothing but the sensor's ceiling, one reader overruling the
    # other does so on no evidence the other lacked.
    overruled = (out != labels) & washed_out(f, cfg, light)
    return out, np.where(overruled, np.minimum(out_conf, cfg.ceiling_unsure), out_conf)


def fused(labels: np.ndarray, confidence: np.ndarray, scores: np.ndarray,
          cfg: PointNetConfig, dark: int = Cell.BLACK) -> tuple[np.ndarray, np.ndarray]:
    """Two readers' opinions of each point weighed as independent witnesses: the measured
    ``labels`` read with ``confidence`` (size, size; at least a third, the label chosen
    being no less likely than either other, which share what is left) and the learned
    reader's probabilities ``scores`` (size, size, 5: EMPTY, BLACK, WHITE, hidden, off;
    `vision.point_net.LABELS`), each kept within ``cfg.fuse_floor`` of certainty,
    multiplied. Returns the label each point is likeliest to be and that
    probability: where the two agree it is surer than either, where they differ the surer
    one wins by what the other doubts, and where both doubt, so does the reading.

    The net's three labels of what lies on a point are weighed as it gives them for a
    point it sees; how likely the point is hidden under something that is no stone (a
    hand, a sleeve, an object), or no intersection of the board at all (the grid off
    there), is taken off the probability. A point likelier hidden than not
    (``cfg.hidden_at``) is read empty, the picture not showing what lies there and empty
    being what most points are, unless both readers see the set's darker stone (``dark``)
    there more surely still: the net's probability of it times the measured reader's past a
    third of the net's of hidden (what hides a point would leave the measured reader's
    label a chance in three). What hides points is mostly light, and read white by the
    measured reader, so a light stone is not kept so. A dark stone the net half sees (a
    steep view, a shadow over it) stays, its confidence no more than the chance it is seen."""
    floor = cfg.fuse_floor
    # A confidence under a third (a `doubt`) leaves the point undecided by the measured
    # reader, not decided against the label it chose as the likeliest.
    c = np.clip(confidence, 1.0 / 3.0, 1.0 - floor)
    measured = np.repeat(((1.0 - c) / 2.0)[:, :, None], 3, axis=2)
    np.put_along_axis(measured, labels[:, :, None].astype(np.int64), c[:, :, None], axis=2)
    shown = scores[:, :, :HIDDEN].sum(axis=2)
    visible = scores[:, :, :HIDDEN] / np.maximum(shown, 1e-9)[:, :, None]
    joint = measured * np.clip(visible, floor, 1.0)
    joint /= joint.sum(axis=2, keepdims=True)
    out = joint.argmax(axis=2)
    sure = np.take_along_axis(joint, out[:, :, None], axis=2)[:, :, 0] * shown
    # Hidden is a fourth thing a point may be. What hides points in photos is mostly light
    # (glare, a flash's hot spot, sunlight, skin), and the measured reader reads it a white
    # stone; a dark stone it saw is no such mistake, and under something hiding the point
    # would be one label in three.
    hidden = scores[:, :, HIDDEN]
    seen_dark = measured[:, :, dark] * np.clip(scores[:, :, dark], floor, 1.0)
    covered = (hidden >= cfg.hidden_at) & ((labels != dark) | (hidden / 3.0 > seen_dark))
    out = np.where(covered, Cell.EMPTY, out)
    return out.astype(labels.dtype), sure


def doubt(f: PointFeatures, labels: np.ndarray, confidence: np.ndarray,
          cfg: StoneConfig = STONES, *, first: tuple[np.ndarray, np.ndarray],
          hidden: np.ndarray | None = None) -> np.ndarray:
    """``confidence`` (size, size) of ``labels`` read from ``f`` lowered wherever other
    evidence doubts them: the wood nearest a point in the same light tells otherwise, or
    the point is lighter and paler than that wood with its cross hidden (`_doubted`;
    ``first`` is that judgement, as `judged` gave it; ``hidden`` (size, size), where the
    learned reader is at hand, how nearly it finds each point hidden, 0 to 1), or a stone
    read is no disc on its point (`flat_doubt`). The labels stay as read. Every reader of
    stones (a photo, a watched camera) gives this confidence."""
    return flat_doubt(f, labels, _doubted(f, labels, confidence, first, cfg, hidden), cfg)


def _doubted(f: PointFeatures, labels: np.ndarray, confidence: np.ndarray,
             first: tuple[np.ndarray, np.ndarray], cfg: StoneConfig,
             hidden: np.ndarray | None = None) -> np.ndarray:
    """``confidence`` lowered where the evidence disagrees with ``labels``, which stay as
    read. Judged against only the wood nearest it (the four cell centres around it, in the
    same light), a point may read otherwise than against the clean wood `classify` settles
    on (``first``, `judged`'s first judgement):

    - then both opinions count, as odds multiplied: a flash's hot spot or a patch of
      sunlight washes the colour out of the point and the wood beside it alike, while the
      clean wood it is judged against at last may lie outside, in other light;
    - and where that nearest judgement saw a stone but the point is read empty with every
      arm of its cross along the board hidden (the plainest under ``cfg.hidden_arm`` times
      `line_seen` of the board's wood lightness; arms a stone would lean over not
      counted), something covers the point all the same (a white stone washed out in
      sunlight): the confidence falls towards one half as the plainest arm fades;
    - and so too where the point is read empty with every arm hidden though it is lighter
      and paler than that nearest wood (`_paler_lighter`): a white stone an exposure lifts
      to near the wood's lightness, judged against that wood, is no stone, yet no bare wood
      is so. Something light lying over the point (a hand's skin, paper) looks the same;
      the learned reader tells the two apart, so that doubt fades as it finds the point
      hidden (``hidden``, 1 where `fused` reads the point empty as hidden anyway)."""
    level = f.level
    was, sure = first
    odds = confidence / np.maximum(1.0 - confidence, 1e-6)
    against = (1.0 - sure) / np.maximum(sure, 1e-6)
    both = odds * against / (1.0 + odds * against)
    out = np.where(labels != was, np.minimum(confidence, both), confidence)
    plainest, looked = _plainest_arm(f.arms)
    shown = np.clip(plainest / max(level, 1.0) / (cfg.hidden_arm * cfg.line_seen), 0.0, 1.0)
    read_empty = (labels == Cell.EMPTY) & (looked > 0)
    out = np.where(read_empty & (was != Cell.EMPTY), np.minimum(out, 0.5 + 0.5 * shown), out)
    lifted = read_empty & _paler_lighter(f, cfg)
    if hidden is not None:
        shown = np.maximum(shown, hidden)
    result: np.ndarray = np.where(lifted, np.minimum(out, 0.5 + 0.5 * shown), out)
    return result


def _paler_lighter(f: PointFeatures, cfg: StoneConfig) -> np.ndarray:
    """The points (size, size) lighter than the wood nearest them (`local_wood`) and paler
    in chroma, each by more than the bare wood's own spread (`_spread` of the `bare_wood`
    centres), on wood coloured at least ``cfg.white_wood_chroma``: what a white stone an
    exposure lifts to near the wood's lightness looks like, though it rises less than
    `white_rise` over it. Grey wood has no colour to lose."""
    bare = bare_wood(f, cfg)
    if bare.sum() < 2:
        return np.zeros(f.light.shape, bool)
    light_spread, chroma_spread = _spread(np.stack(
        [f.centre_light[bare], f.centre_chroma[bare]], axis=1))
    wood_chroma = local_wood(f.centre_chroma)
    out: np.ndarray = ((f.light > local_wood(f.centre_light) + light_spread)
                       & (f.chroma < wood_chroma - chroma_spread)
                       & (wood_chroma >= cfg.white_wood_chroma))
    return out


def flat_doubt(f: PointFeatures, labels: np.ndarray, conf: np.ndarray,
               cfg: StoneConfig = STONES) -> np.ndarray:
    """``conf`` no higher at a point read as a stone than how plainly it is a disc on its
    point (`_disc_like`): the labels stay as read, but a stone read where something flat
    and wide lies (an object, a hand, glare) is not read surely."""
    level = f.level
    disc = _sure(_disc_like(f, level, cfg), cfg)
    out: np.ndarray = np.where(labels != Cell.EMPTY, np.minimum(conf, disc), conf)
    return out


def _strings(labels: np.ndarray) -> list[tuple[list[tuple[int, int]], bool]]:
    """Each string of stones in ``labels`` (size, size) as (its points (row, column), whether
    it has a liberty): `rules.strings` on the labels as cells, row by row."""
    n = labels.shape[0]
    found = strings(labels.shape[1], n, [int(c) for c in labels.ravel()])
    return [([(p.y, p.x) for p in s.stones], bool(s.liberties)) for s in found]


def resolve_captured(labels: np.ndarray, conf: np.ndarray,
                     unsure: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Labels with no string left without liberties where that can be blamed on a doubtful
    reading: while a string has none, its least certain stone (or the least certain
    neighbouring stone of the other colour, whichever is less sure) is read as empty, if
    its confidence is under ``unsure``. A string read with confidence all round is left
    alone: on a real board, stones a move has captured lie there until they are lifted.
    Returns new arrays; confidences of changed points are lowered."""
    labels, conf = labels.copy(), conf.copy()
    n = labels.shape[0]
    kept: set[tuple[int, int]] = set()  # strings without liberties that were read surely
    for _ in range(labels.size):
        dead = [pts for pts, free in _strings(labels) if not free and min(pts) not in kept]
        if not dead:
            break
        pts = min(dead, key=lambda ps: min(conf[p] for p in ps))
        around = {(r + dr, c + dc) for r, c in pts for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if 0 <= r + dr < n and 0 <= c + dc < n} - set(pts)
        worst = min(list(pts) + list(around), key=lambda p: conf[p])
        if conf[worst] >= unsure:
            kept.add(min(pts))
            continue
        labels[worst] = Cell.EMPTY
        conf[worst] = 0.5 * conf[worst]
    return labels, conf
