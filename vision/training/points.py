"""Train the learned stone reader (`vision.point_net`) and write its weights as ONNX.

    python -m vision.training.points --out vision/models/points.onnx
        [--synthetic N] [--cache DIR] [--manifest FILE] [--exclude SOURCE ...]
        [--steps K] [--seed S] [--threads T] [--jobs J]

The shipped weights are this command's with its defaults (about an hour on two cores).

Needs PyTorch (CPU) and the onnx package, which kifu itself does not: run it from a venv
of its own with the repo on the path (``pip install torch==2.13.0 onnx numpy
opencv-python-headless``). The tests never train.

What it learns from:

- ``--synthetic N`` boards drawn by `vision.synth` (seeds 500000 and up, never those of the
  tests or benchmarks), every kind of scene issue 19 lists mixed at random: sizes 9, 13
  and 19, from a few stones to a finished game, seen from above and by a phone from 15 to
  62 degrees (from `STEEP_FROM` on, 50 to 72), on cloth, tables and floors, under lamps
  of any hue, with bevels, flash, sunlight, hands, objects, sets of any colour, grey
  photos. Rendered once into ``--cache`` (a few seconds a board).
- the dev photos with stone truth in ``--manifest`` (../shared/vision-data), each on the
  grid `vision.read_board` finds there, kept only where that grid reads at least 97% of
  the truth (so the grid is the board's); ``--exclude`` leaves a source out (the
  manifest's ``source``, or any text in it), for judging the net on a source it never saw.

Each example is the board rectified at twice the net's cell with two cells of margin
(`vision.point_net.rectified`), the place each point's stone would be seen (its lift) and
the point's label: empty, the darker stone, the lighter one, or hidden (under a hand or an
object, or out of the picture); and places that are no point (`off_board`: between the
lines, and the ring one line beyond the outer ones), labelled off. Every draw of an example spoils it afresh, as photos are
spoilt: one of the eight turns and mirrors of the board, a grid placed up to a sixth of a
cell off and a degree askew, a lamp of any hue and strength, brightness, gamma, grey, blur,
a lower resolution, something laid over the board (`occluded`), noise, JPEG. Then as the
reader shows a board to the net (`vision.point_net.halved`, `normalised`) and a window of
eight cells by eight cut out of it; the loss is the cross-entropy of the answers read at the
points (`vision.point_net.map_points`) inside the window.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from vision import grid  # noqa: E402
from vision.config import POINT_NET, PointNetConfig  # noqa: E402
from vision.perturb import hue_colour  # noqa: E402
from vision.point_net import halved, map_points, normalised, rectified  # noqa: E402

EXTRA = 2
"""Cells of margin round the board in an example beyond the net's own
(`PointNetConfig.margin`): the windows the net is shown are cut anywhere in it, so that
where its input ends says nothing of where the board does (a net shown the board's margin
always ending at its input's edge learns that edge, and reads the same places otherwise
when shown more)."""
WINDOW = 8
"""Cells of the square window an example shows the net: its field of view and more."""
LABELS = {".": 0, "X": 1, "B": 1, "O": 2, "W": 2}
HIDDEN = 3
"""The label of a point something other than a stone covers: no photo shows what is there."""
OFF = 4
"""The label of a place that is no intersection of the board: between its lines (a cell
centre, the middle of a cell's side) or beyond its outer lines (its margin, what lies
beyond). Taught so, the net tells a grid placed on the board's points from one half a
cell or a line off (`vision.point_net.grid_belief`)."""
CLASSES = 5
"""Empty, the darker stone, the lighter one, hidden (`HIDDEN`) and no point (`OFF`)."""


@dataclass
class Example:
    """A board to learn from: ``rect`` (S, S, 3) uint8 rectified at twice the net's cell
    with its margin and `EXTRA` cells more round it, ``points`` (n*n, 2) where each
    point's stone would be seen there (px), ``labels`` (n*n,) 0 empty, 1 darker, 2
    lighter, `HIDDEN`, or -1 unknown; ``off`` (k, 2) places that are no intersection
    (`off_board`), where a stone's body would be seen there, ``off_hidden`` (k,)
    whether the points nearest each are hidden and ``off_beyond`` (k,) whether it lies
    beyond the outer lines."""

    rect: np.ndarray
    points: np.ndarray
    labels: np.ndarray
    size: int
    source: str
    off: np.ndarray
    off_hidden: np.ndarray
    off_beyond: np.ndarray


def off_board(size: int) -> np.ndarray:
    """The places (k, 2), in lattice units, that are no intersection of a board of
    ``size`` lines: every cell centre and the middle of every cell's side, the margin's
    too (a cell beyond the outer lines), and the ring of places a line beyond them."""
    k = np.arange(-1, size + 1, dtype=np.float64)
    half = np.arange(-1, size, dtype=np.float64) + 0.5
    centres = np.stack(np.meshgrid(half, half), axis=-1).reshape(-1, 2)
    sides = np.concatenate([np.stack(np.meshgrid(half, k), axis=-1).reshape(-1, 2),
                            np.stack(np.meshgrid(k, half), axis=-1).reshape(-1, 2)])
    ring = np.stack(np.meshgrid(k, k), axis=-1).reshape(-1, 2)
    ring = ring[((ring < 0) | (ring > size - 1)).any(axis=1)]
    return np.concatenate([centres, sides, ring])


def example(image: np.ndarray, homography: np.ndarray, size: int, labels: np.ndarray,
            source: str, cfg: PointNetConfig) -> Example:
    """The `Example` of the board whose grid ``homography`` gives in ``image``."""
    c2 = 2 * cfg.cell
    margin = cfg.margin + EXTRA
    rect = rectified(image, homography, size, c2, margin)
    shift = grid.lift_shift(homography, image.shape, size, cfg.lift)
    points = (grid.lattice(size) + margin + shift) * c2
    off = off_board(size)
    off_shift = grid.lift_shift(homography, image.shape, size, cfg.lift, points=off)
    near = np.clip(np.rint(off), 0, size - 1).astype(int)
    flat = labels.reshape(size, size)
    return Example(rect, points, labels.reshape(-1).astype(np.int64), size, source,
                   (off + margin + off_shift) * c2, flat[near[:, 1], near[:, 0]] == HIDDEN,
                   np.asarray(((off < 0) | (off > size - 1)).any(axis=1)))


# --- synthetic boards -------------------------------------------------------------------

STEEP_FROM = 1500
"""Synthetic boards from this one on are seen from 50 to 72 degrees off vertical: a phone
held low over a crowded board, the far rows foreshortened to slivers and every stone
leaning over the point behind it."""


def scene_for(k: int) -> tuple[int, float, Any]:
    """The size, share of points taken and `vision.synth.Scene` of synthetic board ``k``."""
    from vision.synth import Scene
    r = np.random.default_rng([k, 7])
    size = int(r.choice([9, 13, 19], p=[0.2, 0.2, 0.6]))
    taken = float(r.choice([r.uniform(0.02, 0.3), r.uniform(0.3, 0.6), r.uniform(0.6, 0.92)]))
    tilt = float(r.choice([0.0, r.uniform(15, 62)], p=[0.35, 0.65]))
    if k >= STEEP_FROM:  # the steepest views, past the 60 degrees
        tilt = float(r.uniform(50, 72))
    framing = str(r.choice(["", "phone", "phone aimed"])) if tilt else ""
    w, h = [(960, 720), (720, 960), (1280, 960), (640, 480), (800, 800)][r.integers(5)]
    scene = Scene(
        width=w, height=h, camera_tilt=tilt, framing=framing,
        turn=float(r.choice([5.0, 180.0])),
        stone_height=float(r.uniform(0, 0.25)) if tilt else float(r.uniform(0, 0.1)),
        surface=str(r.choice(["", "dark table", "light table", "grey floor"])),
        cast=float(r.uniform(0.2, 0.75)) if r.random() < 0.4 else 0.0,
        bevel=bool(r.random() < 0.15), flash=bool(r.random() < 0.1),
        sun=bool(r.random() < 0.1), hand=bool(r.random() < 0.15),
        hands=int(r.integers(0, 3)) if r.random() < 0.15 else 0,
        on_board=str(r.choice(["pen", "phone", "lid"])) if r.random() < 0.1 else "",
        any_colours=bool(r.random() < 0.12), grayscale=bool(r.random() < 0.07),
        jitter=float(r.uniform(0.02, 0.15)), line_width=float(r.uniform(1 / 26, 1 / 11)),
        blur=float(r.uniform(0.5, 2.5)), noise=float(r.uniform(2, 10)),
        exposure=float(r.uniform(0.2, 0.5)) if r.random() < 0.3 else 0.0,
        overexposed=(1.5, 2.4) if r.random() < 0.06 else (1.0, 1.0),
        lamp=float(r.uniform(0.2, 0.6)) if r.random() < 0.1 else 0.0,
        bowls=bool(r.random() < 0.3), feet=bool(r.random() < 0.2),
        resaved=int(r.integers(40, 90)) if r.random() < 0.2 else 0,
        jpeg_quality=int(r.integers(50, 95)))
    return size, taken, scene


def render_one(job: tuple[int, str]) -> str:
    """Render synthetic board ``k`` into the cache folder (once); returns its file."""
    from vision.synth import random_position, render
    k, cache = job
    out = Path(cache) / f"{k:05d}.npz"
    if not out.exists():
        size, taken, scene = scene_for(k)
        seed = 500000 + k
        s = render(random_position(size, seed, taken), seed, scene)
        ok, png = cv2.imencode(".png", s.image)
        assert ok
        np.savez(out, png=png, homography=s.homography, rows=np.array(s.position.rows()),
                 hidden=s.hidden)
    return str(out)


def synthetic(count: int, cache: Path, cfg: PointNetConfig, jobs: int) -> list[Example]:
    """``count`` synthetic boards as examples, rendered into ``cache`` where not there."""
    cache.mkdir(parents=True, exist_ok=True)
    with multiprocessing.Pool(jobs) as pool:
        files = pool.map(render_one, [(k, str(cache)) for k in range(count)])
    out = []
    for name in files:
        d = np.load(name)
        image = np.asarray(cv2.imdecode(d["png"], cv2.IMREAD_COLOR))
        rows = [str(r) for r in d["rows"]]
        labels = np.array([[LABELS[ch] for ch in row] for row in rows])
        labels[d["hidden"]] = HIDDEN
        out.append(example(image, d["homography"], len(rows), labels, "synthetic", cfg))
    return out


# --- dev photos -------------------------------------------------------------------------

def photos(manifest: Path, exclude: list[str], cfg: PointNetConfig) -> list[Example]:
    """The dev photos with stone truth as examples, on the grid `vision.read_board` finds,
    where that grid reads 97% of the truth or more; none of a source ``exclude`` names."""
    from vision import BoardNotFound, read_board
    from vision.config import VISION
    from vision.evaluate import source_of
    measured = dataclasses.replace(VISION, point_net=None)  # the grid; no net to teach it
    out = []
    for line in manifest.read_text().splitlines():
        row = json.loads(line)
        truth, source = row.get("stones"), source_of(row)
        if truth is None or any(x in source for x in exclude):
            continue
        image = cv2.imread(str(manifest.parent / row["image"]), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{row['image']}: cannot read the photo")
        try:
            seen = read_board(image, config=measured)
        except BoardNotFound:
            continue
        t = np.array([[LABELS[ch] for ch in r] for r in truth])
        read = np.array([[LABELS[ch] for ch in r] for r in seen.rows()])
        if read.shape != t.shape:
            continue
        turned = max((np.rot90(t, k) for k in range(4)), key=lambda a: int((a == read).sum()))
        if (turned == read).mean() < 0.97:
            continue
        out.append(example(image, seen.homography, seen.size, turned, source, cfg))
    return out


# --- spoiling an example ----------------------------------------------------------------

def _turned(rect: np.ndarray, pts: np.ndarray, k: int, flip: bool
            ) -> tuple[np.ndarray, np.ndarray]:
    """``rect`` and the points ``pts`` (k, 2) on it turned by k quarter turns (and
    mirrored first)."""
    pts = pts.copy()
    side = rect.shape[0]
    if flip:
        rect = rect[:, ::-1]
        pts[:, 0] = side - 1 - pts[:, 0]
    for _ in range(k):  # np.rot90 turns anticlockwise: (x, y) -> (y, side - 1 - x)
        rect = np.rot90(rect)
        pts = np.stack([pts[:, 1], side - 1 - pts[:, 0]], axis=1)
    return np.ascontiguousarray(rect), pts


def spoil(ex: Example, rng: np.random.Generator, cfg: PointNetConfig
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One draw of ``ex`` as the net sees it: a window (3, W, W) float32, the places in it
    in output-map pixels (k, 2) and their labels (k,): its points, every place beyond
    its outer lines and as many of those between its lines as half its points, `OFF`."""
    inside = np.flatnonzero(~ex.off_beyond)
    chosen = np.concatenate([np.flatnonzero(ex.off_beyond),
                             rng.choice(inside, size=min(len(inside), ex.size ** 2 // 2),
                                        replace=False)])
    is_off = np.r_[np.zeros(len(ex.points), bool), np.ones(len(chosen), bool)]
    labels = np.r_[ex.labels, np.where(ex.off_hidden[chosen], -1, OFF)]
    rect, pts = _turned(ex.rect, np.concatenate([ex.points, ex.off[chosen]]),
                        int(rng.integers(4)), bool(rng.random() < 0.5))
    c2 = 2 * cfg.cell
    side = rect.shape[0]
    # The grid placed a little off: the board moved, turned and scaled under the points.
    centre = np.array([side / 2, side / 2])
    angle = np.deg2rad(rng.normal(0, 0.7))
    scale = 1 + rng.normal(0, 0.012)
    move = rng.normal(0, 0.06, 2) * c2
    a = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) * scale
    m = np.c_[a, centre - a @ centre + move]
    rect = cv2.warpAffine(rect, m, (side, side), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    # The board keeps its stones where they were; the grid (points) stays: the view moved.
    img: np.ndarray = rect.astype(np.float32)
    if rng.random() < 0.5:  # a lamp of any hue
        light = (1 - (s := rng.uniform(0, 0.75))) + s * hue_colour(rng.uniform(0, 360))
        img *= (light / float(np.array([0.114, 0.587, 0.299]) @ light))[None, None, :]
    if rng.random() < 0.5:
        img *= rng.uniform(0.5, 1.6)
    img = np.clip(img, 0, 255)
    if rng.random() < 0.4:
        img = 255.0 * (img / 255.0) ** rng.uniform(0.55, 1.8)
    if rng.random() < 0.1:
        grey = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2GRAY)
        img = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR).astype(np.float32)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 2.0))
    if rng.random() < 0.3:
        shrink = rng.uniform(0.3, 0.9)
        small = cv2.resize(img, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        img = img + rng.normal(0, rng.uniform(1, 10), img.shape).astype(np.float32)
    if rng.random() < OCCLUDED:
        img, labels = occluded(img, pts, labels, rng, c2)
        labels[is_off & (labels == HIDDEN)] = -1  # under it, no telling where the lines are
    out = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 95))])
        out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    # As the reader shows a board: halved, over the wood (its whole margin kept).
    x = normalised(halved(out), ex.size, dataclasses.replace(cfg, margin=cfg.margin + EXTRA))
    at = map_points(pts, cfg)  # output-map pixels
    # A window of WINDOW cells anywhere over the board and its margin.
    full = x.shape[1]
    win = min(full, WINDOW * cfg.cell)
    x0, y0 = (int(rng.integers(0, full - win + 1)) for _ in range(2))
    x = x[:, y0:y0 + win, x0:x0 + win]
    at = at - np.array([x0, y0]) / cfg.stride
    # Points whose answers the net gives with its context in the window.
    lo, hi = 0.5 * cfg.cell / cfg.stride, (win - 0.5 * cfg.cell) / cfg.stride
    keep = (at >= lo).all(axis=1) & (at <= hi).all(axis=1) & (labels >= 0)
    return x, at[keep], labels[keep]


