"""Scenes of the misreadings seen on unseen photos, drawn over `vision.synth` renders: a
flash hot spot, a sunlight patch, a bright bevel or a light tablecloth at the board's edge,
a grayscale photo, an object lying on the board, a hand, black stones off their points.

Every spoiler takes a `Shot` and a seeded generator and returns a new `Shot`; everything is
placed in lattice units through the shot's own homography, so the board's own perspective
applies. The stones are read against the true grid (`read`), so what is measured is the
stone reading alone, not board finding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import cv2
import numpy as np

from rules import Position
from vision import grid
from vision.evaluate import to_array
from vision.config import POINT_NET
from vision.stones import read_stones
from vision.synth import Scene, random_position, render


@dataclasses.dataclass(frozen=True)
class Shot:
    """A photo (H, W, 3) uint8 BGR, its board's size, its truth (size, size) of 0 empty,
    1 black, 2 white (row 0 at the top of the image), the homography lattice -> pixels
    and the points no photo shows (something lies over them)."""

    image: np.ndarray
    size: int
    truth: np.ndarray
    homography: np.ndarray
    hidden: np.ndarray


def shot(size: int, seed: int, taken: float = 0.3, scene: Scene = Scene(glare=False),
         position: Position | None = None) -> Shot:
    """A `vision.synth` render of a seeded position (or ``position``) as a `Shot`."""
    pos = position if position is not None else random_position(size, seed, stones=taken)
    s = render(pos, seed, scene)
    return Shot(s.image, size, to_array(s.position.rows()), s.homography, s.hidden.copy())


def read(s: Shot) -> tuple[np.ndarray, np.ndarray]:
    """Labels and confidences of the stones of ``s`` read against its true grid, as
    `vision.read_board` reads them (the point net weighed in)."""
    return read_stones(s.image, s.homography, s.size, net=POINT_NET)


def lattice_map(s: Shot) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's lattice coordinates (column, row), two (H, W) float arrays."""
    h, w = s.image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    uv = grid.apply(np.linalg.inv(s.homography), np.c_[xx.ravel(), yy.ravel()])
    return uv[:, 0].reshape(h, w), uv[:, 1].reshape(h, w)


def _with(s: Shot, image: np.ndarray, hidden: np.ndarray | None = None) -> Shot:
    out = np.clip(image, 0, 255).astype(np.uint8)
    return dataclasses.replace(s, image=out, hidden=s.hidden if hidden is None else hidden)


def _empty_point(s: Shot, rng: np.random.Generator, inner: bool = True) -> tuple[int, int]:
    """A random empty point (column, row), off the outer lines if ``inner``."""
    lo, hi = (1, s.size - 1) if inner else (0, s.size)
    rows, cols = np.nonzero(s.truth[lo:hi, lo:hi] == 0)
    k = int(rng.integers(len(rows)))
    return int(cols[k]) + lo, int(rows[k]) + lo


def flash(s: Shot, rng: np.random.Generator) -> Shot:
    """A flash's hot spot on the varnish: white light, saturated at its core, half a cell
    to a cell and a half across, centred near an empty point."""
    u, v = lattice_map(s)
    i, j = _empty_point(s, rng)
    ci, cj = i + rng.uniform(-0.3, 0.3), j + rng.uniform(-0.3, 0.3)
    sigma = rng.uniform(0.25, 0.7)
    blob = np.exp(-((u - ci) ** 2 + (v - cj) ** 2) / (2 * sigma ** 2))
    return _with(s, s.image + rng.uniform(160, 260) * blob[:, :, None])


def sunlight(s: Shot, rng: np.random.Generator) -> Shot:
    """A patch of sunlight through a window: a bright quadrilateral a few cells across with
    a sharp edge, brightening wood, lines and stones alike (it may clip)."""
    n = s.size
    centre = rng.uniform(0.2 * n, 0.8 * n, 2)
    half = rng.uniform(1.5, 0.3 * n, 2)
    angle = rng.uniform(0, np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = centre + (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half
                     + rng.uniform(-0.5, 0.5, (4, 2))) @ rot.T
    mask = np.zeros(s.image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(grid.apply(s.homography, quad)).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)
    warm = np.array([0.9, 1.0, 1.05]) * rng.uniform(1.4, 1.9)
    return _with(s, s.image * (1 + (warm - 1)[None, None, :] * mask[:, :, None]))


def _outside(s: Shot) -> np.ndarray:
    """How far (cells) each pixel lies outside the grid's outer lines (negative inside)."""
    u, v = lattice_map(s)
    last = s.size - 1
    out: np.ndarray = np.maximum.reduce([-u, u - last, -v, v - last])
    return out


def bevel(s: Shot, rng: np.random.Generator) -> Shot:
    """A board with a narrow margin whose bevelled edge catches the light: a bright band
    from 0.4 to 0.65 cell outside the outer lines, the table beyond."""
    d = _outside(s)
    start = rng.uniform(0.4, 0.5)
    band = (d >= start) & (d < start + rng.uniform(0.1, 0.2))
    table = d >= start + 0.2
    img = s.image.astype(np.float64)
    img[band] = rng.uniform(225, 250) * np.array([0.93, 0.97, 1.0])
    img[table] = rng.uniform(20, 70, 3)
    return _with(s, cv2.GaussianBlur(img, (0, 0), 0.8))


def cloth(s: Shot, rng: np.random.Generator) -> Shot:
    """A thin board with a narrow margin on a light tablecloth: everything from 0.45 to
    0.6 cell outside the outer lines is light cloth."""
    d = _outside(s)
    img = s.image.astype(np.float64)
    light = rng.uniform(200, 245) * np.array([rng.uniform(0.9, 1.0), rng.uniform(0.95, 1.0), 1.0])
    table = d >= rng.uniform(0.45, 0.6)
    img[table] = light + rng.normal(0, 4, (int(table.sum()), 3))
    return _with(s, cv2.GaussianBlur(img, (0, 0), 0.8))


def grayscale(s: Shot, rng: np.random.Generator) -> Shot:
    """The photo in grey (a monochrome camera, a black-and-white filter)."""
    grey = cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY)
    return _with(s, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR).astype(np.float64))


