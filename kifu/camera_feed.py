"""The camera path of ``kifu record``: frames in, observations out, through one
`vision.watch.BoardWatcher` for the whole recording.

The watcher locates the board once and then reads each frame cheaply through the grid it
found: moving points (a hand) are unknown, a label that flickers for a frame or two never
comes out, a bumped camera has the board located again (see `vision.watch`). `watched`
also hands the calibration view every frame with what the watcher saw of it.

A folder of photos taken one per move is not a film: a photo is one moment, and the
watcher takes a new stone only once it has settled and been read on a few frames in a
row. `held` turns each photo into a still view that lasts until the next photo: the same
image as `STILL_FRAMES` frames spread over its interval, so that its stones settle, are
read, and then stay still for the tracker's stability window (`longest_stable`).

This module loads OpenCV (through `vision`): import it only for a camera source.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator

from rules import Observation
from vision.capture import Frame
from vision.watch import WATCH, BoardWatcher, WatchConfig, as_reading

from .display.camera import CameraView

STILL_FRAMES = 20
"""How many frames a still photo is shown as, spread evenly over its interval."""


def held(frames: Iterable[Frame], interval: float, count: int = STILL_FRAMES) -> Iterator[Frame]:
    """Each of ``frames`` (still photos, ``interval`` seconds apart) as ``count`` frames of
    the same image, at its own time and then every ``interval / count`` seconds until the
    next photo's: a still view held for its interval. Images are not copied."""
    if interval <= 0 or count < 1:
        raise ValueError(f"a photo is held for an interval > 0 as at least one frame: "
                         f"{interval} s, {count} frames")
    step = interval / count
    for frame in frames:
        for k in range(count):
            yield dataclasses.replace(frame, time=frame.time + k * step)


def longest_stable(interval: float, count: int = STILL_FRAMES,
                   config: WatchConfig = WATCH) -> float:
    """The longest stability window (seconds) in which the tracker still judges a photo
    held for ``interval`` seconds as ``count`` frames (see `held`): its stones must settle
    (``config.settle``) and be read on ``config.persist`` frames, then stay unchanged for
    the window, with a frame to spare for a camera moved since the last photo (the board
    is located again first). Negative when no window is short enough."""
    step = interval / count
    return interval - config.settle - (config.persist + 2) * step


def watched(source: Iterable[Frame], watcher: BoardWatcher,
            view: CameraView | None = None) -> Iterator[Observation]:
    """What ``watcher`` sees of each frame of ``source`` (closed at the end when it can
    be), as an `Observation` on the frame's time: every point unknown while there is no
    board. ``view`` gets each frame with the grid and stones the watcher saw (unknown
    points drawn unsure; made only for the frames the page draws), or the reason no board
    was found."""
    try:
        for frame in source:
            obs = watcher.observe(frame.image, frame.time)
            if view is not None:
                if watcher.fit is None:
                    view.show(frame.image, frame.time, reason=watcher.reason)
                else:
                    view.show(frame.image, frame.time,
                              functools.partial(as_reading, watcher.fit, obs))
            yield obs
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()


__all__ = ["STILL_FRAMES", "held", "longest_stable", "watched"]
