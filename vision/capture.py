"""Frames from a camera, a video file, a stream URL or a folder of images.

`open_source` takes a device index, a path to a video file or a folder, an RTSP/HTTP URL,
or an already-open ``cv2.VideoCapture`` (anything with ``read()`` and ``release()``), and
returns a `FrameSource`: an iterator of `Frame`s.

Live sources (cameras, URLs) are read on their own thread at the source's rate; the
consumer always gets the newest frame, and a slow consumer makes frames drop (counted in
``dropped``), never the camera stall. Files and folders are read frame by frame, so
nothing is lost when processing a recording. A frame that cannot be decoded is reported
(``errors``) and skipped; it never ends the stream.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


class CaptureError(Exception):
    """A source that cannot be opened or read. The message names the source."""


class VideoCaptureLike(Protocol):
    """The part of ``cv2.VideoCapture`` a source needs."""

    def read(self) -> tuple[bool, Any]: ...

    def release(self) -> None: ...


@dataclasses.dataclass(frozen=True)
class Frame:
    """One frame: a BGR image (H x W x 3, uint8), its time in seconds from the start of
    the source, its index in the source (gaps mean dropped frames), and where it came
    from (a file name for folders)."""

    image: np.ndarray
    time: float
    index: int
    name: str = ""

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return f"<Frame {self.index} t={self.time:.3f}s {w}x{h} {self.name}>"


class FrameSource:
    """Base of the sources: iterate for frames, `close` (or use ``with``) when done."""

    name: str = ""
    errors: list[str]
    dropped: int = 0

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def natural_key(name: str) -> list[object]:
    """Sort key that orders numbers by value: ``move_2`` before ``move_10``."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


class FolderSource(FrameSource):
    """The images of a folder in natural name order (``2`` before ``10``), one frame each
    ``interval`` seconds."""

    def __init__(self, folder: Path, interval: float = 1.0) -> None:
        self.name = str(folder)
        self.interval = interval
        self.files = sorted(
            (p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
            key=lambda p: natural_key(p.name),
        )
        if not self.files:
            raise CaptureError(f"{folder}: no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self.errors = []

    def __iter__(self) -> Iterator[Frame]:
        for i, path in enumerate(self.files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.errors.append(f"{path}: cannot be decoded as an image; skipped")
                continue
            yield Frame(image, i * self.interval, i, path.name)


class FileSource(FrameSource):
    """Every frame of a video file, timed by its position in the file."""

    def __init__(self, capture: VideoCaptureLike, name: str, fps: float | None = None) -> None:
        self.capture = capture
        self.name = name
        rate = fps or _fps(capture)
        self.period = 1.0 / rate if rate and rate > 0 else 1.0 / 30
        self.errors = []

    def __iter__(self) -> Iterator[Frame]:
        i = 0
        while True:
            ok, image = self.capture.read()
            if not ok:
                return
            if image is None or getattr(image, "size", 0) == 0:
                self.errors.append(f"{self.name}: frame {i} is empty; skipped")
            else:
                yield Frame(image, i * self.period, i, self.name)
            i += 1

    def close(self) -> None:
        self.capture.release()


class LiveSource(FrameSource):
    """A camera or a stream, read on its own thread; the consumer gets the newest frame.

    ``max_failures`` consecutive failed reads end the stream (an unplugged camera).
    ``rate`` paces the reads (frames per second) for captures that do not pace themselves,
    such as a file played as if it were a camera."""

    def __init__(
        self, capture: VideoCaptureLike, name: str, max_failures: int = 50, rate: float | None = None
    ) -> None:
        self.capture = capture
        self.name = name
        self.period = 1.0 / rate if rate else 0.0
        self.errors = []
        self.dropped = 0
        self.max_failures = max_failures
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._delivered = -1
        self._done = False
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"capture {name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        index = 0
        failures = 0
        try:
            while not self._stop.is_set():
                ok, image = self.capture.read()
                if not ok or image is None:
                    failures += 1
                    if failures >= self.max_failures:
                        self.errors.append(f"{self.name}: {failures} failed reads; stream ended")
                        break
                    time.sleep(0.01)
                    continue
                failures = 0
                now = time.monotonic() - self._t0
                if self.period:
                    wait = index * self.period - now
                    if wait > 0:
                        time.sleep(wait)
                        now = time.monotonic() - self._t0
                frame = Frame(image, now, index, self.name)
                index += 1
                with self._cond:
                    if self._latest is not None and self._latest.index > self._delivered:
                        self.dropped += 1  # the consumer never saw the previous one
                    self._latest = frame
                    self._cond.notify_all()
        finally:
            with self._cond:
                self._done = True
                self._cond.notify_all()

    def next_frame(self, timeout: float | None = None) -> Frame | None:
        """The newest frame not yet delivered; waits up to ``timeout`` seconds for one.
        None at the end of the stream or on time-out."""
        with self._cond:
            ok = self._cond.wait_for(
                lambda: self._done or (self._latest is not None and self._latest.index > self._delivered),
                timeout,
            )
            if not ok or self._latest is None or self._latest.index <= self._delivered:
                return None
            self._delivered = self._latest.index
            return self._latest

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.next_frame()
            if frame is None:
                return
            yield frame

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        self.capture.release()


def _fps(capture: VideoCaptureLike) -> float:
    get = getattr(capture, "get", None)
    return float(get(cv2.CAP_PROP_FPS)) if get else 0.0


def _is_url(spec: str) -> bool:
    return "://" in spec


def open_source(
    spec: int | str | Path | VideoCaptureLike, *, interval: float = 1.0, live: bool | None = None
) -> FrameSource:
    """Open a source of frames.

    ``spec`` is a camera index (``0`` or ``"0"``), a stream URL (``rtsp://``,
    ``http://``...), a video file, a folder of images (``interval`` seconds apart), or an
    open capture object. ``live`` overrides whether frames may be dropped (by default:
    cameras and URLs are live, files are not). Raises `CaptureError` naming the source.
    """
    if not isinstance(spec, (int, str, Path)):
        name = type(spec).__name__
        return LiveSource(spec, name) if live else FileSource(spec, name)
    if isinstance(spec, str) and spec.isdigit():
        spec = int(spec)
    if isinstance(spec, int):
        cap = cv2.VideoCapture(spec)
        if not cap.isOpened():
            raise CaptureError(f"camera {spec}: cannot be opened (is it connected? is it busy?)")
        return LiveSource(cap, f"camera {spec}") if live is not False else FileSource(cap, f"camera {spec}")
    text = str(spec)
    if _is_url(text):
        cap = cv2.VideoCapture(text)
        if not cap.isOpened():
            raise CaptureError(f"{text}: cannot open the stream")
        return LiveSource(cap, text) if live is not False else FileSource(cap, text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path, interval)
    if not path.exists():
        raise CaptureError(f"{path}: no such file or folder")
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise CaptureError(f"{path}: cannot be read as a video")
    if live:
        return LiveSource(cap, str(path), rate=_fps(cap) or 30.0)
    return FileSource(cap, str(path))
