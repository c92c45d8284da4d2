"""Scoring a reading against ground truth, as the benchmark and the accuracy tests do.

A photo does not say which side is Black's, so a board is compared under the four rotations
and the best is kept. Rows are top of the image first, ``.``/``X``/``O`` (``B``/``W`` read
as ``X``/``O``).
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .grid import apply

if TYPE_CHECKING:
    from .synth import Scene, Synthetic

_CODE = {".": 0, "+": 0, "X": 1, "B": 1, "O": 2, "W": 2}


def to_array(rows: Sequence[str]) -> np.ndarray:
    """Rows of text as a (rows, cols) int array of 0 empty, 1 black, 2 white."""
    try:
        return np.array([[_CODE[ch] for ch in row] for row in rows], dtype=np.int64)
    except KeyError as exc:
        raise ValueError(f"board rows may hold only . X O B W, found {exc.args[0]!r}") from None


def points_right(read: Sequence[str] | None, truth: Sequence[str], mirror: bool = False) -> int:
    """How many intersections of ``truth`` the reading ``read`` gets right under its best
    rotation (and, with ``mirror``, mirror image too: for labels that count rows from the
    other side); 0 when nothing was read or the sizes differ."""
    t = to_array(truth)
    if read is None:
        return 0
    r = to_array(read)
    if r.shape != t.shape:
        return 0
    views = [r, r[::-1]] if mirror else [r]
    return max(int(np.sum(np.rot90(v, k) == t)) for v in views for k in range(4))


def single_stone_rows(size: int, point: str, color: str) -> list[str]:
    """The rows of an otherwise empty ``size`` board with one stone at GTP ``point`` (A-T
    without I, row 1 at the bottom, or ``center``) of ``color`` B or W."""
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    if point.lower() in ("center", "centre", "tengen"):
        col, row = size // 2, size // 2 + 1
    else:
        try:
            col, row = letters.index(point[0].upper()), int(point[1:])
        except ValueError:
            raise ValueError(f"{point!r} is not a point such as C2 or center") from None
    if not (0 <= col < size and 1 <= row <= size):
        raise ValueError(f"{point} is not on a {size}x{size} board")
    grid = [["."] * size for _ in range(size)]
    grid[size - row][col] = "X" if color.upper() == "B" else "O"
    return ["".join(r) for r in grid]


def _matched(found: np.ndarray, labelled: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The labelled corners in cyclic order, the found corners matched to them (the best of
    the four cyclic orders and their reverses), and the cell length at each labelled corner
    (the mean length of the two labelled sides there over the board's lines less one, left
    to the caller): (4, 2), (4, 2), (4,)."""
    f = np.asarray(found, dtype=np.float64).reshape(4, 2)
    lab = np.asarray(labelled, dtype=np.float64).reshape(4, 2)
    # Put the labels in cyclic order around their centre (the files list them in any order).
    c = lab.mean(axis=0)
    lab = lab[np.argsort(np.arctan2(lab[:, 1] - c[1], lab[:, 0] - c[0]))]
    sides = np.array([(np.linalg.norm(lab[k] - lab[k - 1]) + np.linalg.norm(lab[k] - lab[(k + 1) % 4])) / 2
                      for k in range(4)])
    best, match = np.inf, f
    for order in (f, f[::-1]):
        for s in range(4):
            g = np.roll(order, s, axis=0)
            err = float(np.max(np.linalg.norm(g - lab, axis=1) / sides))
            if err < best:
                best, match = err, g
    return lab, match, sides


def corner_error_cells(found: np.ndarray, labelled: np.ndarray, size: int) -> float:
    """The largest distance, in cells, between a labelled grid corner and the found corner
    matched to it (the matching is the best of the four cyclic orders and their reverses).
    A cell at a corner is the mean length of the two labelled sides there over ``size - 1``."""
    lab, match, sides = _matched(found, labelled)
    return float(np.max(np.linalg.norm(match - lab, axis=1) / (sides / (size - 1))))


def corner_offsets(found: np.ndarray, labelled: np.ndarray, size: int) -> np.ndarray:
    """Where each labelled corner lies from the found corner matched to it, in cells: (4, 2)
    rows of (inward, across), inward along the line from the found corner to the found
    grid's centre, across at right angles to it. A set of labels drawn as boxes around the
    corners shows a steady inward offset where the grid found is right."""
    lab, match, sides = _matched(found, labelled)
    cell = sides / (size - 1)
    d = lab - match
    u = match.mean(axis=0) - match
    u = u / np.linalg.norm(u, axis=1, keepdims=True)
    inward = np.sum(d * u, axis=1) / cell
    across = (d[:, 0] * u[:, 1] - d[:, 1] * u[:, 0]) / cell
    out: np.ndarray = np.c_[inward, across]
    return out


