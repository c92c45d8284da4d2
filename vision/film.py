"""Films of whole games, for tests and the demo: one board under one camera while a game
is played on it, with what makes live recording hard.

`script` turns a game's moves into shots (pure logic: what is on the board, where a hand
is, how bright the light is, which camera pose); `Film` renders the shots. Difficulties,
each switchable in `Take`:

* a hand reaching in for every move (the stone appears under it) and for every capture;
* captured stones lifted late, well after the move that took them;
* slowly drifting light, and a lamp switched on once;
* one camera bump: from a given move on, the camera looks from a slightly other place.

Everything random comes from ``Take.seed``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

import cv2
import numpy as np

from rules import Game, Move, Point, Ruleset, preset

from . import grid
from .grid import lift_shift
from .synth import _wood

STONE_HEIGHT = 0.25
"""How high (cells) the middle of a stone's visible body is above the board: under an
oblique camera a stone is seen shifted away from the camera by that much height."""

STAR_POINTS = {9: (2, 4, 6), 13: (3, 6, 9), 19: (3, 9, 15)}


@dataclasses.dataclass(frozen=True)
class Take:
    """How a game is filmed."""

    width: int = 1280
    height: int = 720
    fps: float = 10.0
    hold: float = 1.0
    """Seconds the board stays untouched after each move."""
    reach: float = 0.3
    """Seconds a hand is over the board to play a stone or lift captured stones."""
    late_capture: float = 1.5
    """Seconds captured stones stay on the board before a hand lifts them."""
    hands: bool = True
    light: bool = True
    bump_after: int | None = None
    """Move number after which the camera is bumped (None: never)."""
    seed: int = 0
    stone_colours: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    """Black's and White's stones' colours (BGR); None: black and white."""


@dataclasses.dataclass(frozen=True)
class Shot:
    """One frame's content: the stones (cell codes, bottom row first), the point a hand
    covers (None: no hand), the light's gain, and the camera pose (0 before the bump)."""

    time: float
    cells: tuple[int, ...]
    hand: Point | None
    gain: float
    pose: int


