"""What a photo goes through between the board and the reader, as values: colour casts,
brightness, gamma, JPEG, downscaling, turns, grey, blur, noise, a cropped margin and a
steeper view (issue 19's robustness list, `STANDARD`).

Each perturbation is a frozen dataclass whose repr is the code that makes it and whose
``name`` is a short label for a table. ``apply(image, board)`` returns a `Perturbed`: the
new image (uint8 BGR, like the one given) and the homography taking the old image's
pixels to the new one's, so labelled points follow (the identity where the geometry does
not change). A board's stones are where they were: a reading is compared with the truth
under its best rotation. Everything here is a pure function of its arguments (noise comes
from the value's own seed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

import cv2
import numpy as np

from . import grid

_IDENTITY = np.eye(3)


@dataclasses.dataclass(frozen=True)
class Perturbed:
    """A perturbed photo (H, W, 3) uint8 BGR and ``moved``, the 3x3 homography from the
    original photo's pixels to its pixels."""

    image: np.ndarray
    moved: np.ndarray

    def points(self, pts: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """Pixel positions (n, 2) of the original photo, where they are in this one."""
        return grid.apply(self.moved, np.asarray(pts, dtype=np.float64))


@dataclasses.dataclass(frozen=True)
class Board:
    """Where a board lies in a photo, for perturbations that need its extent: its
    outermost grid intersections, (4, 2) px in cyclic order, and its size (lines)."""

    corners: np.ndarray
    size: int

    @property
    def cell(self) -> float:
        """A cell's mean length (px): the mean of the four sides over ``size - 1``."""
        c = np.asarray(self.corners, dtype=np.float64).reshape(4, 2)
        return float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1))) / (self.size - 1)


class Perturbation(Protocol):
    """Something a photo goes through: a name for tables and a pure ``apply``."""

    @property
    def name(self) -> str:
        """A short label, e.g. ``gamma 0.6``."""

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        """``image`` (uint8 BGR) perturbed. ``board``: where the board lies in ``image``,
        for perturbations that need its extent (others ignore it)."""


def _bgr(image: np.ndarray) -> np.ndarray:
    """``image`` as (H, W, 3) uint8 BGR (grey and BGRA accepted)."""
    img = np.asarray(image)
    if img.dtype != np.uint8:
        raise ValueError(f"perturbations take uint8 images, not {img.dtype}")
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.ndim == 3 and img.shape[2] == 4:
        return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.ndim == 3 and img.shape[2] == 3:
        return img
    raise ValueError(f"an image is (H, W), (H, W, 3) or (H, W, 4), not {img.shape}")


def _same_geometry(image: np.ndarray) -> Perturbed:
    return Perturbed(image, _IDENTITY.copy())


def _lut(table: np.ndarray) -> np.ndarray:
    """A 256-entry lookup table rounded and clipped to uint8."""
    out: np.ndarray = np.clip(np.rint(table), 0, 255).astype(np.uint8)
    return out


def hue_colour(hue: float) -> np.ndarray:
    """The pure colour of ``hue`` degrees (0 red, 60 yellow, 120 green, 180 cyan, 240 blue,
    300 magenta) at full saturation and value, as BGR in [0, 1]; (3,)."""
    h = (hue % 360.0) / 60.0
    rgb = np.clip(np.abs(((h + np.array([0.0, 4.0, 2.0])) % 6.0) - 3.0) - 1.0, 0.0, 1.0)
    out: np.ndarray = rgb[::-1].copy()
    return out


_LUMA = np.array([0.114, 0.587, 0.299])  # BGR weights of a pixel's brightness (BT.601)


@dataclasses.dataclass(frozen=True)
class Cast:
    """A coloured lamp: each channel scaled by its share of the lamp's light, a mix of
    white (1 - ``strength``) and the pure colour of ``hue`` degrees (``strength``), the gains
    then scaled so that a grey keeps its brightness (as a camera's exposure would), and
    clipped at 255."""

    hue: float
    strength: float

    @property
    def name(self) -> str:
        return f"cast {self.hue:g} {self.strength:g}"

    def gains(self) -> np.ndarray:
        """The BGR gains, (3,): a grey pixel's brightness is kept."""
        light = (1.0 - self.strength) + self.strength * hue_colour(self.hue)
        out: np.ndarray = light / float(_LUMA @ light)
        return out

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        img = _bgr(image)
        channels = [cv2.LUT(img[:, :, c], _lut(np.arange(256) * g))
                    for c, g in enumerate(self.gains())]
        return _same_geometry(cv2.merge(channels))


@dataclasses.dataclass(frozen=True)
class Brightness:
    """Every level times ``factor``, clipped at 255 (under- or over-exposure)."""

    factor: float

    @property
    def name(self) -> str:
        return f"brightness x{self.factor:g}"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        return _same_geometry(cv2.LUT(_bgr(image), _lut(np.arange(256) * self.factor)))


