"""The camera path of ``kifu record``: a folder's photos held as still views long enough
for the watcher and the tracker to judge them, and frames through one board watcher."""

from __future__ import annotations

import numpy as np
import pytest

from kifu.camera_feed import STILL_FRAMES, held, longest_stable, watched
from kifu.display.camera import CameraView
from kifu.tracker import Tracker
from rules import Game, MovePlayed
from rules.observation import UNKNOWN
from vision.capture import Frame
from vision.film import Film, Shot, Take
from vision.watch import WATCH, BoardWatcher, WatchConfig


def photos(*times: float) -> list[Frame]:
    return [Frame(np.zeros((2, 2, 3), np.uint8), t, k, f"photo-{k}.png")
            for k, t in enumerate(times)]


def test_each_photo_is_held_until_the_next_as_frames_of_the_same_image() -> None:
    shots = photos(0.0, 1.0)
    frames = list(held(shots, 1.0, count=4))
    assert [f.time for f in frames] == [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]
    assert all(f.image is shots[0].image for f in frames[:4])  # not copied
    assert {f.name for f in frames[4:]} == {"photo-1.png"}


def test_a_hold_needs_a_positive_interval_and_a_frame() -> None:
    with pytest.raises(ValueError, match="interval > 0"):
        list(held(photos(0.0), 0.0))
    with pytest.raises(ValueError, match="at least one frame"):
        list(held(photos(0.0), 1.0, count=0))


def test_the_longest_stability_window_leaves_time_to_settle_and_read() -> None:
    config = WatchConfig(settle=0.1, persist=3)
    # A second as 20 frames: 0.1 s to settle, then 3 reads and 2 spare frames of 0.05 s.
    assert longest_stable(1.0, 20, config) == pytest.approx(0.65)
    assert longest_stable(0.1, 20, config) < 0  # no window is short enough
    # The defaults: a folder of photos a second apart works with the default --stable.
    assert longest_stable(1.0, STILL_FRAMES, WATCH) >= 0.5


def board_photo(film: Film, black: tuple[int, ...] = ()) -> np.ndarray:
    cells = [0] * 81
    for i in black:
        cells[i] = 1
    out: np.ndarray = film.render(Shot(0.0, tuple(cells), None, 1.0, 0))
    return out


def test_a_photo_held_with_the_default_window_gives_its_move() -> None:
    """A move photographed once: held a second, its stone settles, persists and stays
    still for half a second, and the tracker records it within that second."""
    film = Film(9, Take(width=960, height=540, seed=3))
    frames = [Frame(board_photo(film), 0.0, 0), Frame(board_photo(film, (40,)), 1.0, 1)]
    tracker = Tracker(Game("chinese", 9), stable_for=0.5)
    played = []
    for obs in watched(held(frames, 1.0), BoardWatcher(9)):
        played += [(obs.time, e) for e in tracker.feed(obs) if isinstance(e, MovePlayed)]
    assert [e.point.gtp() for _, e in played] == ["E5"]
    assert 1.0 < played[0][0] < 2.0


def test_the_view_gets_each_frame_with_what_the_watcher_saw_or_why_there_is_no_board() -> None:
    film = Film(9, Take(width=960, height=540, seed=3))
    board = board_photo(film, (40,))
    cloth = np.full_like(board, 90)
    view = CameraView()
    frames = [Frame(board, 0.0, 0), Frame(board, 0.1, 1), Frame(cloth, 0.2, 2),
              Frame(cloth, 0.3, 3)]
    seen = []
    for obs in watched(frames, BoardWatcher(9), view):
        latest = view.latest
        assert latest is not None
        seen.append((latest, obs))
    (first, obs), _, (moving, _), (last, hidden) = seen
    assert first.reason is None and first.reading is not None
    assert first.reading.observation().cells == obs.cells and obs.cells[40] == 1
    # The whole view changed: the grid is still drawn, every point unsure...
    assert moving.reading is not None and set(moving.reading.confidence) == {0.0}
    # ...then no board is found there: the bare frame, and why.
    assert last.reading is None and last.reason and set(hidden.cells) == {UNKNOWN}