def script(moves: Sequence[Move], size: int, take: Take = Take(), rules: Ruleset | None = None) -> list[Shot]:
    """The shots of a game played move by move. Moves the rules refuse raise
    `rules.IllegalMoveError` (a film shows a legal game)."""
    game = Game(rules or preset("chinese"), size)
    dt = 1.0 / take.fps
    shots: list[Shot] = []
    cells = list(game.board.cells)
    pose = 0
    t = 0.0

    def light(t: float) -> float:
        if not take.light:
            return 1.0
        lamp = 0.18 if t > 0.55 * duration else 0.0
        return 0.88 + 0.08 * float(np.sin(2 * np.pi * t / 37.0)) + lamp

    def hold(seconds: float, hand: Point | None = None) -> None:
        nonlocal t
        for _ in range(max(1, round(seconds * take.fps))):
            shots.append(Shot(t, tuple(cells), hand if take.hands else None, light(t), pose))
            t += dt

    duration = len(moves) * (take.hold + take.reach * 2 + take.late_capture / 4) + 2
    hold(take.hold)
    for k, move in enumerate(moves, start=1):
        if move.point is None:
            game.push(move, out_of_turn=True)
            hold(take.hold)
            continue
        event = game.push(move, out_of_turn=True)
        i = move.point.y * size + move.point.x
        hold(take.reach / 2, move.point)  # the hand comes in
        cells[i] = int(move.color)
        hold(take.reach / 2, move.point)  # the stone is down, the hand still over it
        captured = getattr(event, "captured", ())
        if captured:
            hold(take.late_capture)
            hold(take.reach, captured[len(captured) // 2])
            for p in captured:
                cells[p.y * size + p.x] = 0
        if take.bump_after is not None and k == take.bump_after:
            pose = 1
        hold(take.hold)
    return shots


def _empty_board(rng: np.random.Generator, size: int, cell: int) -> tuple[np.ndarray, float]:
    """The empty board seen square-on, (side, side, 3) float BGR, and the margin (px) from
    its edge to the outer lines. Lines are a 22nd of the spacing thick, as on real boards."""
    margin = 0.9 * cell
    side = int(round(2 * margin + (size - 1) * cell))
    img = _wood(rng, side).astype(np.float32)
    ink = float(rng.uniform(25, 55))
    lo, hi = int(round(margin)), int(round(margin + (size - 1) * cell))
    for k in range(size):
        p = int(round(margin + k * cell))
        cv2.line(img, (p, lo), (p, hi), (ink, ink, ink), max(1, round(cell / 22)), cv2.LINE_AA)
        cv2.line(img, (lo, p), (hi, p), (ink, ink, ink), max(1, round(cell / 22)), cv2.LINE_AA)
    stars = STAR_POINTS.get(size, ())
    for sx in stars:
        for sy in stars:
            if size == 9 and (sx == 4) != (sy == 4):
                continue
            c = (int(round(margin + sx * cell)), int(round(margin + sy * cell)))
            cv2.circle(img, c, max(2, cell // 10), (ink, ink, ink), -1, cv2.LINE_AA)
    return img, margin


def _sprite(color: int, cell: int,
            tone: tuple[int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A stone's look (h, w, 3) and its opacity (h, w), with the shadow it casts; of the
    colour ``tone`` (BGR) if given, else black or white."""
    r = 0.47 * cell
    side = int(np.ceil(2 * r + 0.4 * cell)) | 1
    c = side / 2
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    d = np.hypot(xx - c, yy - c)
    body = np.clip(r - d + 0.5, 0, 1)
    shadow = np.clip(r - np.hypot(xx - c - 0.06 * cell, yy - c - 0.06 * cell) + 0.5, 0, 1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), cell / 16) * 0.2
    spot = np.exp(-((xx - c + 0.18 * r) ** 2 + (yy - c + 0.18 * r) ** 2) / (2 * (0.3 * r) ** 2))
    if tone is None:
        base = 28.0 if color == 1 else 228.0
        look = base + (255.0 - base) * (0.35 if color == 1 else 0.6) * spot
        look = np.repeat(look[:, :, None], 3, axis=2)
    else:
        bgr = np.array(tone, np.float32)
        look = bgr + (255.0 - bgr) * (0.35 * spot)[:, :, None]
    alpha = np.maximum(body, shadow)
    # Where only the shadow falls, the "look" is black at the shadow's strength.
    rgb = np.where(body[:, :, None] > 0, look, 0.0) * (body / np.maximum(alpha, 1e-6))[:, :, None]
    return rgb.astype(np.float32), alpha.astype(np.float32)


class Film:
    """Renders the shots of one `Take` of a board of ``size`` lines."""

    def __init__(self, size: int, take: Take = Take()) -> None:
        self.size = size
        self.take = take
        rng = np.random.default_rng(take.seed)
        self.cell = 40
        self.board, self.margin = _empty_board(rng, size, self.cell)
        side = self.board.shape[0]
        tones = take.stone_colours or (None, None)
        self.sprites = {1: _sprite(1, self.cell, tones[0]), 2: _sprite(2, self.cell, tones[1])}
        w, h = take.width, take.height
        extent = 0.82 * h
        centre = np.array([w / 2, h / 2]) + rng.uniform(-0.04, 0.04, 2) * (w, h)
        square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * extent
        # The camera looks from the players' side: the far edge is shorter.
        square[:2, 0] *= 0.86
        dst = square + centre + rng.uniform(-0.02, 0.02, (4, 2)) * extent
        src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
        bumped = dst + np.array([0.03 * w, -0.02 * h]) + rng.uniform(-0.015, 0.015, (4, 2)) * extent
        self.poses = [cv2.getPerspectiveTransform(src, d.astype(np.float32)) for d in (dst, bumped)]
        cloth = rng.uniform(40, 120, 3).astype(np.float32)
        self.background = np.empty((h, w, 3), np.float32)
        self.background[:] = cloth
        self.background += cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 2)[:, :, None]
        self.inside = [cv2.warpPerspective(np.ones((side, side), np.float32), m, (w, h))[:, :, None]
                       for m in self.poses]
        # Where each stone is seen from each pose: shifted by its height (lattice units).
        to_top = np.array([[self.cell, 0, self.margin], [0, self.cell, self.margin], [0, 0, 1]])
        self.shifts = []
        for pose in self.poses:
            shift = lift_shift(pose.astype(np.float64) @ to_top, (h, w), size, STONE_HEIGHT)
            self.shifts.append({(int(i), int(j)): d for (i, j), d in zip(grid.lattice(size), shift)})
        self.noise = rng.normal(0, 4, (h + 64, w + 64, 3)).astype(np.float32)
        self.skin = np.array([rng.uniform(120, 160), rng.uniform(150, 185), rng.uniform(205, 235)],
                             np.float32)
        self.rng = rng
        self._cache: dict[tuple[tuple[int, ...], int], np.ndarray] = {}

    def top_down(self, cells: tuple[int, ...], pose: int = 0) -> np.ndarray:
        """The board with these stones as camera ``pose`` sees it, unwarped: (side, side, 3)
        float, each stone drawn where its body appears (see `STONE_HEIGHT`)."""
        img = self._cache.get((cells, pose))
        if img is not None:
            return img
        img = self.board.copy()
        n, c, m = self.size, self.cell, self.margin
        for idx, colour in enumerate(cells):
            if not colour:
                continue
            i, j = idx % n, n - 1 - idx // n  # lattice column, and row from the top
            dx, dy = self.shifts[pose][(i, j)]
            rgb, alpha = self.sprites[colour]
            half = rgb.shape[0] // 2
            cx = int(round(m + (i + dx) * c)) - half
            cy = int(round(m + (j + dy) * c)) - half
            patch = img[cy:cy + rgb.shape[0], cx:cx + rgb.shape[1]]
            a = alpha[: patch.shape[0], : patch.shape[1], None]
            patch[:] = patch * (1 - a) + rgb[: patch.shape[0], : patch.shape[1]] * a
        if len(self._cache) > 8:
            self._cache.clear()
        self._cache[(cells, pose)] = img
        return img

    def _point(self, p: Point, pose: int) -> np.ndarray:
        n, c, m = self.size, self.cell, self.margin
        src = np.array([[[m + p.x * c, m + (n - 1 - p.y) * c]]], np.float32)
        out: np.ndarray = cv2.perspectiveTransform(src, self.poses[pose])[0, 0]
        return out

    def render(self, shot: Shot) -> np.ndarray:
        """The camera's frame of a shot: (height, width, 3) uint8 BGR."""
        w, h = self.take.width, self.take.height
        board = cv2.warpPerspective(self.top_down(shot.cells, shot.pose), self.poses[shot.pose], (w, h),
                                    flags=cv2.INTER_LINEAR)
        inside = self.inside[shot.pose]
        img = self.background * (1 - inside) + board * inside
        if shot.hand is not None:
            tip = self._point(shot.hand, shot.pose)
            base = np.array([tip[0] * 0.7 + w * 0.15, h * 1.15])  # the player's arm
            mask = np.zeros((h, w), np.float32)
            width = int(1.6 * self.cell)
            cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 1.0, width)
            cv2.circle(mask, (int(tip[0]), int(tip[1])), int(0.9 * self.cell), 1.0, -1)
            soft = cv2.GaussianBlur(mask, (0, 0), 3)[:, :, None]
            img = img * (1 - soft) + self.skin * soft
        ox, oy = self.rng.integers(0, 64, 2)
        img = img * shot.gain + self.noise[oy:oy + h, ox:ox + w]
        return np.clip(img, 0, 255).astype(np.uint8)

    def frames(self, shots: Sequence[Shot]) -> Iterator[np.ndarray]:
        """The frames of the shots, in order."""
        for shot in shots:
            yield self.render(shot)


def write_video(path: str, frames: Iterator[np.ndarray], fps: float, size: tuple[int, int]) -> int:
    """Write frames to a video file (MJPG in AVI, which every OpenCV build reads back).
    Returns the number of frames written; raises OSError when the file cannot be made."""
    writer = cv2.VideoWriter(path, cv2.VideoWriter.fourcc(*"MJPG"), fps, size)
    if not writer.isOpened():
        raise OSError(f"{path}: cannot write a video here")
    count = 0
    try:
        for frame in frames:
            writer.write(frame)
            count += 1
    finally:
        writer.release()
    return count


__all__ = ["Film", "Shot", "Take", "script", "write_video"]
