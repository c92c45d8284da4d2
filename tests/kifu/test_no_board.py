"""``kifu record`` on a film where no board is ever found: a warning after 10 s of frames
without one (on the terminal and, as an announcement, on the page), and at the end the
reason nothing was recorded."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kifu.cmd_record import BoardSearch
from rules import Observation
from tests.conftest import ROOT


class Watcher:
    """A board watcher's two attributes that matter here."""

    fit: object | None = None
    reason: str | None = "no lines"


def readings(times: Iterator[float]) -> Iterator[Observation]:
    for t in times:
        yield Observation.from_rows(["?" * 3] * 3, time=t)


def test_the_warning_comes_once_after_ten_seconds_and_again_after_a_board_was_seen() -> None:
    search = BoardSearch()
    watcher = Watcher()
    search.watcher = watcher
    warned: list[str] = []
    frames = search.follow(readings(iter([k / 30 for k in range(1000)])), warned.append)
    for _ in range(300):  # 0 to 9.97 s
        next(frames)
    assert warned == []
    next(frames)  # 10 s
    assert warned == ["no board found in 301 frames: no lines"]
    for _ in range(100):
        next(frames)
    assert len(warned) == 1
    watcher.fit = object()  # the board is seen, then lost again
    next(frames)
    watcher.fit, watcher.reason = None, "too dark"
    for _ in range(301):
        next(frames)
    assert warned[1:] == ["no board found in 301 frames: too dark"]
    assert search.summary() is None  # a board was seen once


def test_the_summary_says_why_nothing_was_recorded() -> None:
    search = BoardSearch()
    assert search.summary() is None  # not a camera
    search.watcher = Watcher()
    assert search.summary() == "the camera gave no frames"
    list(search.follow(readings(iter([0.0, 0.1])), print))
    assert search.summary() == "no board was found in any of the 2 frames: no lines"


def test_kifu_record_on_a_film_without_a_board(tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    film = tmp_path / "blank.avi"
    writer = cv2.VideoWriter(str(film), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for _ in range(105):  # 10.4 s of green cloth, at 10 frames a second
        writer.write(np.full((48, 64, 3), (40, 90, 60), np.uint8))
    writer.release()
    out = tmp_path / "game.sgf"
    run = subprocess.run(
        [sys.executable, "-m", "kifu.cli", "record", "--video", str(film), "--out", str(out),
         "--size", "9"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=ROOT, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "  !  no-board: no board found in 101 frames: " in run.stdout
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"0 moves recorded in {out}: no board was found in any of the "
                           f"105 frames: ")