def thing(s: Shot, rng: np.random.Generator) -> Shot:
    """An object lying on the board (a phone, a box, a score sheet): a flat rectangle of
    one colour two to five cells long, over the points it hides."""
    n = s.size
    centre = rng.uniform(3, n - 4, 2)
    half = np.array([rng.uniform(1.0, 2.5), rng.uniform(0.6, 1.5)])
    angle = rng.uniform(0, np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = centre + (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half) @ rot.T
    mask = np.zeros(s.image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(grid.apply(s.homography, quad)).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.0)
    colour = rng.choice([rng.uniform(15, 45), rng.uniform(200, 245), rng.uniform(80, 160)])
    tint = colour * rng.uniform(0.85, 1.0, 3)
    img = s.image * (1 - mask[:, :, None]) + tint[None, None, :] * mask[:, :, None]
    at = np.clip(np.rint(grid.apply(s.homography, grid.lattice(n))).astype(int), 0,
                 [s.image.shape[1] - 1, s.image.shape[0] - 1])
    hidden = s.hidden | (mask[at[:, 1], at[:, 0]] >= 0.5).reshape(n, n)
    return _with(s, img, hidden)


def _grouped_black(truth: np.ndarray) -> np.ndarray:
    """The black stones (size, size) with a black neighbour."""
    black = truth == 1
    grouped = np.zeros_like(black)
    grouped[1:] |= black[:-1]
    grouped[:-1] |= black[1:]
    grouped[:, 1:] |= black[:, :-1]
    grouped[:, :-1] |= black[:, 1:]
    out: np.ndarray = black & grouped
    return out


def off_point(size: int, seed: int, taken: float,
              reach: tuple[float, float] = (0.2, 0.6)) -> Shot:
    """Black stones inside black groups put off their points: the position is drawn without
    every black stone that has a black neighbour, then each of those is laid down ``reach``
    of a cell off its point in a random direction (a dark disc a stone wide), where no
    other stone stands and nearer its own point than any other."""
    position = random_position(size, seed, stones=taken)
    moved = _grouped_black(to_array(position.rows()))
    rows = ["".join("." if moved[r, c] else ch for c, ch in enumerate(row))
            for r, row in enumerate(position.rows())]
    bare = shot(size, seed, scene=Scene(glare=False), position=Position(rows))
    # The render turns the board: find the moved stones in its upright truth.
    upright = shot_truth_moved(position, bare)
    rng = np.random.default_rng(20_000 + seed)
    u, v = lattice_map(bare)
    img = bare.image.astype(np.float64)
    # Stones where they stand: the others on their points, the moved ones where laid down.
    placed = [(float(c), float(r)) for r, c in zip(*np.nonzero((bare.truth != 0)))]
    for r, c in zip(*np.nonzero(upright)):
        for _ in range(50):  # where no other stone stands, nearer its point than any other
            t, d = rng.uniform(0, 2 * np.pi), rng.uniform(*reach)
            x, y = c + d * np.cos(t), r + d * np.sin(t)
            if round(x) == c and round(y) == r and all(  # still nearest its own point
                    (x - px) ** 2 + (y - py) ** 2 >= 0.94 ** 2 for px, py in placed):
                break
        else:
            x, y = float(c), float(r)
        placed.append((x, y))
        img[(u - x) ** 2 + (v - y) ** 2 < 0.47 ** 2] = rng.uniform(15, 40)
    truth = np.where(upright, 1, bare.truth)
    return dataclasses.replace(_with(bare, cv2.GaussianBlur(img, (0, 0), 0.7)), truth=truth)


def shot_truth_moved(position: Position, bare: Shot) -> np.ndarray:
    """Where the black stones `off_point` took away from ``position`` lie in ``bare``'s
    upright truth: the rotation of the full truth that agrees with ``bare`` everywhere
    else."""
    full = to_array(position.rows())
    moved = _grouped_black(full)
    for k in range(4):
        for flip in (False, True):
            f, m = np.rot90(full, k), np.rot90(moved, k)
            if flip:
                f, m = f.T, m.T
            if np.array_equal(np.where(m, 0, f), bare.truth):
                out: np.ndarray = m
                return out
    raise AssertionError("the render's truth is no turn of the position")


def hand(s: Shot, rng: np.random.Generator) -> Shot:
    """Nothing more: the shot must come from a ``Scene(hand=True)`` render (see `SCENES`)."""
    return s


SPOILERS: dict[str, Callable[[Shot, np.random.Generator], Shot]] = {
    "flash": flash, "sunlight": sunlight, "bevel": bevel, "cloth": cloth,
    "grayscale": grayscale, "object": thing, "hand": hand,
}
"""Every scene kind by name."""


def scene(kind: str, size: int, seed: int, taken: float = 0.3,
          frame: tuple[int, int] = (960, 720)) -> Shot:
    """The shot of ``kind`` (a `SPOILERS` key, "off point" or "plain") for ``seed``, in a
    picture ``frame`` (width, height) pixels."""
    if kind == "off point":
        return off_point(size, seed, taken)
    base = shot(size, seed, taken, Scene(glare=False, hand=kind == "hand", width=frame[0],
                                         height=frame[1]))
    if kind == "plain":
        return base
    return SPOILERS[kind](base, np.random.default_rng(10_000 + seed))