OCCLUDED = 0.35
"""The share of draws with something over the board: a hand, a sleeve, a lid, a pen."""
def occluded(img: np.ndarray, pts: np.ndarray, labels: np.ndarray, rng: np.random.Generator,
             cell: int) -> tuple[np.ndarray, np.ndarray]:
    """``img`` (float BGR, a board rectified at ``cell`` px) with one to three things laid
    over it (an ellipse or a many-sided blob one to six cells long, of skin, cloth, wood or
    any colour, textured, its edge soft, sometimes smeared by motion), and ``labels`` with
    the points it covers (``pts``, px) `HIDDEN`: half or more of a stone's disc under it;
    a point under less than half but more than a tenth is left unlabelled."""
    h, w = img.shape[:2]
    cover = np.zeros((h, w), np.float32)
    out = img.copy()
    for _ in range(int(rng.integers(1, 4))):
        mask = np.zeros((h, w), np.float32)
        centre = rng.uniform(0, 1, 2) * (w, h)
        length, width = cell * rng.uniform(1.0, 6.0), cell * rng.uniform(0.6, 3.0)
        angle = rng.uniform(0, 180)
        if rng.random() < 0.5:
            cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (int(length / 2), int(width / 2)),
                        angle, 0, 360, 1.0, -1, cv2.LINE_AA)
        else:
            k = int(rng.integers(3, 9))
            t = np.sort(rng.uniform(0, 2 * np.pi, k))
            r = rng.uniform(0.3, 1.0, k) * length / 2
            poly = np.stack([centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)], axis=1)
            cv2.fillPoly(mask, [poly.astype(np.int32)], 1.0, cv2.LINE_AA)
        if rng.random() < 0.5:  # a whole arm or sleeve from off the board
            side, along = int(rng.integers(4)), rng.uniform(0, 1)
            edge = [(0.0, along * h), (float(w), along * h), (along * w, 0.0),
                    (along * w, float(h))][side]
            cv2.line(mask, (int(centre[0]), int(centre[1])), (int(edge[0]), int(edge[1])), 1.0,
                     max(2, int(width)), cv2.LINE_AA)
        kind = int(rng.integers(4))
        colour = [np.array([rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(160, 240)]),
                  rng.uniform(10, 80, 3), rng.uniform(40, 160) * np.array([0.6, 0.8, 1.0]),
                  rng.uniform(0, 255, 3)][kind]  # skin, dark cloth, wood, anything
        body = np.empty_like(out)
        body[:] = colour * (out.mean() / 128.0) ** 0.5  # in about the board's light
        grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                                 rng.uniform(0.5, 4))
        body *= (1 + rng.uniform(0, 0.25) * grain / (np.abs(grain).max() + 1e-6))[:, :, None]
        shade = np.linspace(rng.uniform(0.7, 1.2), rng.uniform(0.7, 1.2), w)[None, :]
        body *= shade[:, :, None]
        soft = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.5, 3.0))
        if rng.random() < 0.3:  # moving
            k = int(rng.integers(3, 15))
            kernel: np.ndarray = np.zeros((k, k), np.float32)
            kernel[k // 2] = 1.0 / k
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
            kernel = cv2.warpAffine(kernel, rot, (k, k))
            kernel = (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32)
            soft = cv2.filter2D(soft, -1, kernel)
            body = cv2.filter2D(body, -1, kernel)
        alpha = soft * rng.uniform(0.85, 1.0)
        out = out * (1 - alpha[:, :, None]) + body * alpha[:, :, None]
        cover = np.maximum(cover, alpha)
    # How much of each stone's disc lies under it.
    reach = int(round(0.4 * cell))
    disc = cv2.blur(cover, (2 * reach + 1, 2 * reach + 1))
    ix = np.clip(np.round(pts).astype(int), 0, [w - 1, h - 1])
    under = disc[ix[:, 1], ix[:, 0]]
    labels = labels.copy()
    labels[(under > 0.1) & (labels >= 0)] = -1
    labels[under >= 0.5] = HIDDEN
    return out, labels


# --- the net ----------------------------------------------------------------------------

def build_net() -> Any:
    """The point net: seven 3x3 convolutions (two of stride 2, the last two dilated) and a
    1x1 head of a score per label (`CLASSES`), its field of view about six cells."""
    import torch.nn as nn  # type: ignore[import-not-found,unused-ignore]

    def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> Any:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    return nn.Sequential(conv(3, 16), conv(16, 16, 2), conv(16, 32), conv(32, 32, 2),
                         conv(32, 48), conv(48, 48, dilation=2), conv(48, 48, dilation=4),
                         nn.Conv2d(48, CLASSES, 1))


def gather(logits: Any, points: list[np.ndarray]) -> Any:
    """The scores (k, C) of ``logits`` (B, C, H, W) read bilinearly at each window's
    points (output-map pixels), all windows' points in order."""
    import torch  # type: ignore[import-not-found,unused-ignore]
    import torch.nn.functional as F  # type: ignore[import-not-found,unused-ignore]
    _, _, hh, ww = logits.shape
    most = max(1, max(len(p) for p in points))
    g = np.zeros((len(points), 1, most, 2), np.float32)
    for b, p in enumerate(points):
        g[b, 0, :len(p), 0] = 2 * p[:, 0] / (ww - 1) - 1
        g[b, 0, :len(p), 1] = 2 * p[:, 1] / (hh - 1) - 1
    seen = F.grid_sample(logits, torch.from_numpy(g), align_corners=True)  # (B, C, 1, most)
    return torch.cat([seen[b, :, 0, :len(p)].T for b, p in enumerate(points)])


def batch(examples: list[Example], weights: np.ndarray, rng: np.random.Generator,
          cfg: PointNetConfig, n: int) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """``n`` windows drawn (examples by ``weights``), padded to one size: (n, 3, W, W)
    float32, each window's places (output-map pixels) and all their labels in order."""
    picks = rng.choice(len(examples), size=n, p=weights)
    drawn = [spoil(examples[k], rng, cfg) for k in picks]
    side = max(x.shape[1] for x, _, _ in drawn)
    xs = np.zeros((n, 3, side, side), np.float32)
    for b, (x, _, _) in enumerate(drawn):
        xs[b, :, :x.shape[1], :x.shape[2]] = x
    labels = np.concatenate([lab for _, _, lab in drawn])
    return xs, [p for _, p, _ in drawn], labels


_DRAWN: tuple[list[Example], np.ndarray, PointNetConfig] | None = None
"""What `_draw` draws from, set before its worker process is forked (and so shared)."""


def _draw(seed: int) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """The batch of 32 windows of seed ``seed`` from `_DRAWN` (in a worker process)."""
    assert _DRAWN is not None
    examples, weights, cfg = _DRAWN
    return batch(examples, weights, np.random.default_rng(seed), cfg, 32)


def train(examples: list[Example], steps: int, seed: int, cfg: PointNetConfig,
          log: Any = print) -> Any:
    """The net trained on ``examples`` for ``steps`` batches (real photos drawn as often as
    all the synthetic boards together), the batches drawn by a process of their own while
    the net learns from the last."""
    global _DRAWN
    import torch  # type: ignore[import-not-found,unused-ignore]
    torch.manual_seed(seed)
    net = build_net()
    real = np.array([ex.source != "synthetic" for ex in examples])
    weights = np.where(real, 1.0 / max(1, real.sum()), 1.0 / max(1, (~real).sum()))
    if not real.any() or real.all():
        weights = np.ones(len(examples))
    weights /= weights.sum()
    _DRAWN = (examples, weights, cfg)
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        return _learn(net, _ahead(pool, [seed * 1_000_003 + k for k in range(steps)]),
                      steps, log)


def _ahead(pool: Any, seeds: list[int], ahead: int = 4) -> Any:
    """The batches of ``seeds`` drawn by ``pool``, in order, at most ``ahead`` drawn
    before they are asked for (a batch is 3.5 MB: not thousands of them queued)."""
    pending = [pool.apply_async(_draw, (s,)) for s in seeds[:ahead]]
    for k in range(len(seeds)):
        out = pending.pop(0).get()
        if k + ahead < len(seeds):
            pending.append(pool.apply_async(_draw, (seeds[k + ahead],)))
        yield out


def _learn(net: Any, batches: Any, steps: int, log: Any) -> Any:
    """``net`` trained on ``steps`` of ``batches``; in eval mode after."""
    import torch  # type: ignore[import-not-found,unused-ignore]
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps,
                                                pct_start=0.1)
    loss_fn = torch.nn.CrossEntropyLoss()
    net.train()
    t0, seen_loss, right, total = time.time(), 0.0, 0, 0
    for step, (xs, pts, labels) in enumerate(batches):
        scores = gather(net(torch.from_numpy(xs)), pts)
        labels = torch.from_numpy(labels)
        loss = loss_fn(scores, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        seen_loss += float(loss.detach())
        right += int((scores.argmax(1) == labels).sum())
        total += len(labels)
        if (step + 1) % 100 == 0:
            log(f"step {step + 1}: loss {seen_loss / 100:.4f}, right {right / total:.4%}, "
                f"{time.time() - t0:.0f} s")
            seen_loss, right, total = 0.0, 0, 0
    net.eval()
    return net


def export(net: Any, out: Path, cfg: PointNetConfig) -> None:
    """Write ``net`` as ONNX (opset 13, any input size) to ``out``."""
    import torch  # type: ignore[import-not-found,unused-ignore]
    out.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, 20 * cfg.cell, 20 * cfg.cell)
    torch.onnx.export(net, x, str(out), input_names=["board"], output_names=["scores"],
                      opset_version=13, dynamo=False,
                      dynamic_axes={"board": {2: "height", 3: "width"},
                                    "scores": {2: "rows", 3: "columns"}})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="where to write the ONNX weights")
    ap.add_argument("--synthetic", type=int, default=1900, help="synthetic boards (1900)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/kifu-point-net"),
                    help="folder of rendered synthetic boards")
    ap.add_argument("--manifest", type=Path,
                    default=ROOT.parent / "shared" / "vision-data" / "manifest.jsonl")
    ap.add_argument("--exclude", action="append", default=[],
                    help="leave out the dev photos of this source (repeatable)")
    ap.add_argument("--no-photos", action="store_true", help="synthetic boards only")
    ap.add_argument("--steps", type=int, default=3000, help="training steps (3000)")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2, help="processes rendering boards")
    args = ap.parse_args(argv)
    import torch  # type: ignore[import-not-found,unused-ignore]
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    cfg = POINT_NET
    examples = synthetic(args.synthetic, args.cache, cfg, args.jobs)
    if not args.no_photos:
        if not args.manifest.is_file():
            print(f"{args.manifest}: no such manifest", file=sys.stderr)
            return 2
        examples += photos(args.manifest, args.exclude, cfg)
    real = sum(ex.source != "synthetic" for ex in examples)
    print(f"{len(examples) - real} synthetic boards, {real} photos", flush=True)
    net = train(examples, args.steps, args.seed, cfg, lambda s: print(s, flush=True))
    export(net, args.out, cfg)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
