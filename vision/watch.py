"""`BoardWatcher`: follows one board through a stream of frames, cheaply.

The board is located once (`vision.reading.locate_in_any_light`, the slow part: looked for
again under a neutral light where a lamp or the exposure hides it, as a photo is). After
that every frame gets a cheap *look*: the mean colour of a small disc of pixels at each
intersection, sampled straight from the frame through the known homography (no warp of
the whole image). What a frame shows is judged against the frames before it:

* **Motion and occlusion.** A point whose look changed since the previous frame, or did
  so within the last ``settle`` seconds, is moving (a hand, a stone being put down): it is
  reported unknown, with the points next to it, so that a hand is never read as stones.
  Points the classifier is unsure of stay known but carry their low confidence.
* **Reading.** The stones are read (`stones.seen`, the costly part: a warp of the board,
  some medians and the point net; with `stones.doubt`, the confidence a photo's reading
  carries) only on frames that need it: when a seen
  point was hidden at the last reading, or looks different from then (a stone was put
  down, the light changed slowly), and while a new label is waiting out its ``persist``
  frames, and every ``refresh`` seconds anyway. Other points keep the label and
  confidence of their last reading: a still board is not read on every frame.
* **Camera bump.** The grid's fit to the lines is checked on still frames; when it has
  slipped (the camera or the board moved), or when most of the board changed at once and
  settled different, the board is located again; until then the frame is all unknown.
  Found where it was, the grid and what was read through it are kept.
* **Flicker.** A point's label changes only when the new label has been read on
  ``persist`` frames in a row in which the point was seen: noise that makes a point look
  like a stone for a frame never reaches the tracker.
* **No board.** While the board cannot be found, every point is unknown; ``reason`` says
  why it was not found.

`as_reading` turns what the watcher saw of a frame into a `Reading`, to draw it over the
frame (the calibration page) without reading the frame again.

Raw labels are reported, without the Go-sense correction of a single photo: on a live
board, stones a move has captured really do lie without liberties until they are lifted.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from rules import Observation, Position
from rules.observation import UNKNOWN

from . import grid
from .config import VISION, StoneConfig, VisionConfig
from .errors import BoardNotFound
from .grid import GridFit
from .grid_score import lattice_score
from .locate import to_gray
from .reading import Reading, locate_in_any_light
from .stones import seen


@dataclasses.dataclass(frozen=True)
class WatchConfig:
    """Thresholds of frame-to-frame watching."""

    motion: float = 12.0
    """A change of a point's look larger than this from one frame to the next is motion:
    of its lightness, or of its colour (the distance in the a-b plane), on OpenCV's
    0..255 Lab scale."""
    drift: float = 6.0
    """A seen point whose look differs this much (measured as ``motion``) from its look at
    the last reading is read again: a stone put down under a hand, or light that changed
    too slowly ever to be motion."""
    refresh: float = 2.0
    """Seconds after which the stones are read again even if no point looks different: a
    misreading that no look reveals (the first one, say) lasts no longer than this."""
    look_radius: float = 0.3
    """Radius (cells) of the disc at each intersection whose mean colour is its look."""
    look_step: float = 0.1
    """Spacing (cells) of the pixels sampled in that disc."""
    settle: float = 0.1
    """Seconds a point stays unknown after it last moved."""
    persist: int = 3
    """Frames a point must keep a new label before it is reported (a flicker never is)."""
    check_every: float = 0.5
    """Seconds between checks, on still frames, that the grid still sits on the lines."""
    misaligned: float = 0.6
    """The grid has slipped (camera or board moved) when its lattice score falls below this
    share of the score it had when the board was located."""
    same_place: float = 0.25
    """A board located again with every corner within this many cells of the grid's is
    where it was: the grid is kept, and what was read through it (a grid from a crowd of
    stones scores lower on the lines as more stones hide them, and is checked again)."""
    bump_share: float = 0.45
    """When this share of the points changes at once, the whole view is moving (a bumped
    camera, a lamp switched on); if it settles this different, the board is located again."""


WATCH = WatchConfig()


Looks = np.ndarray
"""Lightness, a and b (Lab, 0..255) of every point's look: (3, size, size) float32, row 0
at the top."""


def look_offsets(cfg: WatchConfig = WATCH) -> np.ndarray:
    """Where a point's look is sampled, relative to the intersection in lattice units: the
    points of a square grid of step ``look_step`` inside a disc of ``look_radius``; (m, 2)."""
    k = int(np.floor(cfg.look_radius / cfg.look_step + 1e-9))
    steps = np.arange(-k, k + 1) * cfg.look_step
    dx, dy = np.meshgrid(steps, steps)
    inside = dx ** 2 + dy ** 2 <= cfg.look_radius ** 2 + 1e-9
    out: np.ndarray = np.c_[dx[inside], dy[inside]]
    return out


def look_pixels(homography: np.ndarray, size: int, shape: tuple[int, ...],
                cfg: WatchConfig = WATCH) -> np.ndarray:
    """Flat pixel indexes (row * width + column) of the pixels sampled for the looks in an
    image of ``shape``, clipped to the image: (m, size * size), the k-th sample of every
    point in row k, points row by row from the top."""
    offsets = look_offsets(cfg)
    pts = offsets[:, None, :] + grid.lattice(size)[None, :, :]
    xy = np.rint(grid.apply(homography, pts.reshape(-1, 2))).astype(np.intp)
    x = np.clip(xy[:, 0], 0, shape[1] - 1)
    y = np.clip(xy[:, 1], 0, shape[0] - 1)
    out: np.ndarray = (y * shape[1] + x).reshape(len(offsets), size * size)
    return out


def look(image: np.ndarray, pixels: np.ndarray, size: int) -> Looks:
    """Every point's look in ``image`` (BGR, BGRA or grey, uint8): the Lab colour of the
    mean of its ``pixels`` (from `look_pixels`); (3, size, size) float32."""
    channels = 1 if image.ndim == 2 else image.shape[2]
    samples = np.take(image.reshape(-1, channels), pixels, axis=0)  # (m, points, channels)
    mean = samples.sum(axis=0, dtype=np.float32)
    mean *= 1.0 / (255.0 * len(pixels))
    bgr = mean[:, :3] if channels >= 3 else np.repeat(mean, 3, axis=1)
    lab = cv2.cvtColor(np.ascontiguousarray(bgr).reshape(size, size, 3), cv2.COLOR_BGR2LAB)
    # Float Lab comes as L 0..100 and a, b around 0: put it on the 0..255 scale of 8 bits.
    out: np.ndarray = np.moveaxis(lab, 2, 0) * _LAB_SCALE + _LAB_SHIFT
    return out


_LAB_SCALE = np.array([255.0 / 100.0, 1.0, 1.0], np.float32)[:, None, None]
_LAB_SHIFT = np.array([0.0, 128.0, 128.0], np.float32)[:, None, None]


def differs(a: Looks, b: Looks, limit: float) -> np.ndarray:
    """Points (size, size) whose looks ``a`` and ``b`` differ by more than ``limit`` in
    lightness, or in colour (distance in the a-b plane)."""
    light = np.abs(a[0] - b[0]) > limit
    colour = np.hypot(a[1] - b[1], a[2] - b[2]) > limit
    out: np.ndarray = light | colour
    return out


class BoardWatcher:
    """Turns frames of one board into `Observation`s, locating the board only when needed.

    ``size`` (9, 13, 19) is the board size; ``source`` names the camera in the observations.
    ``vision`` is the reader's config, handed to `locate`; ``stone_config``, where given,
    stands in for its stones' part (kept as ``vision.stones``, the one the stones are read
    with).
    ``located`` counts how often the board was located (1 on an undisturbed recording);
    ``reads`` how often the stones were read (on a still board, every ``refresh`` seconds).
    ``fit`` is the grid located (None while there is no board); ``reason`` why the board
    was not found the last time it was looked for (None once it is found).
    """

    def __init__(
        self, size: int, *, source: str = "camera",
        config: WatchConfig = WATCH, stone_config: StoneConfig | None = None,
        vision: VisionConfig = VISION,
    ) -> None:
        self.size = size
        self.source = source
        self.config = config
        self.vision = dataclasses.replace(vision, stones=stone_config or vision.stones)
        self.fit: GridFit | None = None
        self.reason: str | None = None
        self.located = 0
        self.reads = 0
        self._pixels: np.ndarray | None = None  # look_pixels of the fit
        self._shape: tuple[int, ...] = ()  # the image shape they are for
        self._previous: Looks | None = None  # the last frame's look of every point
        self._still: Looks | None = None  # the look before the whole view last changed
        self._shaking = False
        self._score = 0.0  # how well the grid sat on the lines when located
        self._checked = -np.inf  # when that was last checked
        self._last_moved = np.full((size, size), -np.inf)
        self._label: np.ndarray | None = None  # labels reported, (size, size)
        self._confidence = np.zeros((size, size))  # of the last reading
        self._candidate = np.zeros((size, size), np.int64)  # the last reading's labels
        self._count = np.zeros((size, size), np.int64)  # readings in a row it has held
        self._read_look: Looks | None = None  # every point's look when last read
        self._read_seen = np.zeros((size, size), bool)  # points known at that reading
        self._read_time = -np.inf  # when that was

    def _hidden(self, time: float) -> Observation:
        n = self.size
        return Observation(n, n, (UNKNOWN,) * (n * n), time=time, source=self.source)

    def _locate(self, image: np.ndarray) -> bool:
        """Locate the board; False when it is not found. Found where the grid already was
        (`same_place`), that grid is kept, with what was read through it."""
        try:
            fit, _ = locate_in_any_light(image, self.size, self.vision)
        except BoardNotFound as exc:
            self.fit = None
            self.reason = exc.reason
            return False
        self.reason = None
        self.located += 1
        if self.fit is None or not same_place(self.fit, fit, self.config.same_place):
            self.fit = fit
            self._pixels = None
            self._read_seen[:] = False  # the old readings were through another homography
        self._score = lattice_score(to_gray(image), self.fit, self.vision.locate)
        return True

    def _look(self, image: np.ndarray) -> Looks:
        assert self.fit is not None
        if self._pixels is None or image.shape != self._shape:
            self._pixels = look_pixels(self.fit.homography, self.size, image.shape, self.config)
            self._shape = image.shape
        return look(image, self._pixels, self.size)

    def _relocate(self, image: np.ndarray, time: float) -> bool:
        """Locate the board again after the view may have moved; False when it cannot be
        found. Unless it is found where it was, every point is moving as of ``time``."""
        before = self.fit
        if not self._locate(image):
            self._last_moved[:] = time
            self._previous = None
            return False
        if self.fit is not before:
            self._last_moved[:] = time
        self._previous = self._look(image)
        return True

    def observe(self, image: np.ndarray, time: float) -> Observation:
        """What ``image`` (BGR, uint8), taken at ``time`` seconds, shows of the board."""
        cfg = self.config
        if self.fit is None:
            if not self._locate(image):
                return self._hidden(time)
            self._previous = None
        looks = self._look(image)
        previous, self._previous = self._previous, looks
        if previous is None:
            moved = np.zeros((self.size, self.size), bool)
        else:
            moved = differs(looks, previous, cfg.motion)
        if moved.mean() >= cfg.bump_share:
            # The whole view is changing: the camera or the light, or everything at once.
            self._shaking = True
            self._last_moved[:] = time
            return self._hidden(time)
        if self._shaking:
            self._shaking = False
            still = self._still
            if still is not None and differs(looks, still, cfg.motion).mean() >= cfg.bump_share:
                # The view settled somewhere else: find the board again.
                if not self._relocate(image, time):
                    return self._hidden(time)
                assert self._previous is not None
                looks = self._previous
        elif not moved.any() and time - self._checked >= cfg.check_every:
            self._checked = time
            assert self.fit is not None
            score = lattice_score(to_gray(image), self.fit, self.vision.locate)
            if score < cfg.misaligned * self._score:
                # The grid slipped off the lines: the camera or the board moved.
                if not self._relocate(image, time):
                    return self._hidden(time)
                assert self._previous is not None
                looks = self._previous
        self._still = looks
        self._last_moved[_grow(moved)] = time
        unknown = time - self._last_moved < cfg.settle
        if self._needs_reading(looks, unknown, time):
            self._read(image, looks, unknown, time)
        else:
            self._count[unknown] = 0
        assert self._label is not None
        labels = np.where(unknown, UNKNOWN, self._label)
        confidence = np.where(unknown, 0.0, self._confidence)
        # Row 0 of the arrays is the top of the image; observations start at the bottom.
        n = self.size
        return Observation(n, n, tuple(labels[::-1].ravel().tolist()),
                           tuple(confidence[::-1].ravel().tolist()),
                           time=time, source=self.source)

    def _needs_reading(self, looks: Looks, unknown: np.ndarray, time: float) -> bool:
        """Whether a seen point may read differently from its label: it was not seen at the
        last reading, its look has changed since, a new label is waiting to persist, or
        the last reading is ``refresh`` seconds old."""
        if self._label is None or self._read_look is None:
            return True
        seen = ~unknown
        if time - self._read_time >= self.config.refresh:
            return bool(seen.any())
        stale = ~self._read_seen | differs(looks, self._read_look, self.config.drift)
        waiting = self._candidate != self._label
        return bool((seen & (stale | waiting)).any())

    def _read(self, image: np.ndarray, looks: Looks, unknown: np.ndarray, time: float) -> None:
        """Read the stones and take the new labels that have persisted."""
        assert self.fit is not None
        self.reads += 1
        self._read_time = time
        raw, self._confidence = seen(image, self.fit.homography, self.size, self.vision.stones,
                                     self.vision.light, self.vision.point_net)
        self._read_look = looks
        self._read_seen = ~unknown
        if self._label is None:
            self._label = raw.copy()
            self._candidate = raw.copy()
            return
        same = raw == self._candidate
        # Only readings in which a point is seen count towards its persistence.
        self._count = np.where(unknown, 0, np.where(same, self._count + 1, 1))
        self._candidate = raw.copy()
        take = ~unknown & (raw != self._label) & (self._count >= self.config.persist)
        self._label = np.where(take, raw, self._label)


def as_reading(fit: GridFit, observation: Observation) -> Reading:
    """What a watcher saw of a frame (``observation``, through the grid ``fit``) as a
    `Reading` of that frame, to draw it (`vision.overlay`): unknown points (moving, under a
    hand) stand as empty points read with confidence 0, which an overlay marks unsure.
    ``timings`` is empty: nothing was read for it."""
    n = fit.size
    if (observation.width, observation.height) != (n, n):
        raise ValueError(f"a {observation.width}x{observation.height} observation does not "
                         f"fit a {n}x{n} grid")
    cells = (0 if c == UNKNOWN else c for c in observation.cells)
    sure = observation.confidence or tuple(
        0.0 if c == UNKNOWN else 1.0 for c in observation.cells)
    return Reading(
        position=Position.from_cells(n, n, cells),
        confidence=sure,
        corners=fit.corners,
        homography=fit.homography,
        board_confidence=fit.confidence,
        timings={},
    )


def same_place(a: GridFit, b: GridFit, cells: float) -> bool:
    """Whether grids ``a`` and ``b`` are of one size and every corner of ``b`` lies within
    ``cells`` of ``a``'s, measured in ``a``'s lattice."""
    if a.size != b.size:
        return False
    back = grid.apply(np.linalg.inv(a.homography), grid.corners(b.homography, b.size))
    return bool(np.hypot(*(back - grid.corner_lattice(a.size)).T).max() < cells)


def _grow(mask: np.ndarray) -> np.ndarray:
    """``mask`` with each point's four neighbours added."""
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out
