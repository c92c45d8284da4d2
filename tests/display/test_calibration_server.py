"""The calibration view over real HTTP: the camera's latest frame as JPEG, why no board
was found, the orientation behind the token, and a recording turned from the page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from kifu.display import DisplayServer, LiveBoard
from kifu.display.camera import CameraView
from kifu.sgf import load
from tests.display.camera_rig import Recording, board_picture, cloth, eventually
from tests.display.test_server import get, post

BLACK_C3 = ["........."] * 6 + ["..X......", ".........", "........."]


@pytest.fixture
def turned() -> Iterator[tuple[DisplayServer, list[int]]]:
    """A board whose orientation requests are noted, served with the token ``s3cret``."""
    asked: list[int] = []
    board = LiveBoard("1", 9, on_orientation=asked.append, camera=CameraView())
    server = DisplayServer([board, LiveBoard("record", 9)], token="s3cret").start()
    try:
        yield server, asked
    finally:
        server.stop()


def test_turning_the_board_needs_the_token(turned: tuple[DisplayServer, list[int]]) -> None:
    server, asked = turned
    url = server.url + "api/v1/boards/1/orientation"
    assert post(url, body={"rotate": 90})[0] == 403
    assert post(url, "guess", {"rotate": 90})[0] == 403
    assert asked == []
    status, state = post(url, "s3cret", {"rotate": 90})
    assert status == 202 and asked == [90]
    assert state["orientable"] is True  # the recording turns it, then the state says so


@pytest.mark.parametrize("body, message", [
    ({"rotate": 45}, "rotate must be one of 0, 90, 180, 270"),
    ({"rotate": "90"}, 'needs {"rotate": 0|90|180|270}'),
    (None, 'needs {"rotate": 0|90|180|270}'),
])
def test_only_quarter_turns(turned: tuple[DisplayServer, list[int]],
                            body: dict[str, object] | None, message: str) -> None:
    server, asked = turned
    status, reply = post(server.url + "api/v1/boards/1/orientation", "s3cret", body)
    assert status == 400 and message in reply["error"] and asked == []


def test_a_board_that_follows_a_record_has_no_orientation_and_no_camera(
        turned: tuple[DisplayServer, list[int]]) -> None:
    server, _ = turned
    status, reply = post(server.url + "api/v1/boards/record/orientation", "s3cret", {"rotate": 90})
    assert status == 409 and "no orientation" in reply["error"]
    status, _, body = get(server.url + "api/v1/boards/record/camera.jpg")
    assert status == 404 and b"has no camera" in body
    state = json.loads(get(server.url + "api/v1/boards/record")[2])
    assert (state["orientation"], state["orientable"], state["camera"]) == (0, False, None)


def test_the_calibration_page_is_served(turned: tuple[DisplayServer, list[int]]) -> None:
    server, _ = turned
    status, ctype, body = get(server.url + "calibrate?board=1")
    assert status == 200 and ctype.startswith("text/html") and b"/static/calibrate.js" in body
    assert get(server.url + "static/calibrate.js")[0] == 200
    state = json.loads(get(server.url + "api/v1/boards/1")[2])
    assert state["orientation"] == 0 and state["camera"] == "/api/v1/boards/1/camera.jpg"


def test_the_latest_frame_is_served_as_jpeg_with_the_grid_drawn(
        turned: tuple[DisplayServer, list[int]]) -> None:
    server, _ = turned
    url = server.url + "api/v1/boards/1/camera.jpg"
    status, _, body = get(url)
    assert status == 404 and b"no frame from the camera yet" in body
    picture = board_picture(BLACK_C3)
    camera = server.boards["1"].camera
    assert camera is not None
    camera.show(picture, 2.0, vision.read_board(picture, 9))
    status, ctype, body = get(url)
    assert (status, ctype) == (200, "image/jpeg")
    served = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    assert served.shape == picture.shape  # 960 wide: served as it is, with the drawing
    assert np.abs(served.astype(int) - picture.astype(int)).mean() > 1.0
    status_json = json.loads(get(server.url + "api/v1/boards/1/camera")[2])
    assert status_json["found"] is True and status_json["size"] == 9
    assert status_json["frame"] == 1 and status_json["reason"] is None


def test_a_recording_says_why_no_board_is_found_and_shows_the_bare_frame(
        tmp_path: Path) -> None:
    picture = cloth()
    with pytest.raises(vision.BoardNotFound) as caught:
        vision.read_board(picture, 9)
    rec = Recording(tmp_path / "game.sgf", picture)
    try:
        eventually(lambda: rec.camera_status()["frame"] is not None)
        status = rec.camera_status()
        assert status["found"] is False and status["reason"] == caught.value.reason
        code, ctype, body = get(rec.api + "/camera.jpg")
        assert (code, ctype) == (200, "image/jpeg")
        served = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
        assert served.shape == picture.shape
        assert np.abs(served.astype(int) - picture.astype(int)).mean() < 3.0  # JPEG only
    finally:
        rec.stop()


def test_a_recording_shows_what_its_watcher_saw_without_reading_every_frame_again(
        tmp_path: Path) -> None:
    picture = board_picture(BLACK_C3)
    rec = Recording(tmp_path / "game.sgf", picture)
    try:
        eventually(lambda: (rec.camera_status()["frame"] or 0) >= 12)
        shown = rec.view.latest
        assert shown is not None and shown.reading is not None
        assert shown.reading.rows() == BLACK_C3
        fit = rec.watcher.fit
        assert fit is not None and np.array_equal(shown.reading.homography, fit.homography)
        status = rec.camera_status()
        assert status["found"] is True and status["size"] == 9
        assert status["confidence"] == round(fit.confidence, 3)
        # Located once; the stones read in full only at the start and every refresh.
        assert rec.watcher.located == 1 and rec.watcher.reads < shown.number / 2
    finally:
        rec.stop()


def test_turning_from_the_page_turns_the_recording_and_its_record(tmp_path: Path) -> None:
    """Black's stone shows at C3 of the picture; the operator says Black sits at the
    picture's right: the recording turns the game (C3 becomes C7), the SGF on disk with
    it, and the state says so."""
    rec = Recording(tmp_path / "game.sgf", board_picture(BLACK_C3))
    try:
        eventually(lambda: rec.state()["number"] == 1)
        assert [m.gtp() for m in load(rec.out).moves] == ["B C3"]
        status, _ = post(rec.api + "/orientation", rec.server.token, {"rotate": 90})
        assert status == 202
        eventually(lambda: rec.state()["orientation"] == 90)
        state = rec.state()
        assert state["last_move"] == "C7" and state["rows"][2] == "..X......"
        assert state["announcements"][0]["text"] == (
            "Orientation now 90°: the move so far turned a quarter clockwise to match")
        assert [m.gtp() for m in load(rec.out).moves] == ["B C7"]
        # The readings, turned as well from now on, match the turned game: nothing to say.
        frame = rec.camera_status()["frame"]
        eventually(lambda: rec.camera_status()["frame"] >= frame + 3)
        after = rec.state()
        assert after["number"] == 1 and after["announcements"][0]["kind"] == "orientation"
    finally:
        rec.stop()
