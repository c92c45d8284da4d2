"""A learned reader of the board: a small convolutional net that says, at any place of a
located grid, how likely it is an empty intersection, one with the darker player's stone
or the lighter player's, one hidden under something that is no stone (a hand, a sleeve, a
pen), or no intersection of the board at all (between its lines, or beyond its outer
lines), from the board as a person looks at it (the disc, its rim and shadow, the lines
it hides, the wood's edge), in any light.

The net sees the board rectified (`board_input`): intersection (i, j) at pixel
``cell * (i + m, j + m)``, ``m`` cells of margin all round, each channel divided by the
wood's own colour there (`wood_colour`), so a lamp's hue and the exposure are divided out
before it looks. It answers with a map of five scores per pixel at a quarter of that
resolution (`look`), read where a stone's body would be seen at each place
(`sample_points`: moved by the stones' lift under an oblique camera,
`vision.grid.lift_shift`). Its reading of the stones is weighed with the measured one
(`vision.stones.fused`); its `belief` that a grid is the board's own decides between the
grids the lines and stones leave in doubt (`vision.locate.net_judged`). Training
(`vision/training/points.py`, PyTorch, never run by the tests) and reading share this
module, so what the net was taught on is what it is shown.

The weights are `vision/models/points.onnx`, run by OpenCV's dnn module on the CPU.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import cv2
import numpy as np

from . import grid
from .config import STONES, PointNetConfig, StoneConfig

MODEL = Path(__file__).with_name("models") / "points.onnx"
"""The trained net's weights (ONNX), shipped with the package."""
HIDDEN = 3
"""The net's fourth label, after `rules.Cell`'s EMPTY, BLACK and WHITE: the point is
covered by something that is no stone, and the picture does not show what lies there."""
OFF = 4
"""The net's fifth label: the place is no intersection of the board (between its lines,
or beyond its outer lines): the grid it was read on is not the board's there."""
LABELS = ("empty", "darker", "lighter", "hidden", "off")
"""The net's labels, in the order of its scores."""


def cell_pixels(homography: np.ndarray, size: int) -> float:
    """The median length (px) of a cell's side in the picture: the distance between
    neighbouring intersections of the grid ``homography`` of ``size`` lines."""
    pts = grid.apply(homography, grid.lattice(size)).reshape(size, size, 2)
    across = np.linalg.norm(np.diff(pts, axis=1), axis=-1).ravel()
    down = np.linalg.norm(np.diff(pts, axis=0), axis=-1).ravel()
    return float(np.median(np.concatenate([across, down])))


def rectified(image: np.ndarray, homography: np.ndarray, size: int, cell: int,
              margin: int = 1) -> np.ndarray:
    """The board of ``image`` (uint8 BGR, BGRA or grey) warped so that intersection (i, j)
    lies at pixel ``cell * (i + margin, j + margin)``: uint8 BGR, ((size - 1 + 2 margin)
    * cell,) * 2 px, the picture's border repeated beyond its edge.

    A warp samples the picture, so where its cells are larger than ``cell`` the lines
    would alias: the part of the picture under the board is first shrunk by area
    averaging to cells of about ``cell``; where they are more than twice ``cell`` (a phone's
    12 MP photo), it is warped at twice ``cell`` instead and that halved by area, which
    costs a warp of the board's own size rather than a pass over every pixel of the
    photo, and samples its cells at most (picture cell / 2 ``cell``) apart."""
    bgr = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    bgr, h = bgr[:, :, :3], homography
    seen = cell_pixels(h, size)
    if seen > 2 * cell:
        # Halving puts pixel x at (x + 0.5) / 2 - 0.5: warped half a pixel on, the points
        # land where the other way puts them.
        return halved(_warped(bgr, h, size, 2 * cell, margin, 0.5))
    bgr, h = _around(bgr, h, size, margin)
    scale = cell / max(seen, 1e-6)
    if scale < 1.0:
        hh, ww = bgr.shape[:2]
        small = cv2.resize(bgr, (max(1, round(ww * scale)), max(1, round(hh * scale))),
                           interpolation=cv2.INTER_AREA)
        sx, sy = small.shape[1] / ww, small.shape[0] / hh
        # Pixel centres: x_small = (x + 0.5) s - 0.5, as cv2.resize samples.
        to_small = np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1.0]])
        bgr, h = small, to_small @ h
    return _warped(bgr, h, size, cell, margin)


