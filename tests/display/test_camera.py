"""The camera's latest frame for the calibration page: the coordinates where the
orientation puts them, a picture made lazily and at a capped rate, and a recording that
never waits for a viewer."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

import vision
from kifu.display import camera as cam
from kifu.display.camera import CameraView, coordinate_marks
from tests.display.camera_rig import board_picture, cloth

EMPTY = ["........."] * 9


def mark(marks: list[cam.Mark], text: str) -> list[tuple[float, float]]:
    return sorted((round(i, 1), round(j, 1)) for i, j, t in marks if t == text)


def test_row_one_and_column_a_meet_at_the_bottom_left_when_black_is_at_the_bottom() -> None:
    marks = coordinate_marks(9, 0)
    # Lattice positions: column from the picture's left, row from its top.
    assert mark(marks, "A") == [(0, -0.8), (0, 8.8)]  # above and below column A
    assert mark(marks, "1") == [(-0.8, 8), (8.8, 8)]  # left and right of row 1
    assert mark(marks, "Black") == [(4, 9.9)] and mark(marks, "White") == [(4, -1.9)]
    assert len(marks) == 4 * 9 + 2


def test_with_black_at_the_right_a1_is_the_pictures_bottom_right() -> None:
    marks = coordinate_marks(9, 90)
    assert mark(marks, "Black") == [(9.9, 4)]
    assert mark(marks, "1") == [(8, -0.8), (8, 8.8)]  # row 1: the picture's right column
    assert mark(marks, "A") == [(-0.8, 8), (8.8, 8)]  # column A: its bottom row
    assert mark(marks, "J") == [(-0.8, 0), (8.8, 0)]


@pytest.mark.parametrize("orientation, side", [(0, (4, 9.9)), (90, (9.9, 4)), (180, (4, -1.9)),
                                               (270, (-1.9, 4))])
def test_blacks_side_goes_round_with_the_orientation(orientation: int,
                                                     side: tuple[float, float]) -> None:
    assert mark(coordinate_marks(9, orientation), "Black") == [side]


def test_the_picture_is_made_when_asked_for_not_when_shown() -> None:
    view = CameraView()
    picture = board_picture(EMPTY)
    reading = vision.read_board(picture, 9)
    for k in range(100):
        view.show(picture, k / 10, reading)
    assert view.encoded == 0 and view.status()["frame"] == 100
    number, data = view.jpeg() or (0, b"")
    assert number == 100 and data[:2] == b"\xff\xd8" and view.encoded == 1


def test_pictures_are_made_at_most_rate_times_a_second_whatever_the_viewers() -> None:
    view = CameraView(rate=0.5)  # one picture every two seconds at most
    picture = cloth()
    view.show(picture, 0.0, reason="no board")
    first = view.jpeg()
    view.show(picture, 0.1, reason="no board")
    assert [view.jpeg() for _ in range(20)] == [first] * 20  # the newer frame waits
    assert view.encoded == 1
    again = view.jpeg(90)  # but the coordinates follow a new orientation at once
    assert again is not None and again[0] == 2 and view.encoded == 2


def test_large_frames_are_served_shrunk() -> None:
    view = CameraView(width=320)
    view.show(np.zeros((720, 1280, 3), np.uint8), 0.0, reason="dark")
    _, data = view.jpeg() or (0, b"")
    shrunk = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert shrunk.shape == (180, 320, 3)


def test_a_slow_viewer_never_holds_up_the_recording(monkeypatch: pytest.MonkeyPatch) -> None:
    """A viewer stuck drawing the picture: the recording hands over frames all the same."""
    drawing, release = threading.Event(), threading.Event()
    real_draw = cam.draw

    def slow_draw(shown: cam.Shown, orientation: int, width: int) -> np.ndarray:
        drawing.set()
        release.wait(10)
        return real_draw(shown, orientation, width)

    monkeypatch.setattr(cam, "draw", slow_draw)
    view = CameraView()
    view.show(cloth(), 0.0, reason="no board")
    viewer = threading.Thread(target=view.jpeg)
    viewer.start()
    assert drawing.wait(5)
    for k in range(1, 50):
        view.show(cloth(), k / 10, reason="no board")  # would block if it waited for the viewer
    assert view.status()["frame"] == 50
    release.set()
    viewer.join(5)
    assert view.encoded == 1


def test_the_status_before_any_frame_and_without_a_board() -> None:
    view = CameraView(source="camera 0")
    assert view.jpeg() is None
    assert view.status()["reason"] == "no frame from the camera yet"
    view.show(cloth(), 1.5, reason="no grid of lines")
    status = view.status()
    assert (status["found"], status["reason"], status["time"]) == (False, "no grid of lines", 1.5)
    assert status["source"] == "camera 0" and status["size"] is None