@dataclasses.dataclass(frozen=True)
class Gamma:
    """Levels through a gamma curve: ``255 * (v / 255) ** gamma`` (under 1 lighter)."""

    gamma: float

    @property
    def name(self) -> str:
        return f"gamma {self.gamma:g}"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        table = 255.0 * (np.arange(256) / 255.0) ** self.gamma
        return _same_geometry(cv2.LUT(_bgr(image), _lut(table)))


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` saved as a JPEG of ``quality`` (0 to 100) and read back."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:
        raise ValueError(f"cannot encode an image of shape {image.shape} as JPEG")
    out: np.ndarray = decoded
    return out


@dataclasses.dataclass(frozen=True)
class Jpeg:
    """Saved as a JPEG of ``quality`` and read back (95 is OpenCV's default: "saved as
    JPEG")."""

    quality: int

    @property
    def name(self) -> str:
        return "saved as jpeg" if self.quality == 95 else f"jpeg q{self.quality}"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        return _same_geometry(jpeg(_bgr(image), self.quality))


@dataclasses.dataclass(frozen=True)
class Downscale:
    """Resized to ``factor`` of its width and height (area averaging, as a camera set to a
    lower resolution)."""

    factor: float

    @property
    def name(self) -> str:
        return f"downscale {100 * self.factor:g}%"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        img = _bgr(image)
        h, w = img.shape[:2]
        size = (max(1, round(w * self.factor)), max(1, round(h * self.factor)))
        small = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        fx, fy = size[0] / w, size[1] / h
        moved = np.array([[fx, 0, 0.5 * (fx - 1)], [0, fy, 0.5 * (fy - 1)], [0, 0, 1.0]])
        return Perturbed(small, moved)


_ROTATE = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180,
           270: cv2.ROTATE_90_COUNTERCLOCKWISE}


@dataclasses.dataclass(frozen=True)
class Turn:
    """Turned clockwise by ``degrees`` (90, 180 or 270), losslessly."""

    degrees: int

    def __post_init__(self) -> None:
        if self.degrees not in _ROTATE:
            raise ValueError(f"a turn is 90, 180 or 270 degrees, not {self.degrees}")

    @property
    def name(self) -> str:
        return f"turn {self.degrees}"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        img = _bgr(image)
        h, w = img.shape[:2]
        moved = {90: [[0, -1, h - 1], [1, 0, 0], [0, 0, 1]],
                 180: [[-1, 0, w - 1], [0, -1, h - 1], [0, 0, 1]],
                 270: [[0, 1, 0], [-1, 0, w - 1], [0, 0, 1]]}[self.degrees]
        return Perturbed(cv2.rotate(img, _ROTATE[self.degrees]), np.array(moved, np.float64))


@dataclasses.dataclass(frozen=True)
class Grayscale:
    """Colour dropped: every channel the pixel's grey (a black-and-white photo, kept BGR)."""

    @property
    def name(self) -> str:
        return "grayscale"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        grey = cv2.cvtColor(_bgr(image), cv2.COLOR_BGR2GRAY)
        return _same_geometry(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))


@dataclasses.dataclass(frozen=True)
class Blur:
    """A Gaussian blur of ``sigma`` px (a little out of focus, or camera shake)."""

    sigma: float

    @property
    def name(self) -> str:
        return f"blur {self.sigma:g}px"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        return _same_geometry(cv2.GaussianBlur(_bgr(image), (0, 0), self.sigma))


@dataclasses.dataclass(frozen=True)
class Noise:
    """Gaussian noise of ``sigma`` grey levels on every channel, from ``seed`` (a dim
    room's sensor noise), clipped to 0 .. 255."""

    sigma: float
    seed: int = 0

    @property
    def name(self) -> str:
        return f"noise {self.sigma:g}"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        img = _bgr(image)
        rng = np.random.default_rng(self.seed)
        noisy = img + rng.normal(0.0, self.sigma, img.shape)
        return _same_geometry(np.clip(np.rint(noisy), 0, 255).astype(np.uint8))


_SIDES = ("left", "right", "top", "bottom")


@dataclasses.dataclass(frozen=True)
class CropMargin:
    """The photo cut on one ``side`` (left, right, top or bottom) ``keep`` cells beyond the
    board's outermost grid line there, at its outermost point: the wood margin outside the
    line is gone near that point, the stones on the line stay whole (a stone reaches 0.47
    cell). Needs the `Board`."""

    side: str = "left"
    keep: float = 0.5

    def __post_init__(self) -> None:
        if self.side not in _SIDES:
            raise ValueError(f"a side is one of {', '.join(_SIDES)}, not {self.side!r}")

    @property
    def name(self) -> str:
        return f"crop {self.side} margin"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        if board is None:
            raise ValueError("cropping the margin needs the board's corners")
        img = _bgr(image)
        h, w = img.shape[:2]
        c = np.asarray(board.corners, dtype=np.float64).reshape(4, 2)
        cell = board.cell
        x0, y0, x1, y1 = 0, 0, w, h
        if self.side == "left":
            x0 = int(np.clip(np.floor(c[:, 0].min() - self.keep * cell), 0, w - 1))
        elif self.side == "right":
            x1 = int(np.clip(np.ceil(c[:, 0].max() + self.keep * cell) + 1, x0 + 1, w))
        elif self.side == "top":
            y0 = int(np.clip(np.floor(c[:, 1].min() - self.keep * cell), 0, h - 1))
        else:
            y1 = int(np.clip(np.ceil(c[:, 1].max() + self.keep * cell) + 1, y0 + 1, h))
        moved = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])
        return Perturbed(np.ascontiguousarray(img[y0:y1, x0:x1]), moved)


def steeper_view(shape: tuple[int, ...], degrees: float) -> np.ndarray:
    """The homography that shows a photo of ``shape`` as if its plane were tilted a further
    ``degrees`` about the image's horizontal middle line, the top going away (a camera with
    the focal length of the image's longer side, looking at the middle), then scaled and
    centred so the whole picture fits the frame again."""
    h, w = shape[:2]
    f = float(max(h, w))
    t = np.deg2rad(degrees)
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float64)
    x, y = corners[:, 0] - (w - 1) / 2, corners[:, 1] - (h - 1) / 2
    depth = f - y * np.sin(t)  # the top (y < 0) is further off
    seen = np.c_[f * x / depth, f * y * np.cos(t) / depth]
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    scale = min((w - 1) / (hi[0] - lo[0]), (h - 1) / (hi[1] - lo[1]), 1.0)
    placed = (seen - (lo + hi) / 2) * scale + [(w - 1) / 2, (h - 1) / 2]
    out: np.ndarray = cv2.getPerspectiveTransform(corners.astype(np.float32),
                                                  placed.astype(np.float32)).astype(np.float64)
    return out


@dataclasses.dataclass(frozen=True)
class Steeper:
    """The view steepened by ``degrees``: the photo re-warped by `steeper_view` (a plane
    seen from further over), the frame's new corners filled by repeating its border."""

    degrees: float = 20.0

    @property
    def name(self) -> str:
        return f"steeper {self.degrees:g}"

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        img = _bgr(image)
        h, w = img.shape[:2]
        moved = steeper_view(img.shape, self.degrees)
        warped = cv2.warpPerspective(img, moved, (w, h), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        return Perturbed(warped, moved)


@dataclasses.dataclass(frozen=True)
class Chain:
    """``steps`` one after another (e.g. a turn saved as a JPEG)."""

    steps: tuple[Perturbation, ...]

    @property
    def name(self) -> str:
        return ", ".join(s.name for s in self.steps)

    def apply(self, image: np.ndarray, board: Board | None = None) -> Perturbed:
        out = _same_geometry(_bgr(image))
        for step in self.steps:
            at = None if board is None else Board(out.points(board.corners), board.size)
            nxt = step.apply(out.image, at)
            out = Perturbed(nxt.image, nxt.moved @ out.moved)
        return out


HUES = (0, 45, 90, 135, 180, 225, 270, 315)
"""Eight lamp colours, in degrees round the colour wheel (0 red, 120 green, 240 blue)."""

STANDARD: tuple[Perturbation, ...] = (
    *(Cast(hue, strength) for strength in (0.3, 0.6) for hue in HUES),
    Brightness(0.6), Brightness(1.4),
    Gamma(0.6), Gamma(1.6),
    Jpeg(30), Jpeg(70),
    Downscale(0.5), Downscale(0.35),
    Turn(90), Turn(180), Turn(270),
    Jpeg(95),
    Grayscale(),
    Blur(1.5),
    Noise(8.0),
    CropMargin("left"),
    Steeper(20.0),
    Chain((Turn(90), Jpeg(95))),
)
"""Issue 19's list, in its order: 16 casts, brightness, gamma, JPEG, downscale, turns, saved
as JPEG, grayscale, blur, noise, a cropped margin, a steeper view (33); then a turn saved
as a JPEG (the issue saw a lossless turn found and the same turn saved as JPEG missed)."""


def by_name(names: str) -> list[Perturbation]:
    """The `STANDARD` perturbations whose names are given, comma-separated (``turn 90,gamma
    0.6``); a name may also be a prefix that picks several (``cast``). Raises ValueError
    naming one that matches none."""
    picked: list[Perturbation] = []
    for want in (n.strip() for n in names.split(",")):
        if not want:
            continue
        found = [p for p in STANDARD if p.name == want] or \
            [p for p in STANDARD if p.name.startswith(want)]
        if not found:
            known = "; ".join(p.name for p in STANDARD)
            raise ValueError(f"no perturbation named {want!r} (known: {known})")
        picked += [p for p in found if p not in picked]
    return picked
