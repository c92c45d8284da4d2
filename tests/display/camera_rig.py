"""A live recording from a synthetic camera, for the calibration tests: pictures rendered
by `vision.synth`, watched by `vision.watch` and recorded by a real session in its own thread,
shown by the recording's own display (what ``kifu record --frames ... --serve`` runs)."""

from __future__ import annotations

import json
import queue
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

import vision
from kifu.camera_feed import watched
from kifu.cmd_record import _display
from kifu.display.camera import CameraView
from kifu.session import Command, Session
from kifu.sinks import SgfWriter, Sink
from kifu.tracker import Tracker
from rules import Game, Position
from vision.capture import Frame
from vision.synth import Scene, render
from vision.watch import BoardWatcher

SEED = 3
"""A seed whose picture `vision` reads (checked in `board_picture`)."""


def board_picture(rows: list[str], seed: int = SEED) -> np.ndarray:
    """A photo of a board showing ``rows`` (top of the picture first), read back exactly."""
    picture = render(Position(rows), seed, Scene(turn=10.0)).image
    assert vision.read_board(picture, len(rows)).rows() == rows, "the synthetic photo misreads"
    return picture


def cloth() -> np.ndarray:
    """A photo with no board in it: an even cloth."""
    return np.full((480, 640, 3), (60, 40, 120), np.uint8)


class SyntheticCamera:
    """A frame source as `vision.capture` gives: the current ``picture`` again and again,
    ``interval`` seconds apart, until `stop`. The picture may be changed meanwhile."""

    name = "synthetic camera"

    def __init__(self, picture: np.ndarray, interval: float = 0.1) -> None:
        self.picture = picture
        self.interval = interval
        self._stop = threading.Event()

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while not self._stop.is_set():
            yield Frame(self.picture, index * self.interval, index, self.name)
            index += 1
            self._stop.wait(self.interval)

    def __enter__(self) -> SyntheticCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stop.set()


class Recording:
    """``kifu record`` on a synthetic camera, served on a free loopback port."""

    def __init__(self, out: Path, picture: np.ndarray, size: int = 9) -> None:
        self.out = out
        self.game = Game("japanese", size)
        self.writer = SgfWriter(out, self.game)
        self.commands: queue.Queue[Command] = queue.Queue()
        self.view = CameraView(rate=10.0)
        sinks: list[Sink] = [self.writer]
        self.server = _display("127.0.0.1:0", self.game, self.writer, self.commands, {}, sinks,
                               "table-1", camera=self.view)
        self.session = Session(Tracker(self.game, stable_for=0.0), sinks)
        self.camera = SyntheticCamera(picture)
        self.watcher = BoardWatcher(size, source=self.camera.name)
        items = watched(self.camera, self.watcher, self.view)
        self.thread = threading.Thread(target=self.session.run, args=(items, self.commands),
                                       name="recording", daemon=True)
        self.thread.start()

    @property
    def api(self) -> str:
        """The board's address in the JSON API."""
        return f"{self.server.url}api/v1/boards/board"

    def state(self) -> dict[str, Any]:
        """The board's state as the JSON API gives it."""
        with urllib.request.urlopen(self.api, timeout=5) as r:
            return json.loads(r.read())  # type: ignore[no-any-return]

    def camera_status(self) -> dict[str, Any]:
        """The camera as the JSON API gives it."""
        with urllib.request.urlopen(self.api + "/camera", timeout=5) as r:
            return json.loads(r.read())  # type: ignore[no-any-return]

    def stop(self) -> None:
        self.camera.stop()
        self.thread.join(10)
        self.server.stop()


def eventually(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``check()`` holds; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.05)