def _warped(image: np.ndarray, homography: np.ndarray, size: int, cell: int,
            margin: int, offset: float = 0.0) -> np.ndarray:
    """``image`` warped (bilinear, border repeated) so that intersection (i, j) of the grid
    ``homography`` lies at pixel ``cell * (i + margin, j + margin) + offset``."""
    at = cell * margin + offset
    to_rect = np.array([[cell, 0, at], [0, cell, at], [0, 0, 1.0]])
    side = (size - 1 + 2 * margin) * cell
    out: np.ndarray = cv2.warpPerspective(image, to_rect @ np.linalg.inv(homography),
                                          (side, side), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out


def _around(image: np.ndarray, homography: np.ndarray, size: int,
            margin: int) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``image`` that the board with ``margin`` cells round it (and one more
    cell) covers, and the grid ``homography`` in its pixels: only that part need be shrunk.
    The whole picture where the board's square reaches behind the camera (no part of the
    picture is then sure to hold it all)."""
    reach = margin + 1.0
    square = np.array([[-reach, -reach], [size - 1 + reach, -reach],
                       [size - 1 + reach, size - 1 + reach], [-reach, size - 1 + reach]])
    seen = homography @ np.c_[square, np.ones(4)].T
    if (seen[2] <= 0).any():
        return image, homography
    xy = (seen[:2] / seen[2]).T
    hh, ww = image.shape[:2]
    x0, y0 = (max(0, int(np.floor(v))) for v in xy.min(axis=0))
    x1, y1 = min(ww, int(np.ceil(xy[:, 0].max())) + 1), min(hh, int(np.ceil(xy[:, 1].max())) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return image, homography
    moved = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]]) @ homography
    return image[y0:y1, x0:x1], moved


def halved(rect: np.ndarray) -> np.ndarray:
    """``rect`` at half its side, by area averaging: a board rectified at twice the net's
    cell (`rectified`) becomes what the net sees, each of its pixels the mean of four."""
    h, w = rect.shape[:2]
    out: np.ndarray = cv2.resize(rect, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return out


def wood_colour(rect: np.ndarray, size: int, cfg: PointNetConfig) -> np.ndarray:
    """The wood's colour (3,) BGR in the board ``rect`` rectified at the net's cell with its
    margin: per channel, the median over the cell centres inside the grid of each centre's
    small mean. A cell centre is the place on a board farthest from every point, bare wood
    unless a stone sits off its point or leans over it, so the median is the wood's even
    on a crowded board."""
    c = cfg.cell
    r = max(1, int(round(cfg.wood_window * c)))
    blurred = cv2.blur(rect, (2 * r + 1, 2 * r + 1))
    at = (np.arange(size - 1) + cfg.margin + 0.5) * c
    ix = np.clip(np.round(at).astype(int), 0, rect.shape[1] - 1)
    samples = blurred[ix[:, None], ix[None, :]].reshape(-1, 3).astype(np.float64)
    out: np.ndarray = np.median(samples, axis=0)
    return out


def normalised(rect: np.ndarray, size: int, cfg: PointNetConfig) -> np.ndarray:
    """What the net is shown of the board rectified at its cell with its margin (``rect``,
    uint8 BGR): each channel divided by the `wood_colour`, less one (the wood 0, a black
    stone near -1, a white stone above 0 in the channels the wood is short of), clipped to
    ``cfg.input_range``; float32 (3, side, side)."""
    wood = np.maximum(wood_colour(rect, size, cfg), cfg.wood_floor)
    x = rect.astype(np.float32) / wood.astype(np.float32)[None, None, :] - 1.0
    lo, hi = cfg.input_range
    out: np.ndarray = np.clip(x, lo, hi).transpose(2, 0, 1).copy()
    return out


def board_input(image: np.ndarray, homography: np.ndarray, size: int,
                cfg: PointNetConfig) -> np.ndarray:
    """What the net is shown of the board whose grid ``homography`` gives in ``image``:
    `rectified` at twice its cell with its margin, `halved`, `normalised`; float32
    (3, side, side), side ``(size - 1 + 2 margin) * cfg.cell``."""
    rect = rectified(image, homography, size, 2 * cfg.cell, cfg.margin)
    return normalised(halved(rect), size, cfg)


def sample_points(homography: np.ndarray, shape: tuple[int, ...], size: int,
                  cfg: PointNetConfig, lift: float,
                  points: np.ndarray | None = None, camera: StoneConfig = STONES) -> np.ndarray:
    """Where the net's answer is read for each intersection, (size * size, 2) in pixels of
    its output map (row by row, row 0 at the grid's row 0): the point in the board as
    `board_input` shows it, moved by the stones' lift (`vision.grid.lift_shift` of a body
    ``lift`` cells up, for a picture of ``shape``, the camera as ``camera`` trusts it), at
    the output's stride. ``points`` (k, 2), where given, are places on the board (lattice
    units) to read instead."""
    pts = grid.lattice(size) if points is None else points
    shift = grid.lift_shift(homography, shape, size, lift, camera, points=pts)
    return map_points((pts + cfg.margin + shift) * (2 * cfg.cell), cfg)


def map_points(at: np.ndarray, cfg: PointNetConfig) -> np.ndarray:
    """Points ``at`` (k, 2) of a board rectified at twice the net's cell (`rectified`) in
    pixels of the net's output map: `halved` puts pixel x at (x + 0.5) / 2 - 0.5, and the
    net's output pixel u looks at its input's pixel ``u * cfg.stride``."""
    out: np.ndarray = ((at + 0.5) / 2.0 - 0.5) / cfg.stride
    return out


def bilinear(maps: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``maps`` (C, H, W) read at the points ``at`` (k, 2) (x, y) by bilinear
    interpolation, the border repeated: (k, C)."""
    _, hh, ww = maps.shape
    x = np.clip(at[:, 0], 0.0, ww - 1.0)
    y = np.clip(at[:, 1], 0.0, hh - 1.0)
    x0 = np.minimum(np.floor(x).astype(int), ww - 2) if ww > 1 else np.zeros(len(x), int)
    y0 = np.minimum(np.floor(y).astype(int), hh - 2) if hh > 1 else np.zeros(len(y), int)
    fx, fy = (x - x0)[:, None], (y - y0)[:, None]
    x1, y1 = np.minimum(x0 + 1, ww - 1), np.minimum(y0 + 1, hh - 1)
    m = maps.transpose(1, 2, 0)
    out: np.ndarray = (m[y0, x0] * (1 - fx) * (1 - fy) + m[y0, x1] * fx * (1 - fy)
                       + m[y1, x0] * (1 - fx) * fy + m[y1, x1] * fx * fy)
    return out