def edge_line_offsets(gray: np.ndarray, homography: np.ndarray, size: int,
                      reach: float = 0.3, seen: float = 3.0) -> np.ndarray:
    """Where the photo's own outer grid lines lie from the found grid's, in cells, positive
    inward: a check of the grid against the pixels that needs no labels. (8,): each of the
    four edges near each of its ends, in order (top, bottom, left, right) x (start, end) in
    lattice terms. An edge is looked for within ``reach`` cell either side of the found
    one, on the stretch from 0.3 to 3.5 cells along it from that end, as the shift where
    the stretch's median grey is darkest against the grey 0.2 cell either side; NaN where
    nothing there is ``seen`` grey levels darker than both sides (a stone on the line, a
    hand). ``homography`` maps lattice (column, row) to ``gray``'s pixels."""
    step, side = 0.02, 10  # shifts in cells; the sides of a shift lie 0.2 cell from it
    shifts = np.arange(-round(reach / step) - side, round(reach / step) + side + 1) * step
    along = np.linspace(0.3, 3.5, 60)
    last = size - 1.0
    edges = ((True, 0.0), (True, last), (False, 0.0), (False, last))  # top, bottom, left, right
    stretches = []  # (8, shifts, along, 2) lattice points, in the order returned
    for horizontal, edge in edges:
        for start in (True, False):
            t, c = np.meshgrid(along if start else last - along, edge + shifts)
            stretches.append(np.stack([t, c] if horizontal else [c, t], axis=-1))
    pts = np.stack(stretches)
    xy = apply(homography, pts.reshape(-1, 2)).astype(np.float32)
    blurred = cv2.GaussianBlur(np.asarray(gray, dtype=np.float32), (0, 0), 0.7)
    grey = cv2.remap(blurred, xy[None, :, 0], xy[None, :, 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=float("nan"))
    profile = np.median(grey.reshape(pts.shape[:3]), axis=2)  # (8, shifts)
    darker = (profile[:, :-2 * side] + profile[:, 2 * side:]) / 2 - profile[:, side:-side]
    darker = np.where(np.isnan(darker), -np.inf, darker)
    best = np.argmax(darker, axis=1)
    shift = shifts[side:-side][best]
    sign = np.repeat([1.0 if edge == 0.0 else -1.0 for _, edge in edges], 2)
    out: np.ndarray = np.where(darker[np.arange(8), best] >= seen, sign * shift, np.nan)
    return out


def turn_points(pts: list[list[float]], shape: tuple[int, ...], deg: int) -> np.ndarray:
    """Labelled pixel positions after turning an image of ``shape`` clockwise by ``deg``."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    h, w = shape[:2]
    x, y = p[:, 0], p[:, 1]
    turned: np.ndarray = {90: lambda: np.c_[h - 1 - y, x],
                          180: lambda: np.c_[w - 1 - x, h - 1 - y],
                          270: lambda: np.c_[y, w - 1 - x]}.get(deg, lambda: p)()
    return turned


@dataclasses.dataclass
class ShotTally:
    """Synthetic shots of boards of ``size`` lines read by `vision.read_board`, against their
    truth: how many were ``read``, ``found`` (a board at all), ``sized`` (found at their
    size), ``placed`` (at their size, every grid corner within a quarter cell of the
    truth's), the intersections ``right``
    on the placed ones, the boards read ``perfect``, the milliseconds each read took, and
    a line on each board ``missed`` (not read perfectly).
    Only the ``shown`` intersections count: none a hand hides. To tell where points are
    lost: the ``corner`` error (cells, `corner_error_cells`) of each board found at its
    size, and the points ``misread`` on the placed boards (the rest of the points not
    right are those of boards not placed)."""

    size: int
    read: int = 0
    shown: int = 0
    found: int = 0
    placed: int = 0
    right: int = 0
    sized: int = 0
    perfect: int = 0
    ms: list[float] = dataclasses.field(default_factory=list)
    corner: list[float] = dataclasses.field(default_factory=list)
    misread: int = 0
    missed: list[str] = dataclasses.field(default_factory=list)

    def add(self, shot: Synthetic, label: str = "") -> None:
        """Read ``shot`` and count what came of it. Where it is not read perfectly, a line
        on it goes to ``missed``: ``label`` (`of` gives the seed), then "not found", the
        size it was read at where that is not its own, or its largest grid corner's error
        (cells; "not placed" over a quarter cell, where all its points count wrong), the
        points it read wrong on that grid and the board confidence it was read with."""
        from . import BoardNotFound, read_board  # (which imports this module's users)
        self.read += 1
        self.shown += int((~shot.hidden).sum())
        t0 = time.perf_counter()
        try:
            reading = read_board(shot.image)
        except BoardNotFound:
            reading = None
        self.ms.append((time.perf_counter() - t0) * 1e3)
        if reading is None:
            self.missed.append(f"{label}not found")
            return
        self.found += 1
        self.sized += reading.size == self.size
        if reading.size != self.size:
            self.missed.append(f"{label}read as {reading.size}x{reading.size}")
            return
        self.corner.append(corner_error_cells(reading.corners, shot.corners, self.size))
        seen, truth = to_array(reading.rows()), to_array(shot.position.rows())
        right = (seen == truth)[~shot.hidden]
        wrong = int((~right).sum())
        placed = self.corner[-1] <= 0.25
        if not (placed and wrong == 0):
            self.missed.append(
                f"{label}corner {self.corner[-1]:.2f}{'' if placed else ' (not placed)'}, "
                f"{wrong} wrong, board confidence {reading.board_confidence:.2f}")
        if not placed:
            return
        self.placed += 1
        self.right += int(right.sum())
        self.misread += wrong
        self.perfect += wrong == 0

    @classmethod
    def of(cls, size: int, seeds: int, taken: float, scene: Scene) -> ShotTally:
        """Boards of ``size`` lines with ``taken`` of their points occupied, one per seed
        0 .. ``seeds`` - 1, drawn as ``scene`` says (`vision.synth`), read and tallied."""
        from .synth import random_position, render
        tally = cls(size)
        for seed in range(seeds):
            tally.add(render(random_position(size, seed, stones=taken), seed, scene),
                      f"seed {seed}: ")
        return tally

    @property
    def points(self) -> float:
        """Intersections right, in percent of all the shots' shown ones (a board not placed
        counts all its points wrong)."""
        return 100.0 * self.right / max(1, self.shown)

    def columns(self) -> str:
        """Boards, found, placed, points right, perfect, median ms: a table row's end."""
        return (f"{self.read:6d} {self.found:6d} {self.placed:6d} {self.points:8.2f}% "
                f"{self.perfect:7d} {statistics.median(self.ms or [0.0]):7.0f}")


    def scene_columns(self) -> str:
        """Boards, found, found at their size, placed, points right, perfect, median ms: a
        row's end in `vision_scenes.py`'s table."""
        return (f"{self.read:6d} {self.found:6d} {self.sized:6d} {self.placed:6d} "
                f"{self.points:8.2f}% {self.perfect:7d} {statistics.median(self.ms or [0.0]):7.0f}")

    def loss_columns(self) -> str:
        """Where the points not right went: the median corner error (cells) of the boards
        found at their size, the points lost to boards not placed and those misread on the
        placed ones (percent of all the shots' shown points)."""
        corner = statistics.median(self.corner) if self.corner else float("nan")
        unplaced = self.shown - self.right - self.misread
        share = 100.0 / max(1, self.shown)
        return f"{corner:6.2f} {unplaced * share:8.2f}% {self.misread * share:8.2f}%"


LOSS_COLUMNS = f"{'corner':>6} {'unplaced':>9} {'misread':>9}"
"""The heading of `ShotTally.loss_columns`."""

COLUMNS = f"{'boards':>6} {'found':>6} {'grid':>6} {'points':>9} {'perfect':>7} {'ms':>7}"
"""The heading of `ShotTally.columns`."""

SCENE_COLUMNS = (f"{'boards':>6} {'found':>6} {'sized':>6} {'grid':>6} {'points':>9} "
                 f"{'perfect':>7} {'ms':>7}")
"""The heading of `ShotTally.scene_columns`."""


def source_of(row: dict[str, object]) -> str:
    """The source of a manifest row (see ../shared/vision-data/README.md): its ``source``
    field, the public set the photo was copied from, or where it names none the first folder
    of its image path. The unit of "leave one source out"."""
    source = row.get("source")
    if isinstance(source, str) and source:
        return source
    return str(row["image"]).split("/")[0]
