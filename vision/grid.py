"""Lattice geometry: a board's grid as a homography from lattice to image coordinates.

Lattice coordinates ``(i, j)`` put intersection column ``i`` (0 at the left of the image's
view of the board) and row ``j`` (0 at the top) at the point ``(i, j)``; a homography ``H``
(3x3) takes them to image pixels ``(x, y)``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .config import STONES, StoneConfig


def apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points ``pts`` (n, 2) mapped through the homography ``h`` (3, 3); returns (n, 2)."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.c_[p, np.ones(len(p))] @ np.asarray(h, dtype=np.float64).T
    out: np.ndarray = q[:, :2] / q[:, 2:3]
    return out


def shows(h: np.ndarray) -> bool:
    """Whether the homography ``h`` (3, 3) is a grid a picture could show: finite, and
    neither degenerate (its determinant, scaled to ``h[2, 2]`` = 1, not 0) nor taking the
    lattice's origin to infinity (``h[2, 2]`` not 0)."""
    return bool(np.isfinite(h).all()) and abs(float(h[2, 2])) >= 1e-12 \
        and abs(float(np.linalg.det(h / h[2, 2]))) >= 1e-12


def shown_share(h: np.ndarray, size: int, shape: tuple[int, ...]) -> float:
    """The share of the ``size`` x ``size`` intersections of the grid ``h`` that a picture
    of ``shape`` shows: inside it, or less than half a cell (the cell there) past its
    border, where a line along the border may be cut. A reading speaks only for the part
    of a grid the picture shows."""
    pts = apply(h, lattice(size)).reshape(size, size, 2)
    if not np.isfinite(pts).all():
        return 0.0
    step = np.full((size, size), np.inf)
    for axis in (0, 1):
        gap = np.linalg.norm(np.diff(pts, axis=axis), axis=2)
        for pad in ((1, 0), (0, 1)):  # the gap before each point and the gap after it
            widths = [(0, 0), (0, 0)]
            widths[axis] = pad
            step = np.minimum(step, np.pad(gap, widths, constant_values=np.inf))
    slack = 0.5 * step
    rows, cols = shape[:2]
    x, y = pts[..., 0], pts[..., 1]
    shown = (x > -slack) & (x < cols - 1 + slack) & (y > -slack) & (y < rows - 1 + slack)
    return float(shown.mean())


def lattice(size: int) -> np.ndarray:
    """The ``size * size`` lattice points (i, j) as an array (size*size, 2), row by row from
    the top (index ``j * size + i``)."""
    j, i = np.mgrid[0:size, 0:size]
    out: np.ndarray = np.c_[i.ravel(), j.ravel()].astype(np.float64)
    return out


def corner_lattice(size: int) -> np.ndarray:
    """The four outermost intersections in lattice coordinates: top-left, top-right,
    bottom-right, bottom-left; shape (4, 2)."""
    n = size - 1
    return np.array([[0, 0], [n, 0], [n, n], [0, n]], dtype=np.float64)


def corners(h: np.ndarray, size: int) -> np.ndarray:
    """The four outermost intersections in image pixels, in `corner_lattice` order; (4, 2)."""
    return apply(h, corner_lattice(size))


def shifted(h: np.ndarray, i0: float, j0: float) -> np.ndarray:
    """``h`` for the same lattice counted from its point (i0, j0): lattice point (i, j) of
    the result is point (i0 + i, j0 + j) of ``h``; normalised so its [2, 2] is 1."""
    g = h @ np.array([[1.0, 0.0, i0], [0.0, 1.0, j0], [0.0, 0.0, 1.0]])
    out: np.ndarray = g / g[2, 2]
    return out


def scaled(h: np.ndarray, factor: float) -> np.ndarray:
    """The homography ``h`` for the image resized by ``factor`` as `cv2.resize` does it,
    pixel centres kept: pixel ``x`` goes to ``(x + 0.5) * factor - 0.5``."""
    shift = 0.5 * (factor - 1.0)
    s = np.array([[factor, 0.0, shift], [0.0, factor, shift], [0.0, 0.0, 1.0]])
    out: np.ndarray = s @ h
    return out


def upright(h: np.ndarray, size: int) -> np.ndarray:
    """``h`` relabelled by one of the 8 symmetries of the square lattice so that lattice row
    0 is the side nearest the top of the image and columns run left to right as seen.

    A photographed board is never mirrored, so the labelling kept is the one whose corners run
    clockwise on screen (image y points down) with the top-left corner nearest the image's
    top-left among the four rotations."""
    n = size - 1
    best: tuple[float, np.ndarray] | None = None
    # The symmetries as lattice -> lattice maps (i, j) -> (a*i + b*j + c, d*i + e*j + f).
    for a, b, d, e in ((1, 0, 0, 1), (0, 1, 1, 0), (-1, 0, 0, 1), (1, 0, 0, -1),
                       (0, -1, 1, 0), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, -1, 0)):
        c = n if (a < 0 or b < 0) else 0
        f = n if (d < 0 or e < 0) else 0
        s = np.array([[a, b, c], [d, e, f], [0, 0, 1]], dtype=np.float64)
        g = h @ s
        cs = apply(g, corner_lattice(size))
        # Clockwise on screen: the signed area (shoelace) is positive with y down.
        x, y = cs[:, 0], cs[:, 1]
        area = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
        if area <= 0:
            continue
        centre = cs.mean(axis=0)
        # Top edge (corner 0 -> 1) should point right and sit above the centre.
        top_mid = (cs[0] + cs[1]) / 2
        angle = np.arctan2(top_mid[1] - centre[1], top_mid[0] - centre[0])
        cost = abs(angle + np.pi / 2)
        if best is None or cost < best[0]:
            best = (cost, g)
    assert best is not None
    out: np.ndarray = best[1] / best[1][2, 2]
    return out