@functools.lru_cache(maxsize=4)
def _net(path: str) -> cv2.dnn.Net:
    """The net at ``path``, loaded once per process."""
    net = cv2.dnn.readNetFromONNX(path)
    return net


def available(path: Path = MODEL) -> bool:
    """Whether the net's weights are at ``path``."""
    return path.is_file()


@dataclasses.dataclass(frozen=True)
class Seen:
    """What the net made of a board: its ``logits`` (5, H, W) over the board as
    `board_input` showed it for the grid ``homography`` of ``size`` lines relabelled by
    the lattice symmetry ``facing`` (`vision.grid.facing`; ``cfg``'s margin round it) in a
    picture of ``shape``, the camera recovered as ``camera`` trusts it."""

    logits: np.ndarray
    homography: np.ndarray
    size: int
    shape: tuple[int, ...]
    cfg: PointNetConfig
    facing: np.ndarray = dataclasses.field(default_factory=lambda: np.eye(3))
    camera: StoneConfig = STONES

    def at(self, points: np.ndarray, lift: float) -> np.ndarray:
        """The probabilities (k, 5) of each label (`LABELS`) at the places ``points`` (k, 2;
        lattice units, any within the margin), a stone's body looked for ``lift`` cells
        up."""
        shown = grid.apply(np.linalg.inv(self.facing), np.asarray(points, dtype=np.float64))
        at = sample_points(self.homography @ self.facing, self.shape, self.size, self.cfg, lift,
                           shown, self.camera)
        z = bilinear(self.logits, at)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        out: np.ndarray = p / p.sum(axis=1, keepdims=True)
        return out


def look(image: np.ndarray, homography: np.ndarray, size: int, cfg: PointNetConfig,
         path: Path | None = None, camera: StoneConfig = STONES) -> Seen:
    """The net run over the board whose grid ``homography`` gives in ``image``, shown to
    it the same way up however the photo was turned (`vision.grid.facing`: the net,
    taught boards every way up, is not exactly alike under turns). A net taught fewer
    labels than `LABELS` gives the rest probability 0. The weights are at ``path``, else
    ``cfg.weights``, else `MODEL`; the camera is trusted as ``camera`` says
    (`StoneConfig.camera_axes`). Raises FileNotFoundError when they are missing."""
    if path is None:
        path = Path(cfg.weights) if cfg.weights else MODEL
    if not available(path):
        raise FileNotFoundError(f"no point net weights at {path}")
    facing = grid.facing(homography, image.shape, size, camera)
    x = board_input(image, homography @ facing, size, cfg)
    net = _net(str(path))
    net.setInput(x[None])
    logits = np.asarray(net.forward())[0].astype(np.float64)
    if len(logits) < len(LABELS):  # an older net, of fewer labels
        logits = np.concatenate([logits, np.full((len(LABELS) - len(logits),)
                                                 + logits.shape[1:], -np.inf)])
    return Seen(logits, homography, size, image.shape, cfg, facing, camera)


