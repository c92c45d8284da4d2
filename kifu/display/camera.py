"""The latest frame of a recording's camera, for the calibration page.

The recording hands over every frame with what was read of it (`CameraView.show` keeps a
reference: nothing is copied, drawn or encoded in the recording's thread; what was read
may come as a function that makes it, called only for a frame drawn or described). A
viewer asks for `CameraView.jpeg`: the newest frame with the grid, the intersections, the
stones read and the GTP coordinates (where the orientation puts them) drawn over it, shrunk to at
most ``width`` pixels across and encoded in the viewer's own thread. The picture is made
once for all viewers, again only for a newer frame or another orientation, and at most
``rate`` times a second: neither a slow viewer nor many of them hold up the recording.

OpenCV and `vision` are loaded when the first picture is drawn; a display without a camera
needs neither.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from rules import Point
from rules.point import GTP_COLUMNS
from rules.rotation import check_rotation, rotate_point

if TYPE_CHECKING:
    from vision.reading import Reading

Mark = tuple[float, float, str]
"""Text to write at a lattice position of the picture: column ``i`` from the left of the
grid as seen, row ``j`` from its top (see `vision.grid`), and the text."""


def coordinate_marks(size: int, orientation: int) -> list[Mark]:
    """Where a ``size`` x ``size`` board's GTP coordinates go on the camera's picture when
    its readings are turned ``orientation`` degrees clockwise: each column's letter beyond
    row 1 and beyond the last row, each row's number beyond column A and the last column
    (most of a cell off the grid), and "Black" and "White" further out beyond the middle
    of their sides (row 1 is Black's)."""
    n = size
    back = (360 - check_rotation(orientation)) % 360

    def seen(p: Point) -> tuple[int, int]:
        q = rotate_point(p, n, n, back)  # the point as the camera sees it
        return q.x, n - 1 - q.y

    def beyond(edge: Point, inner: Point, text: str, cells: float = 0.8) -> Mark:
        (i, j), (i2, j2) = seen(edge), seen(inner)
        return i + cells * (i - i2), j + cells * (j - j2), text

    marks: list[Mark] = []
    for k in range(n):
        letter, number = GTP_COLUMNS[k], str(k + 1)
        marks.append(beyond(Point(k, 0), Point(k, 1), letter))
        marks.append(beyond(Point(k, n - 1), Point(k, n - 2), letter))
        marks.append(beyond(Point(0, k), Point(1, k), number))
        marks.append(beyond(Point(n - 1, k), Point(n - 2, k), number))
    mid = n // 2
    marks.append(beyond(Point(mid, 0), Point(mid, 1), "Black", 1.9))
    marks.append(beyond(Point(mid, n - 1), Point(mid, n - 2), "White", 1.9))
    return marks


@dataclasses.dataclass(frozen=True)
class Shown:
    """One frame as the recording handed it over: the image (H, W, 3) BGR uint8, its
    time on the source's clock, its number (from 1), what makes what was read of it
    (``read``: see `reading`) and why no board was read (None when one was), and when it
    arrived (``time.monotonic()``)."""

    image: np.ndarray
    time: float
    number: int
    read: Callable[[], Reading | None]
    reason: str | None
    arrived: float

    @functools.cached_property
    def reading(self) -> Reading | None:
        """What was read of the frame (a `vision.Reading`, or None), made the first time
        it is asked for: of the many frames a recording hands over, the page draws a few."""
        return self.read()


def draw(shown: Shown, orientation: int, width: int) -> np.ndarray:
    """The frame shrunk to at most ``width`` pixels across, with the grid, the stones read
    and the coordinates for ``orientation`` drawn over it (`vision.overlay`); the bare frame
    when no board was read."""
    import cv2

    from vision import grid, overlay

    image = shown.image
    factor = min(1.0, width / image.shape[1])
    if factor < 1.0:
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    reading = shown.reading
    if reading is None:
        return image
    reading = dataclasses.replace(reading, homography=grid.scaled(reading.homography, factor),
                                  corners=grid.apply(grid.scaled(np.eye(3), factor),
                                                     reading.corners))
    out = overlay.draw(image, reading, corners=False)  # the coordinates say more
    return overlay.label(out, reading.homography, coordinate_marks(reading.size, orientation))


def _given(reading: Reading | None) -> Reading | None:
    return reading


@dataclasses.dataclass(frozen=True)
class _Picture:
    key: tuple[int, int]  # the frame's number and the orientation drawn
    data: bytes
    made: float


class CameraView:
    """The newest camera frame of a recording and what was read of it. Thread-safe.

    ``rate``: pictures encoded a second at most; ``width``: the largest width served, in
    pixels; ``quality``: JPEG quality (0-100); ``source``: the camera's name.
    """

    def __init__(self, *, rate: float = 4.0, width: int = 960, quality: int = 80,
                 source: str = "") -> None:
        if rate <= 0 or width < 16 or not 0 <= quality <= 100:
            raise ValueError(f"a camera view needs rate > 0, width >= 16 and quality 0-100: "
                             f"{rate}, {width}, {quality}")
        self.rate = rate
        self.width = width
        self.quality = quality
        self.source = source
        self.encoded = 0
        """How many pictures were encoded (for tests and benchmarks)."""
        self._lock = threading.Lock()
        self._encoding = threading.Lock()
        self._latest: Shown | None = None
        self._picture: _Picture | None = None

    def show(self, image: np.ndarray, time_s: float,
             reading: Reading | Callable[[], Reading] | None = None,
             reason: str | None = None) -> None:
        """Take the newest frame (not to be changed afterwards) and what was read of it:
        ``reading`` when a board was read (or a function that makes it, called only if the
        frame is drawn or described), ``reason`` when none could be (both when what was
        read cannot be used: the grid is drawn and the reason given)."""
        read = reading if callable(reading) else functools.partial(_given, reading)
        with self._lock:
            number = self._latest.number + 1 if self._latest else 1
            self._latest = Shown(image, time_s, number, read, reason, time.monotonic())

    @property
    def latest(self) -> Shown | None:
        """The newest frame handed over, or None before the first."""
        return self._latest

    def status(self) -> dict[str, Any]:
        """What the page says about the camera, as JSON: the frame's number and time,
        seconds since it came, whether a board was read, why not, its size and how sure
        the grid is."""
        s = self._latest
        if s is None:
            return {"source": self.source, "frame": None, "time": None, "age": None,
                    "found": False, "reason": "no frame from the camera yet", "size": None,
                    "confidence": None}
        r = s.reading
        return {
            "source": self.source,
            "frame": s.number,
            "time": round(s.time, 3),
            "age": round(time.monotonic() - s.arrived, 3),
            "found": r is not None and s.reason is None,
            "reason": s.reason,
            "size": r.size if r is not None else None,
            "confidence": round(r.board_confidence, 3) if r is not None else None,
        }

    def jpeg(self, orientation: int = 0) -> tuple[int, bytes] | None:
        """The newest frame drawn for ``orientation`` (see `draw`): its number and its JPEG
        bytes; None before the first frame. Drawn in the caller's thread, one caller
        at a time; a picture made less than ``1 / rate`` seconds ago is served again even
        if a newer frame came since (not when the orientation changed)."""
        with self._encoding:
            shown = self._latest
            if shown is None:
                return None
            key = (shown.number, orientation)
            now = time.monotonic()
            old = self._picture
            recent = old is not None and now - old.made < 1.0 / self.rate
            if old is not None and (old.key == key or (recent and old.key[1] == orientation)):
                return old.key[0], old.data
            import cv2

            ok, buf = cv2.imencode(".jpg", draw(shown, orientation, self.width),
                                   [cv2.IMWRITE_JPEG_QUALITY, self.quality])
            if not ok:
                raise ValueError(f"frame {shown.number} of {self.source or 'the camera'} "
                                 f"cannot be encoded as JPEG")
            self._picture = _Picture(key, buf.tobytes(), now)
            self.encoded += 1
            return shown.number, self._picture.data