def lift_shift(homography: np.ndarray, shape: tuple[int, ...], size: int,
               height: float, cfg: StoneConfig = STONES,
               points: np.ndarray | None = None) -> np.ndarray:
    """Where a point ``height`` cells above each intersection appears on the board plane,
    as an offset in lattice units (size*size, 2): under an oblique camera a stone's body is
    seen shifted away from the camera, onto the next point's ground. ``points`` (k, 2),
    where given, are the places on the board (lattice units) to lift instead of its
    intersections: (k, 2).

    The camera is recovered from the homography assuming square pixels, the principal point
    at the image centre and a focal length of the image's longer side (a phone's or a
    webcam's usual field of view). A camera square above the board gives no shift, and so
    does a homography inconsistent with that camera (``cfg.camera_axes``: a rendered test
    image, say)."""
    pts = lattice(size) if points is None else np.asarray(points, dtype=np.float64)
    centre = camera_centre(homography, shape, cfg)
    if centre is None:
        return np.zeros((len(pts), 2))
    cz = float(centre[2])
    z = height * np.sign(cz)
    seen = centre[:2] + (pts - centre[:2]) * (cz / (cz - z))
    out: np.ndarray = seen - pts
    return out


def camera_centre(homography: np.ndarray, shape: tuple[int, ...],
                  cfg: StoneConfig = STONES) -> np.ndarray | None:
    """The camera's place (3,) in the lattice's units (x along its columns, y along its
    rows, z its height over the board, of either sign) for the grid ``homography`` in a
    picture of ``shape``, as `lift_shift` recovers it; None where no camera of that kind
    could give the homography (``cfg.camera_axes``) or it lies in the board's plane."""
    h_img, w_img = shape[:2]
    f = float(max(h_img, w_img))
    k_inv = np.linalg.inv(np.array([[f, 0, w_img / 2], [0, f, h_img / 2], [0, 0, 1.0]]))
    m = k_inv @ homography
    n1, n2 = float(np.linalg.norm(m[:, 0])), float(np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] / n1, m[:, 1] / n2, m[:, 2] / np.sqrt(n1 * n2)
    # A homography that no such camera could give (the board's axes not square and of equal
    # length in 3D) says the guessed camera is wrong. Both axes are weighed alike, so the
    # lattice's labelling (which a turn of the photo changes) does not matter.
    longest, skew = cfg.camera_axes
    if max(n1, n2) / min(n1, n2) > longest or abs(float(r1 @ r2)) > skew:
        return None
    rot = np.c_[r1, r2, np.cross(r1, r2)]
    centre: np.ndarray = -rot.T @ t
    return None if abs(float(centre[2])) < 1e-6 else centre


def facing(homography: np.ndarray, shape: tuple[int, ...], size: int,
           cfg: StoneConfig = STONES) -> np.ndarray:
    """The symmetry ``s`` (3, 3; lattice to lattice) of the square lattice of ``size`` lines
    with which ``homography @ s`` labels the board the same way however the photo was
    turned: its corners clockwise on screen (a photo is never mirrored, `upright`), and
    turned so that the camera (`camera_centre`) lies beyond its last row, as far as it
    lies off the board's middle at all; `upright`'s labelling where the camera is not
    known (``cfg``'s). A turn of the photo about its centre keeps the camera recovered, so
    the board relabelled so is the same board, seen the same way."""
    n = size - 1
    relabel = np.linalg.inv(homography) @ upright(homography, size)
    first: np.ndarray = np.round(relabel / relabel[2, 2])
    centre = camera_centre(homography, shape, cfg)
    if centre is None:
        return first
    away = centre[:2] - n / 2.0  # the camera's direction from the middle, in the lattice
    quarter = np.array([[0.0, -1.0, n], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # (i, j) -> (n-j, i)
    best, out, s = -np.inf, first, first
    for _ in range(4):
        seen = np.linalg.inv(s)[:2, :2] @ away
        if seen[1] > best + 1e-9:
            best, out = float(seen[1]), s
        s = s @ quarter
    return out


def same_grid(a: GridFit, b: GridFit) -> bool:
    """Whether ``a`` and ``b`` are one grid: the same size, and every intersection of ``b``
    within half a cell (in ``a``'s lattice) of the same intersection of ``a``. Grids that
    agree so closely put each point on the same stone or the same crossing of lines; which
    of two such looks is the surer then says nothing about where the board is."""
    if a.size != b.size:
        return False
    points = lattice(a.size)
    with np.errstate(divide="ignore", invalid="ignore"):  # points past the horizon: not one
        back = apply(np.linalg.inv(a.homography), apply(b.homography, points))
    return bool(np.abs(back - points).max() < 0.5)


@dataclasses.dataclass(frozen=True)
class GridFit:
    """A located grid: ``homography`` (3, 3) from lattice (i, j) to image pixels, the board
    ``size``, and a ``confidence`` in [0, 1] from how well lines and mid-lines separate
    (see `confidence`), or for a grid from the stones how well they vouch for it (see
    `vision.grid_score.vouched`)."""

    homography: np.ndarray
    size: int
    confidence: float

    @property
    def corners(self) -> np.ndarray:
        """The outermost intersections in image pixels: TL, TR, BR, BL as seen; (4, 2)."""
        return corners(self.homography, self.size)