def scores_at(image: np.ndarray, homography: np.ndarray, size: int, cfg: PointNetConfig,
              lift: float, points: np.ndarray, path: Path | None = None,
              camera: StoneConfig = STONES) -> np.ndarray:
    """The net's probabilities (k, 5) of each label (`LABELS`) at the places ``points``
    (k, 2; lattice units) of the board whose grid ``homography`` gives in ``image``, a
    stone's body looked for ``lift`` cells up (`look`, then `Seen.at`)."""
    return look(image, homography, size, cfg, path, camera).at(points, lift)


def point_scores(image: np.ndarray, homography: np.ndarray, size: int,
                 cfg: PointNetConfig, lift: float, path: Path | None = None,
                 camera: StoneConfig = STONES) -> np.ndarray:
    """The net's probabilities (size, size, 5) of each label (`LABELS`) at every
    intersection of the grid ``homography`` in ``image``, row 0 at the grid's row 0
    (`scores_at` the lattice's points)."""
    out = scores_at(image, homography, size, cfg, lift, grid.lattice(size), path, camera)
    return out.reshape(size, size, len(LABELS))


def beyond(size: int) -> np.ndarray:
    """The places (4 (size + 1), 2; lattice units) one line beyond a grid of ``size`` lines
    all round: where the ring of points a larger grid would have lies, on the board's
    margin, its edge or what lies beyond."""
    k = np.arange(-1, size + 1, dtype=np.float64)
    ring = np.stack(np.meshgrid(k, k), axis=-1).reshape(-1, 2)
    out: np.ndarray = ring[((ring < 0) | (ring > size - 1)).any(axis=1)]
    return out


def belief(seen: Seen, lift: float, shift: tuple[int, int] = (0, 0),
           size: int | None = None, floor: float = 0.01) -> float:
    """How surely the net takes a grid to be the board's own, in [0, 1]: the grid of
    ``size`` lines (``seen``'s by default) whose first point is ``shift`` (columns, rows) off
    ``seen``'s, within the margin ``seen`` was looked at with. The geometric mean over its
    points of the chance each is an intersection of the board (not `OFF`), times the least
    over its four sides of the geometric mean of the chance that each place one line
    beyond that side (`beyond`) is none: a grid half a cell off has no point on one, a
    grid a line off or a patch of a larger board finds points beyond a side. Each place
    weighs by the chance it is seen (not `HIDDEN`: a hand over the board's edge says
    nothing of it); places out of the picture say nothing and are left out, and a side
    with none there counts 1. Probabilities are kept at least ``floor`` (no single place
    decides). All that times the share of the grid's points the picture shows
    (`vision.grid.shown_share`): the few points of a grid mostly out of the picture, a
    corner of a board seen whole, would vouch for it as if they were all of it."""
    n = seen.size if size is None else size
    offset = np.array(shift, dtype=np.float64)
    points = grid.lattice(n) + offset
    ring = beyond(n) + offset
    places = np.concatenate([points, ring])
    p = seen.at(places, lift)
    h_img, w_img = seen.shape[:2]
    xy = grid.apply(seen.homography, places)
    framed = (xy[:, 0] >= 0) & (xy[:, 0] <= w_img - 1) & (xy[:, 1] >= 0) & (xy[:, 1] <= h_img - 1)
    weight = np.where(framed, 1.0 - p[:, HIDDEN], 0.0)
    k = len(points)
    on = np.log(np.clip(1.0 - p[:k, OFF], floor, 1.0))
    inside = _weighed(on, weight[:k])
    off = np.log(np.clip(p[k:, OFF], floor, 1.0))
    local = ring - offset
    sides = (local[:, 0] < 0, local[:, 0] > n - 1, local[:, 1] < 0, local[:, 1] > n - 1)
    least = min(_weighed(off[side], weight[k:][side]) for side in sides)
    shown = grid.shown_share(grid.shifted(seen.homography, *shift), n, seen.shape)
    return inside * least * shown


def _weighed(logs: np.ndarray, weights: np.ndarray) -> float:
    """The geometric mean exp(sum w log q / sum w) of the ``logs`` weighed by ``weights``;
    1 where they weigh (next to) nothing."""
    total = float(weights.sum())
    return 1.0 if total < 1e-6 else float(np.exp((weights * logs).sum() / total))
