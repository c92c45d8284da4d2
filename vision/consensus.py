"""Robust fitting of a homography to lattice points, deterministic and blind to point order.

`agreeing_homography` plays the part of RANSAC for `vision.grid_refine.refine`. RANSAC draws its
samples in the order the points come, and turning a photo relabels the lattice (row 0 is
always the top of the image), so on an ambiguous start a turned photo could end elsewhere.
Here every point proposes the affine map its own lattice neighbours agree on; the proposal
that the points fit best (MSAC) is refitted as a homography to those that follow it.
"""

from __future__ import annotations

import cv2
import numpy as np

Fit = tuple[np.ndarray, np.ndarray]


def _local_affines(src: np.ndarray, dst: np.ndarray,
                   reach: int) -> tuple[np.ndarray, np.ndarray]:
    """For each point k, the least-squares affine map (shape (k, 3, 2): ``[x, y, 1] @ map``)
    from the points within ``reach`` (lattice units, per axis) of ``src[k]`` to their
    ``dst``, and whether that neighbourhood fixes one (at least 4 points, not all on one
    line). ``src`` must be integer lattice points."""
    p = np.rint(src).astype(np.int64)
    p -= p.min(axis=0)
    shape = tuple(p.max(axis=0) + 1)
    # The normal equations' sums over each neighbourhood, in coordinates relative to its
    # centre (offsets -reach..reach): filters over images of the lattice.
    here = np.zeros(shape, np.float32)
    here[p[:, 0], p[:, 1]] = 1.0
    moved = []  # dst - src, along each axis: small, so float32 keeps it exact enough
    for c in range(2):
        img = np.zeros(shape, np.float32)
        img[p[:, 0], p[:, 1]] = dst[:, c] - src[:, c]
        moved.append(img)
    off = np.arange(-reach, reach + 1, dtype=np.float32)
    di, dj = np.meshgrid(off, off, indexing="ij")
    ones = np.ones_like(di)

    def summed(img: np.ndarray, kernel: np.ndarray) -> np.ndarray:
        out: np.ndarray = cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        at_points: np.ndarray = out[p[:, 0], p[:, 1]].astype(np.float64)
        return at_points

    basis = (di, dj, ones)
    m = np.stack([summed(here, a * b) for a in basis for b in basis], axis=1).reshape(-1, 3, 3)
    b = np.stack([summed(moved[c], a) for a in basis for c in range(2)],
                 axis=1).reshape(-1, 3, 2)
    ok = (m[:, 2, 2] >= 4) & (np.abs(np.linalg.det(m)) > 1e-6)
    maps = np.zeros((len(src), 3, 2))
    maps[ok] = np.linalg.solve(m[ok], b[ok])
    # The maps above give dst - src from offsets: add the identity and move the origin
    # from src[k] to (0, 0).
    maps[:, :2] += np.eye(2)
    maps[:, 2] += src - np.einsum("ka,kab->kb", src, maps[:, :2])
    return maps, ok


def _spread(points: np.ndarray) -> bool:
    """Whether ``points`` (lattice units) span a plane, not one line: only then do they fix
    a homography."""
    if len(points) < 4:
        return False
    return bool(np.linalg.svd(points - points.mean(axis=0), compute_uv=False)[-1] > 0.5)


def _settled(src: np.ndarray, dst: np.ndarray, inliers: np.ndarray, threshold: float,
             rounds: int) -> Fit | None:
    """A homography least-squares fitted to ``inliers``, then refitted to the points within
    ``threshold`` of it until that set stops changing (``rounds`` fits at most), and that
    set; None when the points kept do not fix one (fewer than 4, or all on one line, here
    or where it takes them) or it puts one of them beyond the horizon."""
    x = np.c_[src, np.ones(len(src))]
    fit: Fit | None = None
    for _ in range(rounds):
        if not _spread(src[inliers]):
            return fit
        h, _mask = cv2.findHomography(src[inliers], dst[inliers], 0)
        if h is None or h[2, 2] == 0 or np.linalg.cond(h) > 1e10:
            return fit  # (singular when the points it takes them to lie on one line)
        q = x @ (h / h[2, 2]).T
        if (q[:, 2] <= 0).any():
            return fit
        now = np.hypot(*(q[:, :2] / q[:, 2:3] - dst).T) < threshold
        fit = h / h[2, 2], now
        if np.array_equal(now, inliers):
            break
        inliers = now
    return fit


def agreeing_homography(src: np.ndarray, dst: np.ndarray, threshold: float,
                        reach: int = 1, rounds: int = 5) -> Fit | None:
    """The homography taking ``src`` (integer lattice points, (k, 2)) to ``dst`` (k, 2)
    fitted to the points that agree with it within ``threshold``, and a mask of those; None
    when too few agree to fix one (`_settled`). The same points in any order give the same
    fit.

    The candidates are the local affine maps of each point's neighbourhood (``reach``
    lattice units); the one with the lowest truncated squared error over all points (MSAC)
    is refitted as a homography to the points it keeps (`_settled`).
    """
    src = np.asarray(src, dtype=np.float64)
    dst = np.asarray(dst, dtype=np.float64)
    if len(src) < 4:
        return None
    maps, ok = _local_affines(src, dst, reach)
    if not ok.any():
        return None
    x = np.c_[src, np.ones(len(src))]
    ex = x @ maps[ok, :, 0].T - dst[:, :1]  # (point, candidate)
    ey = x @ maps[ok, :, 1].T - dst[:, 1:]
    e2 = ex * ex + ey * ey
    best = int(np.argmin(np.minimum(e2, threshold ** 2).sum(axis=0)))
    return _settled(src, dst, e2[:, best] < threshold ** 2, threshold, rounds)
