"""`BoardWatcher`: follows one board through a stream of frames, cheaply.

The board is located once (`locate`, the slow part); after that each frame is read through
the known homography (`stones.features` and `stones.classify`: a warp and some medians).
What a frame shows is judged against the frames before it:

* **Motion and occlusion.** A point whose appearance changed since the previous frame, or
  did so within the last ``settle`` seconds, is moving (a hand, a stone being put down):
  it is reported unknown, with the points next to it, so that a hand is never read as
  stones. Points the classifier is unsure of stay known but carry their low confidence.
* **Camera bump.** The grid's fit to the lines is checked on still frames; when it has
  slipped (the camera or the board moved), or when most of the board changed at once and
  settled different, the board is located again; until then the frame is all unknown.
* **Flicker.** A point's label changes only when the new label has persisted for
  ``persist`` frames: noise that makes a point look like a stone for a frame never
  reaches the tracker.
* **No board.** While the board cannot be found, every point is unknown.

Raw labels are reported, without the Go-sense correction of a single photo: on a live
board, stones a move has captured really do lie without liberties until they are lifted.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from rules import Observation
from rules.observation import UNKNOWN

from .config import STONES, StoneConfig
from .errors import BoardNotFound
from .locate import GridFit, lattice_score, locate, to_gray
from .stones import classify, features


@dataclasses.dataclass(frozen=True)
class WatchConfig:
    """Thresholds of frame-to-frame watching."""

    motion: float = 12.0
    """A change of a point's lightness or chroma (0..255 Lab) larger than this is motion."""
    settle: float = 0.1
    """Seconds a point stays unknown after it last moved."""
    persist: int = 3
    """Frames a point must keep a new label before it is reported (a flicker never is)."""
    check_every: float = 0.5
    """Seconds between checks, on still frames, that the grid still sits on the lines."""
    misaligned: float = 0.6
    """The grid has slipped (camera or board moved) when its lattice score falls below this
    share of the score it had when the board was located."""
    bump_share: float = 0.45
    """When this share of the points changes at once, the whole view is moving (a bumped
    camera, a lamp switched on); if it settles this different, the board is located again."""


WATCH = WatchConfig()


Looks = tuple[np.ndarray, np.ndarray]
"""Lightness and chroma of every point, (size, size) each, row 0 at the top."""


class BoardWatcher:
    """Turns frames of one board into `Observation`s, locating the board only when needed.

    ``size`` (9, 13, 19) is the board size; ``source`` names the camera in the observations.
    ``located`` counts how often the board was located (1 on an undisturbed recording).
    """

    def __init__(
        self, size: int, *, source: str = "camera",
        config: WatchConfig = WATCH, stone_config: StoneConfig = STONES,
    ) -> None:
        self.size = size
        self.source = source
        self.config = config
        self.stone_config = stone_config
        self.fit: GridFit | None = None
        self.located = 0
        self._previous: Looks | None = None  # the last frame's look of every point
        self._still: Looks | None = None  # the look before the whole view last changed
        self._shaking = False
        self._score = 0.0  # how well the grid sat on the lines when located
        self._checked = -np.inf  # when that was last checked
        self._last_moved = np.full((size, size), -np.inf)
        self._label: np.ndarray | None = None  # labels reported, (size, size)
        self._candidate = np.zeros((size, size), np.int64)  # a new label seen lately
        self._count = np.zeros((size, size), np.int64)  # frames it has been seen in a row

    def _hidden(self, time: float) -> Observation:
        n = self.size
        return Observation(n, n, (UNKNOWN,) * (n * n), time=time, source=self.source)

    def _locate(self, image: np.ndarray) -> bool:
        try:
            fit = locate(image, self.size)
        except BoardNotFound:
            self.fit = None
            return False
        self.fit = fit
        self.located += 1
        self._score = lattice_score(to_gray(image), fit)
        return True

    def _changed(self, a: Looks, b: Looks) -> np.ndarray:
        limit = self.config.motion
        return (np.abs(a[0] - b[0]) > limit) | (np.abs(a[1] - b[1]) > limit)  # type: ignore[no-any-return]

    def observe(self, image: np.ndarray, time: float) -> Observation:
        """What ``image`` (BGR, uint8), taken at ``time`` seconds, shows of the board."""
        cfg = self.config
        if self.fit is None:
            if not self._locate(image):
                return self._hidden(time)
            self._previous = None
        assert self.fit is not None
        f = features(image, self.fit.homography, self.size, self.stone_config)
        looks = (f.light, f.chroma)
        previous, self._previous = self._previous, looks
        if previous is None:
            moved = np.zeros((self.size, self.size), bool)
        else:
            moved = self._changed(looks, previous)
        if moved.mean() >= cfg.bump_share:
            # The whole view is changing: the camera or the light, or everything at once.
            self._shaking = True
            self._last_moved[:] = time
            return self._hidden(time)
        if self._shaking:
            self._shaking = False
            still = self._still
            if still is not None and self._changed(looks, still).mean() >= cfg.bump_share:
                # The view settled somewhere else: find the board again.
                if not self._locate(image):
                    self._previous = None
                    return self._hidden(time)
                assert self.fit is not None
                f = features(image, self.fit.homography, self.size, self.stone_config)
                looks = self._previous = (f.light, f.chroma)
                self._last_moved[:] = time
        elif not moved.any() and time - self._checked >= cfg.check_every:
            self._checked = time
            if lattice_score(to_gray(image), self.fit) < cfg.misaligned * self._score:
                # The grid slipped off the lines: the camera or the board moved.
                self._last_moved[:] = time
                if not self._locate(image):
                    self._previous = None
                    return self._hidden(time)
                assert self.fit is not None
                f = features(image, self.fit.homography, self.size, self.stone_config)
                looks = self._previous = (f.light, f.chroma)
        self._still = looks
        self._last_moved[_grow(moved)] = time
        unknown = time - self._last_moved < cfg.settle
        raw, confidence = classify(f, self.stone_config)
        labels = np.where(unknown, UNKNOWN, self._steady(raw, unknown))
        # Row 0 of the arrays is the top of the image; observations start at the bottom.
        cells = tuple(int(c) for c in labels[::-1].ravel())
        conf = tuple(float(c) for c in np.where(unknown, 0.0, confidence)[::-1].ravel())
        n = self.size
        return Observation(n, n, cells, conf, time=time, source=self.source)


    def _steady(self, raw: np.ndarray, unknown: np.ndarray) -> np.ndarray:
        """Labels after hysteresis: a known point takes a new label once it has read so
        for ``persist`` frames in a row in which it was seen."""
        if self._label is None:
            self._label = raw.copy()
            return self._label
        same = raw == self._candidate
        # Only frames in which a point is seen count towards its persistence.
        self._count = np.where(unknown, 0, np.where(same, self._count + 1, 1))
        self._candidate = raw.copy()
        take = ~unknown & (raw != self._label) & (self._count >= self.config.persist)
        self._label = np.where(take, raw, self._label)
        return self._label


def _grow(mask: np.ndarray) -> np.ndarray:
    """``mask`` with each point's four neighbours added."""
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out
