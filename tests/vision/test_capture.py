"""Frame sources: folders, files, live cameras that drop frames for a slow consumer."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.capture import CaptureError, FileSource, FolderSource, LiveSource, open_source


def _image(value: int, size: tuple[int, int] = (48, 64)) -> np.ndarray:
    img = np.zeros((*size, 3), np.uint8)
    img[:] = value
    return img


def test_a_folder_is_read_in_natural_name_order_and_a_corrupt_image_is_reported_and_skipped(tmp_path: Path) -> None:
    for name, value in (("frame-2.png", 20), ("frame-1.png", 10), ("frame-10.png", 30)):
        cv2.imwrite(str(tmp_path / name), _image(value))
    (tmp_path / "frame-5.jpg").write_bytes(b"not a jpeg at all")
    (tmp_path / "notes.txt").write_text("ignored")
    src = open_source(tmp_path, interval=0.5)
    assert isinstance(src, FolderSource)
    frames = list(src)
    assert [f.name for f in frames] == ["frame-1.png", "frame-2.png", "frame-10.png"]
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]
    assert [f.time for f in frames] == [0.0, 0.5, 1.5]  # the corrupt frame keeps its slot
    assert len(src.errors) == 1 and "frame-5.jpg" in src.errors[0]


def test_an_empty_folder_or_a_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="no images"):
        open_source(tmp_path)
    with pytest.raises(CaptureError, match="nope.mp4"):
        open_source(tmp_path / "nope.mp4")
    bogus = tmp_path / "bogus.avi"
    bogus.write_bytes(b"\x00" * 100)
    with pytest.raises(CaptureError, match="bogus.avi"):
        open_source(bogus)


def test_a_video_file_yields_every_frame_with_its_time(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for v in range(0, 250, 10):
        writer.write(_image(v))
    writer.release()
    with open_source(path) as src:
        assert isinstance(src, FileSource)
        frames = list(src)
    assert len(frames) == 25
    assert [f.index for f in frames] == list(range(25))
    assert frames[3].time == pytest.approx(0.3)
    assert abs(int(frames[7].image[10, 10, 0]) - 70) <= 3  # MJPG is lossy


class FastCamera:
    """A fake camera producing numbered frames as fast as asked, never blocking."""

    def __init__(self, frames: int) -> None:
        self.left = frames
        self.count = 0
        self.released = threading.Event()

    def read(self) -> tuple[bool, Any]:
        if self.left == 0:
            return False, None
        self.left -= 1
        self.count += 1
        time.sleep(0.001)
        return True, _image(self.count % 256)

    def release(self) -> None:
        self.released.set()


def test_a_slow_consumer_of_a_live_source_drops_frames_and_never_stalls_the_camera() -> None:
    cam = FastCamera(frames=300)
    src = LiveSource(cam, "fake", max_failures=1)
    seen = []
    for frame in src:
        seen.append(frame.index)
        time.sleep(0.02)  # a consumer ten times slower than the camera
    src.close()
    assert cam.count == 300  # the camera was read to the end
    assert seen == sorted(set(seen))  # newest first, never twice, never backwards
    assert len(seen) < 100
    assert src.dropped == 300 - len(seen)
    assert cam.released.is_set()


def test_an_unplugged_camera_ends_the_stream_with_a_reason() -> None:
    cam = FastCamera(frames=5)
    with LiveSource(cam, "usb cam", max_failures=3) as src:
        frames = list(src)
    assert 1 <= len(frames) <= 5
    assert src.errors and "usb cam" in src.errors[0]
